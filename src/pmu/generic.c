/* SPDX-License-Identifier: MIT */
/* perf's generic event names (PERF_TYPE_HARDWARE and PERF_TYPE_SOFTWARE), with perf's aliases. */
#include <errno.h>
#include <stdio.h>
#include <strings.h>

#include "arch/arch.h"
#include "pmu/pmu_internal.h"

/* Linux 5.13; older uapi headers lack the name. */
#define PMC_SW_CGROUP_SWITCHES 11

struct generic_event {
	const char *name;  /* the first row of a (type, config) pair is perf's own spelling */
	uint32_t type;
	uint64_t config;
	int fixed_index;   /* on Intel with fixed counters; -1 otherwise */
};

static const struct generic_event generic_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1 },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1 },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0 },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 2 },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1 },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1 },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, -1 },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, -1 },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, -1 },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, -1 },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, -1 },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, -1 },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, -1 },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, -1 },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, -1 },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, -1 },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, -1 },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, -1 },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, -1 },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, -1 },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, -1 },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, -1 },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, -1 },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, -1 },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, -1 },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, -1 },
	{ "cgroup-switches", PERF_TYPE_SOFTWARE, PMC_SW_CGROUP_SWITCHES, -1 },
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
		else if (g->fixed_index >= 0 && pmc_pmu_has_intel_fixed()) {
			ev->cls = PMC_CLASS_FIXED;
			ev->fixed_index = g->fixed_index;
			if (g->config == PERF_COUNT_HW_REF_CPU_CYCLES)
				ev->flags |= PMC_EVF_FIXED_ONLY; /* the kernel's 0x0300: fixed counter 2 only */
		} else if (pmc_arch_cycle_counter_event(&ev->attr)) {
			ev->cls = PMC_CLASS_FIXED;
			ev->fixed_index = 1;
		}
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
