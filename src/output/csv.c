/* SPDX-License-Identifier: MIT */
/* Machine-readable layouts: perf's -x SEP, RFC 4180 CSV, and one JSON document. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "output/format.h"
#include "output/list.h"
#include "output/multi.h"
#include "output/perf_shadow.h"
#include "output/output.h"
#include "report/regions.h"

/* RFC 4180: quote a field when it holds a comma, quote, CR or LF; double the quotes inside. */
void pmc_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(FILE *f, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		pmc_csv_field(f, fields[i] ? fields[i] : "");
	}
	fputs("\r\n", f);
}

static const char *const csv_header[] = {
	"record", "event", "canonical", "run", "batch", "value", "scaled", "unit", "enabled_ns", "running_ns",
	"running_pct", "status", "reason", "mean", "median", "stddev", "min", "max", "n", "exit_status", "signal",
	"wall_ns", "user_ns", "sys_ns", "workload", "scope", "cpu", "core", "die", "socket", "pid", "tid", "comm",
	"interval", "time_ns", "region", "thread", "calls",
};

enum { CSV_NFIELDS = PMC_ARRAY_SIZE(csv_header) };
enum { F_RECORD, F_EVENT, F_CANON, F_RUN, F_BATCH, F_VALUE, F_SCALED, F_UNIT, F_ENABLED, F_RUNNING, F_PCT, F_STATUS,
       F_REASON, F_MEAN, F_MEDIAN, F_STDDEV, F_MIN, F_MAX, F_N, F_EXIT, F_SIGNAL, F_WALL, F_USER, F_SYS, F_WORKLOAD,
       F_SCOPE, F_CPU, F_CORE, F_DIE, F_SOCKET, F_PID, F_TID, F_COMM, F_INTERVAL, F_TIME_NS, F_REGION, F_THREAD,
       F_CALLS };

void pmc_csv_named_row(FILE *f, const char *const *names, const char *const *vals, size_t n)
{
	const char *row[CSV_NFIELDS] = { 0 };

	for (size_t k = 0; k < n; k++)
		for (size_t c = 0; c < CSV_NFIELDS; c++)
			if (!strcmp(csv_header[c], names[k]))
				row[c] = vals[k];
	csv_row(f, row, CSV_NFIELDS);
}

/* A row being built: its fields point into the caller's strings or into num[] for numbers. */
struct csv_rec {
	const char *f[CSV_NFIELDS];
	char num[CSV_NFIELDS][48];
};

static void rec_start(struct csv_rec *r, const char *record)
{
	memset(r, 0, sizeof(*r));
	r->f[F_RECORD] = record;
}

static void rec_num(struct csv_rec *r, int field, double v)
{
	pmc_format_shortest(v, r->num[field], sizeof(r->num[field]));
	r->f[field] = r->num[field];
}

/* A number that may be unmeasured (NAN: rusage of tasks pmctool did not launch): an empty field then. */
static void rec_num_or_empty(struct csv_rec *r, int field, double v)
{
	if (isfinite(v))
		rec_num(r, field, v);
}

static void rec_int(struct csv_rec *r, int field, long long v)
{
	snprintf(r->num[field], sizeof(r->num[field]), "%lld", v);
	r->f[field] = r->num[field];
}

/* A counted sample's value, scaled value, enabled and running times and running %. */
static void rec_count(struct csv_rec *r, const struct pmc_count *c, double scaled)
{
	snprintf(r->num[F_VALUE], sizeof(r->num[0]), "%llu", (unsigned long long)c->value);
	r->f[F_VALUE] = r->num[F_VALUE];
	rec_num(r, F_SCALED, round(scaled));
	snprintf(r->num[F_ENABLED], sizeof(r->num[0]), "%llu", (unsigned long long)c->enabled);
	r->f[F_ENABLED] = r->num[F_ENABLED];
	snprintf(r->num[F_RUNNING], sizeof(r->num[0]), "%llu", (unsigned long long)c->running);
	r->f[F_RUNNING] = r->num[F_RUNNING];
	rec_num(r, F_PCT, pmc_output_running_pct(c));
}

