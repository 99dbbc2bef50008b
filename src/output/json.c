/* SPDX-License-Identifier: MIT */
/* The JSON report: one document per command, described by schema/pmctool-report.schema.json. Conventions (the
 * schema's): every field is always present, null when not measured; times are integer nanoseconds ("_ns"); numbers
 * are printed shortest-round-trip; booleans are true/false; a counter class is programmable/fixed/software/breakpoint. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "output/format.h"
#include "output/output.h"

void pmc_format_shortest(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 9.007199254740992e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void pmc_json_number(FILE *f, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		fputs("null", f);
		return;
	}
	pmc_format_shortest(v, buf, sizeof(buf));
	fputs(buf, f);
}

static const char *json_bool(bool b)
{
	return b ? "true" : "false";
}

void pmc_json_event_encoding(FILE *f, const struct pmc_event *ev)
{
	const struct perf_event_attr *a = &ev->attr;
	char perf[PMC_NAME_MAX * 2];

	fputs("\"name\":", f);
	pmc_json_string(f, ev->name);
	fputs(",\"canonical\":", f);
	pmc_json_string(f, ev->canonical);
	fprintf(f, ",\"type\":%u,\"config\":\"0x%llx\",\"config1\":\"0x%llx\",\"config2\":\"0x%llx\"", a->type,
		(unsigned long long)a->config, (unsigned long long)a->config1, (unsigned long long)a->config2);
	fprintf(f, ",\"exclude_user\":%s,\"exclude_kernel\":%s,\"exclude_hv\":%s,\"class\":\"%s\",\"fixed_index\":",
		json_bool(a->exclude_user), json_bool(a->exclude_kernel), json_bool(a->exclude_hv),
		pmc_output_class_name(ev->cls));
	if (ev->cls == PMC_CLASS_FIXED && ev->fixed_index >= 0)
		fprintf(f, "%d", ev->fixed_index);
	else
		fputs("null", f);
	fputs(",\"perf\":", f);
	if (pmc_event_perf_spelling(ev, perf, sizeof(perf)) == 0)
		pmc_json_string(f, perf);
	else
		fputs("null", f);
	if (ev->source) {
		fputs(",\"source\":", f);
		pmc_json_string(f, ev->source);
	}
}

void pmc_json_header(FILE *f, const char *kind)
{
	fprintf(f, "{\"schema_version\":%d,\"kind\":\"%s\",\"pmctool\":", PMC_JSON_SCHEMA_VERSION, kind);
	pmc_json_string(f, PMC_VERSION);
}

static void stat_field(FILE *f, const char *name, bool ok, double v)
{
	fprintf(f, ",\"%s\":", name);
	pmc_json_number(f, ok ? v : NAN);
}

/* Hybrid CPUs: the core PMU of a per-core-type row and the share of time the workload ran there, or the rows a
 * merged row sums; null on every other row. */
static void json_core_pmu(FILE *f, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	char pmu[64] = "";

	if (e->ev.core_pmu)
		pmc_report_core_pmu_name(e, pmu, sizeof(pmu));
	fputs(",\"core_pmu\":", f);
	pmc_json_string_or_null(f, pmu);
	stat_field(f, "core_share_pct", e->ev.core_pmu && e->status == PMC_COUNT_OK, e->core_share_pct);
	fputs(",\"merged_from\":", f);
	if (!e->nparts) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (unsigned k = 0; k < e->nparts; k++) {
		fputs(k ? "," : "", f);
		pmc_json_string(f, rep->events[e->parts[k]].ev.name);
	}
	fputc(']', f);
}

static void int_or_null(FILE *f, const char *name, bool have, int v)
{
	if (have)
		fprintf(f, ",\"%s\":%d", name, v);
	else
		fprintf(f, ",\"%s\":null", name);
}

void pmc_json_scope(FILE *f, const struct pmc_row_scope *s)
{
	static const char *const kinds[] = { "all", "cpu", "core", "die", "socket", "thread", "cgroup", "node", "cache" };
	enum pmc_row_kind k = s ? s->kind : PMC_ROW_ALL;

	fputs("{\"kind\":", f);
	pmc_json_string(f, kinds[k]);
	fputs(",\"label\":", f);
	pmc_json_string_or_null(f, k == PMC_ROW_ALL ? NULL : s->label);
	int_or_null(f, "cpu", k == PMC_ROW_CPU, s ? s->cpu : 0);
	int_or_null(f, "core", k == PMC_ROW_CPU || k == PMC_ROW_CORE, s ? s->core : 0);
	int_or_null(f, "die", k == PMC_ROW_CPU || k == PMC_ROW_CORE || k == PMC_ROW_DIE, s ? s->die : 0);
	int_or_null(f, "socket", k == PMC_ROW_CPU || k == PMC_ROW_CORE || k == PMC_ROW_DIE || k == PMC_ROW_SOCKET,
		    s ? s->socket : 0);
	int_or_null(f, "pid", k == PMC_ROW_THREAD, s ? s->pid : 0);
	int_or_null(f, "tid", k == PMC_ROW_THREAD, s ? s->tid : 0);
	fputs(",\"comm\":", f);
	pmc_json_string_or_null(f, k == PMC_ROW_THREAD ? s->comm : NULL);
	fputc('}', f);
}

