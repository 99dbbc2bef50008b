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
static void row_keys(FILE *f, const struct pmc_row_scope *s)
{
	switch (s->kind) {
	case PMC_ROW_ALL:
		return;
	case PMC_ROW_CPU:
		fprintf(f, "\"cpu\" : \"%d\", ", s->cpu);
		return;
	case PMC_ROW_CGROUP: /* after the event, as perf: see perf_json_report */
		return;
	case PMC_ROW_THREAD:
		fputs("\"thread\" : ", f);
		pmc_json_string(f, s->label);
		fputs(", ", f);
		return;
	default:
		fprintf(f, "\"%s\" : ", s->kind == PMC_ROW_SOCKET ? "socket" : s->kind == PMC_ROW_DIE ? "die"
					 : s->kind == PMC_ROW_NODE ? "node" : s->kind == PMC_ROW_CACHE ? "cache" : "core");
		pmc_json_string(f, s->label);
		fprintf(f, ", \"aggregate-number\" : %u, ", s->ncpus);
		return;
	}
}

static void value_keys(FILE *f, bool ok, bool ns, double v, const char *status, const char *name)
{
	char buf[64];

	if (ok)
		snprintf(buf, sizeof(buf), "%f", ns ? v / 1e6 : v);
	else
		snprintf(buf, sizeof(buf), "<%s>", status);
	fprintf(f, "\"counter-value\" : \"%s\", \"unit\" : \"%s\", \"event\" : ", buf, ns ? "msec" : "");
	pmc_json_string(f, name);
}

static void metric_keys(FILE *f, const struct pmc_perf_shadow *s)
{
	fprintf(f, ", \"metric-value\" : %f, \"metric-unit\" : ", s->have ? s->v : 0.0);
	pmc_json_string(f, s->have ? s->unit : "");
	fputs("}\n", f);
}

static int perf_json_report(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	bool variance = rep->nruns > 1, rows = pmc_output_has_rows(rep); /* rows of any kind: perf prints no total */

	(void)o;
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		bool ok = e->status == PMC_COUNT_OK;
		struct pmc_perf_shadow s;

		if (rows && e->scope.kind == PMC_ROW_ALL)
			continue; /* perf prints no total beside rows */
		pmc_perf_shadow(rep, e, &s);
		fputc('{', f);
		row_keys(f, &e->scope);
		value_keys(f, ok, e->ev.flags & PMC_EVF_TIME_NS, e->mean, pmc_output_status_name(e->status), e->ev.name);
		if (e->scope.kind == PMC_ROW_CGROUP) {
			fputs(", \"cgroup\" : ", f);
			pmc_json_string(f, e->scope.label);
		}
		if (variance)
			fprintf(f, ", \"variance\" : %.2f", ok && e->mean > 0 ? 100.0 * pmc_report_sem(e) / e->mean : 0.0);
		fprintf(f, ", \"event-runtime\" : %.0f, \"pcnt-running\" : %.2f", ok ? round(pmc_output_run_ns(rep, e)) : 0.0,
			ok ? e->running_pct : 100.0);
		metric_keys(f, &s);
	}
	/* pmctool's other metrics, as perf prints a metric without an event of its own */
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];

		if (!m->valid || pmc_perf_shadow_placed(rep, m) || (rows && !m->scope[0]))
			continue;
		fprintf(f, "{%s%s%s\"metric-value\" : %f, \"metric-unit\" : ", m->scope[0] ? "\"row\" : \"" : "",
			m->scope, m->scope[0] ? "\", " : "", m->value);
		pmc_json_string(f, m->name);
		fputs("}\n", f);
	}
	return ferror(f) ? -1 : 0;
}

static void interval_line(FILE *f, const struct pmc_interval_record *r, const struct pmc_perf_shadow *s)
{
	const struct pmc_count *c = &r->count;
	bool ok = c->status == PMC_COUNT_OK;

	fprintf(f, "{\"interval\" : %.9f, ", r->end_s);
	if (r->scope)
		row_keys(f, r->scope);
	value_keys(f, ok, r->ev->flags & PMC_EVF_TIME_NS, ok ? pmc_count_scaled(c) : 0, pmc_output_status_name(c->status),
		   r->ev->name);
	fprintf(f, ", \"event-runtime\" : %llu, \"pcnt-running\" : %.2f", ok ? (unsigned long long)c->running : 0ull,
		ok ? pmc_output_running_pct(c) : 100.0);
	metric_keys(f, s);
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
