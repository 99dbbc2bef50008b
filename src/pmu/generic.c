/* SPDX-License-Identifier: MIT */
/* perf's generic event names (sys/perf_generic.h, shared with the region library) as pmctool events. */
#include <errno.h>
#include <stdio.h>
#include <strings.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"
#include "sys/perf_generic.h"

int pmc_generic_lookup(const char *name, struct pmc_event *ev)
{
	for (size_t i = 0; i < PMC_ARRAY_SIZE(pmc_perf_generic_events); i++) {
		const struct pmc_perf_generic *g = &pmc_perf_generic_events[i];

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
	for (size_t i = 0; i < PMC_ARRAY_SIZE(pmc_perf_generic_events); i++)
		if (pmc_perf_generic_events[i].type == type && pmc_perf_generic_events[i].config == config)
			return pmc_perf_generic_events[i].name;
	return NULL;
}

const char *pmc_generic_name_at(size_t i)
{
	return i < PMC_ARRAY_SIZE(pmc_perf_generic_events) ? pmc_perf_generic_events[i].name : NULL;
}

int pmc_generic_at(size_t i, const char **name, const char **canonical, bool *software)
{
	if (i >= PMC_ARRAY_SIZE(pmc_perf_generic_events))
		return -ENOENT;
	*name = pmc_perf_generic_events[i].name;
	*canonical = pmc_generic_name(pmc_perf_generic_events[i].type, pmc_perf_generic_events[i].config);
	*software = pmc_perf_generic_events[i].type == PERF_TYPE_SOFTWARE;
	return 0;
}
