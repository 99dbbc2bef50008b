/* SPDX-License-Identifier: MIT */
/* A stat report measured in this process, as the series sweep and compare work on: the same struct pmc_loaded that
 * reading its JSON gives (load.c), taken from the report's typed fields, with no document in between. The rules are
 * load.c's (which runs are in the statistics, an event's per-run value the mean of its batches' scaled counts); a
 * test holds the two equal on real measurements (tests/sweep/test_loaded_from_report.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load.h"
#include "report/report.h"
#include "report/topdown.h"

/* src into dst, cut to dst's size as the JSON reader's fixed fields cut it. */
#define COPY(dst, src) snprintf(dst, sizeof(dst), "%.*s", (int)sizeof(dst) - 1, src)

static struct pmc_series *series(struct pmc_loaded *l, const char *name, enum pmc_series_kind kind, const char *unit)
{
	struct pmc_series *p = pmc_loaded_add_series(l, name, kind);

	if (p)
		COPY(p->unit, unit ? unit : "");
	return p;
}

/* Run r (0-based) is in the statistics: every run when no execution was kept, else its executions' "used". */
static bool used(const struct pmc_report *rep, unsigned r)
{
	if (!rep->nexecs)
		return true;
	for (size_t i = 0; i < rep->nexecs; i++)
		if (rep->execs[i].run == r)
			return pmc_report_run_used(rep, r);
	return false;
}

static const char *status_word(enum pmc_count_status st)
{
	return st == PMC_COUNT_OK ? "ok" : st == PMC_COUNT_NOT_COUNTED ? "not counted"
	       : st == PMC_COUNT_NOT_SUPPORTED ? "not supported" : "not run";
}

static int event_detail(struct pmc_series *s, const struct pmc_report_event *e)
{
	struct pmc_loaded_event *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	s->ev = d;
	d->has_type = d->has_config = d->has_config1 = true;
	d->type = e->ev.attr.type;
	d->config = e->ev.attr.config;
	d->config1 = e->ev.attr.config1;
	COPY(d->canonical, e->ev.canonical);
	d->fixed_index = e->ev.cls == PMC_CLASS_FIXED && e->ev.fixed_index >= 0 ? e->ev.fixed_index : -1;
	d->anchor = e->ev.flags & PMC_EVF_ANCHOR;
	d->every_batch = e->in_every_batch;
	d->batch = e->in_every_batch || e->batch < 0 ? 0 : e->batch + 1;
	d->total = e->scope.kind == PMC_ROW_ALL;
	d->time_ns = e->ev.flags & PMC_EVF_TIME_NS;
	snprintf(d->status, sizeof(d->status), "%s", status_word(e->status));
	if (!e->nsamples)
		return 0;
	if (!(d->samples = calloc(e->nsamples, sizeof(*d->samples))))
		return -ENOMEM;
	for (size_t i = 0; i < e->nsamples; i++) {
		const struct pmc_count *c = &e->samples[i].count;
		struct pmc_loaded_sample *o = &d->samples[d->nsamples++];
		bool ok = c->status == PMC_COUNT_OK;

		o->run = e->samples[i].run + 1;
		o->batch = e->samples[i].batch + 1;
		o->ok = ok;
		o->value = ok ? (double)c->value : NAN;
		o->enabled_ns = ok ? (double)c->enabled : NAN;
		o->running_ns = ok ? (double)c->running : NAN;
		o->err = c->status == PMC_COUNT_NOT_SUPPORTED && c->err > 0 && c->err <= 4095 ? c->err : 0;
	}
	return 0;
}

