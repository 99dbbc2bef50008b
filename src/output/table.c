/* SPDX-License-Identifier: MIT */
/* The human report: reads like perf stat's (count, unit, event, running %, a note), then metrics and checks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/format.h"
#include "output/check.h"
#include "output/encode.h"
#include "output/info.h"
#include "output/list.h"
#include "output/multi.h"
#include "output/sets.h"
#include "output/tables_report.h"
#include "output/output.h"
#include "util/util.h"

static const char *severity_tag(enum pmc_check_severity s)
{
	return s == PMC_CHECK_BAD ? "BAD " : s == PMC_CHECK_WARN ? "warn" : "info";
}

/* A number with thousands' separators (perf's -B, the default) or without (--no-big-num). */
static void num(bool big, double v, int decimals, char *buf, size_t len)
{
	if (big)
		pmc_output_group_fixed(v, decimals, buf, len);
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

static void value_text(const struct pmc_report_event *e, bool big, char *buf, size_t len, const char **unit)
{
	*unit = "";
	switch (e->status) {
	case PMC_COUNT_OK:
		if (e->ev.flags & PMC_EVF_TIME_NS) {
			num(big, e->mean / 1e6, 2, buf, len);
			*unit = "msec";
		} else {
			num(big, e->mean, 0, buf, len);
		}
		return;
	case PMC_COUNT_NOT_COUNTED:
		snprintf(buf, len, "<not counted>");
		return;
	case PMC_COUNT_NOT_SUPPORTED:
		snprintf(buf, len, "<not supported>");
		return;
	case PMC_COUNT_NOT_RUN:
	default:
		snprintf(buf, len, "<not run>");
		return;
	}
}

static bool any_user_only(const struct pmc_report_event *e)
{
	for (size_t i = 0; i < e->nsamples; i++)
		if (e->samples[i].count.flags & PMC_COUNT_USER_ONLY)
			return true;
	return false;
}

/* The number of the reason of event i among the distinct reasons of the events before it (1-based): each reason is
 * printed once, under the events, and the rows refer to it. */
static size_t reason_number(const struct pmc_report *rep, size_t i, bool *first)
{
	size_t n = 0;

	for (size_t j = 0; j <= i; j++) {
		const struct pmc_report_event *e = &rep->events[j];
		bool seen = false;

		if (e->status == PMC_COUNT_OK || !e->reason[0])
			continue;
		for (size_t k = 0; k < j && !seen; k++)
			seen = rep->events[k].status != PMC_COUNT_OK && !strcmp(rep->events[k].reason, e->reason);
		if (!seen)
			n++;
		if (j == i) {
			*first = !seen;
			if (seen) /* the number the first holder of this reason got */
				for (size_t k = 0; k < j; k++)
					if (rep->events[k].status != PMC_COUNT_OK && !strcmp(rep->events[k].reason, e->reason))
						return reason_number(rep, k, &seen);
			return n;
		}
	}
	return 0;
}

static void event_note(const struct pmc_report *rep, size_t i, char *buf, size_t len)
{
	const struct pmc_report_event *e = &rep->events[i];
	size_t off = 0;
	bool first;

	buf[0] = '\0';
#define ADD(...) (off += (size_t)snprintf(buf + off, off < len ? len - off : 0, __VA_ARGS__))
	if (e->status != PMC_COUNT_OK) {
		if (e->reason[0])
			ADD("(note %zu)", reason_number(rep, i, &first));
		return;
	}
	if (e->nok > 1 && e->mean > 0 && rep->nruns > 1)
		ADD("( +- %.2f%% )  ", 100.0 * pmc_report_sem(e) / e->mean);
	if (e->in_every_batch && e->batch_spread_pct >= 0)
		ADD("spread %.2f%% over %u batches  ", e->batch_spread_pct, rep->nbatches);
	else if (!e->in_every_batch && rep->nbatches > 1)
		ADD("batch %d  ", e->batch + 1);
	if (e->ev.flags & PMC_EVF_ANCHOR)
		ADD("(anchor)  ");
	if (e->ev.core_pmu) {
		char pmu[64];
		pmc_report_core_pmu_name(e, pmu, sizeof(pmu));
		ADD("ran on %s %.2f%% of the time (not scaled)  ", pmu, e->core_share_pct);
	}
	if (e->nparts)
		ADD("sum of %u core types  ", e->nparts);
	if (any_user_only(e))
		ADD("user only: kernel.perf_event_paranoid forbids kernel counting  ");
	while (off > 0 && off < len && buf[off - 1] == ' ')
		buf[--off] = '\0';
#undef ADD
}

/* One line, without trailing spaces. */
static void put_line(FILE *f, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

/* The width of the name column: the longest name, at least 34 (perf's), so long names keep the columns aligned. */
static int name_width(const struct pmc_report *rep)
{
	size_t w = 34;

	for (size_t i = 0; i < rep->nevents; i++)
		w = PMC_MAX(w, strlen(rep->events[i].ev.name));
	for (size_t i = 0; i < rep->nmetrics; i++)
		w = PMC_MAX(w, strlen(rep->metrics[i].name));
	return (int)PMC_MIN(w, 200);
}

/* Rows (-A, --per-core, --per-thread...): the report has events with a scope, and a label column leads each line
 * ("all" for the totals, as perf's -A prints CPU0...). */
static void print_events(FILE *f, const struct pmc_report *rep, int w, bool big)
{
	bool rows = pmc_output_has_rows(rep);

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		char val[64], pct[16] = "", note[400], line[900], label[64] = "";
		const char *unit;

		value_text(e, big, val, sizeof(val), &unit);
		if (e->status == PMC_COUNT_OK)
			snprintf(pct, sizeof(pct), "%.2f%%", e->running_pct);
		event_note(rep, i, note, sizeof(note));
		if (rows)
			snprintf(label, sizeof(label), "%-16s ", e->scope.kind == PMC_ROW_ALL ? "all" : e->scope.label);
		if (rows && i && strcmp(e->scope.label, rep->events[i - 1].scope.label))
			fputc('\n', f); /* a blank line between rows */
		snprintf(line, sizeof(line), "  %s%20s %-4s  %-*s %8s  %s", label, val, unit, w, e->ev.name, pct, note);
		put_line(f, line);
	}
	for (size_t i = 0; i < rep->nevents; i++) {
		bool first = false;
		size_t n;

		if (rep->events[i].status == PMC_COUNT_OK || !rep->events[i].reason[0])
			continue;
		n = reason_number(rep, i, &first);
		if (first)
			fprintf(f, "%s  note %zu: %s\n", n == 1 ? "\n" : "", n, rep->events[i].reason);
	}
}

/* -r: the statistics the README promises, per event counted in more than one run. */
static void print_statistics(FILE *f, const struct pmc_report *rep, int w, bool big)
{
	bool any = false;
	char line[800];

	if (rep->nruns < 2)
		return;
	for (size_t i = 0; i < rep->nevents; i++)
		any |= rep->events[i].status == PMC_COUNT_OK && rep->events[i].nok > 1;
	if (!any)
		return;
	fprintf(f, "\n Statistics over the %u run%s used (the +- above is the standard error of the mean, as perf "
		   "prints it):\n", rep->runs_used ? rep->runs_used : rep->nruns,
		(rep->runs_used ? rep->runs_used : rep->nruns) == 1 ? "" : "s");
	snprintf(line, sizeof(line), "  %-*s %-4s %20s %20s %20s %20s %20s %6s", w, "event", "unit", "mean", "median",
		 "stddev", "min", "max", "n");
	put_line(f, line);
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		double k = (e->ev.flags & PMC_EVF_TIME_NS) ? 1e6 : 1;
		int dec = k > 1 ? 2 : 0;
		char v[5][64];

		if (e->status != PMC_COUNT_OK || e->nok < 2)
			continue;
		num(big, e->mean / k, dec, v[0], sizeof(v[0]));
		num(big, e->median / k, dec, v[1], sizeof(v[1]));
		num(big, e->stddev / k, dec ? dec : 1, v[2], sizeof(v[2]));
		num(big, e->min / k, dec, v[3], sizeof(v[3]));
		num(big, e->max / k, dec, v[4], sizeof(v[4]));
		snprintf(line, sizeof(line), "  %-*s %-4s %20s %20s %20s %20s %20s %6zu", w, e->ev.name,
			 k > 1 ? "msec" : "", v[0], v[1], v[2], v[3], v[4], e->nok);
		put_line(f, line);
	}
}

