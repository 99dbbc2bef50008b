/* SPDX-License-Identifier: MIT */
/* The engine and machines whose breakpoints never fire (issue 39): a breakpoint is counted only after the probe
 * (perf/probe.h) saw one fire in this process; where it read 0, every breakpoint event of the run is <not counted>
 * with PMC_BP_NEVER_REASON instead of a silent 0. The probe runs in prepare, before any workload starts. */
#include <math.h>

#include "engine/engine.h"
#include "perf/probe.h"
#include "report/regions.h"

size_t pmc_eng_breakpoints_mark(struct pmc_event *evs, size_t n, const struct pmc_bp_probe *probe)
{
	size_t marked = 0;

	for (size_t i = 0; i < n; i++) {
		if (evs[i].cls != PMC_CLASS_BREAKPOINT)
			continue;
		if (probe->fires == PMC_BP_NEVER) {
			evs[i].flags |= PMC_EVF_BP_NEVER_FIRES;
			marked++;
		} else {
			evs[i].flags &= ~PMC_EVF_BP_NEVER_FIRES;
		}
	}
	return marked;
}

void pmc_eng_breakpoints_probe(struct pmc_engine *se)
{
	bool any = false;

	for (size_t i = 0; i < se->n && !any; i++)
		any = se->evs[i].cls == PMC_CLASS_BREAKPOINT;
	/* the emulator counts executions itself: no debug register is involved */
	if (any && !pmc_eng_emulated(se))
		pmc_eng_breakpoints_mark(se->evs, se->n, pmc_perf_probe_breakpoints());
}

/* --regions: the program's library opened the breakpoints itself; what it read is no count either. */
static void uncount(struct pmc_region_values *v, size_t i)
{
	if (v->n)
		v->n[i] = 0;
}

void pmc_eng_breakpoints_regions(struct pmc_report *rep)
{
	struct pmc_report_regions *rr = rep->regions;

	if (!rr)
		return;
	for (size_t i = 0; i < rep->nevents && i < rr->nevents; i++) {
		if (!(rep->events[i].ev.flags & PMC_EVF_BP_NEVER_FIRES))
			continue;
		for (size_t r = 0; r < rr->n; r++) {
			uncount(&rr->r[r].all, i);
			for (size_t t = 0; t < rr->r[r].nthreads; t++)
				uncount(&rr->r[r].threads[t].val, i);
		}
		if (rr->cost)
			rr->cost[i] = NAN;
		if (rr->top_n)
			rr->top_n[i] = 0;
	}
}