/* The scope columns of a row (-A, --per-core, --per-thread...): empty for the totals. */
static void rec_scope(struct csv_rec *r, const struct pmc_row_scope *s)
{
	if (!s || s->kind == PMC_ROW_ALL)
		return;
	r->f[F_SCOPE] = s->label;
	if (s->kind == PMC_ROW_CGROUP || s->kind == PMC_ROW_NODE || s->kind == PMC_ROW_CACHE)
		return;
	if (s->kind == PMC_ROW_THREAD) {
		rec_int(r, F_PID, s->pid);
		rec_int(r, F_TID, s->tid);
		r->f[F_COMM] = s->comm;
		return;
	}
	if (s->kind == PMC_ROW_CPU)
		rec_int(r, F_CPU, s->cpu);
	if (s->kind == PMC_ROW_CPU || s->kind == PMC_ROW_CORE)
		rec_int(r, F_CORE, s->core);
	if (s->kind != PMC_ROW_SOCKET)
		rec_int(r, F_DIE, s->die);
	rec_int(r, F_SOCKET, s->socket);
}

static void csv_summary(FILE *f, const struct pmc_report_event *e)
{
	struct csv_rec r;
	bool ok = e->status == PMC_COUNT_OK;

	rec_start(&r, "summary");
	rec_scope(&r, &e->scope);
	r.f[F_EVENT] = e->ev.name;
	r.f[F_CANON] = e->ev.canonical;
	r.f[F_UNIT] = (e->ev.flags & PMC_EVF_TIME_NS) ? "ns" : "";
	r.f[F_STATUS] = pmc_output_status_name(e->status);
	r.f[F_REASON] = e->reason;
	if (ok) {
		rec_num(&r, F_PCT, e->running_pct);
		rec_num(&r, F_MEAN, e->mean);
		rec_num(&r, F_MEDIAN, e->median);
		if (e->nok > 1)
			rec_num(&r, F_STDDEV, e->stddev);
		rec_num(&r, F_MIN, e->min);
		rec_num(&r, F_MAX, e->max);
	}
	rec_int(&r, F_N, (long long)e->nok);
	csv_row(f, r.f, CSV_NFIELDS);
}

static const char *run_state_name(enum pmc_run_state st)
{
	return st == PMC_RUN_FAILED ? "failed" : st == PMC_RUN_PARTIAL ? "partial" : "ok";
}

/* The run-level facts: one "run" row per execution, then one "report" row (whole report: partial or complete). */
static void csv_runs(FILE *f, const struct pmc_report *rep)
{
	struct csv_rec r;

	for (size_t i = 0; i < rep->nexecs; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];
		rec_start(&r, "run");
		rec_int(&r, F_RUN, x->run + 1);
		rec_int(&r, F_BATCH, x->batch + 1);
		r.f[F_STATUS] = x->interrupted ? "partial" : run_state_name(pmc_report_run_state(rep, x->run));
		r.f[F_REASON] = pmc_report_run_used(rep, x->run) ? "used" : "kept out of the statistics";
		rec_int(&r, F_EXIT, x->exit_status);
		if (x->signal)
			rec_int(&r, F_SIGNAL, x->signal);
		rec_num(&r, F_WALL, round(x->wall_ns));
		rec_num_or_empty(&r, F_USER, round(x->user_s * 1e9));
		rec_num_or_empty(&r, F_SYS, round(x->sys_s * 1e9));
		r.f[F_WORKLOAD] = rep->workload;
		csv_row(f, r.f, CSV_NFIELDS);
	}
	rec_start(&r, "report");
	r.f[F_STATUS] = rep->partial ? "partial" : "complete";
	r.f[F_REASON] = rep->stats_over ? rep->stats_over : "";
	rec_int(&r, F_RUN, rep->nruns);
	rec_int(&r, F_BATCH, rep->nbatches);
	rec_int(&r, F_N, rep->runs_used);
	rec_int(&r, F_EXIT, rep->exit_status);
	if (rep->term_signal)
		rec_int(&r, F_SIGNAL, rep->term_signal);
	rec_num(&r, F_WALL, round(rep->wall_ns_mean));
	rec_num_or_empty(&r, F_USER, round(rep->user_s * 1e9));
	rec_num_or_empty(&r, F_SYS, round(rep->sys_s * 1e9));
	r.f[F_WORKLOAD] = rep->workload;
	csv_row(f, r.f, CSV_NFIELDS);
}

