/* SPDX-License-Identifier: MIT */
/* The engine: -M's table-metric groups counted as one group when they fit the counters together. The tables' planner
 * (metrics/tmetrics.c) gives one weak group per metric; metrics that share an event (a clock every ratio divides by)
 * would otherwise open it once per group and be planned over several batches, each ratio from a group and a run of its
 * own, where the counters hold them all at once (issue 33 item 4: Zen 4's PipelineL1, six events on six counters). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "arch/arch.h"

static bool in_metric_group(const struct pmc_engine *se, const struct pmc_event *ev)
{
	return se->mgroup_lo && ev->group >= se->mgroup_lo && ev->group <= se->mgroup_hi;
}

/* An earlier member of a metric group with the same name and encoding: ev is counted there already. */
static bool repeated(const struct pmc_engine *se, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (in_metric_group(se, &se->evs[j]) && !strcmp(se->evs[j].name, se->evs[i].name) &&
		    pmc_eng_same_event(&se->evs[j], &se->evs[i]))
			return true;
	return false;
}

/* The programmable counters event i takes: a fixed counter's second user (two cycle events of the group, CPU_CYCLES:u
 * and CPU_CYCLES on arm64's one cycle counter) is planned on a programmable one, as plan.c's slot_of does. */
static unsigned gp_cost(const struct pmc_engine *se, size_t i)
{
	const struct pmc_event *ev = &se->evs[i];
	unsigned c = pmc_plan_gp_cost(ev, se->popts.fixed_slots);

	if (c || ev->cls != PMC_CLASS_FIXED || (ev->flags & (PMC_EVF_ABSENT | PMC_EVF_NO_COUNTER)))
		return c;
	for (size_t j = 0; j < i; j++) {
		const struct pmc_event *o = &se->evs[j];

		if (o->cls == PMC_CLASS_FIXED && o->fixed_index == ev->fixed_index && o->core_pmu == ev->core_pmu &&
		    !(o->flags & (PMC_EVF_ABSENT | PMC_EVF_NO_COUNTER)) && !(in_metric_group(se, o) && repeated(se, j)))
			return 1;
	}
	return 0;
}

int pmc_eng_metric_groups_merge(struct pmc_engine *se)
{
	unsigned gp = 0, bp = 0, groups = 0, last = 0, kept = 0;
	size_t first = SIZE_MAX, out = 0;
	struct pmc_event *evs;
	int key = -1;

	if (!se->mgroup_lo || se->mgroup_hi <= se->mgroup_lo || se->popts.multiplex)
		return 0;
	for (size_t i = 0; i < se->n; i++) {
		const struct pmc_event *ev = &se->evs[i];

		if (!in_metric_group(se, ev))
			continue;
		if (key >= 0 && (int)ev->core_pmu != key)
			return 0; /* a hybrid CPU's core types count apart: each metric keeps its group */
		key = (int)ev->core_pmu;
		first = first == SIZE_MAX ? i : first;
		groups += ev->group != last;
		last = ev->group;
		if (repeated(se, i))
			continue;
		kept++;
		gp += gp_cost(se, i);
		bp += ev->cls == PMC_CLASS_BREAKPOINT;
	}
	if (groups < 2 || gp > se->popts.gp_budget || bp > se->popts.bp_budget)
		return 0;
	/* one group, its members next to each other where the first one was (the planner wants them so), each once */
	evs = malloc(se->n * sizeof(*evs));
	if (!evs) {
		pmc_diag_error("out of memory");
		return PMC_EXIT_INTERNAL;
	}
	for (size_t i = 0; i < se->n; i++) {
		/* an event that must lead its group (x86's slots before the top-down metrics) first, then the rest */
		for (int lead = 1; i == first && lead >= 0; lead--)
			for (size_t k = first; k < se->n; k++)
				if (in_metric_group(se, &se->evs[k]) && !repeated(se, k) &&
				    !!(pmc_arch_group_rule(&se->evs[k].attr) & PMC_GROUP_MUST_LEAD) == lead) {
					evs[out] = se->evs[k];
					evs[out++].group = se->mgroup_lo;
				}
		if (!in_metric_group(se, &se->evs[i]))
			evs[out++] = se->evs[i];
	}
	memcpy(se->evs, evs, out * sizeof(*evs));
	free(evs);
	se->n = out;
	se->mgroup_hi = se->mgroup_lo;
	se->mgroup_merged = groups;
	se->mgroup_events = kept;
	return 0;
}

bool pmc_eng_metric_group_crowded(const struct pmc_engine *se, unsigned anchor_gp)
{
	if (!anchor_gp)
		return false;
	for (unsigned g = se->mgroup_lo; g && g <= se->mgroup_hi; g++) {
		unsigned gp = 0;

		for (size_t i = 0; i < se->n; i++)
			if (se->evs[i].group == g)
				gp += pmc_plan_gp_cost(&se->evs[i], se->popts.fixed_slots);
		if (gp && gp + anchor_gp > se->popts.gp_budget && gp <= se->popts.gp_budget)
			return true;
	}
	return false;
}
