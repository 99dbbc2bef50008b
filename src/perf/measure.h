/* SPDX-License-Identifier: MIT */
/* One batch of events measured over one execution of a workload, whoever runs it: a command (engine/exec_cmd.c)
 * or a built-in kernel (kernels/). The counter-set layer owns it, so kernels/ and the engine share it without
 * borrowing run/'s. */
#ifndef PMC_PERF_MEASURE_H
#define PMC_PERF_MEASURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "perf/evlist.h"
#include "perf/open.h"
#include "perf/perf.h"
#include "pmu/event.h"

struct pmc_measure_req {
	const struct pmc_event *const *events; /* the batch, n entries */
	size_t n;
	bool group; /* open the batch's hardware events as one group (rerun mode); false: each alone (multiplex) */
	bool keep_fd_set; /* a command inherits keep_fd (pmctool's descriptors are close-on-exec otherwise) */
	int keep_fd;
	bool skip_unsupported; /* when none of the batch's own events [first_own, n) opens, do not run the command */
	bool no_inherit;       /* -i: the command's own task only, not the tasks it starts (perf's --no-inherit) */
	size_t first_own;      /* events before it are every-batch events (anchors, free events) */
	volatile sig_atomic_t *child; /* the command's pid while it runs, 0 after (the caller's signal handler); NULL */
};

struct pmc_measure_out {
	struct pmc_count *counts; /* caller-provided, n entries, filled in the order of req->events */
	uint64_t wall_ns;         /* wall time of the workload */
	struct rusage ru;         /* of the workload (command: wait4; kernel: the measured thread, RUSAGE_THREAD delta) */
	int wait_status;          /* command: status from wait4; kernel: 0 */
	bool interrupted;         /* SIGINT/SIGTERM arrived during the run: counts are partial */
	bool skipped;             /* req->skip_unsupported and none of the own events opened: the command was not
				     run (it never reached exec), the own events' counts say why; nothing else counted */
	int group_err;            /* rerun mode: errno of a group open the kernel rejected (EINVAL: the batch must be
				     split by the planner), 0 otherwise */
	int group_err_index;      /* index in req->events of the member whose open failed with group_err */
	bool never_ran;           /* req->group: the kernel accepted the group but never ran it (pmc_evlist_never_ran,
				     asked of the live set that was read, before it was closed): the engine splits it */
};

#endif