/* A metric row; region: the region's name for a region's metric (thread "all"), NULL for the report's. */
static void csv_metric(FILE *f, const char *record, const struct pmc_metric_value *m, const char *region)
{
	struct csv_rec r;

	rec_start(&r, record);
	r.f[F_EVENT] = m->name;
	r.f[F_SCOPE] = m->scope;
	if (m->valid)
		rec_num(&r, F_VALUE, m->value);
	r.f[F_UNIT] = m->unit;
	r.f[F_STATUS] = m->valid ? "ok" : "n/a";
	r.f[F_REASON] = m->reason; /* n/a: why; ok: "" or which events it used ("over instructions:u, cycles:u") */
	r.f[F_REGION] = region;
	r.f[F_THREAD] = region ? "all" : NULL;
	csv_row(f, r.f, CSV_NFIELDS);
}

/* stat --regions: a "region" row per region, thread ("all": merged) and event (value: the mean per execution,
 * n: the executions that counted it), and a "region-metric" row per metric of each region. */
static void csv_region_values(FILE *f, const struct pmc_report *rep, const char *region, const char *thread,
			      const struct pmc_region_values *v)
{
	struct csv_rec r;

	for (size_t i = 0; i < rep->nevents; i++) {
		double x = pmc_region_value(v, i);

		rec_start(&r, "region");
		r.f[F_EVENT] = rep->events[i].ev.name;
		r.f[F_CANON] = rep->events[i].ev.canonical;
		r.f[F_UNIT] = (rep->events[i].ev.flags & PMC_EVF_TIME_NS) ? "ns" : "";
		if (!isnan(x))
			rec_num(&r, F_VALUE, round(x));
		r.f[F_STATUS] = isnan(x) ? "not counted" : "ok";
		rec_int(&r, F_N, v->n ? v->n[i] : 0);
		r.f[F_REGION] = region;
		r.f[F_THREAD] = thread;
		rec_num(&r, F_CALLS, pmc_region_calls(v));
		csv_row(f, r.f, CSV_NFIELDS);
	}
}

static void csv_regions(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_report_regions *rr = rep->regions;

	for (size_t k = 0; rr && k < rr->n; k++) {
		const struct pmc_report_region *rg = &rr->r[k];

		csv_region_values(f, rep, rg->name, "all", &rg->all);
		for (size_t t = 0; t < rg->nthreads; t++)
			csv_region_values(f, rep, rg->name, rg->threads[t].label, &rg->threads[t].val);
		for (size_t m = 0; m < rg->nmetrics; m++)
			csv_metric(f, "region-metric", &rg->metrics[m], rg->name);
	}
}

int pmc_output_csv(FILE *f, const struct pmc_report *rep)
{
	return pmc_output_csv_body(f, rep, true);
}