/* A line when any run failed or was interrupted: which, and what the statistics are over (the sentence every format
 * prints: pmc_report_runs_note). */
static void print_runs(FILE *f, const struct pmc_report *rep)
{
	char note[512];

	if (pmc_report_runs_note(rep, note, sizeof(note)))
		fprintf(f, "\n Runs: %s\n", note);
}

/* Distribution metrics (an event set's <series>_0 .. <series>_6plus, in percent) get a bar, so a uops histogram
 * reads as one. */
static void histogram_bar(const struct pmc_metric_value *m, char *buf, size_t len)
{
	size_t n = strlen(m->name), bars;
	bool bucket = n > 2 && m->name[n - 2] == '_' && m->name[n - 1] >= '0' && m->name[n - 1] <= '9';

	buf[0] = '\0';
	if (!m->valid || strcmp(m->unit, "%") || !(bucket || (n > 6 && !strcmp(m->name + n - 6, "_6plus"))))
		return;
	bars = m->value <= 0 ? 0 : m->value >= 100 ? 50 : (size_t)(m->value / 2 + 0.5);
	if (bars >= len)
		bars = len - 1;
	memset(buf, '#', bars);
	buf[bars] = '\0';
}

/* A metric not available because an event was not counted: the event's reason is printed once above, as a note;
 * refer to it ("... see note 1") instead of repeating it. buf is left empty when no note matches. */
