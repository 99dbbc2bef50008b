/* SPDX-License-Identifier: MIT */
/* A workload with known behaviour for the integration tests: what it does is what the tests count.
 *   pages N          touch N fresh pages (at least N page faults)
 *   fork N           a child process touches N pages (counted only if children are inherited)
 *   threads N        a second thread touches N pages (counted only if threads are inherited)
 *   spin MS          burn MS milliseconds of CPU time in user mode
 *   calls N          call bump() N times (a breakpoint on bump counts exactly N)
 *   exit CODE        exit with CODE
 *   wait-pages N     wait for SIGUSR1 (a test attaches first), then touch N pages
 *   wait-threads N   start two threads; on SIGUSR1 each of the three touches N pages, then all exit
 *   ctl-calls DIR    call bump() 100 times, write 'enable' to the FIFO DIR/ctl and wait for 'ack' on DIR/ack,
 *                    call it 1000 times, write 'disable' and wait for 'ack', call it 10 times (--control's test)
 *   thread-calls K   --per-thread's test: thread k (1..K, named calls-k) calls bump() 1000*(k+1) times; thread 1 ends
 *                    before the others start; then the first thread calls it 1000 times
 *   fork-calls N     a child process calls bump() 2*N times, then the parent N times
 *   many-tasks N     tasks k = 1..N all at once, odd k a thread named mt-k, even k a child process named mc-k, each
 *                    calling bump() k times; the first thread calls it 7 times (--per-thread with hundreds of tasks)
 * Built without PIE so that bump's address (nm) is its run-time address. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile uint64_t pmc_workload_sink;

void bump(void);

__attribute__((noinline, used)) void bump(void)
{
	pmc_workload_sink++;
	__asm__ volatile("" ::: "memory");
}

static void touch_pages(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (long i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap(p, (size_t)(n * pg));
}

static void *thread_main(void *arg)
{
	touch_pages((long)(intptr_t)arg);
	return NULL;
}

static void *calls_thread(void *arg)
{
	long k = (long)(intptr_t)arg;
	char name[16];

	snprintf(name, sizeof(name), "calls-%ld", k);
	pthread_setname_np(pthread_self(), name);
	for (long i = 0; i < 1000 * (k + 1); i++)
		bump();
	return NULL;
}

static int thread_calls(long k)
{
	pthread_t t[64];

	if (k < 1 || k > 64)
		return 2;
	if (pthread_create(&t[0], NULL, calls_thread, (void *)(intptr_t)1) || pthread_join(t[0], NULL))
		return 1;
	for (long i = 1; i < k; i++)
		if (pthread_create(&t[i], NULL, calls_thread, (void *)(intptr_t)(i + 1)))
			return 1;
	for (long i = 1; i < k; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 1000; i++)
		bump();
	return 0;
}

static void calls_named(long k, const char *prefix)
{
	char name[16];

	snprintf(name, sizeof(name), "%s-%ld", prefix, k);
	prctl(PR_SET_NAME, name);
	for (long i = 0; i < k; i++)
		bump();
}

static void *many_thread(void *arg)
{
	calls_named((long)(intptr_t)arg, "mt");
	return NULL;
}

static int many_tasks(long n)
{
	pthread_t *t = calloc((size_t)n + 1, sizeof(*t));
	pid_t *c = calloc((size_t)n + 1, sizeof(*c));
	int st, rc = 0;

	if (!t || !c || n < 1 || n > 100000)
		return 2;
	for (long k = 1; k <= n; k++) {
		if (k % 2) {
			if (pthread_create(&t[k], NULL, many_thread, (void *)(intptr_t)k))
				return 1;
		} else if ((c[k] = fork()) == 0) {
			calls_named(k, "mc");
			_exit(0);
		} else if (c[k] < 0) {
			return 1;
		}
	}
	for (long k = 1; k <= n; k++) {
		if (k % 2)
			rc |= pthread_join(t[k], NULL) != 0;
		else
			rc |= waitpid(c[k], &st, 0) != c[k] || !WIFEXITED(st) || WEXITSTATUS(st);
	}
	for (int i = 0; i < 7; i++)
		bump();
	free(t);
	free(c);
	return rc;
}

static pthread_barrier_t go_barrier;

static void *waiting_thread(void *arg)
{
	pthread_barrier_wait(&go_barrier);
	touch_pages((long)(intptr_t)arg);
	return NULL;
}

/* SIGUSR1 blocked in every thread, taken by sigwait: no handler, no race with a signal sent early. */
static void wait_usr1(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigwait(&set, &sig);
}

static int wait_threads(long n)
{
	pthread_t t[2];

	pthread_barrier_init(&go_barrier, NULL, 3);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, waiting_thread, (void *)(intptr_t)n))
			return 1;
	wait_usr1();
	pthread_barrier_wait(&go_barrier);
	touch_pages(n);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/* Tell pmctool's --control FIFO a command and wait for its 'ack'. */
static int control(const char *dir, const char *cmd)
{
	char path[4096], buf[8];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/ctl", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return 1;
	close(fd);
	snprintf(path, sizeof(path), "%s/ack", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 1;
	n = read(fd, buf, 4);
	close(fd);
	return n == 4 && !memcmp(buf, "ack\n", 4) ? 0 : 1;
}

static int ctl_calls(const char *dir)
{
	for (int i = 0; i < 100; i++)
		bump();
	if (control(dir, "enable\n"))
		return 1;
	for (int i = 0; i < 1000; i++)
		bump();
	if (control(dir, "disable\n"))
		return 1;
	for (int i = 0; i < 10; i++)
		bump();
	return 0;
}

static void spin(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			pmc_workload_sink += (uint64_t)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 3) {
		fprintf(stderr, "usage: pmc-workload pages|fork|threads|spin|calls|exit|wait-pages|wait-threads|ctl-calls N\n");
		return 2;
	}
	n = strtol(argv[2], NULL, 0);
	if (!strncmp(argv[1], "wait-", 5)) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	}
	if (!strcmp(argv[1], "wait-pages")) {
		wait_usr1();
		touch_pages(n);
	} else if (!strcmp(argv[1], "wait-threads")) {
		return wait_threads(n);
	} else if (!strcmp(argv[1], "ctl-calls")) {
		return ctl_calls(argv[2]);
	} else if (!strcmp(argv[1], "thread-calls")) {
		return thread_calls(n);
	} else if (!strcmp(argv[1], "many-tasks")) {
		return many_tasks(n);
	} else if (!strcmp(argv[1], "fork-calls")) {
		pid_t pid = fork();
		int st;
		if (pid == 0) {
			for (long i = 0; i < 2 * n; i++)
				bump();
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			return 1;
		for (long i = 0; i < n; i++)
			bump();
	} else if (!strcmp(argv[1], "pages")) {
		touch_pages(n);
	} else if (!strcmp(argv[1], "fork")) {
		pid_t pid = fork();
		int st;
		if (pid == 0) {
			touch_pages(n);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			return 1;
	} else if (!strcmp(argv[1], "threads")) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, (void *)(intptr_t)n) || pthread_join(t, NULL))
			return 1;
	} else if (!strcmp(argv[1], "spin")) {
		spin(n);
	} else if (!strcmp(argv[1], "calls")) {
		for (long i = 0; i < n; i++)
			bump();
	} else if (!strcmp(argv[1], "exit")) {
		return (int)n;
	} else {
		fprintf(stderr, "pmc-workload: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
