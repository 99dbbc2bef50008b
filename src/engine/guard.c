/* SPDX-License-Identifier: MIT */
/* The engine: what must hold before anything runs: the user may count at all, and the open-file limit fits the
 * largest batch. Both are checked up front so a run never ends with every count <not supported>. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "info/privilege.h"
#include "run/launch.h"
#include "util/fdlimit.h"

/* stdin/out/err, the launcher's two pipes, the -o file, libpfm4 and libc's own: a margin above the counters. */
#define STAT_FD_MARGIN 32

static size_t largest_batch(const struct pmc_engine *se)
{
	size_t most = 0;

	for (size_t b = 0; b < se->plan.nbatches; b++)
		if (se->plan.batches[b].n > most)
			most = se->plan.batches[b].n;
	return se->plan.nevery + most;
}

int pmc_eng_guard(const struct pmc_engine *se)
{
	struct pmc_privilege priv;
	char msg[512];
	size_t need = largest_batch(se) + STAT_FD_MARGIN, limit = 0;
	int r;

	pmc_privilege_read(&priv);
	if (pmc_privilege_level(&priv) == PMC_PRIV_DENIED) {
		pmc_privilege_explain(&priv, EACCES, msg, sizeof(msg));
		pmc_diag_error("cannot count anything: %s", msg);
		return PMC_EXIT_NOCOUNT;
	}
	pmc_launch_keep_limits(); /* the workload gets the limit pmctool was given, not the raised one */
	r = pmc_fd_limit_ensure(need, &limit);
	if (r == -EMFILE) {
		pmc_diag_error("%zu events in one batch need %zu open files, but the limit is %zu and cannot be "
				"raised (the hard limit is lower): raise it (ulimit -n %zu) or give fewer events",
			largest_batch(se), need, limit, need);
		return PMC_EXIT_USAGE;
	}
	if (r < 0) {
		pmc_diag_error("cannot raise the open-file limit to %zu: %s; try ulimit -n %zu", need,
			strerror(-r), need);
		return PMC_EXIT_USAGE;
	}
	return 0;
}
