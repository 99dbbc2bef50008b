/* SPDX-License-Identifier: MIT */
#include "plan/plan.h"
#include "pmu/hybrid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

unsigned pmc_plan_gp_cost(const struct pmc_event *ev, unsigned fixed_slots)
{
	if (ev->flags & (PMC_EVF_ABSENT | PMC_EVF_NO_COUNTER))
		return 0;
	if (ev->cls == PMC_CLASS_GP)
		return 1;
	if (ev->cls == PMC_CLASS_FIXED && (ev->fixed_index < 0 || (unsigned)ev->fixed_index >= fixed_slots))
		return 1;
	return 0;
}

bool pmc_plan_fixed_only(const struct pmc_event *ev, unsigned fixed_slots)
{
	return ev->cls == PMC_CLASS_FIXED && ev->fixed_index >= 0 && (unsigned)ev->fixed_index < fixed_slots &&
	       (ev->flags & PMC_EVF_FIXED_ONLY);
}

/* Hybrid CPUs: each core PMU (cpu_core, cpu_atom) has counters of its own, and its events never share a group
 * with another's (pmc_event.core_pmu), so budgets are kept per core PMU; key 0 is every other event. */
static size_t core_key(const struct pmc_event *ev)
{
	return ev->core_pmu <= PMC_MAX_CORE_PMUS ? ev->core_pmu : 0;
}

/* The bit of fixed_own for the fixed counter ev takes (its core PMU's own on a hybrid CPU); 0 when none. */
static uint64_t fixed_bit(const struct pmc_event *ev)
{
	if (ev->cls != PMC_CLASS_FIXED || ev->fixed_index < 0 || ev->fixed_index >= 8)
		return 0;
	return 1ull << (8 * core_key(ev) + (unsigned)ev->fixed_index);
}

bool pmc_plan_every_in_batch(const struct pmc_plan *p, size_t b, const struct pmc_event *ev)
{
	return !(p->batches[b].fixed_own & fixed_bit(ev));
}

