/* SPDX-License-Identifier: MIT */
/* The JSON report: one document per command, described by schema/pmctool-report.schema.json. Conventions (the
 * schema's): every field is always present, null when not measured; times are integer nanoseconds ("_ns"); numbers
 * are printed shortest-round-trip; booleans are true/false; a counter class is programmable/fixed/software/breakpoint. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "output/format.h"
#include "output/check.h"
#include "output/encode.h"
#include "output/info.h"
#include "output/list.h"
#include "output/multi.h"
#include "output/sets.h"
#include "output/tables_report.h"
#include "output/output.h"

void pmc_format_shortest(double v, char *buf, size_t len)
{
	pmc_json_shortest(v, buf, len);
}

void pmc_json_event_encoding(struct pmc_jw *w, const struct pmc_event *ev)
{
	const struct perf_event_attr *a = &ev->attr;
	char perf[PMC_NAME_MAX * 2], hex[24];

	pmc_jw_kstr(w, "name", ev->name);
	pmc_jw_kstr(w, "canonical", ev->canonical);
	pmc_jw_kuint(w, "type", a->type);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)a->config);
	pmc_jw_kstr(w, "config", hex);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)a->config1);
	pmc_jw_kstr(w, "config1", hex);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)a->config2);
	pmc_jw_kstr(w, "config2", hex);
	pmc_jw_kbool(w, "exclude_user", a->exclude_user);
	pmc_jw_kbool(w, "exclude_kernel", a->exclude_kernel);
	pmc_jw_kbool(w, "exclude_hv", a->exclude_hv);
	pmc_jw_kstr(w, "class", pmc_output_class_name(ev->cls));
	pmc_jw_kint_if(w, "fixed_index", ev->cls == PMC_CLASS_FIXED && ev->fixed_index >= 0, ev->fixed_index);
	pmc_jw_kstr_or_null(w, "perf", pmc_event_perf_spelling(ev, perf, sizeof(perf)) == 0 ? perf : NULL);
	if (ev->source)
		pmc_jw_kstr(w, "source", ev->source);
}

void pmc_json_header(struct pmc_jw *w, const char *kind)
{
	pmc_jw_object_begin(w);
	pmc_jw_kint(w, "schema_version", PMC_JSON_SCHEMA_VERSION);
	pmc_jw_kstr(w, "kind", kind);
	pmc_jw_kstr(w, "pmctool", PMC_VERSION);
}

/* Hybrid CPUs: the core PMU of a per-core-type row and the share of time the workload ran there, or the rows a
 * merged row sums; null on every other row. */
static void json_core_pmu(struct pmc_jw *w, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	char pmu[64] = "";

	if (e->ev.core_pmu)
		pmc_report_core_pmu_name(e, pmu, sizeof(pmu));
	pmc_jw_kstr_or_null(w, "core_pmu", pmu);
	pmc_jw_knum_if(w, "core_share_pct", e->ev.core_pmu && e->status == PMC_COUNT_OK, e->core_share_pct);
	if (!e->nparts) {
		pmc_jw_knull(w, "merged_from");
		return;
	}
	pmc_jw_karray_begin(w, "merged_from");
	for (unsigned k = 0; k < e->nparts; k++)
		pmc_jw_str(w, rep->events[e->parts[k]].ev.name);
	pmc_jw_array_end(w);
}

void pmc_json_scope(struct pmc_jw *w, const struct pmc_row_scope *s)
{
	static const char *const kinds[] = { "all", "cpu", "core", "die", "socket", "thread", "cgroup", "node", "cache" };
	enum pmc_row_kind k = s ? s->kind : PMC_ROW_ALL;

	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "kind", kinds[k]);
	pmc_jw_kstr_or_null(w, "label", k == PMC_ROW_ALL ? NULL : s->label);
	pmc_jw_kint_if(w, "cpu", k == PMC_ROW_CPU, s ? s->cpu : 0);
	pmc_jw_kint_if(w, "core", k == PMC_ROW_CPU || k == PMC_ROW_CORE, s ? s->core : 0);
	pmc_jw_kint_if(w, "die", k == PMC_ROW_CPU || k == PMC_ROW_CORE || k == PMC_ROW_DIE, s ? s->die : 0);
	pmc_jw_kint_if(w, "socket", k == PMC_ROW_CPU || k == PMC_ROW_CORE || k == PMC_ROW_DIE || k == PMC_ROW_SOCKET,
		       s ? s->socket : 0);
	pmc_jw_kint_if(w, "pid", k == PMC_ROW_THREAD, s ? s->pid : 0);
	pmc_jw_kint_if(w, "tid", k == PMC_ROW_THREAD, s ? s->tid : 0);
	pmc_jw_kstr_or_null(w, "comm", k == PMC_ROW_THREAD ? s->comm : NULL);
	pmc_jw_object_end(w);
}