static void refer_to_note(const struct pmc_report *rep, const char *reason, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		const char *at;
		bool first;

		if (e->status == PMC_COUNT_OK || !e->reason[0] || !(at = strstr(reason, e->reason)))
			continue;
		snprintf(buf, len, "%.*ssee note %zu", (int)(at - reason), reason, reason_number(rep, i, &first));
		return;
	}
}

/* A metric's value for a person: grouped digits from 1000 up (never 2.01812e+26), four significant digits below
 * (with an exponent below 1e-9: 1e-20, never 0.000000000000). */
static void metric_text(double v, char *buf, size_t len)
{
	double a = fabs(v);
	int dec;

	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "n/a");
		return;
	}
	if (a >= 1000 || a == 0) {
		pmc_output_group_fixed(v, 0, buf, len);
		return;
	}
	dec = 3 - (int)floor(log10(a));
	if (dec > 12)
		snprintf(buf, len, "%.4g", v); /* below 1e-9: four significant digits, never 0.000000000000 */
	else
		pmc_output_fixed_or_sig(v, PMC_MAX(0, dec), buf, len);
}

static void print_metrics(FILE *f, const struct pmc_report *rep, int w)
{
	bool rows = false;

	for (size_t i = 0; i < rep->nmetrics; i++)
		rows |= rep->metrics[i].scope[0] != '\0';
	if (!rep->nmetrics)
		return;
	fprintf(f, "\n Metrics:\n");
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];
		char val[80], bar[200] = "", line[900], label[64] = "";

		if (m->valid) {
			metric_text(m->value, val, sizeof(val));
			histogram_bar(m, bar, sizeof(bar));
		} else {
			snprintf(val, sizeof(val), "n/a");
		}
		if (!m->valid)
			refer_to_note(rep, m->reason, bar, sizeof(bar));
		if (rows)
			snprintf(label, sizeof(label), "%-16s ", m->scope[0] ? m->scope : "all");
		snprintf(line, sizeof(line), "  %s%20s %-6s  %-*s %s%s", label, val, m->unit, w, m->name,
			 bar[0] && m->valid ? "|" : "", bar[0] ? bar : m->valid ? m->desc : m->reason);
		put_line(f, line);
	}
}

static void print_checks(FILE *f, const struct pmc_report *rep)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->nchecks; i++)
		n += !pmc_format_own_check(&pmc_format_table, rep->checks[i].name);
	if (!n)
		return;
	fprintf(f, "\n Checks:\n");
	for (size_t i = 0; i < rep->nchecks; i++)
		if (!pmc_format_own_check(&pmc_format_table, rep->checks[i].name))
			fprintf(f, "  [%s] %s: %s\n", severity_tag(rep->checks[i].severity), rep->checks[i].name,
				rep->checks[i].msg);
}

static int table_write(FILE *f, const struct pmc_report *rep, bool big, bool run_table);

