/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/fields.h"
#include "config.h"
#include "pmu/event.h"
#include "util/diag.h"
#include "util/fork.h"
#include "util/util.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: pmctool [--help] [--version] COMMAND [ARGS...]\n\n"
		   "Measure programs with the CPU's performance counters (Linux perf_event_open, libpfm4).\n\n"
		   "Commands:\n");
	for (const struct pmc_command *c = pmc_commands; c->name; c++)
		fprintf(f, "  %-9s %s\n", c->name, c->summary);
	fprintf(f, "\n'pmctool COMMAND --help' describes a command; man pmctool has the details and exit statuses.\n"
		   "Example: pmctool stat -e cycles,instructions -- ./prog args\n");
}

/* Whether stdout is a pipe or socket whose reader is gone (the error a write got was EPIPE). */
static bool stdout_reader_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

/* One rule for every command: what went to stdout must have arrived. A failed write is exit 4 with a message naming
 * stdout (once: not again when the command said so itself); a reader that went away (EPIPE: '| head') is exit 4 without one. SIGPIPE is ignored so that a closed pipe
 * becomes an EPIPE to report rather than a silent death. */
static int finish_stdout(int rc)
{
	int bad = ferror(stdout), err = 0;

	errno = 0;
	if (fflush(stdout))
		bad = 1;
	err = errno;
	if (!bad)
		return rc;
	if (rc == PMC_EXIT_OUTPUT || err == EPIPE || (err == 0 && stdout_reader_gone()))
		return PMC_EXIT_OUTPUT;
	fprintf(stderr, "pmctool: cannot write to stdout: %s\n", err ? strerror(err) : "write error");
	return PMC_EXIT_OUTPUT;
}

/* An unknown LIBPFM_FORCE_PMU is ignored by libpfm4 (it then detects nothing): an error in every command. Checked in
 * a child, because libpfm4 reads its variables once per process and a command may set LIBPFM_ENCODE_INACTIVE first. */
static int check_forced_pmu(const char *cmd)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	char err[512];
	ssize_t n = 0;
	int fd[2], st = 0;
	pid_t pid, parent = getpid();
	sigset_t old;

	if (!forced || !*forced || pipe(fd))
		return 0;
	pid = pmc_fork_blocked(&old); /* the child keeps every signal blocked: it only asks and exits */
	if (pid == 0) {
		int bad;

		pmc_fork_die_with_parent(parent, 0);
		close(fd[0]);
		bad = pmc_pmu_name_check(forced, err, sizeof(err)) == -ENOENT;
		if (bad)
			(void)!write(fd[1], err, strlen(err));
		_exit(bad);
	}
	pmc_fork_unblock(&old);
	close(fd[1]);
	if (pid > 0) {
		n = read(fd[0], err, sizeof(err) - 1);
		waitpid(pid, &st, 0);
	}
	close(fd[0]);
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 1 || n <= 0)
		return 0;
	err[n] = '\0';
	fprintf(stderr, "pmctool %s: LIBPFM_FORCE_PMU=%s: %s\n", cmd, forced, err);
	return -1;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return PMC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return PMC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pmctool %s\n", PMC_VERSION);
		return PMC_EXIT_OK;
	}
	for (const struct pmc_command *c = pmc_commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return check_forced_pmu(argv[1]) ? PMC_EXIT_USAGE : c->run(argc - 1, argv + 1);
	fprintf(stderr, "pmctool: '%s' is not a command; run 'pmctool --help' for the list\n", argv[1]);
	return PMC_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int rc;

	signal(SIGPIPE, SIG_IGN);
	pmc_diag_set_speller(pmc_cli_field_flag); /* the engine's messages name the command line's flags */
	rc = run(argc, argv);
	pmc_pmu_fini(); /* libpfm4 is process-wide (not reentrant): started by whoever needed it, ended once here */
	return finish_stdout(rc);
}