static void json_sample(struct pmc_jw *w, const struct pmc_sample *sm)
{
	const struct pmc_count *c = &sm->count;
	bool ok = c->status == PMC_COUNT_OK;

	pmc_jw_object_begin(w);
	pmc_jw_kuint(w, "run", sm->run + 1);
	pmc_jw_kuint(w, "batch", sm->batch + 1);
	pmc_jw_kstr(w, "status", pmc_output_status_name(c->status));
	pmc_jw_kuint_if(w, "value", ok, c->value);
	pmc_jw_kuint_if(w, "enabled_ns", ok, c->enabled);
	pmc_jw_kuint_if(w, "running_ns", ok, c->running);
	pmc_jw_key(w, "user_only");
	if (ok)
		pmc_jw_bool(w, c->flags & PMC_COUNT_USER_ONLY);
	else
		pmc_jw_null(w);
	pmc_jw_kint_if(w, "errno", c->status == PMC_COUNT_NOT_SUPPORTED, c->err);
	pmc_jw_object_end(w);
}

static void json_event(struct pmc_jw *w, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	bool ok = e->status == PMC_COUNT_OK;

	pmc_jw_object_begin(w);
	pmc_json_event_encoding(w, &e->ev);
	pmc_jw_kbool(w, "anchor", e->ev.flags & PMC_EVF_ANCHOR);
	pmc_jw_kbool(w, "every_batch", e->in_every_batch);
	pmc_jw_kint_if(w, "batch", !e->in_every_batch && e->batch >= 0, e->batch + 1);
	pmc_jw_kstr_or_null(w, "unit", (e->ev.flags & PMC_EVF_TIME_NS) ? "ns" : NULL);
	pmc_jw_kstr(w, "status", pmc_output_status_name(e->status));
	pmc_jw_kstr_or_null(w, "reason", e->reason);
	pmc_jw_kuint(w, "n", e->nok);
	pmc_jw_knum_if(w, "mean", ok, e->mean);
	pmc_jw_knum_if(w, "median", ok, e->median);
	pmc_jw_knum_if(w, "stddev", ok && e->nok > 1, e->stddev);
	pmc_jw_knum_if(w, "min", ok, e->min);
	pmc_jw_knum_if(w, "max", ok, e->max);
	pmc_jw_knum_if(w, "running_pct", ok, e->running_pct);
	pmc_jw_knum_if(w, "batch_spread_pct", ok && e->batch_spread_pct >= 0, e->batch_spread_pct);
	json_core_pmu(w, rep, e);
	pmc_jw_key(w, "scope");
	pmc_json_scope(w, &e->scope);
	pmc_jw_karray_begin(w, "samples");
	for (size_t s = 0; s < e->nsamples; s++)
		json_sample(w, &e->samples[s]);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

static const char *run_state_name(enum pmc_run_state st)
{
	return st == PMC_RUN_FAILED ? "failed" : st == PMC_RUN_PARTIAL ? "partial" : "ok";
}

static void json_runs(struct pmc_jw *w, const struct pmc_report *rep)
{
	pmc_jw_kobject_begin(w, "runs");
	pmc_jw_kuint(w, "count", rep->nruns);
	pmc_jw_kuint(w, "ok", rep->runs_ok);
	pmc_jw_kuint(w, "failed", rep->runs_failed);
	pmc_jw_kuint(w, "partial", rep->runs_partial);
	pmc_jw_kuint(w, "used", rep->runs_used);
	pmc_jw_kstr_or_null(w, "statistics_over", rep->stats_over);
	pmc_jw_object_end(w);
	pmc_jw_karray_begin(w, "executions");
	for (size_t i = 0; i < rep->nexecs; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];

		pmc_jw_object_begin(w);
		pmc_jw_kuint(w, "run", x->run + 1);
		pmc_jw_kuint(w, "batch", x->batch + 1);
		pmc_jw_kstr(w, "state", run_state_name(pmc_report_run_state(rep, x->run)));
		pmc_jw_kbool(w, "used", pmc_report_run_used(rep, x->run));
		pmc_jw_kint(w, "exit_status", x->exit_status);
		pmc_jw_kint_if(w, "signal", x->signal, x->signal);
		pmc_jw_kbool(w, "interrupted", x->interrupted);
		pmc_jw_knum(w, "wall_ns", round(x->wall_ns));
		pmc_jw_knum(w, "user_ns", round(x->user_s * 1e9));
		pmc_jw_knum(w, "sys_ns", round(x->sys_s * 1e9));
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

void pmc_json_metric_fields(struct pmc_jw *w, const struct pmc_metric_value *m)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", m->name);
	pmc_jw_kstr_or_null(w, "unit", m->unit);
	pmc_jw_knum_if(w, "value", m->valid, m->value);
	pmc_jw_kstr_or_null(w, "reason", m->valid ? NULL : m->reason);
	pmc_jw_kstr_or_null(w, "description", m->desc);
	pmc_jw_kstr_or_null(w, "scope", m->scope);
}

/* A metric's value in each run, so that two reports can be compared over per-run samples. */
static void json_metric_runs(struct pmc_jw *w, const struct pmc_report *rep, size_t m)
{
	pmc_jw_karray_begin(w, "samples");
	for (unsigned r = 0; rep->metric_runs && m < rep->nmetric_runs && r < rep->nruns; r++) {
		pmc_jw_object_begin(w);
		pmc_jw_kuint(w, "run", r + 1);
		pmc_jw_knum(w, "value", rep->metric_runs[m * rep->nruns + r]);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

/* Where the report was made: null when unknown (reports built in memory by tests). */
static void json_origin(struct pmc_jw *w, const struct pmc_report *rep)
{
	const struct pmc_origin *o = &rep->origin;

	if (!rep->has_origin) {
		pmc_jw_knull(w, "origin");
		return;
	}
	pmc_jw_kobject_begin(w, "origin");
	pmc_jw_kstr(w, "host", o->host);
	pmc_jw_kint(w, "pid", o->pid);
	pmc_jw_kint_if(w, "rank", o->rank >= 0, o->rank);
	pmc_jw_kstr_or_null(w, "rank_from", o->rank_from);
	pmc_jw_kstr_or_null(w, "job", o->job);
	pmc_jw_object_end(w);
}

/* "environment": where it was measured (report/env.h); null fields where unknown, the object null when none. */
static void json_env(struct pmc_jw *w, const struct pmc_env *e)
{
	if (!e->present) {
		pmc_jw_knull(w, "environment");
		return;
	}
	pmc_jw_kobject_begin(w, "environment");
	for (size_t i = 0; i < PMC_ENV_FIELDS; i++) {
		const char *name;
		char v[256];

		pmc_env_field(e, i, &name, v, sizeof(v));
		if (i == 3)
			pmc_jw_kbool(w, name, e->hypervisor);
		else
			pmc_jw_kstr_or_null(w, name, v);
	}
	pmc_jw_object_end(w);
}

static void json_target(struct pmc_jw *w, const struct pmc_report *rep)
{
	pmc_jw_kobject_begin(w, "target");
	pmc_jw_kstr(w, "kind", rep->target_kind ? rep->target_kind : "command");
	pmc_jw_kstr_or_null(w, "description", rep->target);
	pmc_jw_kstr(w, "aggregation", rep->aggregation ? rep->aggregation : "none");
	pmc_jw_kstr_or_null(w, "ended_by", rep->ended_by);
	pmc_jw_knum_if(w, "interval_ms", rep->interval_ms > 0, rep->interval_ms);
	pmc_jw_kuint(w, "intervals", rep->intervals);
	pmc_jw_object_end(w);
}

static void json_times(struct pmc_jw *w, const struct pmc_report *rep)
{
	pmc_jw_kobject_begin(w, "wall_ns");
	pmc_jw_knum(w, "mean", round(rep->wall_ns_mean));
	pmc_jw_knum(w, "min", round(rep->wall_ns_min));
	pmc_jw_knum(w, "max", round(rep->wall_ns_max));
	pmc_jw_object_end(w);
	/* -D and --control: how long counting was on, delayed and switched off (the time metrics are over the first) */
	pmc_jw_kobject_begin(w, "counting_ns");
	pmc_jw_knum(w, "enabled", round(pmc_report_counting_ns(rep)));
	pmc_jw_knum(w, "delayed", round(rep->delayed_ns_mean));
	pmc_jw_knum(w, "disabled", round(rep->disabled_ns_mean));
	pmc_jw_object_end(w);
	pmc_jw_knum(w, "user_ns", round(rep->user_s * 1e9));
	pmc_jw_knum(w, "sys_ns", round(rep->sys_s * 1e9));
	pmc_jw_knum_if(w, "tsc_hz", rep->tsc_hz > 0, rep->tsc_hz);
	pmc_jw_kstr_or_null(w, "tsc_source", rep->tsc_source);
}

static void json_checks(struct pmc_jw *w, const struct pmc_report *rep)
{
	pmc_jw_karray_begin(w, "checks");
	for (size_t i = 0; i < rep->nchecks; i++) {
		const struct pmc_check_note *c = &rep->checks[i];

		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", c->name);
		pmc_jw_kstr(w, "severity",
			    c->severity == PMC_CHECK_BAD ? "bad" : c->severity == PMC_CHECK_WARN ? "warn" : "info");
		pmc_jw_kstr(w, "message", c->msg);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

int pmc_output_json(FILE *f, const struct pmc_report *rep)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_header(w, "stat");
	pmc_jw_kstr(w, "workload", rep->workload);
	json_origin(w, rep);
	json_env(w, &rep->env);
	pmc_jw_kstr(w, "mode", rep->mode ? rep->mode : "single");
	pmc_jw_kuint(w, "batches", rep->nbatches);
	json_target(w, rep);
	json_runs(w, rep);
	pmc_jw_kbool(w, "partial", rep->partial);
	pmc_jw_kint(w, "exit_status", rep->exit_status);
	pmc_jw_kint_if(w, "signal", rep->term_signal, rep->term_signal);
	json_times(w, rep);
	if (rep->cpu_pmu[0] || rep->cpu_vendor[0]) { /* the CPU, for pmctool report (absent when unknown) */
		pmc_jw_kobject_begin(w, "cpu");
		pmc_jw_kstr_or_null(w, "pmu", rep->cpu_pmu);
		pmc_jw_kstr_or_null(w, "vendor", rep->cpu_vendor);
		pmc_jw_key(w, "smt");
		if (rep->cpu_smt < 0)
			pmc_jw_null(w);
		else
			pmc_jw_bool(w, rep->cpu_smt);
		pmc_jw_object_end(w);
	}
	pmc_jw_kobject_begin(w, "constants");
	for (size_t i = 0; i < rep->nconsts; i++)
		pmc_jw_knum(w, rep->consts[i].name, rep->consts[i].value);
	pmc_jw_object_end(w);
	pmc_jw_karray_begin(w, "events");
	for (size_t i = 0; i < rep->nevents; i++)
		json_event(w, rep, &rep->events[i]);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "metrics");
	for (size_t i = 0; i < rep->nmetrics; i++) {
		pmc_json_metric_fields(w, &rep->metrics[i]);
		json_metric_runs(w, rep, i);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_output_regions_json(w, rep);
	pmc_output_topdown_json(w, rep);
	json_checks(w, rep);
	pmc_jw_object_end(w);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}

/* ---- -I records (one JSON object a line) and the registry entry ---- */

void pmc_json_interval_header(struct pmc_jw *w, const char *kind, unsigned interval, double start_s, double end_s)
{
	pmc_json_header(w, kind);
	pmc_jw_kuint(w, "interval", interval);
	pmc_jw_knum(w, "start_ns", round(start_s * 1e9));
	pmc_jw_knum(w, "end_ns", round(end_s * 1e9));
}

static void json_line(FILE *f, const struct pmc_interval_record *r)
{
	const struct pmc_count *c = &r->count;
	bool ok = c->status == PMC_COUNT_OK;
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_interval_header(w, "interval", r->interval, r->start_s, r->end_s);
	pmc_jw_kint_if(w, "batch", r->batch >= 0, r->batch + 1);
	pmc_jw_kstr(w, "event", r->ev->name);
	pmc_jw_kstr(w, "canonical", r->ev->canonical);
	pmc_jw_kstr_or_null(w, "unit", (r->ev->flags & PMC_EVF_TIME_NS) ? "ns" : NULL);
	pmc_jw_kstr(w, "status", pmc_output_status_name(c->status));
	pmc_jw_kuint_if(w, "value", ok, c->value);
	pmc_jw_knum_if(w, "scaled", ok, round(pmc_count_scaled(c)));
	pmc_jw_kuint_if(w, "enabled_ns", ok, c->enabled);
	pmc_jw_kuint_if(w, "running_ns", ok, c->running);
	pmc_jw_knum_if(w, "running_pct", ok, pmc_output_running_pct(c));
	pmc_jw_key(w, "scope");
	pmc_json_scope(w, r->scope);
	pmc_jw_object_end(w);
	fputc('\n', f);
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
	.sweep = pmc_sweep_json,
	.compare = pmc_compare_json,
	.merge = pmc_merge_json,
	.info = pmc_info_json,
	.tables = pmc_tables_json,
	.set = pmc_set_json,
	.sets = pmc_sets_json,
	.check = pmc_check_json,
	.list_begin = pmc_list_json_begin,
	.list_event = pmc_list_json_event,
	.list_end = pmc_list_json_end,
	.topdown_interval = pmc_topdown_interval_json,
	.encode_begin = pmc_encode_json_begin,
	.encode_event = pmc_encode_json_event,
	.encode_end = pmc_encode_json_end,
};