static void json_event(FILE *f, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	bool ok = e->status == PMC_COUNT_OK;

	fputc('{', f);
	pmc_json_event_encoding(f, &e->ev);
	fprintf(f, ",\"anchor\":%s,\"every_batch\":%s,\"batch\":", json_bool(e->ev.flags & PMC_EVF_ANCHOR),
		json_bool(e->in_every_batch));
	if (e->in_every_batch || e->batch < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", e->batch + 1);
	fputs(",\"unit\":", f);
	pmc_json_string_or_null(f, (e->ev.flags & PMC_EVF_TIME_NS) ? "ns" : NULL);
	fputs(",\"status\":", f);
	pmc_json_string(f, pmc_output_status_name(e->status));
	fputs(",\"reason\":", f);
	pmc_json_string_or_null(f, e->reason);
	fprintf(f, ",\"n\":%zu", e->nok);
	stat_field(f, "mean", ok, e->mean);
	stat_field(f, "median", ok, e->median);
	stat_field(f, "stddev", ok && e->nok > 1, e->stddev);
	stat_field(f, "min", ok, e->min);
	stat_field(f, "max", ok, e->max);
	stat_field(f, "running_pct", ok, e->running_pct);
	stat_field(f, "batch_spread_pct", ok && e->batch_spread_pct >= 0, e->batch_spread_pct);
	json_core_pmu(f, rep, e);
	fputs(",\"scope\":", f);
	pmc_json_scope(f, &e->scope);
	fputs(",\"samples\":[", f);
	for (size_t s = 0; s < e->nsamples; s++) {
		const struct pmc_sample *sm = &e->samples[s];
		const struct pmc_count *c = &sm->count;
		bool sok = c->status == PMC_COUNT_OK;

		fprintf(f, "%s{\"run\":%u,\"batch\":%u,\"status\":", s ? "," : "", sm->run + 1, sm->batch + 1);
		pmc_json_string(f, pmc_output_status_name(c->status));
		if (sok)
			fprintf(f, ",\"value\":%llu,\"enabled_ns\":%llu,\"running_ns\":%llu,\"user_only\":%s,\"errno\":null",
				(unsigned long long)c->value, (unsigned long long)c->enabled,
				(unsigned long long)c->running, json_bool(c->flags & PMC_COUNT_USER_ONLY));
		else if (c->status == PMC_COUNT_NOT_SUPPORTED)
			fprintf(f, ",\"value\":null,\"enabled_ns\":null,\"running_ns\":null,\"user_only\":null,\"errno\":%d",
				c->err);
		else
			fputs(",\"value\":null,\"enabled_ns\":null,\"running_ns\":null,\"user_only\":null,\"errno\":null", f);
		fputc('}', f);
	}
	fputs("]}", f);
}

static const char *run_state_name(enum pmc_run_state st)
{
	return st == PMC_RUN_FAILED ? "failed" : st == PMC_RUN_PARTIAL ? "partial" : "ok";
}

static void json_runs(FILE *f, const struct pmc_report *rep)
{
	fprintf(f, ",\"runs\":{\"count\":%u,\"ok\":%u,\"failed\":%u,\"partial\":%u,\"used\":%u,\"statistics_over\":",
		rep->nruns, rep->runs_ok, rep->runs_failed, rep->runs_partial, rep->runs_used);
	pmc_json_string_or_null(f, rep->stats_over);
	fputs("},\"executions\":[", f);
	for (size_t i = 0; i < rep->nexecs; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];
		fprintf(f, "%s{\"run\":%u,\"batch\":%u,\"state\":\"%s\",\"used\":%s,\"exit_status\":%d,\"signal\":",
			i ? "," : "", x->run + 1, x->batch + 1, run_state_name(pmc_report_run_state(rep, x->run)),
			json_bool(pmc_report_run_used(rep, x->run)), x->exit_status);
		if (x->signal)
			fprintf(f, "%d", x->signal);
		else
			fputs("null", f);
		fprintf(f, ",\"interrupted\":%s,\"wall_ns\":", json_bool(x->interrupted));
		pmc_json_number(f, round(x->wall_ns));
		fputs(",\"user_ns\":", f);
		pmc_json_number(f, round(x->user_s * 1e9));
		fputs(",\"sys_ns\":", f);
		pmc_json_number(f, round(x->sys_s * 1e9));
		fputc('}', f);
	}
	fputc(']', f);
}

