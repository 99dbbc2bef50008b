/* SPDX-License-Identifier: MIT */
/*
 * pmctool_engine_stop from a signal handler (include/pmctool_engine.h): a measurement of `sleep 29.71` stopped after
 * 200 ms by SIGALRM must return PMCTOOL_ERR_STOPPED within a second or two, with a result that holds what was
 * counted (task-clock counted, the run's time short), and leave no process behind (the sleep is reaped: waitpid
 * finds no child). Prints "stopped after S s: kind K, task-clock N" and exits 0 when all holds.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

#include "pmctool_engine.h"

static struct pmctool_engine *eng;

static void on_alarm(int sig)
{
	(void)sig;
	pmctool_engine_stop(eng, SIGINT);
}

int main(void)
{
	const char *cmd[] = { "sleep", "29.71", NULL }; /* an argument no other test uses: the shell test looks for it */
	struct pmctool_request rq = { .argv = cmd, .events = "task-clock" };
	struct itimerval it = { { 0, 0 }, { 0, 200000 } };
	struct sigaction sa = { .sa_handler = on_alarm };
	struct pmctool_result *r = NULL;
	struct pmctool_error err;
	struct timespec t0, t1;
	double secs;
	int kind, ok;

	eng = pmctool_engine_new();
	if (!eng || sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	kind = pmctool_measure(eng, &rq, &r, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("stopped after %.2f s: kind %d (%s), exit status %d, result %s", secs, kind, err.detail, err.exit_status,
	       r ? "yes" : "no");
	ok = kind == PMCTOOL_ERR_STOPPED && secs < 10 && r && r->ncounts == 1 && r->counts[0].status == PMCTOOL_COUNTED;
	if (r)
		printf(", task-clock %.0f (%s)", r->counts[0].value, r->counts[0].reason);
	printf("\n");
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD) {
		printf("a child is left\n");
		ok = 0;
	}
	pmctool_result_free(r);
	pmctool_engine_free(eng);
	return ok ? 0 : 1;
}