static int event(struct pmc_loaded *l, const struct pmc_report *rep, const struct pmc_report_event *e)
{
	struct pmc_series *s = series(l, e->ev.name, PMC_SERIES_EVENT, e->ev.flags & PMC_EVF_TIME_NS ? "ns" : "");

	if (!s || event_detail(s, e))
		return -ENOMEM;
	COPY(s->reason, e->reason);
	for (unsigned r = 0; r < rep->nruns; r++) {
		double sum = 0;
		size_t n = 0;

		if (!used(rep, r))
			continue;
		for (size_t i = 0; i < e->nsamples; i++) {
			const struct pmc_count *c = &e->samples[i].count;
			double v = (double)c->value, en = (double)c->enabled, ru = (double)c->running;

			if (e->samples[i].run != r || c->status != PMC_COUNT_OK)
				continue;
			sum += ru > 0 && en > ru ? v * en / ru : v;
			n++;
		}
		if (n && pmc_series_push(s, sum / (double)n))
			return -ENOMEM;
	}
	if (s->nruns) {
		pmc_series_summarize(s);
	} else if (e->status == PMC_COUNT_OK) { /* no samples kept: the summary */
		s->ok = true;
		s->mean = e->mean;
		s->min = e->min;
		s->max = e->max;
		s->sd = e->nok > 1 ? e->stddev : NAN;
	}
	if (!s->ok && !s->reason[0])
		snprintf(s->reason, sizeof(s->reason), "%s", status_word(e->status));
	return 0;
}

static int metric(struct pmc_loaded *l, const struct pmc_report *rep, size_t m)
{
	const struct pmc_metric_value *mv = &rep->metrics[m];
	struct pmc_series *s = series(l, mv->name, PMC_SERIES_METRIC, mv->unit);

	if (!s)
		return -ENOMEM;
	if (!mv->valid)
		COPY(s->reason, mv->reason);
	for (unsigned r = 0; rep->metric_runs && m < rep->nmetric_runs && r < rep->nruns; r++) {
		double v = rep->metric_runs[m * rep->nruns + r];

		if (isfinite(v) && used(rep, r) && pmc_series_push(s, v))
			return -ENOMEM;
	}
	if (s->nruns) {
		pmc_series_summarize(s);
	} else if (mv->valid && isfinite(mv->value)) {
		s->ok = true;
		s->mean = s->min = s->max = mv->value;
	}
	return 0;
}

/* "wall-time": each used run's wall time, the mean over its batches. */
static int wall_time(struct pmc_loaded *l, const struct pmc_report *rep)
{
	struct pmc_series *s = series(l, "wall-time", PMC_SERIES_TIME, "ns");

	if (!s)
		return -ENOMEM;
	for (unsigned r = 0; r < rep->nruns; r++) {
		double sum = 0;
		size_t n = 0;

		for (size_t i = 0; i < rep->nexecs; i++) {
			const struct pmc_report_exec *x = &rep->execs[i];

			if (x->run == r && pmc_report_run_used(rep, r) && isfinite(x->wall_ns)) {
				sum += round(x->wall_ns);
				n++;
			}
		}
		if (n && pmc_series_push(s, sum / (double)n))
			return -ENOMEM;
	}
	pmc_series_summarize(s);
	if (!s->ok)
		snprintf(s->reason, sizeof(s->reason), "no run completed");
	return 0;
}

/* A kernel's declared counts (EXPECTED_*), the same in every used run. */
static int declared(struct pmc_loaded *l, const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nconsts; i++) {
		struct pmc_series *s;

		if (strncmp(rep->consts[i].name, "EXPECTED_", 9) || !isfinite(rep->consts[i].value))
			continue;
		if (!(s = series(l, rep->consts[i].name, PMC_SERIES_DECLARED, "")))
			return -ENOMEM;
		for (unsigned r = 0; r < (l->runs_used ? l->runs_used : 1); r++)
			if (pmc_series_push(s, rep->consts[i].value))
				return -ENOMEM;
		pmc_series_summarize(s);
	}
	return 0;
}

static double finite_or_nan(double v)
{
	return isfinite(v) ? v : NAN;
}

