/* SPDX-License-Identifier: MIT */
/* -j / --json-output: perf stat's JSON lines (perf 6.1), one object per event and row, keys in perf's order:
 * [interval,] [cpu | socket/die/core + aggregate-number | thread,] counter-value (a string, or "<not supported>" /
 * "<not counted>"), unit, event, [variance with -r,] event-runtime, pcnt-running, metric-value, metric-unit (perf's
 * metric beside the event: output/perf_shadow.c). pmctool's own document is --json; this is for perf's readers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/format.h"
#include "output/perf_shadow.h"
#include "util/json_write.h"

/* perf's keys for a row: "cpu" : "3" (-A), "socket" : "S0" and the number of CPUs aggregated (--per-*), "thread". */
static void row_keys(struct pmc_jw *w, const struct pmc_row_scope *s)
{
	char cpu[16];

	switch (s->kind) {
	case PMC_ROW_ALL:
		return;
	case PMC_ROW_CPU:
		snprintf(cpu, sizeof(cpu), "%d", s->cpu);
		pmc_jw_kstr(w, "cpu", cpu);
		return;
	case PMC_ROW_CGROUP: /* after the event, as perf: see perf_json_report */
		return;
	case PMC_ROW_THREAD:
		pmc_jw_kstr(w, "thread", s->label);
		return;
	default:
		pmc_jw_kstr(w, s->kind == PMC_ROW_SOCKET ? "socket" : s->kind == PMC_ROW_DIE ? "die"
			    : s->kind == PMC_ROW_NODE ? "node" : s->kind == PMC_ROW_CACHE ? "cache" : "core", s->label);
		pmc_jw_kuint(w, "aggregate-number", s->ncpus);
		return;
	}
}

static void value_keys(struct pmc_jw *w, bool ok, bool ns, double v, const char *status, const char *name)
{
	char buf[64];

	if (ok)
		snprintf(buf, sizeof(buf), "%f", ns ? v / 1e6 : v);
	else
		snprintf(buf, sizeof(buf), "<%s>", status);
	pmc_jw_kstr(w, "counter-value", buf);
	pmc_jw_kstr(w, "unit", ns ? "msec" : "");
	pmc_jw_kstr(w, "event", name);
}

/* perf's metric beside the event, and the line's end */
static void metric_keys(struct pmc_jw *w, const struct pmc_perf_shadow *s)
{
	pmc_jw_kfixed(w, "metric-value", 6, s->have ? s->v : 0.0);
	pmc_jw_kstr(w, "metric-unit", s->have ? s->unit : "");
	pmc_jw_object_end(w);
	fputc('\n', w->f);
}

static int perf_json_report(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	bool variance = rep->nruns > 1, rows = pmc_output_has_rows(rep); /* rows of any kind: perf prints no total */
	struct pmc_jw jw, *w = &jw;

	(void)o;
	pmc_jw_init(w, f, PMC_JW_PERF);
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		bool ok = e->status == PMC_COUNT_OK;
		struct pmc_perf_shadow s;

		if (rows && e->scope.kind == PMC_ROW_ALL)
			continue; /* perf prints no total beside rows */
		pmc_perf_shadow(rep, e, &s);
		pmc_jw_object_begin(w);
		row_keys(w, &e->scope);
		value_keys(w, ok, e->ev.flags & PMC_EVF_TIME_NS, e->mean, pmc_output_status_name(e->status), e->ev.name);
		if (e->scope.kind == PMC_ROW_CGROUP)
			pmc_jw_kstr(w, "cgroup", e->scope.label);
		if (variance)
			pmc_jw_kfixed(w, "variance", 2, ok && e->mean > 0 ? 100.0 * pmc_report_sem(e) / e->mean : 0.0);
		pmc_jw_kfixed(w, "event-runtime", 0, ok ? round(pmc_output_run_ns(rep, e)) : 0.0);
		pmc_jw_kfixed(w, "pcnt-running", 2, ok ? e->running_pct : 100.0);
		metric_keys(w, &s);
	}
	/* pmctool's other metrics, as perf prints a metric without an event of its own */
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];

		if (!m->valid || pmc_perf_shadow_placed(rep, m) || (rows && !m->scope[0]))
			continue;
		pmc_jw_object_begin(w);
		if (m->scope[0])
			pmc_jw_kstr(w, "row", m->scope);
		pmc_jw_kfixed(w, "metric-value", 6, m->value);
		pmc_jw_kstr(w, "metric-unit", m->name);
		pmc_jw_object_end(w);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

static void interval_line(FILE *f, const struct pmc_interval_record *r, const struct pmc_perf_shadow *s)
{
	const struct pmc_count *c = &r->count;
	bool ok = c->status == PMC_COUNT_OK;
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, PMC_JW_PERF);
	pmc_jw_object_begin(w);
	pmc_jw_kfixed(w, "interval", 9, r->end_s);
	if (r->scope)
		row_keys(w, r->scope);
	value_keys(w, ok, r->ev->flags & PMC_EVF_TIME_NS, ok ? pmc_count_scaled(c) : 0, pmc_output_status_name(c->status),
		   r->ev->name);
	pmc_jw_kuint(w, "event-runtime", ok ? (unsigned long long)c->running : 0ull);
	pmc_jw_kfixed(w, "pcnt-running", 2, ok ? pmc_output_running_pct(c) : 100.0);
	metric_keys(w, s);
}

static void perf_json_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r)
{
	struct pmc_perf_shadow none = { 0 };

	(void)o;
	interval_line(f, r, &none);
}

static void perf_json_interval_group(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r,
				     size_t n)
{
	struct pmc_perf_shadow *s = calloc(n ? n : 1, sizeof(*s)), none = { 0 };
	bool have = s && pmc_perf_shadow_interval(r, n, s) == 0;

	(void)o;
	for (size_t i = 0; i < n; i++)
		if (r[i].scope || !pmc_output_interval_rows(r, n)) /* rows: perf prints them alone, no total */
			interval_line(f, &r[i], have ? &s[i] : &none);
	free(s);
}

const struct pmc_format pmc_format_perf_json = {
	.id = PMC_OUTPUT_PERF_JSON,
	.name = "perf-json",
	.flag = "-j",
	.report = perf_json_report,
	.interval = perf_json_interval,
	.interval_group = perf_json_interval_group,
};