void pmc_json_metric_fields(FILE *f, const struct pmc_metric_value *m)
{
	fputs("{\"name\":", f);
	pmc_json_string(f, m->name);
	fputs(",\"unit\":", f);
	pmc_json_string_or_null(f, m->unit);
	fputs(",\"value\":", f);
	pmc_json_number(f, m->valid ? m->value : NAN);
	fputs(",\"reason\":", f);
	pmc_json_string_or_null(f, m->valid ? NULL : m->reason);
	fputs(",\"description\":", f);
	pmc_json_string_or_null(f, m->desc);
	fputs(",\"scope\":", f);
	pmc_json_string_or_null(f, m->scope);
}

/* A metric's value in each run, so that two reports can be compared over per-run samples. */
static void json_metric_runs(FILE *f, const struct pmc_report *rep, size_t m)
{
	fputs(",\"samples\":[", f);
	for (unsigned r = 0; rep->metric_runs && m < rep->nmetric_runs && r < rep->nruns; r++) {
		fprintf(f, "%s{\"run\":%u,\"value\":", r ? "," : "", r + 1);
		pmc_json_number(f, rep->metric_runs[m * rep->nruns + r]);
		fputc('}', f);
	}
	fputc(']', f);
}

/* Where the report was made: null when unknown (reports built in memory by tests). */
static void json_origin(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_origin *o = &rep->origin;

	fputs(",\"origin\":", f);
	if (!rep->has_origin) {
		fputs("null", f);
		return;
	}
	fputs("{\"host\":", f);
	pmc_json_string(f, o->host);
	fprintf(f, ",\"pid\":%ld,\"rank\":", o->pid);
	if (o->rank >= 0)
		fprintf(f, "%ld", o->rank);
	else
		fputs("null", f);
	fputs(",\"rank_from\":", f);
	pmc_json_string_or_null(f, o->rank_from);
	fputs(",\"job\":", f);
	pmc_json_string_or_null(f, o->job);
	fputc('}', f);
}

/* "environment": where it was measured (report/env.h); null fields where unknown, the object null when none. */
static void json_env(FILE *f, const struct pmc_env *e)
{
	fputs(",\"environment\":", f);
	if (!e->present) {
		fputs("null", f);
		return;
	}
	for (size_t i = 0; i < PMC_ENV_FIELDS; i++) {
		const char *name;
		char v[256];

		pmc_env_field(e, i, &name, v, sizeof(v));
		fprintf(f, "%s\"%s\":", i ? "," : "{", name);
		if (i == 3)
			fputs(json_bool(e->hypervisor), f);
		else
			pmc_json_string_or_null(f, v);
	}
	fputc('}', f);
}

