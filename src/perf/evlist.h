/* SPDX-License-Identifier: MIT */
/* The counter set (libperf's evsel/evlist shape): one batch of events counted on many targets at once, tasks (an
 * attached thread, a launched command) or CPUs (system-wide, -C). One counter per (target, event); the group rule is
 * written once: with PMC_EVL_GROUP a target's hardware events form one group per core PMU (ev->core_pmu, so a hybrid
 * CPU's kernel never sees cpu_core and cpu_atom events in one group), the others stand alone. Every open goes through
 * perf/open.h's paranoid fallback. No printing here. */
#ifndef PMC_PERF_EVLIST_H
#define PMC_PERF_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "perf/open.h"
#include "perf/perf.h"
#include "pmu/event.h"

/* A task (pid > 0, or 0 for this thread; cpu -1) or a CPU (pid -1, cpu >= 0). */
struct pmc_target {
	pid_t pid;
	int cpu;
	bool cgroup;    /* pid is a cgroup directory's descriptor: the tasks of that cgroup on cpu (PERF_FLAG_PID_CGROUP) */
};

enum pmc_evlist_flags {
	PMC_EVL_GROUP = 1u << 0,          /* hardware events in one group per core PMU per target (else each alone) */
	PMC_EVL_INHERIT = 1u << 1,        /* task targets: children and threads created later count with them */
	PMC_EVL_INHERIT_STAT = 1u << 2,   /* with INHERIT: each inherited task's own count is written, as it exits, to
					     a buffer (perf/ring.h); records carry the event's id */
	PMC_EVL_DISABLED = 1u << 3,       /* leaders (and events alone) open stopped; pmc_evlist_enable starts them */
	PMC_EVL_ENABLE_ON_EXEC = 1u << 4, /* with DISABLED: the target's exec starts them (a launched command) */
	PMC_EVL_CPU_WIDE = 1u << 5,       /* an event with ev->cpu_wide counts its CPU ev->cpu, not the task target:
					     opened alone, stopped, without inherit (enable it around the workload) */
	PMC_EVL_SELFREAD = 1u << 6,       /* the architecture's user-read bits (pmc_arch_selfread_attr) and each
					     counter's perf page mapped (pmc_evlist_selfread): read in process */
};

struct pmc_evlist_opts {
	unsigned flags;            /* enum pmc_evlist_flags */
	pmc_perf_open_fn open;     /* the raw open under the fallback; NULL: the kernel (tests inject their own) */
	struct pmc_count *counts;  /* targets x events, [t * n + i]: the caller's array to fill (NULL: the set's own) */
};

/* Why a batch must be split. */
struct pmc_evlist_fail {
	size_t index;    /* the event (index in the batch) whose open the kernel refused in its group */
	int err;         /* EINVAL */
	bool never_ran;  /* pmc_evlist_never_ran: accepted, but the group never ran */
};

#define PMC_EVL_SPLIT 1

struct pmc_evlist;

/* A set for evs[0..n) on targets[0..ntargets) (both must outlive it). 0 or -ENOMEM. */
int pmc_evlist_new(const struct pmc_event *const *evs, size_t n, const struct pmc_target *targets, size_t ntargets,
		   const struct pmc_evlist_opts *o, struct pmc_evlist **ret);
/* Before opening: event ev does not count on target t (an uncore PMU's cpumask names another CPU): left
 * NOT_COUNTED. */
void pmc_evlist_skip(struct pmc_evlist *el, size_t t, size_t ev);
bool pmc_evlist_skipped(const struct pmc_evlist *el, size_t t, size_t ev);
/* Before opening: event ev is not opened now (NOT_RUN; pmc_evlist_reopen_event opens it later): a breakpoint takes its
 * debug register when it is opened, even stopped, so breakpoints of batches that take turns open on their turn. */
