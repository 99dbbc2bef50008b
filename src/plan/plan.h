/* SPDX-License-Identifier: MIT */
/* Packing events into batches that fit the counters. Pure functions: no syscalls, no printing. */
#ifndef PMC_PLAN_H
#define PMC_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu/event.h"

struct pmc_plan_opts {
	unsigned gp_budget;     /* programmable counters available to one batch (>= 1) */
	unsigned fixed_slots;   /* fixed counters (Intel: 3; 0 where there are none) */
	unsigned bp_budget;     /* debug registers for breakpoints (PMC_BREAKPOINT_SLOTS) */
	bool multiplex;         /* one batch with everything: the kernel time-slices (scaled counts) */
};

struct pmc_batch {
	size_t *events; /* indices into the event array: this batch's own events, in the order given */
	size_t n;
};

struct pmc_plan {
	struct pmc_batch *batches;
	size_t nbatches;
	size_t *every;  /* indices of events counted in every batch (free events, anchors, fixed events) */
	size_t nevery;
	bool *in_every; /* per event: true when it is in 'every' */
	size_t nevents;
};

/* How an event is placed: free/fixed events go in every batch, the rest take a slot of their class.
 * A fixed event whose fixed counter is already taken (two events wanting fixed counter 0) is planned as GP. */
enum pmc_slot { PMC_SLOT_EVERY, PMC_SLOT_GP, PMC_SLOT_BP };

/* Plan n events. 0, -EINVAL (budget 0), -ENOMEM. On failure *ret is left untouched. */
int pmc_plan_build(const struct pmc_event *evs, size_t n, const struct pmc_plan_opts *o, struct pmc_plan *ret);

/* The kernel rejected batch b at its member 'at' (EINVAL: the group can never fit): move members [at, n) into a new
 * batch right after b. 0, -EINVAL when at is 0 or out of range (nothing to split), -ENOMEM. */
int pmc_plan_split(struct pmc_plan *p, size_t b, size_t at);

/* GP slots an event set takes in one batch (anchors that are not fixed cost GP slots on CPUs without fixed counters). */
unsigned pmc_plan_gp_cost(const struct pmc_event *ev, unsigned fixed_slots);

void pmc_plan_fini(struct pmc_plan *p);

#endif
