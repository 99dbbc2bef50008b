/* SPDX-License-Identifier: MIT */
/* Counting one batch of events on many targets at once: tasks (attached threads, a launched command) or CPUs
 * (system-wide, -C). One counter per (target, event); a target's hardware events form one group per core PMU. Every
 * open goes through perf/open.h. No printing here. */
#ifndef PMC_RUN_SCOPE_H
#define PMC_RUN_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "run/measure.h"

enum pmc_scope_flags {
	PMC_SCOPE_INHERIT = 1u << 0,        /* task targets: children and threads created later count with them */
	PMC_SCOPE_DISABLED = 1u << 1,       /* open stopped; pmc_scope_enable starts them */
	PMC_SCOPE_ENABLE_ON_EXEC = 1u << 2, /* with DISABLED: the target's exec starts them (a held launched command) */
	PMC_SCOPE_INHERIT_STAT = 1u << 3,   /* with INHERIT: each inherited task's own count is written, as it exits,
					       to a buffer (run/threads.h); records carry the event's id */
};

struct pmc_scope {
	const struct pmc_measure_req *req;
	const struct pmc_target *targets;
	size_t ntargets;
	int *fds;                 /* ntargets x req->n, [t * n + i]; -1 when not open */
	struct pmc_count *counts; /* ntargets x req->n: the open's status (NOT_SUPPORTED and err), then the last read */
	unsigned char *skip;      /* ntargets x req->n, set by the caller before opening: 1 = this event does not count
				     on this target (an uncore PMU's cpumask names another CPU); left NOT_COUNTED */
	unsigned char *defer;     /* req->n, set by the caller before opening: 1 = not opened now (pmc_scope_reopen
				     opens it later): a breakpoint takes its debug register when it is opened, even
				     stopped, so breakpoints of batches that take turns are opened on their turn */
};

/* Allocate for req on targets (both must outlive s). 0 or -ENOMEM. */
int pmc_scope_init(struct pmc_scope *s, const struct pmc_measure_req *req, const struct pmc_target *targets,
		   size_t ntargets);
/* Open every (target, event) not skipped. 0; 1 when the kernel refused a group (out: the batch must be split, see
 * pmc_measure_out.group_err*; every counter is closed again); -errno on a system failure. A refused single open is
 * not an error: its count says NOT_SUPPORTED with the errno. */
int pmc_scope_open(struct pmc_scope *s, unsigned flags, int *group_err_index);
/* Start or stop counting: every counter when events is NULL, else only events with events[i] true. */
void pmc_scope_enable(struct pmc_scope *s, bool on, const bool *events);
/* Read every open counter into counts (status OK or NOT_COUNTED; the open flags kept). */
void pmc_scope_read(struct pmc_scope *s);
/* How many opens the kernel refused with err on task targets (EACCES/EPERM: ptrace access; ESRCH: gone). */
size_t pmc_scope_count_err(const struct pmc_scope *s, int err);
/* Close event i on every target (its last read stays in counts). */
void pmc_scope_close_event(struct pmc_scope *s, size_t i);
/* Open event i alone on every target (not skipped), with flags as pmc_scope_open's. */
void pmc_scope_reopen_event(struct pmc_scope *s, size_t i, unsigned flags);
/* Close and free everything. Accepts a zeroed s. */
void pmc_scope_fini(struct pmc_scope *s);

#endif