void pmc_evlist_defer(struct pmc_evlist *el, size_t ev);
/*
 * Open every (target, event) not skipped nor deferred, target by target, events in order. An event the kernel refuses
 * in its group (EINVAL) is tried alone: accepted alone, the combination is at fault: every counter is closed again
 * and PMC_EVL_SPLIT (1) is returned with ret_fail (the caller splits the batch); refused alone too, the encoding is,
 * and the event is NOT_SUPPORTED like any refused single open (its errno and count flags in its count). 0, or 1.
 */
int pmc_evlist_open(struct pmc_evlist *el, struct pmc_evlist_fail *ret_fail);
/* Start or stop counting: every counter when which is NULL, else only events with which[i] true. With cpu_wide
 * true, only the events counting their own CPU (PMC_EVL_CPU_WIDE); the task counters follow exec and exit. */
void pmc_evlist_enable(struct pmc_evlist *el, const bool *which);
void pmc_evlist_disable(struct pmc_evlist *el, const bool *which);
void pmc_evlist_toggle_cpu_wide(struct pmc_evlist *el, bool on);
/* Read every open counter into the counts (status OK or NOT_COUNTED, the open's flags kept; a failed read is
 * NOT_COUNTED with its errno). */
void pmc_evlist_read(struct pmc_evlist *el);
/* The counts, targets x events ([t * n + i]): each open's status (NOT_SUPPORTED and err), then the last read. */
struct pmc_count *pmc_evlist_counts(const struct pmc_evlist *el);
/* Whether a group the kernel accepted never ran on a target (PMC_EVL_GROUP, counts read): two or more hardware
 * members opened, time enabled, none ran: the kernel could not schedule them together (more than the PMU holds, or
 * a counter taken), so the batch must be split. ret_fail (may be NULL) gets never_ran. */
bool pmc_evlist_never_ran(const struct pmc_evlist *el, struct pmc_evlist_fail *ret_fail);
/* How many opens the kernel refused with err (EACCES/EPERM: ptrace access; ESRCH: gone). */
size_t pmc_evlist_count_err(const struct pmc_evlist *el, int err);
/* Close event ev on every target (its last read stays in the counts). */
void pmc_evlist_close_event(struct pmc_evlist *el, size_t ev);
/* Open event ev alone on every target (not skipped) where it is not open, with flags (enum pmc_evlist_flags) in
 * place of the set's (a rotation reopens a breakpoint stopped or running, as the counting is). */
void pmc_evlist_reopen_event(struct pmc_evlist *el, size_t ev, unsigned flags);
/* With PMC_EVL_SELFREAD: the mapped page of (target t, event ev), NULL when it is not open or its page could not be
 * mapped (read() still works). The set unmaps it when the counter is closed. */
struct pmc_selfread;
struct pmc_selfread *pmc_evlist_selfread(const struct pmc_evlist *el, size_t t, size_t ev);
/* Target t's descriptors, one per event (-1: not open), for perf/ring.c and the side-band records. */
const int *pmc_evlist_fds(const struct pmc_evlist *el, size_t t);
size_t pmc_evlist_nevents(const struct pmc_evlist *el);
const struct pmc_event *pmc_evlist_event(const struct pmc_evlist *el, size_t ev);
/* Close every counter (after every read: a read after the first close would lose counts a group shares). */
void pmc_evlist_close(struct pmc_evlist *el);
/* Close and free. Accepts NULL. */
void pmc_evlist_delete(struct pmc_evlist *el);

/* How the shared open path may treat ev (perf/open.h): the msr PMU refuses every exclude bit; an event no counter can
 * count (PMC_EVF_ABSENT: the kernel would refuse it, or count nothing) is not opened. */
static inline unsigned pmc_event_open_opts(const struct pmc_event *ev)
{
	return ((ev->flags & PMC_EVF_TSC) ? PMC_OPEN_NO_EXCLUDE : 0) |
	       ((ev->flags & PMC_EVF_ABSENT) ? PMC_OPEN_NO_COUNTER : 0);
}

#endif
