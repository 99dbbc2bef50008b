/* SPDX-License-Identifier: MIT */
/*
 * How long planning 1000 events into batches takes: pmc_plan_build over 1000 distinct events resolved for a forced
 * Haswell PMU (LIBPFM_FORCE_PMU=hsw unless set already: the same encodings on every machine), 4 programmable and 3
 * fixed counters. Prints one JSON document: the median, minimum and maximum of many plans, in microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "plan/plan.h"
#include "pmu/event.h"

#define NEVENTS 1000
#define RUNS 201

static const char *const variants[] = { "", ":u", ":k", ":c=1", ":c=2", ":c=3", ":c=1:i=1", ":e=1:c=1" };

/* Every EVENT:UMASK name of the core PMU, each in the variants above, until n events resolve. */
static size_t resolve_events(struct pmc_event *evs, size_t n)
{
	const char *pmu = pmc_pmu_core_name();
	pfm_pmu_info_t pi;
	size_t got = 0;
	int pidx;

	for (pidx = 0; pidx < PFM_PMU_MAX; pidx++) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (pfm_get_pmu_info((pfm_pmu_t)pidx, &pi) == PFM_SUCCESS && pi.is_present && pmu &&
		    !strcmp(pi.name, pmu))
			break;
	}
	if (pidx == PFM_PMU_MAX)
		return 0;
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]) && got < n; v++) {
		for (int e = pi.first_event; e != -1 && got < n; e = pfm_get_event_next(e)) {
			pfm_event_info_t ei;

			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(e, PFM_OS_PERF_EVENT, &ei) != PFM_SUCCESS)
				continue;
			for (int a = 0; a < ei.nattrs && got < n; a++) {
				pfm_event_attr_info_t ai;
				char name[PMC_NAME_MAX];

				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (pfm_get_event_attr_info(e, a, PFM_OS_PERF_EVENT, &ai) != PFM_SUCCESS ||
				    ai.type != PFM_ATTR_UMASK)
					continue;
				snprintf(name, sizeof(name), "%s::%s:%s%s", pi.name, ei.name, ai.name, variants[v]);
				if (pmc_event_resolve(name, &evs[got], NULL) == 0)
					got++;
			}
		}
	}
	return got;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;

	return a < c ? -1 : a > c;
}

int main(void)
{
	static struct pmc_event evs[NEVENTS];
	static uint64_t ns[RUNS];
	struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = PMC_BREAKPOINT_SLOTS };
	struct pmc_plan plan;
	size_t n, nbatches = 0;
	char err[256];

	setenv("LIBPFM_FORCE_PMU", "hsw", 0);
	if (pmc_pmu_init(err, sizeof(err)) < 0) {
		fprintf(stderr, "plan_bench: %s\n", err);
		return 1;
	}
	n = resolve_events(evs, NEVENTS);
	if (n < NEVENTS) {
		fprintf(stderr, "plan_bench: only %zu events resolved for PMU %s (need %d)\n", n,
			pmc_pmu_core_name() ? pmc_pmu_core_name() : "none", NEVENTS);
		return 1;
	}
	o.fixed_slots = pmc_pmu_has_intel_fixed() ? 3 : 0;
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = pmc_now_ns(), t1;
		int rc = pmc_plan_build(evs, n, &o, &plan);

		t1 = pmc_now_ns();
		if (rc) {
			fprintf(stderr, "plan_bench: pmc_plan_build: %s\n", strerror(-rc));
			return 1;
		}
		nbatches = plan.nbatches;
		pmc_plan_fini(&plan);
		ns[r] = t1 - t0;
	}
	qsort(ns, RUNS, sizeof(*ns), cmp_u64);
	printf("{\"pmu\":\"%s\",\"events\":%zu,\"gp_budget\":%u,\"fixed_slots\":%u,\"batches\":%zu,\"runs\":%d,"
	       "\"median_us\":%.1f,\"min_us\":%.1f,\"max_us\":%.1f}\n",
	       pmc_pmu_core_name(), n, o.gp_budget, o.fixed_slots, nbatches, RUNS, (double)ns[RUNS / 2] / 1e3,
	       (double)ns[0] / 1e3, (double)ns[RUNS - 1] / 1e3);
	pmc_pmu_fini();
	return 0;
}
