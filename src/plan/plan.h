/* SPDX-License-Identifier: MIT */
/* Packing events into batches that fit the counters. Pure functions: no syscalls, no printing. */
#ifndef PMC_PLAN_H
#define PMC_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/event.h"

struct pmc_plan_opts {
	unsigned gp_budget;     /* programmable counters available to one batch (>= 1) */
	unsigned fixed_slots;   /* fixed counters (Intel: 3; 0 where there are none) */
	unsigned bp_budget;     /* debug registers for breakpoints (PMC_BREAKPOINT_SLOTS) */
	bool multiplex;         /* one batch with everything: the kernel time-slices (scaled counts) */
};

struct pmc_batch {
	size_t *events;     /* indices into the event array: this batch's own events, in the order given */
	size_t n;
	uint64_t fixed_own; /* bit i (8 x core PMU key + i on hybrid CPUs): fixed counter i is taken by one of this
			       batch's own events (a fixed-only encoding's second user), so the every-batch user of
			       counter i is left out of it */
	bool ungrouped;     /* the kernel refused this batch as a group and it could not be split: its events are
			       opened one by one (only this batch: grouping is never turned off for the others) */
	bool unsupported;   /* none of its own events opened in the first run: later runs skip it (stat) */
};

struct pmc_plan {
	struct pmc_batch *batches;
	size_t nbatches;
	size_t *every;  /* indices of events counted in every batch (free events, anchors, fixed events) */
	size_t nevery;
	bool *in_every; /* per event: true when it is in 'every' */
	size_t nevents;
};

/* How an event is placed: free/fixed events go in every batch, the rest take a slot of their class; an event the
 * core PMU does not have (PMC_EVF_ABSENT: ref-cycles on AMD) takes no counter and is tried in every batch.
 * A fixed event whose fixed counter is already taken (two events wanting fixed counter 0) is planned as GP, unless
 * its encoding fits only the fixed counter (pmc_plan_fixed_only): then it gets a batch whose counter is free
 * (PMC_SLOT_FIXED_OWN), never a GP slot, where the kernel would refuse it. An event on no counter of its own
 * (PMC_EVF_NO_COUNTER: a top-down PERF_METRICS field) costs nothing and goes with its group (PMC_SLOT_WITH_GROUP). */
enum pmc_slot { PMC_SLOT_EVERY, PMC_SLOT_GP, PMC_SLOT_BP, PMC_SLOT_FIXED_OWN, PMC_SLOT_WITH_GROUP };

/* The encoding fits only its fixed counter, one of fixed_slots (PMC_EVF_FIXED_ONLY, which the resolver sets through
 * the arch seam: ref-cycles, and Intel's pseudo-encodings 0x0300 and, from Ice Lake on, 0x0100-0x0800). */
bool pmc_plan_fixed_only(const struct pmc_event *ev, unsigned fixed_slots);

/* Event ev, counted in every batch, is measured in batch b (false when b's own event takes its fixed counter). */
bool pmc_plan_every_in_batch(const struct pmc_plan *p, size_t b, const struct pmc_event *ev);

/* Plan n events. 0, -EINVAL (budget 0), -ENOMEM. On failure *ret is left untouched. */
int pmc_plan_build(const struct pmc_event *evs, size_t n, const struct pmc_plan_opts *o, struct pmc_plan *ret);

/* Where perf group 'group' (pmc_event.group) is counted: the one batch holding its own members (SIZE_MAX when every
 * member is an every-batch event) into *ret_batch (may be NULL): 0; -E2BIG when its members are in two batches (a
 * group larger than a batch that was weak, or split on a refusal), so no ratio of two of them is from one group. A
 * group with an event that must lead (arch.h's PMC_GROUP_MUST_LEAD: x86's slots and its top-down metrics) must be
 * whole: its planner's caller refuses the plan otherwise and says so. */
int pmc_plan_group_batch(const struct pmc_plan *p, const struct pmc_event *evs, unsigned group, size_t *ret_batch);

/* The kernel rejected batch b at its member 'at' (EINVAL: the group can never fit): move members [at, n) into a new
 * batch right after b. Both halves keep b's fixed_own (conservative: the every-batch users of those fixed counters
 * stay out of both). 0, -EINVAL when at is 0 or out of range (nothing to split), -ENOMEM. */
int pmc_plan_split(struct pmc_plan *p, size_t b, size_t at);

/* GP slots an event set takes in one batch (anchors that are not fixed cost GP slots on CPUs without fixed counters). */
unsigned pmc_plan_gp_cost(const struct pmc_event *ev, unsigned fixed_slots);

void pmc_plan_fini(struct pmc_plan *p);

#endif
