/* SPDX-License-Identifier: MIT */
/* --perf-layout: perf stat's own table, column for column (perf 6.1's std output, in the C locale), for people and
 * scripts that read or grep perf's table; pmctool's richer table stays the default. What it holds is what perf's
 * holds: the counts (the totals), perf's metric beside each event (output/perf_shadow.c), the spread over -r runs and
 * the running share, the time elapsed (+- over -r runs) and the rusage. pmctool's own metrics, checks and notes are
 * left out of it, as perf has none; the choices that reach a row of their own (-A, --per-*, -I, -G, --metric-only)
 * are refused by stat's option check (pmctool-stat(1), FOR PERF USERS). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/format.h"
#include "output/perf_shadow.h"

/* perf's column widths: the count, the unit, the event (a count's, and <not ...>'s), and its metric's */
enum { COUNT_W = 18, UNIT_W = 4, NAME_W = 32, NAME_NOT_W = 25, METRIC_W = 35, METRIC_NUM_W = 8 };

static void perf_std_metric(FILE *f, const struct pmc_perf_shadow *s)
{
	int n;

	if (!s->have || !s->value[0]) {
		fprintf(f, "%-*s", METRIC_W, "");
		return;
	}
	/* perf's formats: "%7.2f " for insn per cycle, "%7.2f%%" for the "of all ..." shares, "%8.3f" for the others */
	if (!strcmp(s->unit, "insn per cycle"))
		n = fprintf(f, " # %*s ", METRIC_NUM_W - 1, s->value);
	else if (!strncmp(s->unit, "of all ", 7))
		n = fprintf(f, " # %*s%%", METRIC_NUM_W - 1, s->value);
	else
		n = fprintf(f, " # %*s", METRIC_NUM_W, s->value);
	fprintf(f, " %-*s", METRIC_W - (n > 0 ? n : 0) - 1, s->unit);
}

static void perf_std_event(FILE *f, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	bool ok = e->status == PMC_COUNT_OK, ns = e->ev.flags & PMC_EVF_TIME_NS;
	struct pmc_perf_shadow shadow;
	char name[4 * PMC_NAME_MAX], not[32];

	pmc_output_safe(e->ev.name, name, sizeof(name));
	if (!ok) {
		snprintf(not, sizeof(not), "<%s>", pmc_output_status_name(e->status));
		fprintf(f, "%*s %-*s %-*s%-*s\n", COUNT_W, not, UNIT_W, ns ? "msec" : "", NAME_NOT_W, name, METRIC_W, "");
		return;
	}
	if (ns)
		fprintf(f, "%*.2f %-*s ", COUNT_W, e->mean / 1e6, UNIT_W, "msec");
	else
		fprintf(f, "%*.0f %-*s ", COUNT_W, e->mean, UNIT_W, "");
	fprintf(f, "%-*s", NAME_W, name);
	memset(&shadow, 0, sizeof(shadow));
	pmc_perf_shadow(rep, e, &shadow);
	perf_std_metric(f, &shadow);
	if (rep->nruns > 1 && e->mean > 0) {
		double pct = 100.0 * pmc_report_sem(e) / e->mean;

		if (pct != 0)
			fprintf(f, "  ( +-%6.2f%% )", pct);
	}
	if (e->running_pct < 100.0)
		fprintf(f, "  (%.2f%%)", e->running_pct);
	fputc('\n', f);
}

static int perf_std_report(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	bool wide = rep->target_kind && strcmp(rep->target_kind, "command");
	double mean, sem;
	int prec;

	(void)o;
	fprintf(f, "\n Performance counter stats for '%s'", wide ? "system wide" : rep->workload);
	if (rep->nruns > 1)
		fprintf(f, " (%u runs)", rep->nruns);
	fprintf(f, ":\n\n");
	for (size_t i = 0; i < rep->nevents; i++)
		if (rep->events[i].scope.kind == PMC_ROW_ALL)
			perf_std_event(f, rep, &rep->events[i]);
	fputc('\n', f);
	if (rep->nruns > 1 && pmc_output_wall_stats(rep, &mean, &sem, &prec) > 1) {
		fprintf(f, " %17.*f +- %.*f seconds time elapsed", prec, mean, prec, sem);
		if (mean > 0 && sem != 0)
			fprintf(f, "  ( +-%6.2f%% )", 100.0 * sem / mean);
		fprintf(f, "\n\n");
	} else {
		fprintf(f, " %17.9f seconds time elapsed\n\n", pmc_report_counting_ns(rep) / 1e9);
		/* only a command pmctool launched has rusage, as perf's */
		if (isfinite(rep->user_s) && isfinite(rep->sys_s))
			fprintf(f, " %17.9f seconds user\n %17.9f seconds sys\n\n", rep->user_s, rep->sys_s);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

const struct pmc_format pmc_format_perf_std = {
	.id = PMC_OUTPUT_PERF_STD,
	.name = "perf",
	.flag = "--perf-layout",
	.report = perf_std_report,
};