int pmc_output_json(FILE *f, const struct pmc_report *rep)
{
	pmc_json_header(f, "stat");
	fputs(",\"workload\":", f);
	pmc_json_string(f, rep->workload);
	json_origin(f, rep);
	json_env(f, &rep->env);
	fputs(",\"mode\":", f);
	pmc_json_string(f, rep->mode ? rep->mode : "single");
	fprintf(f, ",\"batches\":%u", rep->nbatches);
	fputs(",\"target\":{\"kind\":", f);
	pmc_json_string(f, rep->target_kind ? rep->target_kind : "command");
	fputs(",\"description\":", f);
	pmc_json_string_or_null(f, rep->target);
	fputs(",\"aggregation\":", f);
	pmc_json_string(f, rep->aggregation ? rep->aggregation : "none");
	fputs(",\"ended_by\":", f);
	pmc_json_string_or_null(f, rep->ended_by);
	fputs(",\"interval_ms\":", f);
	pmc_json_number(f, rep->interval_ms > 0 ? rep->interval_ms : NAN);
	fprintf(f, ",\"intervals\":%u}", rep->intervals);
	json_runs(f, rep);
	fprintf(f, ",\"partial\":%s,\"exit_status\":%d,\"signal\":", json_bool(rep->partial), rep->exit_status);
	if (rep->term_signal)
		fprintf(f, "%d", rep->term_signal);
	else
		fputs("null", f);
	fputs(",\"wall_ns\":{\"mean\":", f);
	pmc_json_number(f, round(rep->wall_ns_mean));
	fputs(",\"min\":", f);
	pmc_json_number(f, round(rep->wall_ns_min));
	fputs(",\"max\":", f);
	pmc_json_number(f, round(rep->wall_ns_max));
	/* -D and --control: how long counting was on, delayed and switched off (the time metrics are over the first) */
	fputs("},\"counting_ns\":{\"enabled\":", f);
	pmc_json_number(f, round(pmc_report_counting_ns(rep)));
	fputs(",\"delayed\":", f);
	pmc_json_number(f, round(rep->delayed_ns_mean));
	fputs(",\"disabled\":", f);
	pmc_json_number(f, round(rep->disabled_ns_mean));
	fputs("},\"user_ns\":", f);
	pmc_json_number(f, round(rep->user_s * 1e9));
	fputs(",\"sys_ns\":", f);
	pmc_json_number(f, round(rep->sys_s * 1e9));
	fputs(",\"tsc_hz\":", f);
	pmc_json_number(f, rep->tsc_hz > 0 ? rep->tsc_hz : NAN);
	fputs(",\"tsc_source\":", f);
	pmc_json_string_or_null(f, rep->tsc_source);
	fputs(",\"constants\":{", f);
	for (size_t i = 0; i < rep->nconsts; i++) {
		if (i)
			fputc(',', f);
		pmc_json_string(f, rep->consts[i].name);
		fputc(':', f);
		pmc_json_number(f, rep->consts[i].value);
	}
	fputs("},\"events\":[", f);
	for (size_t i = 0; i < rep->nevents; i++) {
		if (i)
			fputc(',', f);
		json_event(f, rep, &rep->events[i]);
	}
	fputs("],\"metrics\":[", f);
	for (size_t i = 0; i < rep->nmetrics; i++) {
		fputs(i ? "," : "", f);
		pmc_json_metric_fields(f, &rep->metrics[i]);
		json_metric_runs(f, rep, i);
		fputc('}', f);
	}
	fputc(']', f);
	pmc_output_regions_json(f, rep);
	pmc_output_topdown_json(f, rep);
	fputs(",\"checks\":[", f);
	for (size_t i = 0; i < rep->nchecks; i++) {
		const struct pmc_check_note *c = &rep->checks[i];
		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		pmc_json_string(f, c->name);
		fprintf(f, ",\"severity\":\"%s\",\"message\":",
			c->severity == PMC_CHECK_BAD ? "bad" : c->severity == PMC_CHECK_WARN ? "warn" : "info");
		pmc_json_string(f, c->msg);
		fputc('}', f);
	}
	fputs("]}\n", f);
	return ferror(f) ? -1 : 0;
}

/* ---- -I records (one JSON object a line) and the registry entry ---- */

static void json_line(FILE *f, const struct pmc_interval_record *r)
{
	const struct pmc_count *c = &r->count;
	bool ok = c->status == PMC_COUNT_OK;

	pmc_json_header(f, "interval");
	fprintf(f, ",\"interval\":%u,\"start_ns\":", r->interval);
	pmc_json_number(f, round(r->start_s * 1e9));
	fputs(",\"end_ns\":", f);
	pmc_json_number(f, round(r->end_s * 1e9));
	fputs(",\"batch\":", f);
	if (r->batch >= 0)
		fprintf(f, "%d", r->batch + 1);
	else
		fputs("null", f);
	fputs(",\"event\":", f);
	pmc_json_string(f, r->ev->name);
	fputs(",\"canonical\":", f);
	pmc_json_string(f, r->ev->canonical);
	fputs(",\"unit\":", f);
	pmc_json_string_or_null(f, (r->ev->flags & PMC_EVF_TIME_NS) ? "ns" : NULL);
	fputs(",\"status\":", f);
	pmc_json_string(f, pmc_output_status_name(c->status));
	if (ok) {
		fprintf(f, ",\"value\":%llu,\"scaled\":", (unsigned long long)c->value);
		pmc_json_number(f, round(pmc_count_scaled(c)));
		fprintf(f, ",\"enabled_ns\":%llu,\"running_ns\":%llu,\"running_pct\":", (unsigned long long)c->enabled,
			(unsigned long long)c->running);
		pmc_json_number(f, pmc_output_running_pct(c));
	} else {
		fputs(",\"value\":null,\"scaled\":null,\"enabled_ns\":null,\"running_ns\":null,\"running_pct\":null", f);
	}
	fputs(",\"scope\":", f);
	pmc_json_scope(f, r->scope);
	fputs("}\n", f);
}

static void json_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r)
{
	(void)o;
	json_line(f, r);
}

static int json_report(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	(void)o;
	return pmc_output_json(f, rep);
}

const struct pmc_format pmc_format_json = {
	.id = PMC_OUTPUT_JSON,
	.name = "json",
	.flag = "--json",
	.report = json_report,
	.interval = json_interval,
};
