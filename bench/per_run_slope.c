/* SPDX-License-Identifier: MIT */
/*
 * Whether what pmctool does per run costs the same at run 1,000 and at run 100,000 (issue 39: a scan of every run's
 * samples inside each run's metric evaluation made -r 100000 quadratic). A report of R runs of the default events
 * (task-clock, cycles, instructions, branches, branch-misses, cache-references, cache-misses, page-faults, all
 * counted in every run, so every default metric applies) gets its per-run metrics (pmc_eng_metrics_per_run, as
 * after a measurement); the time of that, divided by R, is the per-run cost. Prints one JSON document: R and the
 * nanoseconds per run (median of 3) for each R, and the ratio of the largest R's per-run cost to the smallest's
 * (flat: about 1; quadratic: about R_max/R_min). Usage: per_run_slope [R...] (default 1000 10000 100000).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "metrics/metrics.h"
#include "pmu/event.h"
#include "report/report.h"
#include "util/util.h"

static const char *const names[] = { "task-clock", "cycles", "instructions", "branches", "branch-misses",
				     "cache-references", "cache-misses", "page-faults" };
#define NEV (sizeof(names) / sizeof(names[0]))
#define REPEAT 3

static int fill(struct pmc_report *rep, unsigned runs)
{
	size_t ndefs;
	const struct pmc_metric_def *defs = pmc_metrics_default(&ndefs);

	memset(rep, 0, sizeof(*rep));
	rep->events = calloc(NEV, sizeof(*rep->events));
	if (!rep->events)
		return -1;
	rep->nevents = NEV;
	for (size_t i = 0; i < NEV; i++) {
		rep->events[i].batch = 0;
		if (pmc_event_resolve(names[i], &rep->events[i].ev, NULL)) {
			fprintf(stderr, "per_run_slope: cannot resolve %s\n", names[i]);
			return -1;
		}
	}
	for (unsigned r = 0; r < runs; r++) {
		struct pmc_report_exec x = { .run = r, .wall_ns = 1e6 + r % 7, .counting_ns = 1e6 + r % 7 };

		for (size_t i = 0; i < NEV; i++) {
			struct pmc_count c = { .value = 1000000 + (i + 1) * 1000 + r % 13, .enabled = 1000000,
					       .running = 1000000, .status = PMC_COUNT_OK };

			if (pmc_report_push_sample(&rep->events[i], r, 0, &c))
				return -1;
		}
		if (pmc_report_add_exec(rep, &x))
			return -1;
	}
	rep->nruns = runs;
	rep->wall_ns_mean = 1e6;
	pmc_report_summarize(rep);
	return pmc_metrics_eval(rep, defs, ndefs, PMC_METRICS_SKIP_ABSENT) < 0 ? -1 : 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static const unsigned dflt[] = { 1000, 10000, 100000 };
	unsigned n = argc > 1 ? (unsigned)(argc - 1) : 3;
	double first = 0, last = 0;
	struct pmc_engine se;

	memset(&se, 0, sizeof(se)); /* no variant: the default metrics, as stat without -M */
	printf("{\"what\": \"pmc_eng_metrics_per_run, ns per run\", \"events\": %zu, \"results\": [", NEV);
	for (unsigned k = 0; k < n; k++) {
		unsigned runs = argc > 1 ? (unsigned)strtoul(argv[k + 1], NULL, 10) : dflt[k];
		double t[REPEAT];
		struct pmc_report rep;

		for (int i = 0; i < REPEAT; i++) {
			uint64_t t0;

			if (fill(&rep, runs)) {
				fprintf(stderr, "per_run_slope: cannot build a report of %u runs\n", runs);
				return 1;
			}
			t0 = pmc_now_ns();
			pmc_eng_metrics_per_run(&se, NULL, 0, &rep);
			t[i] = (double)(pmc_now_ns() - t0) / runs;
			pmc_report_fini(&rep);
		}
		qsort(t, REPEAT, sizeof(t[0]), cmp);
		printf("%s{\"runs\": %u, \"ns_per_run\": %.0f, \"min\": %.0f, \"max\": %.0f}", k ? ", " : "", runs,
		       t[REPEAT / 2], t[0], t[REPEAT - 1]);
		if (!k)
			first = t[REPEAT / 2];
		last = t[REPEAT / 2];
		fflush(stdout);
	}
	printf("], \"slope\": %.2f}\n", first > 0 ? last / first : 0);
	return 0;
}