int pmc_output_csv_body(FILE *f, const struct pmc_report *rep, bool header)
{
	struct csv_rec r;

	if (header)
		csv_row(f, csv_header, CSV_NFIELDS);
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		const char *unit = (e->ev.flags & PMC_EVF_TIME_NS) ? "ns" : "";

		if (e->nsamples == 0) {
			rec_start(&r, "count");
			rec_scope(&r, &e->scope);
			r.f[F_EVENT] = e->ev.name;
			r.f[F_CANON] = e->ev.canonical;
			r.f[F_UNIT] = unit;
			r.f[F_STATUS] = pmc_output_status_name(e->status);
			r.f[F_REASON] = e->reason;
			csv_row(f, r.f, CSV_NFIELDS);
			continue;
		}
		for (size_t s = 0; s < e->nsamples; s++) {
			const struct pmc_sample *sm = &e->samples[s];
			const struct pmc_count *c = &sm->count;
			bool ok = c->status == PMC_COUNT_OK;

			rec_start(&r, "count");
			rec_scope(&r, &e->scope);
			r.f[F_EVENT] = e->ev.name;
			r.f[F_CANON] = e->ev.canonical;
			rec_int(&r, F_RUN, sm->run + 1);
			rec_int(&r, F_BATCH, sm->batch + 1);
			r.f[F_UNIT] = unit;
			if (ok)
				rec_count(&r, c, pmc_report_sample_value(e, c));
			r.f[F_STATUS] = pmc_output_status_name(c->status);
			r.f[F_REASON] = ok ? ((c->flags & PMC_COUNT_USER_ONLY) ? "user mode only (paranoid)" : "") : e->reason;
			csv_row(f, r.f, CSV_NFIELDS);
		}
	}
	for (size_t i = 0; i < rep->nevents; i++)
		csv_summary(f, &rep->events[i]);
	csv_runs(f, rep);
	for (size_t i = 0; i < rep->nmetrics; i++)
		csv_metric(f, "metric", &rep->metrics[i], NULL);
	csv_regions(f, rep);
	pmc_output_topdown_csv(f, rep);
	for (size_t i = 0; i < rep->nchecks; i++) {
		const struct pmc_check_note *c = &rep->checks[i];
		rec_start(&r, "check");
		r.f[F_EVENT] = c->name;
		r.f[F_STATUS] = c->severity == PMC_CHECK_BAD ? "bad" : c->severity == PMC_CHECK_WARN ? "warn" : "info";
		r.f[F_REASON] = c->msg;
		csv_row(f, r.f, CSV_NFIELDS);
	}
	return ferror(f) ? -1 : 0;
}

void pmc_output_interval_csv_header(FILE *f)
{
	csv_row(f, csv_header, CSV_NFIELDS);
}

/* One -I record as a CSV row of the report's own columns: record "interval", its number, its end time. */
void pmc_output_interval_csv(FILE *f, const struct pmc_interval_record *ir)
{
	struct csv_rec r;
	const struct pmc_count *c = &ir->count;
	char name[4 * PMC_NAME_MAX], canon[4 * PMC_NAME_MAX];

	rec_start(&r, "interval");
	rec_scope(&r, ir->scope);
	r.f[F_EVENT] = pmc_output_safe(ir->ev->name, name, sizeof(name));
	r.f[F_CANON] = pmc_output_safe(ir->ev->canonical, canon, sizeof(canon));
	if (ir->batch >= 0)
		rec_int(&r, F_BATCH, ir->batch + 1);
	r.f[F_UNIT] = (ir->ev->flags & PMC_EVF_TIME_NS) ? "ns" : "";
	if (c->status == PMC_COUNT_OK)
		rec_count(&r, c, pmc_count_scaled(c));
	r.f[F_STATUS] = pmc_output_status_name(c->status);
	rec_int(&r, F_INTERVAL, ir->interval);
	rec_num(&r, F_TIME_NS, round(ir->end_s * 1e9));
	csv_row(f, r.f, CSV_NFIELDS);
}

/* -x's notes: after the counts, never among them (perf's CSV readers count every line's separators), as '#' lines
 * perf scripts skip: the report is partial, a run failed, and each warning check the rows do not already state. */
void pmc_output_sep_notes(FILE *f, const struct pmc_report *rep)
{
	char note[512];

	if (rep->partial)
		fprintf(f, "# partial: interrupted, counts so far%s\n",
			rep->runs_partial && rep->runs_used && rep->runs_ok ? " (the interrupted run is kept out of the statistics)"
									      : "");
	if (pmc_report_runs_note(rep, note, sizeof(note)))
		fprintf(f, "# %s\n", note);
	if (pmc_report_counting_note(rep, note, sizeof(note)))
		fprintf(f, "# %s\n", note);
	/* Warnings as the table gives them (a number that is not what it seems: --per-thread's first row, ...); the
	 * runs sentence is the line above. */
	for (size_t i = 0; i < rep->nchecks; i++)
		if (rep->checks[i].severity != PMC_CHECK_INFO && !pmc_format_own_check(&pmc_format_sep, rep->checks[i].name))
			fprintf(f, "# %s %s: %s\n", rep->checks[i].severity == PMC_CHECK_BAD ? "BAD" : "warn",
				rep->checks[i].name, rep->checks[i].msg);
}

/* A row's first fields in -x, as perf's: its label, and with --per-core, -die, -socket, -node and -cache the number
 * of CPUs aggregated in it. */
