/* SPDX-License-Identifier: MIT */
/* -I records as they happen: perf's interval lines (table and -x), CSV rows of the report's columns, or one JSON
 * object per line (NDJSON, "kind": "interval", schema/pmctool-report.schema.json). Each format's writer lives in its
 * file (table.c, csv.c, json.c) and is found through the format registry (output/format.h). */
#include "output/format.h"

void pmc_output_interval_begin(FILE *f, const struct pmc_output_opts *o, bool rows)
{
	const struct pmc_format *fmt = pmc_format_get(o->format);

	if (fmt->interval_begin)
		fmt->interval_begin(f, o, rows);
	fflush(f);
}

void pmc_output_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r)
{
	pmc_format_get(o->format)->interval(f, o, r);
}

bool pmc_output_interval_grouped(const struct pmc_output_opts *o)
{
	return pmc_format_get(o->format)->interval_group != NULL;
}

void pmc_output_interval_group(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r, size_t n)
{
	pmc_format_get(o->format)->interval_group(f, o, r, n);
}

double pmc_output_running_pct(const struct pmc_count *c)
{
	/* enabled 0 ns (its task slept through the interval): it ran all of that time, nothing is scaled */
	return c->enabled ? 100.0 * (double)c->running / (double)c->enabled : 100.0;
}

bool pmc_output_interval_rows(const struct pmc_interval_record *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].scope)
			return true;
	return false;
}
