/* SPDX-License-Identifier: MIT */
/* The real-table check's probe (test_tables_perfmon_metrics.sh): every metric of the tables DIR holds for the CPUID
 * PMCTOOL_CPUID names, parsed in perf's / perfmon's metric language, and the events each names resolved as -M would
 * (vendor table names first, then libpfm4 with LIBPFM_FORCE_PMU). One line of numbers, then what failed.
 *   tm_check DIR        exit 0; 1 when a formula does not parse; 2 when DIR has no tables for the CPUID
 *   tm_check --parse FILE...   each metric (and threshold) of perf-format metric files, parsed only */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "metrics/tmetrics.h"
#include "pmu/event.h"
#include "tables/tables.h"

struct tally {
	char name[256];
	size_t n;
};

/* perf's own format, as perfmon ships it beside its files (metrics/perf/): every MetricExpr and MetricThreshold. */
static int parse_only(int n, char **files)
{
	size_t total = 0, bad = 0;

	for (int i = 0; i < n; i++) {
		struct pmc_tables *t = pmc_tables_new();
		const struct pmc_table_metric *ms;
		char why[256], *text = NULL;
		size_t len = 0, nm;
		FILE *f = fopen(files[i], "re");

		if (!t || !f || getdelim(&text, &len, '\0', f) < 0 ||
		    pmc_tables_parse_text(t, text, strlen(text), files[i], why, sizeof(why))) {
			printf("  %s: not read\n", files[i]);
			bad++;
		}
		if (f)
			fclose(f);
		free(text);
		nm = t ? pmc_tables_metrics(t, &ms) : 0;
		for (size_t k = 0; k < nm; k++) {
			const char *src[2] = { ms[k].expr, ms[k].threshold };

			for (int s = 0; s < 2; s++) {
				struct pmc_expr *e;

				if (!src[s])
					continue;
				total++;
				if (pmc_expr_parse_perf(src[s], &e, why, sizeof(why))) {
					printf("  does not parse: %s %s: %s\n", ms[k].name, s ? "threshold" : "formula", why);
					bad++;
				} else {
					pmc_expr_free(e);
				}
			}
		}
		pmc_tables_free(t);
	}
	printf("perf-format files: %d, %zu formulas and thresholds, %zu parse\n", n, total, total - bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct pmc_tables *t;
	const struct pmc_tables_report *rep;
	const struct pmc_table_metric *ms;
	struct tally top[4096];
	size_t n, parsed = 0, ok = 0, ntop = 0;
	char err[256];

	if (argc > 2 && !strcmp(argv[1], "--parse"))
		return parse_only(argc - 2, argv + 2);
	if (argc != 2) {
		fprintf(stderr, "usage: tm_check DIR | --parse FILE...\n");
		return 2;
	}
	if (pmc_pmu_init(err, sizeof(err)) < 0) {
		fprintf(stderr, "tm_check: libpfm4: %s\n", err);
		return 2;
	}
	pmc_pmu_tables_dir(argv[1]);
	t = pmc_pmu_tables();
	if (!t || pmc_tables_report(t, &rep) || !rep->dir) {
		fprintf(stderr, "tm_check: no tables in %s for %s\n", argv[1], getenv("PMCTOOL_CPUID") ?: "this CPU");
		return 2;
	}
	n = pmc_tables_metrics(t, &ms);
	for (size_t i = 0; i < n; i++) {
		char why[300];
		int r = pmc_tm_check(t, &ms[i], pmc_tm_resolve_here, NULL, why, sizeof(why));

		parsed += r != -EINVAL;
		ok += r == 0;
		if (r == -EINVAL)
			printf("  does not parse: %s: %s\n", ms[i].name, why);
		if (r == -ENOENT && !strncmp(why, "event ", 6)) {
			char *end = strchr(why + 6, ':');
			size_t k;

			if (end)
				*end = '\0';
			for (k = 0; k < ntop && strcmp(top[k].name, why + 6); k++)
				;
			if (k == ntop && ntop < sizeof(top) / sizeof(top[0]))
				snprintf(top[ntop++].name, sizeof(top[0].name), "%.200s", why + 6);
			if (k < ntop)
				top[k].n++;
		}
	}
	printf("%s: %zu metrics, %zu parse, %zu with every event resolvable (%zu events unresolved)\n",
	       rep->model ? rep->model : "?", n, parsed, ok, ntop);
	for (size_t shown = 0; shown < 8 && ntop; shown++) { /* the unresolved events that cost the most metrics */
		size_t best = 0;

		for (size_t k = 1; k < ntop; k++)
			if (top[k].n > top[best].n)
				best = k;
		if (!top[best].n)
			break;
		printf("  unresolved %s (%zu metrics)\n", top[best].name, top[best].n);
		top[best].n = 0;
	}
	pmc_pmu_fini();
	return parsed == n ? 0 : 1;
}
