/* SPDX-License-Identifier: MIT */
/* Events kept open, disabled, for a whole measurement: the last close of a tracepoint or of a static-key software
 * event makes the kernel unregister its probe or patch its static key and wait for every CPU (tens of ms in a VM);
 * with one copy held open, the per-run and per-batch copies open and close without it. */
#ifndef PMC_PERF_KEEP_H
#define PMC_PERF_KEEP_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "pmu/event.h"

struct pmc_keep {
	int *fds;
	size_t n;
};

/* Whether closing the last event like a costs the kernel a synchronization: tracepoints, and the software events
 * behind a static key (all but cpu-clock, task-clock, dummy and bpf-output). */
bool pmc_keep_wanted(const struct perf_event_attr *a);

/* Open one disabled copy on pmctool itself (no inherit, never enabled: it counts nothing) of each distinct wanted
 * event among evs, at most max of them (the descriptors the runs do not need), through the shared open path (noted
 * "kept open" for -v). A copy the kernel refuses, or one over max, is not kept: the runs then pay its close, nothing
 * else changes. Returns the number kept; k->fds NULL when none. */
size_t pmc_keep_open(struct pmc_keep *k, const struct pmc_event *evs, size_t n, size_t max);

/* Close them (the one synchronization each, paid once). Accepts a zeroed k. */
void pmc_keep_close(struct pmc_keep *k);

#endif