int pmc_output_table(FILE *f, const struct pmc_report *rep)
{
	return table_write(f, rep, true, false);
}

/* --table: perf's table of the runs' times, each with its difference from the mean and a bar of 1 + |difference| in
 * steps of 5%, then the mean +- its standard error, to perf's precision (two digits past the error's first). */
size_t pmc_output_wall_stats(const struct pmc_report *rep, double *mean, double *sem, int *prec)
{
	double sum = 0, sq = 0, m;
	size_t n = 0;

	for (size_t i = 0; i < rep->nexecs; i++)
		if (pmc_report_run_used(rep, rep->execs[i].run)) {
			sum += rep->execs[i].wall_ns / 1e9;
			n++;
		}
	if (n < 2)
		return n;
	m = sum / (double)n;
	for (size_t i = 0; i < rep->nexecs; i++)
		if (pmc_report_run_used(rep, rep->execs[i].run))
			sq += (rep->execs[i].wall_ns / 1e9 - m) * (rep->execs[i].wall_ns / 1e9 - m);
	*mean = m;
	*sem = sqrt(sq / (double)(n - 1) / (double)n);
	*prec = (*sem > 1 || *sem <= 0 ? 0 : (int)lround(ceil(-log10(*sem)))) + 2;
	return n;
}

static void print_run_table(FILE *f, const struct pmc_report *rep)
{
	double mean, sem;
	int prec;

	if (pmc_output_wall_stats(rep, &mean, &sem, &prec) < 2)
		return;
	fprintf(f, "\n           # Table of individual measurements:\n");
	for (size_t i = 0; i < rep->nexecs; i++) {
		double run = rep->execs[i].wall_ns / 1e9;
		int bars;

		if (!pmc_report_run_used(rep, rep->execs[i].run))
			continue;
		bars = 1 + abs((int)(100.0 * (run - mean) / run)) / 5;
		fprintf(f, " %17.*f (%+.*f) ", prec, run, prec, run - mean);
		for (int h = 0; h < bars && h < 100; h++)
			fputc('#', f);
		fputc('\n', f);
	}
	fprintf(f, "\n           # Final result:\n %17.*f +- %.*f seconds time elapsed  ( +- %5.2f%% )\n", prec, mean, prec,
		sem, mean > 0 ? 100.0 * sem / mean : 0.0);
}

static int table_write(FILE *f, const struct pmc_report *rep, bool big, bool run_table)
{
	int w = name_width(rep);

	fprintf(f, "\n Performance counter stats for '%s'", rep->workload);
	if (rep->nruns > 1 || rep->nbatches > 1)
		fprintf(f, " (%u run%s x %u batch%s, %s)", rep->nruns, rep->nruns == 1 ? "" : "s", rep->nbatches,
			rep->nbatches == 1 ? "" : "es", rep->mode);
	fprintf(f, "%s:\n", rep->partial ? " [PARTIAL: interrupted, counts so far]" : "");
	if (rep->target_kind && strcmp(rep->target_kind, "command"))
		fprintf(f, " (%s%s%s%s%s)\n", rep->target, rep->ended_by ? "; ended: " : "", rep->ended_by ? rep->ended_by : "",
			rep->aggregation && strcmp(rep->aggregation, "none") ? "; rows per " : "",
			rep->aggregation && strcmp(rep->aggregation, "none") ? rep->aggregation : "");
	fputc('\n', f);
	print_events(f, rep, w, big);
	print_runs(f, rep);
	print_statistics(f, rep, w, big);
	print_metrics(f, rep, w);
	pmc_output_topdown_table(f, rep);
	pmc_output_regions_table(f, rep);
	print_checks(f, rep);
	if (run_table)
		print_run_table(f, rep);
	/* A report without executions (pmctool report of a hand-written one) has no time to show. */
	if (!rep->nexecs && rep->wall_unresolved[0])
		fprintf(f, "\n  seconds time elapsed: n/a, %s", rep->wall_unresolved);
	/* As perf: the time elapsed is the time counting was on; with -D / --control the whole run's follows. */
	else
		fprintf(f, "\n  %20.9f seconds time elapsed%s", pmc_report_counting_ns(rep) / 1e9,
		pmc_report_paused(rep) ? " while counting" : "");
	if (pmc_report_paused(rep))
		fprintf(f, "\n  %20.9f seconds time elapsed in all: counting was delayed %.6f s, off %.6f s",
			rep->wall_ns_mean / 1e9, rep->delayed_ns_mean / 1e9, rep->disabled_ns_mean / 1e9);
	if (rep->wall_ns_max > rep->wall_ns_min && rep->wall_ns_mean > 0)
		fprintf(f, "  (min %.9f, max %.9f)", rep->wall_ns_min / 1e9, rep->wall_ns_max / 1e9);
	fputc('\n', f);
	/* Only a command pmctool launched has rusage: attached tasks and CPUs have none (perf leaves the lines out). */
	if (isfinite(rep->user_s) && isfinite(rep->sys_s))
		fprintf(f, "  %20.9f seconds user\n  %20.9f seconds sys\n", rep->user_s, rep->sys_s);
	if (rep->partial && rep->term_signal)
		fprintf(f, "\n  pmctool was interrupted by signal %d (%s): exit status %d\n", rep->term_signal,
			strsignal(rep->term_signal), rep->exit_status);
	else if (rep->term_signal && !rep->runs_failed)
		fprintf(f, "\n  the workload was killed by signal %d (%s)\n", rep->term_signal, strsignal(rep->term_signal));
	fprintf(f, "\n");
	return ferror(f) ? -1 : 0;
}