static void sep_row_label(FILE *f, const struct pmc_row_scope *s, const char *sep)
{
	fprintf(f, "%s%s", s->label, sep);
	if (s->kind == PMC_ROW_CORE || s->kind == PMC_ROW_DIE || s->kind == PMC_ROW_SOCKET || s->kind == PMC_ROW_NODE ||
	    s->kind == PMC_ROW_CACHE)
		fprintf(f, "%u%s", s->ncpus, sep);
}

/* perf stat -x SEP, field for field: value, unit, event, [variance with -r,] run time (ns), running %, metric value,
 * metric unit, the metric being perf's own beside that event (output/perf_shadow.c: "insn per cycle", "CPUs
 * utilized", "of all branches", "K/sec"...). Unsupported events as perf prints them (<not supported>, run time 0,
 * 100.00). pmctool's other metrics follow the events as rows of their own, with the first fields empty and the metric
 * in the last two, the way perf prints a metric on a line of its own. Comment lines (#) after the counts say when the
 * report is partial or a run failed, and give the warning checks (pmc_output_sep_notes); perf scripts skip them.
 * lead (NULL: none) is a first field on every line: -I --summary's "summary", right-aligned as perf's times. */
int pmc_output_sep(FILE *f, const struct pmc_report *rep, const char *sep, const char *lead)
{
	/* rows: also a per-row measurement whose rows all counted nothing and were left out (--per-thread -a of a
	 * short command): perf prints no line then, never an unlabelled total */
	bool variance = rep->nruns > 1, cgroups = false,
	     rows = pmc_output_has_rows(rep) || (rep->aggregation && strcmp(rep->aggregation, "none"));
	struct pmc_perf_shadow shadow;
	char num[64];

	/* Rows (-A, --per-*, --per-thread): as perf -x, each line starts with the row's label (with --per-core, -die and
	 * -socket then the number of CPUs in it), and the total has no line. */
	for (size_t i = 0; i < rep->nevents; i++)
		cgroups |= rep->events[i].scope.kind == PMC_ROW_CGROUP;
	/* Cgroups (-G, --for-each-cgroup): as perf, the cgroup in a column after the event, and no total rows */
	rows &= !cgroups;

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		bool ok = e->status == PMC_COUNT_OK;
		bool ns = e->ev.flags & PMC_EVF_TIME_NS;

		if ((cgroups || rows) && e->scope.kind == PMC_ROW_ALL)
			continue; /* perf prints the rows alone, no total */
		if (lead)
			fprintf(f, "%16s%s", lead, sep);
		if (rows)
			sep_row_label(f, &e->scope, sep);
		if (ok && ns)
			fprintf(f, "%.2f", e->mean / 1e6);
		else if (ok)
			fprintf(f, "%.0f", e->mean);
		else
			fprintf(f, "<%s>", pmc_output_status_name(e->status));
		fprintf(f, "%s%s%s%s", sep, ns ? "msec" : "", sep, e->ev.name);
		if (cgroups)
			fprintf(f, "%s%s", sep, e->scope.label);
		if (variance)
			fprintf(f, "%s%.2f%%", sep, ok && e->mean > 0 ? 100.0 * pmc_report_sem(e) / e->mean : 0.0);
		pmc_perf_shadow(rep, e, &shadow);
		fprintf(f, "%s%.0f%s%.2f%s%s%s%s\n", sep, ok ? pmc_output_run_ns(rep, e) : 0.0, sep, ok ? e->running_pct : 100.0, sep,
			shadow.value, sep, shadow.unit);
	}
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];

		if (!m->valid || pmc_perf_shadow_placed(rep, m) || ((rows || cgroups) && !m->scope[0]))
			continue; /* perf leaves a metric it cannot compute out; one beside its event is not repeated; with
				     rows, as their total, neither is the total's */
		if (lead)
			fprintf(f, "%16s%s", lead, sep);
		if (rows)
			fprintf(f, "%s%s", m->scope, sep);
		fprintf(f, "%s%s%s%s%s", sep, sep, sep, sep, variance ? sep : "");
		pmc_output_fixed_or_sig(m->value, fabs(m->value) < 1000 ? 3 : 0, num, sizeof(num));
		fprintf(f, "%s%s%s", sep, num, sep);
		fprintf(f, "%s%s%s\n", m->unit, m->unit[0] ? " " : "", m->name);
	}
	pmc_output_topdown_sep(f, rep, sep);
	pmc_output_sep_notes(f, rep);
	return ferror(f) ? -1 : 0;
}