/* The CPU, the top-down choice, the schedule, constants, executions and checks. */
static int context(struct pmc_loaded *l, const struct pmc_report *rep)
{
	bool cpu = rep->cpu_pmu[0] || rep->cpu_vendor[0];
	static const char *const sev[] = { "info", "warn", "bad" };

	COPY(l->cpu_pmu, rep->cpu_pmu[0] ? rep->cpu_pmu : !cpu && rep->env.present ? rep->env.core_pmu : "");
	snprintf(l->cpu_vendor, sizeof(l->cpu_vendor), "%s", rep->cpu_vendor);
	l->cpu_smt = cpu && rep->cpu_smt >= 0 ? rep->cpu_smt != 0 : -1;
	snprintf(l->target_kind, sizeof(l->target_kind), "%s", rep->target_kind ? rep->target_kind : "command");
	if (rep->topdown) {
		snprintf(l->td_tree, sizeof(l->td_tree), "%s", rep->topdown->tree ? rep->topdown->tree : "");
		l->td_level = rep->topdown->level >= 1 && rep->topdown->level <= 9 ? rep->topdown->level : 0;
	}
	snprintf(l->mode, sizeof(l->mode), "%s", rep->mode ? rep->mode : "single");
	l->batches = rep->nbatches;
	l->tsc_hz = rep->tsc_hz > 0 ? rep->tsc_hz : NAN;
	snprintf(l->tsc_source, sizeof(l->tsc_source), "%s", rep->tsc_source ? rep->tsc_source : "");
	for (size_t i = 0; i < rep->nconsts && l->nconsts < sizeof(l->consts) / sizeof(l->consts[0]); i++) {
		if (!isfinite(rep->consts[i].value))
			continue;
		snprintf(l->consts[l->nconsts].name, sizeof(l->consts[0].name), "%s", rep->consts[i].name);
		l->consts[l->nconsts++].value = rep->consts[i].value;
		if (!strcmp(rep->consts[i].name, "ITERATIONS"))
			l->iterations = rep->consts[i].value;
	}
	if (rep->nexecs && !(l->execs = calloc(rep->nexecs, sizeof(*l->execs))))
		return -ENOMEM;
	for (size_t i = 0; i < rep->nexecs; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];

		l->execs[l->nexecs++] = (struct pmc_loaded_exec){
			.run = x->run + 1, .batch = x->batch + 1, .used = pmc_report_run_used(rep, x->run),
			.interrupted = x->interrupted,
			.exit_status = x->exit_status >= 0 && x->exit_status <= 255 + 128 ? x->exit_status : 0,
			.signal = x->signal >= 0 && x->signal <= 128 ? x->signal : 0,
			.wall_ns = finite_or_nan(round(x->wall_ns)),
			.user_ns = finite_or_nan(round(x->user_s * 1e9)),
			.sys_ns = finite_or_nan(round(x->sys_s * 1e9)) };
	}
	if (rep->nchecks && !(l->checks = calloc(rep->nchecks, sizeof(*l->checks))))
		return -ENOMEM;
	for (size_t i = 0; i < rep->nchecks; i++) {
		struct pmc_loaded_check *o = &l->checks[l->nchecks++];

		snprintf(o->name, sizeof(o->name), "%s", rep->checks[i].name);
		snprintf(o->severity, sizeof(o->severity), "%s", sev[rep->checks[i].severity <= PMC_CHECK_BAD
								     ? rep->checks[i].severity : PMC_CHECK_BAD]);
		snprintf(o->msg, sizeof(o->msg), "%s", rep->checks[i].msg);
	}
	return 0;
}

int pmc_loaded_from_report(const struct pmc_report *rep, struct pmc_loaded *ret)
{
	struct pmc_loaded l;
	int rc;

	memset(&l, 0, sizeof(l));
	snprintf(l.workload, sizeof(l.workload), "%s", rep->workload);
	l.partial = rep->partial;
	l.exit_status = rep->exit_status >= 0 && rep->exit_status <= 255 + 128 ? rep->exit_status : 1;
	l.runs = rep->nruns;
	l.runs_used = rep->runs_used;
	l.runs_failed = rep->runs_failed;
	l.runs_partial = rep->runs_partial;
	l.rank = -1;
	if (rep->has_origin) {
		l.has_origin = true;
		snprintf(l.host, sizeof(l.host), "%s", rep->origin.host);
		snprintf(l.job, sizeof(l.job), "%s", rep->origin.job);
		l.pid = rep->origin.pid;
		l.rank = rep->origin.rank;
	}
	l.env = rep->env;
	rc = context(&l, rep);
	for (size_t i = 0; !rc && i < rep->nevents; i++)
		rc = event(&l, rep, &rep->events[i]);
	for (size_t i = 0; !rc && i < rep->nmetrics; i++)
		rc = metric(&l, rep, i);
	if (!rc)
		rc = wall_time(&l, rep);
	if (!rc)
		rc = declared(&l, rep);
	if (rc) {
		pmc_loaded_fini(&l);
		return rc;
	}
	*ret = l;
	return 0;
}
