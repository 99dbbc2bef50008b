/* SPDX-License-Identifier: MIT */
/* A saved stat report back as a struct pmc_report (pmctool report), and finding its events by encoding. */
#include "report/replay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A report event written without a type or config: its attr.type, which no perf type has. */
#define TYPE_UNKNOWN UINT32_MAX

static enum pmc_counter_class class_of(const char *cls)
{
	if (!strcmp(cls, "fixed"))
		return PMC_CLASS_FIXED;
	if (!strcmp(cls, "software"))
		return PMC_CLASS_FREE;
	if (!strcmp(cls, "breakpoint"))
		return PMC_CLASS_BREAKPOINT;
	return PMC_CLASS_GP;
}

static enum pmc_count_status status_of(const char *st)
{
	if (!strcmp(st, "ok"))
		return PMC_COUNT_OK;
	if (!strcmp(st, "not supported"))
		return PMC_COUNT_NOT_SUPPORTED;
	if (!strcmp(st, "not run"))
		return PMC_COUNT_NOT_RUN;
	return PMC_COUNT_NOT_COUNTED;
}

/* A count as the report wrote it: a whole number of at most 64 bits (a mean written by hand is rounded). */
static uint64_t count_of(double v)
{
	return isfinite(v) && v > 0 ? (v >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)llround(v)) : 0;
}

static int add_event(struct pmc_report *rep, const struct pmc_series *s)
{
	const struct pmc_loaded_event *d = s->ev;
	struct pmc_report_event *e;
	unsigned maxbatch = 0;

	e = &rep->events[rep->nevents++];
	memset(e, 0, sizeof(*e));
	snprintf(e->ev.name, sizeof(e->ev.name), "%s", s->name);
	snprintf(e->ev.canonical, sizeof(e->ev.canonical), "%s", d->canonical[0] ? d->canonical : s->name);
	e->ev.attr.size = sizeof(e->ev.attr);
	e->ev.attr.type = d->has_type && d->has_config ? d->type : TYPE_UNKNOWN;
	e->ev.attr.config = d->config;
	e->ev.attr.config1 = d->config1;
	e->ev.cls = class_of(d->cls);
	e->ev.fixed_index = e->ev.cls == PMC_CLASS_FIXED ? d->fixed_index : -1;
	e->ev.flags = (d->anchor ? PMC_EVF_ANCHOR : 0) | (d->time_ns ? PMC_EVF_TIME_NS : 0);
	e->in_every_batch = d->every_batch;
	e->batch = d->every_batch || !d->batch ? -1 : d->batch - 1;
	for (size_t i = 0; i < d->nsamples; i++) {
		const struct pmc_loaded_sample *sm = &d->samples[i];
		struct pmc_count c = { 0 };
		int r;

		c.status = sm->ok ? PMC_COUNT_OK : status_of(d->status);
		c.err = sm->err;
		if (sm->ok) {
			c.value = count_of(sm->value);
			/* no times written (by hand): counted throughout, nothing to scale */
			c.enabled = isfinite(sm->enabled_ns) ? count_of(sm->enabled_ns) : 1;
			c.running = isfinite(sm->running_ns) ? count_of(sm->running_ns) : c.enabled;
		}
		if ((r = pmc_report_push_sample(e, sm->run - 1, sm->batch - 1, &c)))
			return r;
		if (sm->batch > maxbatch)
			maxbatch = sm->batch;
	}
	if (!d->nsamples) { /* a summary only (written by hand): one sample of its mean, or of its status */
		struct pmc_count c = { .status = s->ok ? PMC_COUNT_OK : status_of(d->status) };
		int r;

		if (s->ok) {
			c.value = count_of(s->mean);
			c.enabled = c.running = 1;
		}
		if ((r = pmc_report_push_sample(e, 0, e->batch < 0 ? 0 : (unsigned)e->batch, &c)))
			return r;
	}
	if (!s->ok && s->reason[0])
		snprintf(e->reason, sizeof(e->reason), "%s", s->reason);
	if (maxbatch > rep->nbatches)
		rep->nbatches = maxbatch;
	return 0;
}

static int add_execs(struct pmc_report *rep, const struct pmc_loaded *l)
{
	for (size_t i = 0; i < l->nexecs; i++) {
		const struct pmc_loaded_exec *x = &l->execs[i];
		struct pmc_report_exec o = { .run = x->run - 1, .batch = x->batch - 1, .exit_status = x->exit_status,
					     .signal = x->signal, .interrupted = x->interrupted,
					     .wall_ns = isfinite(x->wall_ns) ? x->wall_ns : 0,
					     .user_s = isfinite(x->user_ns) ? x->user_ns / 1e9 : NAN,
					     .sys_s = isfinite(x->sys_ns) ? x->sys_ns / 1e9 : NAN };
		int r;

		o.counting_ns = o.wall_ns;
		if ((r = pmc_report_add_exec(rep, &o)))
			return r;
		if (x->run > rep->nruns)
			rep->nruns = x->run;
	}
	return 0;
}

