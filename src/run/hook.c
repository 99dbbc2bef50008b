/* SPDX-License-Identifier: MIT */
/* --pre / --post (perf stat's): a shell command run to its end around each run of the measured command. */
#include "run/hook.h"

#include <errno.h>
#include <sys/wait.h>

#include "run/launch.h"

int pmc_run_hook(const char *cmd, volatile sig_atomic_t *child, int *status)
{
	char *const argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	struct pmc_launch l;
	struct pmc_launch_error err = { 0 };
	int w;

	if (pmc_launch_start(argv, child, -1, &l, &err) < 0)
		return -err.err;
	if (pmc_launch_go(&l, &err) == 0)
		pmc_launch_reap(&l, true, &err); /* bounded once pmctool is signalled (pmc_launch_end_tree) */
	w = l.status;
	if (pmc_launch_finish(&l, &err) < 0)
		return err.what == PMC_LAUNCH_EXEC ? -err.err : -(err.err ? err.err : EINTR);
	*status = WIFEXITED(w) ? WEXITSTATUS(w) : WIFSIGNALED(w) ? 128 + WTERMSIG(w) : 1;
	return 0;
}