static int batch_push(struct pmc_batch *b, size_t idx)
{
	size_t *p = realloc(b->events, (b->n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	b->events = p;
	p[b->n++] = idx;
	return 0;
}

static int add_batch(struct pmc_plan *p)
{
	struct pmc_batch *nb = realloc(p->batches, (p->nbatches + 1) * sizeof(*nb));

	if (!nb)
		return -ENOMEM;
	p->batches = nb;
	memset(&nb[p->nbatches++], 0, sizeof(*nb));
	return 0;
}

/* Classify each event: EVERY (free, anchors, first user of each fixed counter), GP or BP. */
static enum pmc_slot slot_of(const struct pmc_event *evs, size_t i, const struct pmc_plan_opts *o,
			     bool fixed_used_by_pmu[][8])
{
	const struct pmc_event *ev = &evs[i];
	bool *fixed_used = fixed_used_by_pmu[core_key(ev)];

	if (ev->flags & PMC_EVF_ANCHOR) {
		if (ev->cls == PMC_CLASS_FIXED && ev->fixed_index >= 0 && (unsigned)ev->fixed_index < o->fixed_slots)
			fixed_used[ev->fixed_index] = true;
		return PMC_SLOT_EVERY;
	}
	if (ev->flags & PMC_EVF_ABSENT)
		return PMC_SLOT_EVERY; /* no counter to take: the kernel refuses it in every batch (ENOENT) */
	switch (ev->cls) {
	case PMC_CLASS_FREE:
	case PMC_CLASS_EMULATED: /* no counter: measured alone, outside the plan (engine/emulate.c) */
		return PMC_SLOT_EVERY;
	case PMC_CLASS_BREAKPOINT:
		return o->multiplex ? PMC_SLOT_EVERY : PMC_SLOT_BP;
	case PMC_CLASS_FIXED:
		if (ev->fixed_index >= 0 && (unsigned)ev->fixed_index < o->fixed_slots && !fixed_used[ev->fixed_index]) {
			fixed_used[ev->fixed_index] = true;
			return PMC_SLOT_EVERY;
		}
		if (o->multiplex)
			return PMC_SLOT_EVERY;
		return pmc_plan_fixed_only(ev, o->fixed_slots) ? PMC_SLOT_FIXED_OWN : PMC_SLOT_GP;
	case PMC_CLASS_GP:
	default:
		if (o->multiplex)
			return PMC_SLOT_EVERY;
		return ev->flags & PMC_EVF_NO_COUNTER ? PMC_SLOT_WITH_GROUP : PMC_SLOT_GP;
	}
}

/* The batch that holds another member of ev's perf group on its core PMU, or p->nbatches. */
static size_t group_batch_of(const struct pmc_plan *p, const struct pmc_event *evs, const struct pmc_event *ev)
{
	if (!ev->group)
		return p->nbatches;
	for (size_t b = 0; b < p->nbatches; b++)
		for (size_t k = 0; k < p->batches[b].n; k++) {
			const struct pmc_event *o = &evs[p->batches[b].events[k]];

			if (o != ev && o->group == ev->group && core_key(o) == core_key(ev))
				return b;
		}
	return p->nbatches;
}

/* Second users of a fixed-only counter: each into its perf group's batch when its counter is free there (a group is
 * counted whole: x86's slots must lead the top-down metrics of its group), else into the first batch after the GP/BP
 * ones whose counter is free. */
static int place_fixed_own(struct pmc_plan *p, const struct pmc_event *evs, size_t n, const enum pmc_slot *slot)
{
	size_t start = p->nbatches == 1 && p->batches[0].n == 0 ? 0 : p->nbatches;

	for (size_t i = 0; i < n; i++) {
		uint64_t bit;
		size_t b = start;

		if (slot[i] != PMC_SLOT_FIXED_OWN)
			continue;
		bit = fixed_bit(&evs[i]);
		b = group_batch_of(p, evs, &evs[i]);
		if (b == p->nbatches || (p->batches[b].fixed_own & bit))
			b = start;
		while (b < p->nbatches && (p->batches[b].fixed_own & bit))
			b++;
		if (b == p->nbatches && add_batch(p))
			return -ENOMEM;
		if (batch_push(&p->batches[b], i))
			return -ENOMEM;
		p->batches[b].fixed_own |= bit;
	}
	return 0;
}

/* Events on no counter of their own (PERF_METRICS fields): into the batch of their perf group, in event order (the
 * group's leader, slots, comes first), else the first batch. */
static int place_with_group(struct pmc_plan *p, const struct pmc_event *evs, size_t n, const enum pmc_slot *slot)
{
	for (size_t i = 0; i < n; i++) {
		struct pmc_batch *b;
		size_t at, bi;
		size_t *q;

		if (slot[i] != PMC_SLOT_WITH_GROUP)
			continue;
		bi = group_batch_of(p, evs, &evs[i]);
		b = &p->batches[bi < p->nbatches ? bi : 0];
		if (!(q = realloc(b->events, (b->n + 1) * sizeof(*q))))
			return -ENOMEM;
		b->events = q;
		for (at = b->n; at > 0 && q[at - 1] > i; at--)
			q[at] = q[at - 1];
		q[at] = i;
		b->n++;
	}
	return 0;
}

/* perf groups ({a,b}, pmc_event.group): at the first member of a group in slot class sl, the number of its members
 * of that class; 0 for other events and later members. A group's members are next to each other in evs. */
static unsigned group_need(const struct pmc_event *evs, size_t n, size_t i, const enum pmc_slot *slot)
{
	unsigned need = 0;

	if (!evs[i].group)
		return 0;
	for (size_t j = i; j-- > 0 && evs[j].group == evs[i].group;)
		if (slot[j] == slot[i] && core_key(&evs[j]) == core_key(&evs[i]))
			return 0;
	for (size_t j = i; j < n && evs[j].group == evs[i].group; j++)
		need += slot[j] == slot[i] && core_key(&evs[j]) == core_key(&evs[i]);
	return need;
}

/* Where the next event of a class goes: a group that does not fit the current batch's rest starts a new one, and once
 * started is never cut (a group larger than a batch was refused before planning, or was weak and ungrouped). */
static void next_slot(unsigned need, unsigned *used, unsigned left, unsigned *in_group, size_t *batch)
{
	if (need > 1 && *used && *used + need > left) {
		(*batch)++;
		*used = 0;
	} else if (!*in_group && *used == left) {
		(*batch)++;
		*used = 0;
	}
	if (need)
		*in_group = need;
}

int pmc_plan_build(const struct pmc_event *evs, size_t n, const struct pmc_plan_opts *o, struct pmc_plan *ret)
{
	struct pmc_plan p = { 0 };
	bool fixed_used[PMC_MAX_CORE_PMUS + 1][8] = { { false } };
	unsigned gp_every[PMC_MAX_CORE_PMUS + 1] = { 0 }, gp_left[PMC_MAX_CORE_PMUS + 1];
	enum pmc_slot *slot;
	size_t gb[PMC_MAX_CORE_PMUS + 1] = { 0 }, bb = 0; /* current batch for GP (per core PMU) and for breakpoints */
	int r = -ENOMEM;

	if (!o->gp_budget || !o->bp_budget)
		return -EINVAL;
	slot = calloc(n ? n : 1, sizeof(*slot));
	p.in_every = calloc(n ? n : 1, sizeof(*p.in_every));
	p.every = calloc(n ? n : 1, sizeof(*p.every));
	p.nevents = n;
	if (!slot || !p.in_every || !p.every)
		goto out;

	/* Anchors first, so they win the fixed counters over user events that want the same one. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (!!(evs[i].flags & PMC_EVF_ANCHOR) == (pass == 0))
				slot[i] = slot_of(evs, i, o, fixed_used);
	for (size_t i = 0; i < n; i++) {
		if (slot[i] != PMC_SLOT_EVERY)
			continue;
		p.in_every[i] = true;
		p.every[p.nevery++] = i;
		if (!o->multiplex)
			gp_every[core_key(&evs[i])] += pmc_plan_gp_cost(&evs[i], o->fixed_slots);
	}
	/* Anchors that need GP counters (no fixed counters) take from every batch's budget, but leave at least one. */
	for (size_t k = 0; k <= PMC_MAX_CORE_PMUS; k++)
		gp_left[k] = gp_every[k] < o->gp_budget ? o->gp_budget - gp_every[k] : 1;
	if (add_batch(&p))
		goto out;
	{
		unsigned gp_used[PMC_MAX_CORE_PMUS + 1] = { 0 }, bp_used = 0;
		unsigned gp_group[PMC_MAX_CORE_PMUS + 1] = { 0 }, bp_group = 0; /* members of the group being placed */
		for (size_t i = 0; i < n; i++) {
			if (slot[i] == PMC_SLOT_GP) {
				size_t k = core_key(&evs[i]);
				next_slot(group_need(evs, n, i, slot), &gp_used[k], gp_left[k], &gp_group[k], &gb[k]);
				if (gp_group[k])
					gp_group[k]--;
				while (gb[k] >= p.nbatches)
					if (add_batch(&p))
						goto out;
				if (batch_push(&p.batches[gb[k]], i))
					goto out;
				gp_used[k]++;
			} else if (slot[i] == PMC_SLOT_BP) {
				next_slot(group_need(evs, n, i, slot), &bp_used, o->bp_budget, &bp_group, &bb);
				if (bp_group)
					bp_group--;
				while (bb >= p.nbatches)
					if (add_batch(&p))
						goto out;
				if (batch_push(&p.batches[bb], i))
					goto out;
				bp_used++;
			}
		}
	}
	if (place_fixed_own(&p, evs, n, slot) || place_with_group(&p, evs, n, slot))
		goto out;
	*ret = p;
	memset(&p, 0, sizeof(p));
	r = 0;
out:
	free(slot);
	pmc_plan_fini(&p);
	return r;
}

int pmc_plan_group_batch(const struct pmc_plan *p, const struct pmc_event *evs, unsigned group, size_t *ret_batch)
{
	size_t where = SIZE_MAX;

	for (size_t b = 0; b < p->nbatches; b++)
		for (size_t k = 0; k < p->batches[b].n; k++) {
			if (evs[p->batches[b].events[k]].group != group)
				continue;
			if (where != SIZE_MAX && where != b)
				return -E2BIG;
			where = b;
		}
	if (ret_batch)
		*ret_batch = where;
	return 0;
}

int pmc_plan_split(struct pmc_plan *p, size_t b, size_t at)
{
	struct pmc_batch nb = { 0 };
	struct pmc_batch *arr;

	if (b >= p->nbatches || at == 0 || at >= p->batches[b].n)
		return -EINVAL;
	nb.n = p->batches[b].n - at;
	nb.fixed_own = p->batches[b].fixed_own;
	nb.events = malloc(nb.n * sizeof(*nb.events));
	if (!nb.events)
		return -ENOMEM;
	arr = realloc(p->batches, (p->nbatches + 1) * sizeof(*arr));
	if (!arr) {
		free(nb.events);
		return -ENOMEM;
	}
	p->batches = arr;
	memcpy(nb.events, arr[b].events + at, nb.n * sizeof(*nb.events));
	arr[b].n = at;
	memmove(&arr[b + 2], &arr[b + 1], (p->nbatches - b - 1) * sizeof(*arr));
	arr[b + 1] = nb;
	p->nbatches++;
	return 0;
}

void pmc_plan_fini(struct pmc_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nbatches; i++)
		free(p->batches[i].events);
	free(p->batches);
	free(p->every);
	free(p->in_every);
	memset(p, 0, sizeof(*p));
}