/* ---- -I records: perf's interval lines ---- */

static void interval_value_text(const struct pmc_interval_record *r, bool big, char *buf, size_t len,
				const char **unit)
{
	const struct pmc_count *c = &r->count;

	*unit = "";
	if (c->status != PMC_COUNT_OK) {
		snprintf(buf, len, "<%s>", pmc_output_status_name(c->status));
		return;
	}
	if (r->ev->flags & PMC_EVF_TIME_NS) {
		num(big, pmc_count_scaled(c) / 1e6, 2, buf, len);
		*unit = "msec";
	} else {
		num(big, pmc_count_scaled(c), 0, buf, len);
	}
}

static void table_line(FILE *f, const struct pmc_interval_record *r, bool big)
{
	char val[64], scope[64] = "", extra[48] = "", name[4 * PMC_NAME_MAX];
	const char *unit;

	interval_value_text(r, big, val, sizeof(val), &unit);
	if (r->scope)
		snprintf(scope, sizeof(scope), "%-16s ", r->scope->label);
	if (r->batch >= 0)
		snprintf(extra, sizeof(extra), "  batch %d", r->batch + 1);
	if (r->count.status == PMC_COUNT_OK)
		fprintf(f, "%16.9f %s%20s %-4s  %-34s %7.2f%%%s\n", r->end_s, scope, val, unit,
			pmc_output_safe(r->ev->name, name, sizeof(name)), pmc_output_running_pct(&r->count), extra);
	else
		fprintf(f, "%16.9f %s%20s %-4s  %s%s\n", r->end_s, scope, val, unit,
			pmc_output_safe(r->ev->name, name, sizeof(name)), extra);
}

static void table_interval_begin(FILE *f, const struct pmc_output_opts *o, bool rows)
{
	(void)o;
	fprintf(f, "#%15s %s%20s %-4s  %-34s %8s\n", "time", rows ? "scope            " : "", "counts", "unit", "events",
		"running");
}

static void table_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r)
{
	(void)o;
	table_line(f, r, !o->no_big_num);
}

static int table_report(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	(void)o;
	return table_write(f, rep, !o->no_big_num, o->run_table);
}

/* runs: the Runs line under the events; counting-paused: the time lines at the end */
static const char *const table_own_checks[] = { "runs", "counting-paused", NULL };

const struct pmc_format pmc_format_table = {
	.id = PMC_OUTPUT_TABLE,
	.name = "table",
	.flag = "",
	.report = table_report,
	.interval_begin = table_interval_begin,
	.interval = table_interval,
	.own_checks = table_own_checks,
	.sweep = pmc_sweep_table,
	.compare = pmc_compare_table,
	.merge = pmc_merge_table,
	.info = pmc_info_table,
	.tables = pmc_tables_table,
	.set = pmc_set_table,
	.sets = pmc_sets_table,
	.check = pmc_check_table,
	.list_event = pmc_list_table_event,
	.topdown_interval = pmc_topdown_interval_table,
	.encode_event = pmc_encode_table_event,
};