/* The wall and rusage means over the used executions (pmc_report_summarize leaves them to the engine). */
static void exec_means(struct pmc_report *rep)
{
	double wall = 0, user = 0, sys = 0;
	size_t n = 0;

	rep->wall_ns_min = INFINITY;
	rep->wall_ns_max = 0;
	for (size_t i = 0; i < rep->nexecs; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];

		if (!pmc_report_run_used(rep, x->run))
			continue;
		wall += x->wall_ns;
		user += x->user_s;
		sys += x->sys_s;
		rep->wall_ns_min = fmin(rep->wall_ns_min, x->wall_ns);
		rep->wall_ns_max = fmax(rep->wall_ns_max, x->wall_ns);
		n++;
	}
	if (!n) {
		double secs;

		rep->wall_ns_min = 0;
		rep->user_s = rep->sys_s = NAN;
		if (pmc_report_get_const(rep, "SECONDS", &secs) == 0) /* the time the file gives */
			return;
		snprintf(rep->wall_unresolved, sizeof(rep->wall_unresolved), "the report holds no execution with a wall time");
		return;
	}
	rep->wall_ns_mean = wall / (double)n;
	rep->user_s = user / (double)n;
	rep->sys_s = sys / (double)n;
}

int pmc_report_from_loaded(const struct pmc_loaded *l, struct pmc_report *rep, size_t *rows_left)
{
	size_t nev = 0;
	int r = 0;

	memset(rep, 0, sizeof(*rep));
	*rows_left = 0;
	snprintf(rep->workload, sizeof(rep->workload), "%s", l->workload);
	rep->env = l->env; /* where the counts were measured, not where they are evaluated again */
	rep->mode = !strcmp(l->mode, "rerun") ? "rerun" : !strcmp(l->mode, "multiplex") ? "multiplex"
		  : !strcmp(l->mode, "rotate") ? "rotate" : "single";
	rep->nbatches = l->batches ? l->batches : 1;
	rep->nruns = l->runs ? l->runs : 1;
	rep->partial = l->partial;
	rep->exit_status = l->exit_status;
	rep->tsc_hz = isfinite(l->tsc_hz) ? l->tsc_hz : 0;
	rep->tsc_source = rep->tsc_hz > 0 ? "the report" : NULL;
	rep->cpu_smt = l->cpu_smt;
	rep->has_origin = l->has_origin;
	if (l->has_origin) {
		snprintf(rep->origin.host, sizeof(rep->origin.host), "%s", l->host);
		snprintf(rep->origin.job, sizeof(rep->origin.job), "%s", l->job);
		rep->origin.pid = l->pid;
		rep->origin.rank = l->rank;
	}
	snprintf(rep->cpu_pmu, sizeof(rep->cpu_pmu), "%s", l->cpu_pmu);
	snprintf(rep->cpu_vendor, sizeof(rep->cpu_vendor), "%s", l->cpu_vendor);
	for (size_t i = 0; i < l->nconsts; i++)
		if (pmc_report_set_const(rep, l->consts[i].name, l->consts[i].value))
			break;
	for (size_t i = 0; i < l->n; i++)
		nev += l->s[i].ev != NULL;
	if (nev && !(rep->events = calloc(nev, sizeof(*rep->events))))
		return -ENOMEM;
	for (size_t i = 0; i < l->n && !r; i++) {
		if (!l->s[i].ev)
			continue;
		if (!l->s[i].ev->total) {
			(*rows_left)++;
			continue;
		}
		r = add_event(rep, &l->s[i]);
	}
	if (!r)
		r = add_execs(rep, l);
	if (r)
		return r;
	pmc_report_summarize(rep);
	exec_means(rep);
	/* the reasons the file gives, where the samples alone say nothing */
	for (size_t i = 0, k = 0; i < l->n && k < rep->nevents; i++) {
		if (!l->s[i].ev || !l->s[i].ev->total)
			continue;
		if (rep->events[k].status != PMC_COUNT_OK && l->s[i].reason[0])
			snprintf(rep->events[k].reason, sizeof(rep->events[k].reason), "%s", l->s[i].reason);
		k++;
	}
	return 0;
}

/* A dynamic perf type is the core PMU's when the event names that PMU: "cpu/..", "cpu_core/..", "armv8_pmuv3_0/..". */
static bool core_pmu_named(const struct pmc_event *ev)
{
	static const char *const core[] = { "cpu", "armv8_", "arm_" };

	for (size_t i = 0; i < sizeof(core) / sizeof(core[0]); i++) {
		size_t n = strlen(core[i]);

		if (!strncmp(ev->name, core[i], n) && strchr(ev->name, '/'))
			return true;
		if (!strncmp(ev->canonical, core[i], n) && strchr(ev->canonical, '/'))
			return true;
	}
	return false;
}

static bool same_type(uint32_t want, const struct pmc_event *ev)
{
	uint32_t have = ev->attr.type;

	if (have == TYPE_UNKNOWN)
		return false;
	if (have == want)
		return true;
	/* the core PMU's own type and PERF_TYPE_RAW mean the same raw code */
	return (want == PERF_TYPE_RAW && have >= PERF_TYPE_MAX && core_pmu_named(ev)) ||
	       (have == PERF_TYPE_RAW && want >= PERF_TYPE_MAX);
}

/* x86 raw codes: usr, os, int and en are set by the kernel, whatever the code says. */
#define X86_IGNORED ((1ull << 16) | (1ull << 17) | (1ull << 20) | (1ull << 22))

const struct pmc_report_event *pmc_report_find_encoding(const struct pmc_report *rep, const struct pmc_encoding *enc,
							bool x86)
{
	bool raw = enc->type == PERF_TYPE_RAW || enc->type >= PERF_TYPE_MAX;
	uint64_t mask = x86 && raw ? ~X86_IGNORED : ~0ull;

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		if (e->scope.kind != PMC_ROW_ALL || e->ev.core_pmu || !same_type(enc->type, &e->ev))
			continue;
		if ((e->ev.attr.config & mask) != (enc->config & mask))
			continue;
		if (enc->has_config1 && e->ev.attr.config1 != enc->config1)
			continue;
		return e;
	}
	return NULL;
}