/* ---- -I records and the registry entries of -x SEP and --csv ---- */

/* perf's -I -x layout: time, [row label, [CPUs aggregated,]] value, unit, event, run time, running %, metric value, metric unit (perf's
 * metric beside the event, from the interval's counts). */
static void sep_line(FILE *f, const struct pmc_interval_record *r, const char *sep, const struct pmc_perf_shadow *s)
{
	const struct pmc_count *c = &r->count;
	bool ok = c->status == PMC_COUNT_OK, ns = r->ev->flags & PMC_EVF_TIME_NS;
	char name[4 * PMC_NAME_MAX];

	fprintf(f, "%16.9f%s", r->end_s, sep); /* perf pads the time to 16 columns */
	if (r->scope)
		sep_row_label(f, r->scope, sep);
	if (ok && ns)
		fprintf(f, "%.2f", pmc_count_scaled(c) / 1e6);
	else if (ok)
		fprintf(f, "%.0f", pmc_count_scaled(c));
	else
		fprintf(f, "<%s>", pmc_output_status_name(c->status));
	fprintf(f, "%s%s%s%s%s%llu%s%.2f%s%s%s%s\n", sep, ns ? "msec" : "", sep,
		pmc_output_safe(r->ev->name, name, sizeof(name)), sep,
		ok ? (unsigned long long)c->running : 0ull, sep, ok ? pmc_output_running_pct(c) : 100.0, sep,
		s && s->have ? s->value : "", sep, s && s->have ? s->unit : "");
}

static void sep_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r)
{
	sep_line(f, r, o->sep, NULL);
}

static void sep_interval_group(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r, size_t n)
{
	struct pmc_perf_shadow *s = calloc(n ? n : 1, sizeof(*s));

	if (s && pmc_perf_shadow_interval(r, n, s) < 0) {
		free(s);
		s = NULL; /* out of memory: the lines without their metric */
	}
	for (size_t i = 0; i < n; i++)
		if (r[i].scope || !pmc_output_interval_rows(r, n)) /* rows: perf prints them alone, no total */
			sep_line(f, &r[i], o->sep, s ? &s[i] : NULL);
	free(s);
}

static int sep_report(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	/* -I --summary: perf's "summary" first field (--no-csv-summary: none) */
	return pmc_output_sep(f, rep, o->sep, o->interval_summary && !o->no_csv_summary ? "summary" : NULL);
}

static void csv_interval_begin(FILE *f, const struct pmc_output_opts *o, bool rows)
{
	(void)o, (void)rows;
	pmc_output_interval_csv_header(f);
}

static void csv_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r)
{
	(void)o;
	pmc_output_interval_csv(f, r);
}

static int csv_report(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	(void)o;
	return pmc_output_csv(f, rep);
}

/* runs: the comment line before the checks; no-hardware-pmu: the rows say <not supported>, as perf's do (a note among
 * perf's -x records breaks its readers: perf prints none there) */
static const char *const sep_own_checks[] = { "runs", "no-hardware-pmu", NULL };

const struct pmc_format pmc_format_sep = {
	.id = PMC_OUTPUT_SEP,
	.name = "sep",
	.flag = "-x",
	.report = sep_report,
	.interval = sep_interval,
	.interval_group = sep_interval_group,
	.own_checks = sep_own_checks,
	.topdown_interval = pmc_topdown_interval_sep,
};

const struct pmc_format pmc_format_csv = {
	.id = PMC_OUTPUT_CSV,
	.name = "csv",
	.flag = "--csv",
	.report = csv_report,
	.interval_begin = csv_interval_begin,
	.interval = csv_interval,
	.sweep = pmc_sweep_csv,
	.compare = pmc_compare_csv,
	.merge = pmc_merge_csv,
	.list_begin = pmc_list_csv_begin,
	.list_event = pmc_list_csv_event,
	.topdown_interval = pmc_topdown_interval_csv,
};
