/* pcount: the rig's own yardstick, independent of pmctool. Counts the user-mode instructions (and, with -c, cycles)
 * of COMMAND with a bare perf_event_open (enable_on_exec, exclude_kernel) and prints
 *   instructions N running_ns R [cycles N]
 * so the rig can check its guest before trusting anything pmctool says there.
 *   pcount [-c] COMMAND [ARGS...]     exit: 0, 1 when counting failed, the command's failure otherwise
 *   pcount -k COMMAND [ARGS...]       user- and kernel-mode instructions ('kernel N') of COMMAND and of every
 *                                     task it starts (inherited): what a command costs the machine in all
 *   pcount -a COMMAND [ARGS...]       counts user-mode instructions per CPU (every process, root only) while
 *                                     COMMAND runs and prints 'cpu0 N cpu1 N ...': where did the work run? */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* -k: every task the command starts is counted too. */
static int inherit_all;

/* A user-mode (kernel: kernel-mode) counter of pid on cpu (-1: any); a leader (group -1) with on_exec starts
 * disabled, enabled by exec. */
static int open_mode(pid_t pid, int cpu, uint64_t config, int group, int on_exec, int kernel)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.inherit = inherit_all;
	a.size = sizeof a;
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.exclude_kernel = !kernel;
	a.exclude_user = kernel;
	a.exclude_hv = 1;
	a.disabled = on_exec;
	a.enable_on_exec = on_exec;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, group, 0);
}

static int open_counter(pid_t pid, int cpu, uint64_t config, int group, int on_exec)
{
	return open_mode(pid, cpu, config, group, on_exec, 0);
}

/* -a: one user-mode instructions counter per CPU, for every process, counting from now until COMMAND exits. */
static int per_cpu(char **cmd)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fd[64], status;
	uint64_t v[3];
	pid_t pid;

	if (ncpu < 1 || ncpu > 64)
		return 1;
	for (long c = 0; c < ncpu; c++) {
		fd[c] = open_counter(-1, (int)c, PERF_COUNT_HW_INSTRUCTIONS, -1, 0);
		if (fd[c] < 0) {
			fprintf(stderr, "pcount: perf_event_open on CPU %ld: %s\n", c, strerror(errno));
			return 1;
		}
	}
	pid = fork();
	if (pid == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	for (long c = 0; c < ncpu; c++) {
		if (read(fd[c], v, sizeof v) != sizeof v)
			return 1;
		printf("%scpu%ld %llu", c ? " " : "", c, (unsigned long long)v[0]);
	}
	printf("\n");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	int cycles = argc > 1 && strcmp(argv[1], "-c") == 0, kernel = argc > 1 && strcmp(argv[1], "-k") == 0;
	int go[2], status, fi, fc = -1;
	uint64_t vi[3], vc[3];
	char c;
	pid_t pid;

	if (argc > 2 && strcmp(argv[1], "-a") == 0)
		return per_cpu(argv + 2);
	if (argc < 2 + cycles + kernel) {
		fprintf(stderr, "usage: pcount [-c|-k|-a] COMMAND [ARGS...]\n");
		return 2;
	}
	cycles += kernel; /* the option's place in argv; the second counter is the kernel's */
	inherit_all = kernel;
	if (pipe(go) != 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(argv[1 + cycles], argv + 1 + cycles);
		_exit(127);
	}
	fi = open_counter(pid, -1, PERF_COUNT_HW_INSTRUCTIONS, -1, 1);
	if (fi >= 0 && cycles)
		fc = open_mode(pid, -1, kernel ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES, fi, 0, kernel);
	if (fi < 0 || (cycles && fc < 0))
		fprintf(stderr, "pcount: perf_event_open: %s\n", strerror(errno));
	if (write(go[1], "g", 1) != 1)
		return 1;
	close(go[1]);
	waitpid(pid, &status, 0);
	if (fi < 0 || read(fi, vi, sizeof vi) != sizeof vi || (cycles && (fc < 0 || read(fc, vc, sizeof vc) != sizeof vc)))
		return 1;
	printf("instructions %llu running_ns %llu", (unsigned long long)vi[0], (unsigned long long)vi[2]);
	if (cycles)
		printf(" %s %llu", kernel ? "kernel" : "cycles", (unsigned long long)vc[0]);
	printf("\n");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
