/* SPDX-License-Identifier: MIT */
/* perf's generic event names (PERF_TYPE_HARDWARE and PERF_TYPE_SOFTWARE), with perf's aliases. */
#include <errno.h>
#include <stdio.h>
#include <strings.h>

#include "pmu/pmu_internal.h"

/* Linux 5.13; older uapi headers lack the name. */
#define PMC_SW_CGROUP_SWITCHES 11

struct generic_event {
	const char *name;  /* the first row of a (type, config) pair is perf's own spelling */
	uint32_t type;
	uint64_t config;
};

static const struct generic_event generic_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PMC_SW_CGROUP_SWITCHES },
};

int pmc_generic_lookup(const char *name, struct pmc_event *ev)
{
	for (size_t i = 0; i < PMC_ARRAY_SIZE(generic_events); i++) {
		const struct generic_event *g = &generic_events[i];

		if (strcasecmp(name, g->name))
			continue;
		ev->attr.type = g->type;
		ev->attr.config = g->config;
		ev->fixed_index = -1;
		snprintf(ev->canonical, sizeof(ev->canonical), "%s", pmc_generic_name(g->type, g->config));
		if (g->type == PERF_TYPE_SOFTWARE) {
			ev->cls = PMC_CLASS_FREE;
			if (g->config == PERF_COUNT_SW_TASK_CLOCK || g->config == PERF_COUNT_SW_CPU_CLOCK)
				ev->flags |= PMC_EVF_TIME_NS;
			return 0;
		}
		ev->flags |= PMC_EVF_HARDWARE;
		ev->cls = PMC_CLASS_GP;
		if (pmc_pmu_hw_event_missing(g->config, NULL, 0))
			ev->flags |= PMC_EVF_ABSENT;
		else
			pmc_event_classify_core(ev); /* the arch seam's placement: Intel's fixed counters, arm64's cycles */
		return 0;
	}
	return -ENOENT;
}

const char *pmc_generic_name(uint32_t type, uint64_t config)
{
	for (size_t i = 0; i < PMC_ARRAY_SIZE(generic_events); i++)
		if (generic_events[i].type == type && generic_events[i].config == config)
			return generic_events[i].name;
	return NULL;
}

const char *pmc_generic_name_at(size_t i)
{
	return i < PMC_ARRAY_SIZE(generic_events) ? generic_events[i].name : NULL;
}

int pmc_generic_at(size_t i, const char **name, const char **canonical, bool *software)
{
	if (i >= PMC_ARRAY_SIZE(generic_events))
		return -ENOENT;
	*name = generic_events[i].name;
	*canonical = pmc_generic_name(generic_events[i].type, generic_events[i].config);
	*software = generic_events[i].type == PERF_TYPE_SOFTWARE;
	return 0;
}
