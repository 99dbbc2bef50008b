/* SPDX-License-Identifier: MIT */
/*
 * pmctool_engine_stop from a signal handler (include/pmctool_engine.h): a measurement of `sleep 29.71` stopped after
 * 200 ms by SIGALRM must return PMCTOOL_ERR_STOPPED within a second or two, with a result that holds what was
 * counted (task-clock counted, the run's time short), and leave no process of its own behind. The caller's own
 * children are not the engine's: one that exited during the measurement is still there for the caller's waitpid
 * with its status (3), one still running is neither signalled nor reaped, and the process is no subreaper after.
 * A second measurement after the stop runs normally. Prints what it saw; exits 0 when all holds.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

	pid_t quick, slow;
	int st = 0, sub = -1;
	struct pmctool_request again = { .argv = (const char *const[]){ "true", NULL }, .events = "task-clock" };

	quick = fork(); /* the caller's own children: one exits at once with 3, one runs on */
	if (quick == 0)
		_exit(3);
	slow = fork();
	if (slow == 0) {
		pause();
		_exit(0);
	}
	eng = pmctool_engine_new();
	if (!eng || quick < 0 || slow < 0 || sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	kind = pmctool_measure(eng, &rq, &r, &err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("stopped after %.2f s: kind %d (%s), exit status %d, result %s", secs, kind, err.detail, err.exit_status,
	       r ? "yes" : "no");
	ok = kind == PMCTOOL_ERR_STOPPED && secs < 10 && r && r->ncounts == 1 && r->counts[0].status == PMCTOOL_COUNTED &&
	     strstr(err.detail, "stopped by signal 2 after") && !strcmp(r->counts[0].unit, "ns");
	if (r)
		printf(", task-clock %.0f (%s)", r->counts[0].value, r->counts[0].reason);
	printf("\n");
	if (kill(slow, 0) != 0) {
		printf("the caller's running child was ended\n");
		ok = 0;
	}
	kill(slow, SIGKILL);
	waitpid(slow, NULL, 0);
	if (waitpid(quick, &st, 0) != quick || !WIFEXITED(st) || WEXITSTATUS(st) != 3) {
		printf("the caller's exited child was reaped by the engine (or lost its status)\n");
		ok = 0;
	}
	if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD) {
		printf("a child is left\n");
		ok = 0;
	}
	if (prctl(PR_GET_CHILD_SUBREAPER, &sub) != 0 || sub != 0) {
		printf("the process is left a subreaper (%d)\n", sub);
		ok = 0;
	}
	pmctool_result_free(r);
	r = NULL;
	kind = pmctool_measure(eng, &again, &r, &err);
	printf("after the stop: kind %d, %s\n", kind, r && r->runs == 1 ? "one run" : "no run");
	ok &= kind == 0 && r && r->runs == 1;
	pmctool_result_free(r);
	pmctool_engine_free(eng);
	return ok ? 0 : 1;
}
