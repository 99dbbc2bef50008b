/* SPDX-License-Identifier: MIT */
/* --metric-only (perf's): the metrics alone, a column each, a line per row (the totals, or each row of -A, --per-*,
 * --per-thread, cgroups). The columns are perf's metric beside each event (output/perf_shadow.c: "insn per cycle",
 * "CPUs utilized"...) where it has a value, then pmctool's other metrics by name; the table, -x SEP and -j write them. */
#include <stdio.h>
#include <string.h>

#include "output/format.h"
#include "output/perf_shadow.h"
#include "util/json_write.h"

#define MAX_COLS 64

struct col {
	char name[160];
	double v;
	bool have;
};

static bool is_row_start(const struct pmc_report *rep, size_t i)
{
	return i == 0 || rep->events[i].scope.kind != rep->events[i - 1].scope.kind ||
	       strcmp(rep->events[i].scope.label, rep->events[i - 1].scope.label);
}

/* The columns of the row that starts at event i (its label): perf's metrics beside its events, then pmctool's
 * other metrics of that row. */
static size_t row_cols(const struct pmc_report *rep, size_t i, struct col *c)
{
	const char *label = rep->events[i].scope.label;
	size_t n = 0;

	for (size_t k = i; k < rep->nevents && n < MAX_COLS && (k == i || !is_row_start(rep, k)); k++) {
		struct pmc_perf_shadow s;

		if (!pmc_perf_shadow(rep, &rep->events[k], &s))
			continue; /* a metric without a value stays a column (n/a): every row has the same columns */
		/* a rate names its event: several events have one, in the same unit */
		if (strstr(s.unit, "/sec"))
			snprintf(c[n].name, sizeof(c[n].name), "%.100s %s", rep->events[k].ev.name, s.unit);
		else
			snprintf(c[n].name, sizeof(c[n].name), "%s", s.unit);
		c[n].v = s.v;
		c[n++].have = s.value[0] != '\0';
	}
	for (size_t m = 0; m < rep->nmetrics && n < MAX_COLS; m++) {
		const struct pmc_metric_value *mv = &rep->metrics[m];

		if (strcmp(mv->scope, label) || pmc_perf_shadow_placed(rep, mv))
			continue;
		snprintf(c[n].name, sizeof(c[n].name), "%s%s%s", mv->name, mv->unit[0] ? " " : "", mv->unit);
		c[n].v = mv->value;
		c[n++].have = mv->valid;
	}
	return n;
}

/* -j: a row's metrics as one of perf's JSON lines, led by the row's label when there are rows. */
static void perf_json_row(FILE *f, const char *row, const struct col *c, size_t n)
{
	struct pmc_jw w;

	pmc_jw_init(&w, f, PMC_JW_PERF);
	pmc_jw_object_begin(&w);
	if (row)
		pmc_jw_kstr(&w, "row", row);
	for (size_t k = 0; k < n; k++)
		if (c[k].have)
			pmc_jw_kfixed(&w, c[k].name, 6, c[k].v);
		else
			pmc_jw_knull(&w, c[k].name);
	pmc_jw_object_end(&w);
	fputc('\n', f);
}

static void value(FILE *f, const struct col *c, int width)
{
	if (c->have)
		fprintf(f, "%*.*f", width, c->v != 0 && c->v < 0.01 && c->v > -0.01 ? 6 : 3, c->v);
	else
		fprintf(f, "%*s", width, "n/a");
}

int pmc_output_metric_only(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	struct col c[MAX_COLS];
	int w[MAX_COLS];
	bool rows = pmc_output_has_rows(rep), header = false;

	for (size_t k = 0; k < MAX_COLS; k++)
		w[k] = 12;
	if (o->format == PMC_OUTPUT_TABLE)
		fprintf(f, "\n Performance counter stats for '%s' (metrics only):\n\n", rep->workload);
	for (size_t i = 0; i < rep->nevents; i++) {
		size_t n;

		if (!is_row_start(rep, i) || (rows && rep->events[i].scope.kind == PMC_ROW_ALL))
			continue;
		n = row_cols(rep, i, c);
		if (o->format == PMC_OUTPUT_PERF_JSON) {
			perf_json_row(f, rows ? rep->events[i].scope.label : NULL, c, n);
			continue;
		}
		if (!header) { /* the header from the first row: every row has the same events, so the same columns */
			bool sep = o->format == PMC_OUTPUT_SEP;

			if (rows)
				fprintf(f, sep ? "%s%s" : "  %-16s", sep ? "" : "", sep ? o->sep : "");
			for (size_t k = 0; k < n; k++) {
				w[k] = (int)strlen(c[k].name) > 12 ? (int)strlen(c[k].name) : 12;
				if (sep)
					fprintf(f, "%s%s", c[k].name, o->sep);
				else
					fprintf(f, "  %*s", w[k], c[k].name);
			}
			fputc('\n', f);
			header = true;
		}
		if (rows)
			fprintf(f, o->format == PMC_OUTPUT_SEP ? "%s%s" : "  %-16s", rep->events[i].scope.label,
				o->format == PMC_OUTPUT_SEP ? o->sep : "");
		for (size_t k = 0; k < n; k++) {
			if (o->format == PMC_OUTPUT_SEP) {
				if (c[k].have)
					fprintf(f, "%f", c[k].v);
				fputs(o->sep, f);
			} else {
				fputs("  ", f);
				value(f, &c[k], w[k]);
			}
		}
		fputc('\n', f);
	}
	if (o->format == PMC_OUTPUT_TABLE)
		fprintf(f, "\n  %20.9f seconds time elapsed\n\n", pmc_report_counting_ns(rep) / 1e9);
	return ferror(f) ? -1 : 0;
}
