/* SPDX-License-Identifier: MIT */
/* Measuring one batch of events over one run of a workload: a command (launch.c) or a built-in kernel (kernels/). */
#ifndef PMC_RUN_MEASURE_H
#define PMC_RUN_MEASURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

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
};

/* How the shared open path may treat ev (perf/open.h): the msr PMU refuses every exclude bit; an event no counter can
 * count (PMC_EVF_ABSENT: the kernel would refuse it, or count nothing) is not opened. */
static inline unsigned pmc_event_open_opts(const struct pmc_event *ev)
{
	return ((ev->flags & PMC_EVF_TSC) ? PMC_OPEN_NO_EXCLUDE : 0) |
	       ((ev->flags & PMC_EVF_ABSENT) ? PMC_OPEN_NO_COUNTER : 0);
}

#endif
