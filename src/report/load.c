/* SPDX-License-Identifier: MIT */
/* Reading stat reports back (pmctool's own JSON, schema_version 1). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/load.h"
#include "util/file_read.h"
#include "util/json_read.h"

void pmc_series_summarize(struct pmc_series *s)
{
	double sum = 0, sq = 0;

	if (!s->nruns)
		return;
	s->min = INFINITY;
	s->max = -INFINITY;
	for (size_t i = 0; i < s->nruns; i++) {
		sum += s->runs[i];
		s->min = fmin(s->min, s->runs[i]);
		s->max = fmax(s->max, s->runs[i]);
	}
	s->mean = sum / (double)s->nruns;
	for (size_t i = 0; i < s->nruns; i++)
		sq += (s->runs[i] - s->mean) * (s->runs[i] - s->mean);
	s->sd = s->nruns > 1 ? sqrt(sq / (double)(s->nruns - 1)) : NAN;
	s->ok = true;
}

/* A member as a whole number in [lo, hi]; fallback when absent, not a number, or out of range (never a cast of an
 * out-of-range double). */
static long jint(const struct pmc_jvalue *v, const char *key, long fallback, long lo, long hi)
{
	double d = pmc_json_get_num(v, key, NAN);

	return d >= (double)lo && d <= (double)hi ? (long)d : fallback;
}

#define RUN_MAX 100000 /* stat's -r limit */

struct pmc_series *pmc_loaded_add_series(struct pmc_loaded *l, const char *name, enum pmc_series_kind kind)
{
	struct pmc_series *p = realloc(l->s, (l->n + 1) * sizeof(*p));

	if (!p)
		return NULL;
	l->s = p;
	p = &l->s[l->n++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->kind = kind;
	p->mean = p->sd = p->min = p->max = NAN;
	return p;
}

int pmc_series_push(struct pmc_series *s, double v)
{
	double *p = realloc(s->runs, (s->nruns + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	s->runs = p;
	s->runs[s->nruns++] = v;
	return 0;
}

/* The run numbers (1-based) in the statistics: executions[].used; every run when there are no executions. */
static bool run_used(const struct pmc_jvalue *doc, long run)
{
	const struct pmc_jvalue *ex = pmc_json_get(doc, "executions");

	if (!pmc_json_len(ex))
		return true;
	for (size_t i = 0; i < pmc_json_len(ex); i++) {
		const struct pmc_jvalue *x = pmc_json_at(ex, i);
		if (jint(x, "run", -1, 1, RUN_MAX) == run)
			return pmc_json_get_bool(x, "used", false);
	}
	return false;
}

/* A member that is a whole number, written as a number or a string ("0x3c", "60"): true and *ret, false when absent,
 * null or not a whole number that fits. */
static bool juint(const struct pmc_jvalue *v, const char *key, uint64_t *ret)
{
	const struct pmc_jvalue *m = pmc_json_get(v, key);
	char *end;

	if (m && m->type == PMC_J_NUMBER && m->num >= 0 && m->num < 18446744073709551616.0 && m->num == floor(m->num)) {
		*ret = (uint64_t)m->num;
		return true;
	}
	if (!m || m->type != PMC_J_STRING || !m->str[0] || m->str[0] == '-')
		return false;
	errno = 0;
	*ret = strtoull(m->str, &end, 0);
	return !errno && !*end;
}

/* What pmctool report replays of an event: its encoding, bookkeeping and samples as written. */
static int load_event_detail(struct pmc_series *s, const struct pmc_jvalue *e)
{
	const struct pmc_jvalue *samples = pmc_json_get(e, "samples"), *scope = pmc_json_get(e, "scope");
	struct pmc_loaded_event *d = calloc(1, sizeof(*d));
	uint64_t u;

	if (!d)
		return -ENOMEM;
	s->ev = d;
	if ((d->has_type = juint(e, "type", &u) && u <= UINT32_MAX))
		d->type = (unsigned)u;
	d->has_config = juint(e, "config", &d->config);
	d->has_config1 = juint(e, "config1", &d->config1);
	snprintf(d->canonical, sizeof(d->canonical), "%s", pmc_json_get_str(e, "canonical", ""));
	snprintf(d->cls, sizeof(d->cls), "%s", pmc_json_get_str(e, "class", ""));
	d->fixed_index = (int)jint(e, "fixed_index", -1, 0, 15);
	d->anchor = pmc_json_get_bool(e, "anchor", false);
	d->every_batch = pmc_json_get_bool(e, "every_batch", false);
	d->batch = (int)jint(e, "batch", 0, 1, RUN_MAX);
	d->total = !scope || !strcmp(pmc_json_get_str(scope, "kind", "all"), "all");
	d->time_ns = !strcmp(pmc_json_get_str(e, "unit", ""), "ns");
	snprintf(d->status, sizeof(d->status), "%s",
		 pmc_json_get_str(e, "status", isnan(pmc_json_get_num(e, "mean", NAN)) ? "" : "ok"));
	if (!pmc_json_len(samples))
		return 0;
	d->samples = calloc(pmc_json_len(samples), sizeof(*d->samples));
	if (!d->samples)
		return -ENOMEM;
	for (size_t i = 0; i < pmc_json_len(samples); i++) {
		const struct pmc_jvalue *sm = pmc_json_at(samples, i);
		struct pmc_loaded_sample *o = &d->samples[d->nsamples++];

		o->run = (unsigned)jint(sm, "run", 1, 1, RUN_MAX);
		o->batch = (unsigned)jint(sm, "batch", 1, 1, RUN_MAX);
		o->value = pmc_json_get_num(sm, "value", NAN);
		o->enabled_ns = pmc_json_get_num(sm, "enabled_ns", NAN);
		o->running_ns = pmc_json_get_num(sm, "running_ns", NAN);
		o->ok = !strcmp(pmc_json_get_str(sm, "status", ""), "ok") && isfinite(o->value) && o->value >= 0;
		o->err = (int)jint(sm, "errno", 0, 0, 4095);
	}
	return 0;
}

static int load_event(struct pmc_loaded *l, const struct pmc_jvalue *doc, const struct pmc_jvalue *e, unsigned nruns)
{
	const char *name = pmc_json_get_str(e, "name", NULL);
	const struct pmc_jvalue *samples = pmc_json_get(e, "samples");
	struct pmc_series *s;

	if (!name)
		return -EINVAL;
	if (!(s = pmc_loaded_add_series(l, name, PMC_SERIES_EVENT)))
		return -ENOMEM;
	snprintf(s->unit, sizeof(s->unit), "%s", pmc_json_get_str(e, "unit", ""));
	snprintf(s->reason, sizeof(s->reason), "%s", pmc_json_get_str(e, "reason", ""));
	if (load_event_detail(s, e))
		return -ENOMEM;
	for (unsigned r = 1; r <= nruns; r++) {
		double sum = 0;
		size_t n = 0;

		if (!run_used(doc, r))
			continue;
		for (size_t i = 0; i < pmc_json_len(samples); i++) {
			const struct pmc_jvalue *sm = pmc_json_at(samples, i);
			double v = pmc_json_get_num(sm, "value", NAN), en = pmc_json_get_num(sm, "enabled_ns", 0),
			       ru = pmc_json_get_num(sm, "running_ns", 0);

			if (jint(sm, "run", 0, 1, RUN_MAX) != (long)r || isnan(v) ||
			    strcmp(pmc_json_get_str(sm, "status", ""), "ok"))
				continue;
			sum += ru > 0 && en > ru ? v * en / ru : v;
			n++;
		}
		if (n && pmc_series_push(s, sum / (double)n))
			return -ENOMEM;
	}
	if (s->nruns) {
		pmc_series_summarize(s);
	} else if (!strcmp(s->ev->status, "ok")) {
		s->ok = true; /* a document without samples: its summary only */
		s->mean = pmc_json_get_num(e, "mean", NAN);
		s->min = pmc_json_get_num(e, "min", NAN);
		s->max = pmc_json_get_num(e, "max", NAN);
		s->sd = pmc_json_get_num(e, "stddev", NAN);
	}
	if (!s->ok && !s->reason[0])
		snprintf(s->reason, sizeof(s->reason), "%s", pmc_json_get_str(e, "status", "not counted"));
	return 0;
}

static int load_metric(struct pmc_loaded *l, const struct pmc_jvalue *doc, const struct pmc_jvalue *m)
{
	const char *name = pmc_json_get_str(m, "name", NULL);
	const struct pmc_jvalue *samples = pmc_json_get(m, "samples");
	struct pmc_series *s;

	if (!name)
		return -EINVAL;
	if (!(s = pmc_loaded_add_series(l, name, PMC_SERIES_METRIC)))
		return -ENOMEM;
	snprintf(s->unit, sizeof(s->unit), "%s", pmc_json_get_str(m, "unit", ""));
	snprintf(s->reason, sizeof(s->reason), "%s", pmc_json_get_str(m, "reason", ""));
	for (size_t i = 0; i < pmc_json_len(samples); i++) {
		const struct pmc_jvalue *sm = pmc_json_at(samples, i);
		double v = pmc_json_get_num(sm, "value", NAN);
		if (!isnan(v) && run_used(doc, jint(sm, "run", 0, 1, RUN_MAX)) && pmc_series_push(s, v))
			return -ENOMEM;
	}
	if (s->nruns) {
		pmc_series_summarize(s);
	} else if (!isnan(pmc_json_get_num(m, "value", NAN))) {
		s->ok = true;
		s->mean = s->min = s->max = pmc_json_get_num(m, "value", NAN);
	}
	return 0;
}

/* The wall time of each used run (the mean over its batches) as the series "wall-time". */
static int load_time(struct pmc_loaded *l, const struct pmc_jvalue *doc, unsigned nruns)
{
	const struct pmc_jvalue *ex = pmc_json_get(doc, "executions");
	struct pmc_series *s = pmc_loaded_add_series(l, "wall-time", PMC_SERIES_TIME);

	if (!s)
		return -ENOMEM;
	snprintf(s->unit, sizeof(s->unit), "ns");
	for (unsigned r = 1; r <= nruns; r++) {
		double sum = 0;
		size_t n = 0;
		for (size_t i = 0; i < pmc_json_len(ex); i++) {
			const struct pmc_jvalue *x = pmc_json_at(ex, i);
			double w = pmc_json_get_num(x, "wall_ns", NAN);
			if (jint(x, "run", 0, 1, RUN_MAX) == (long)r && pmc_json_get_bool(x, "used", false) && !isnan(w)) {
				sum += w;
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

/* One value as a series of one run (a region's calls, or its count per execution as the report gives it). */
static int one_value(struct pmc_series *s, double v, const char *why)
{
	if (isnan(v)) {
		snprintf(s->reason, sizeof(s->reason), "%s", why);
		return 0;
	}
	if (pmc_series_push(s, v))
		return -ENOMEM;
	pmc_series_summarize(s);
	return 0;
}

/* The regions block (stat --regions, the region library's standalone report): per region its calls and its count
 * of each event, as REGION series. */
static int load_regions(struct pmc_loaded *l, const struct pmc_jvalue *doc)
{
	const struct pmc_jvalue *list = pmc_json_get(pmc_json_get(doc, "regions"), "list");

	for (size_t r = 0; r < pmc_json_len(list); r++) {
		const struct pmc_jvalue *rg = pmc_json_at(list, r), *counts = pmc_json_get(rg, "counts");
		const char *name = pmc_json_get_str(rg, "name", NULL);
		struct pmc_series *s;
		int rc;

		if (!name)
			return -EINVAL;
		if (!(s = pmc_loaded_add_series(l, "calls", PMC_SERIES_REGION)))
			return -ENOMEM;
		snprintf(s->region, sizeof(s->region), "%s", name);
		if ((rc = one_value(s, pmc_json_get_num(rg, "calls", NAN), "no calls in the report")))
			return rc;
		for (size_t i = 0; i < pmc_json_len(counts); i++) {
			const struct pmc_jvalue *c = pmc_json_at(counts, i);
			const char *ev = pmc_json_get_str(c, "event", NULL);

			if (!ev)
				return -EINVAL;
			if (!(s = pmc_loaded_add_series(l, ev, PMC_SERIES_REGION)))
				return -ENOMEM;
			snprintf(s->region, sizeof(s->region), "%s", name);
			if ((rc = one_value(s, pmc_json_get_num(c, "value", NAN), "not counted in this region")))
				return rc;
		}
	}
	return 0;
}

/* A kernel's declared counts per run (EXPECTED_INSTRUCTIONS...): constants, the same in every run. */
static int load_declared(struct pmc_loaded *l, const struct pmc_jvalue *consts, unsigned used)
{
	for (size_t i = 0; consts && i < consts->n; i++) {
		struct pmc_series *s;
		const struct pmc_jvalue *v = consts->items[i];

		if (strncmp(consts->keys[i], "EXPECTED_", 9) || v->type != PMC_J_NUMBER)
			continue;
		if (!(s = pmc_loaded_add_series(l, consts->keys[i], PMC_SERIES_DECLARED)))
			return -ENOMEM;
		for (unsigned r = 0; r < (used ? used : 1); r++)
			if (pmc_series_push(s, v->num))
				return -ENOMEM;
		pmc_series_summarize(s);
	}
	return 0;
}

/* The report's environment (report/env.h): absent (an older report, one written by hand) leaves it not present. */
static void load_env(struct pmc_env *e, const struct pmc_jvalue *o)
{
	char *fields[PMC_ENV_FIELDS] = { e->cpu,    e->cpuid,	e->microcode, NULL,	  e->kernel, e->arch,
					 e->libpfm4, e->core_pmu, e->tables,	e->pmctool, e->backend };
	size_t sizes[PMC_ENV_FIELDS] = { sizeof(e->cpu),     sizeof(e->cpuid),	 sizeof(e->microcode), 0,
					 sizeof(e->kernel),  sizeof(e->arch),	 sizeof(e->libpfm4),
					 sizeof(e->core_pmu), sizeof(e->tables), sizeof(e->pmctool),
					 sizeof(e->backend) };

	memset(e, 0, sizeof(*e));
	if (!o || o->type != PMC_J_OBJECT)
		return;
	e->present = true;
	for (size_t i = 0; i < PMC_ENV_FIELDS; i++) {
		const char *name;
		char scratch[8];

		pmc_env_field(e, i, &name, scratch, sizeof(scratch));
		if (fields[i])
			snprintf(fields[i], sizes[i], "%s", pmc_json_get_str(o, name, ""));
		else
			e->hypervisor = pmc_json_get_bool(o, name, false);
	}
}

/* The CPU, the top-down choice, the schedule, constants, executions and checks (what pmctool report replays). */
static int load_context(struct pmc_loaded *l, const struct pmc_jvalue *doc)
{
	const struct pmc_jvalue *cpu = pmc_json_get(doc, "cpu"), *td = pmc_json_get(doc, "topdown"),
				*consts = pmc_json_get(doc, "constants"), *ex = pmc_json_get(doc, "executions"),
				*checks = pmc_json_get(doc, "checks"), *smt = pmc_json_get(cpu, "smt");

	/* "cpu" (stat writes it); else the environment's core PMU, which reports of pmctool check's issue carry */
	snprintf(l->cpu_pmu, sizeof(l->cpu_pmu), "%s",
		 pmc_json_get_str(cpu, "pmu", pmc_json_get_str(pmc_json_get(doc, "environment"), "core_pmu", "")));
	snprintf(l->cpu_vendor, sizeof(l->cpu_vendor), "%s", pmc_json_get_str(cpu, "vendor", ""));
	l->cpu_smt = smt && smt->type == PMC_J_BOOL ? smt->b : -1;
	snprintf(l->target_kind, sizeof(l->target_kind), "%s", pmc_json_get_str(pmc_json_get(doc, "target"), "kind", ""));
	snprintf(l->td_tree, sizeof(l->td_tree), "%s", pmc_json_get_str(td, "tree", ""));
	l->td_level = (int)jint(td, "level", 0, 1, 9);
	snprintf(l->mode, sizeof(l->mode), "%s", pmc_json_get_str(doc, "mode", ""));
	l->batches = (unsigned)jint(doc, "batches", 0, 0, RUN_MAX);
	l->tsc_hz = pmc_json_get_num(doc, "tsc_hz", NAN);
	snprintf(l->tsc_source, sizeof(l->tsc_source), "%s", pmc_json_get_str(doc, "tsc_source", ""));
	for (size_t i = 0; consts && consts->type == PMC_J_OBJECT && i < consts->n; i++) {
		if (consts->items[i]->type != PMC_J_NUMBER || l->nconsts >= sizeof(l->consts) / sizeof(l->consts[0]))
			continue;
		snprintf(l->consts[l->nconsts].name, sizeof(l->consts[0].name), "%s", consts->keys[i]);
		l->consts[l->nconsts++].value = consts->items[i]->num;
	}
	if (pmc_json_len(ex) && !(l->execs = calloc(pmc_json_len(ex), sizeof(*l->execs))))
		return -ENOMEM;
	for (size_t i = 0; i < pmc_json_len(ex); i++) {
		const struct pmc_jvalue *x = pmc_json_at(ex, i);
		struct pmc_loaded_exec *o = &l->execs[l->nexecs++];

		o->run = (unsigned)jint(x, "run", 1, 1, RUN_MAX);
		o->batch = (unsigned)jint(x, "batch", 1, 1, RUN_MAX);
		o->used = pmc_json_get_bool(x, "used", false);
		o->interrupted = pmc_json_get_bool(x, "interrupted", false);
		o->exit_status = (int)jint(x, "exit_status", 0, 0, 255 + 128);
		o->signal = (int)jint(x, "signal", 0, 0, 128);
		o->wall_ns = pmc_json_get_num(x, "wall_ns", NAN);
		o->user_ns = pmc_json_get_num(x, "user_ns", NAN);
		o->sys_ns = pmc_json_get_num(x, "sys_ns", NAN);
	}
	if (pmc_json_len(checks) && !(l->checks = calloc(pmc_json_len(checks), sizeof(*l->checks))))
		return -ENOMEM;
	for (size_t i = 0; i < pmc_json_len(checks); i++) {
		const struct pmc_jvalue *c = pmc_json_at(checks, i);
		struct pmc_loaded_check *o = &l->checks[l->nchecks++];

		snprintf(o->name, sizeof(o->name), "%s", pmc_json_get_str(c, "name", ""));
		snprintf(o->severity, sizeof(o->severity), "%s", pmc_json_get_str(c, "severity", "info"));
		snprintf(o->msg, sizeof(o->msg), "%s", pmc_json_get_str(c, "message", ""));
	}
	return 0;
}

/* A number member of a saved report that must be a count (a finite number >= 0; any finite number where a metric may
 * be negative): absent or null is "not measured", anything else is an error naming the field (a string, 1e400 or a
 * huge negative would otherwise show as 0 or as a negative count). where: the field's path up to this object. */
static bool bad_value(const struct pmc_jvalue *o, const char *key, bool count, const char *where, char *err,
		      size_t errlen)
{
	const struct pmc_jvalue *m = pmc_json_get(o, key);

	if (!m || m->type == PMC_J_NULL)
		return false;
	if (m->type == PMC_J_NUMBER && isfinite(m->num) && (!count || m->num >= 0))
		return false;
	if (m->type == PMC_J_NUMBER)
		snprintf(err, errlen, "%s.%s is %s %g, not a %s: fix that field or write the report again (pmctool stat "
			 "--json -o FILE)", where, key, isfinite(m->num) ? "the negative" : "the out-of-range", m->num,
			 count ? "count (a finite number >= 0)" : "finite number");
	else
		snprintf(err, errlen, "%s.%s is not a number (%s), not a %s: fix that field or write the report again "
			 "(pmctool stat --json -o FILE)", where, key,
			 m->type == PMC_J_STRING ? "a string" : m->type == PMC_J_BOOL ? "true or false" : "an array or object",
			 count ? "count (a finite number >= 0)" : "finite number");
	return true;
}

/* Each listed member of each object of list (an array) and of its "samples": bad_value's rule. */
static bool bad_values(const struct pmc_jvalue *list, const char *what, const char *const *keys,
		       const char *const *skeys, bool count, char *err, size_t errlen)
{
	char where[160];

	for (size_t i = 0; i < pmc_json_len(list); i++) {
		const struct pmc_jvalue *o = pmc_json_at(list, i), *samples = pmc_json_get(o, "samples");
		const char *name = pmc_json_get_str(o, "name", NULL);
		int n = snprintf(where, sizeof(where), "%s[%zu]", what, i);

		if (name)
			snprintf(where + n, sizeof(where) - (size_t)n, " ('%.60s')", name);
		for (const char *const *k = keys; *k; k++)
			if (bad_value(o, *k, count, where, err, errlen))
				return true;
		for (size_t j = 0; skeys && j < pmc_json_len(samples); j++) {
			char sw[200];

			snprintf(sw, sizeof(sw), "%s.samples[%zu]", where, j);
			for (const char *const *k = skeys; *k; k++)
				if (bad_value(pmc_json_at(samples, j), *k, count, sw, err, errlen))
					return true;
		}
	}
	return false;
}

static bool bad_doc_values(const struct pmc_jvalue *doc, char *err, size_t errlen)
{
	static const char *const ev_keys[] = { "mean", "median", "min", "max", "stddev", NULL };
	static const char *const ev_skeys[] = { "value", "enabled_ns", "running_ns", NULL };
	static const char *const val[] = { "value", NULL }, *const none[] = { NULL };
	static const char *const ex_keys[] = { "wall_ns", "user_ns", "sys_ns", NULL }, *const rg_keys[] = { "calls", NULL };
	const struct pmc_jvalue *rg = pmc_json_get(pmc_json_get(doc, "regions"), "list");

	if (bad_values(pmc_json_get(doc, "events"), "events", ev_keys, ev_skeys, true, err, errlen) ||
	    bad_values(pmc_json_get(doc, "metrics"), "metrics", val, val, false, err, errlen) ||
	    bad_values(pmc_json_get(doc, "executions"), "executions", ex_keys, NULL, true, err, errlen) ||
	    bad_values(rg, "regions.list", rg_keys, NULL, true, err, errlen))
		return true;
	for (size_t i = 0; i < pmc_json_len(rg); i++) {
		char where[120];

		snprintf(where, sizeof(where), "regions.list[%zu].counts", i);
		if (bad_values(pmc_json_get(pmc_json_at(rg, i), "counts"), where, val, none, true, err, errlen))
			return true;
	}
	return false;
}

/* The pytest plugin's report (kind "pytest", python/pmctool/pytest_plugin.py): each test's count of each event is an
 * EVENT series named "EVENT [NODEID]" with one run (the test's call), so that compare pairs a test's rows in two
 * reports and --fail-if EVENT judges every test (report/multi.c). A null value is not counted, with the event's
 * reason. */
static int load_pytest(struct pmc_loaded *l, const struct pmc_jvalue *doc, char *err, size_t errlen)
{
	const struct pmc_jvalue *events = pmc_json_get(doc, "events"), *tests = pmc_json_get(doc, "tests");

	if (!events || events->type != PMC_J_ARRAY || !tests || tests->type != PMC_J_ARRAY) {
		snprintf(err, errlen, "a pytest report (pmctool.pytest_plugin) without its events or tests");
		return -EINVAL;
	}
	snprintf(l->workload, sizeof(l->workload), "pytest (%zu tests)", tests->n);
	l->runs = l->runs_used = 1;
	l->rank = -1;
	load_env(&l->env, pmc_json_get(doc, "environment"));
	for (size_t t = 0; t < tests->n; t++) {
		const struct pmc_jvalue *test = tests->items[t], *counts = pmc_json_get(test, "counts");
		const char *nodeid = pmc_json_get_str(test, "nodeid", NULL);

		if (!nodeid) {
			snprintf(err, errlen, "tests[%zu] has no nodeid", t);
			return -EINVAL;
		}
		for (size_t i = 0; i < pmc_json_len(counts); i++) {
			const struct pmc_jvalue *c = pmc_json_at(counts, i);
			const char *ev = pmc_json_get_str(c, "event", NULL), *reason = "not counted";
			double v = pmc_json_get_num(c, "value", NAN);
			char name[sizeof(l->s->name)];
			struct pmc_series *s;

			if (!ev) {
				snprintf(err, errlen, "tests[%zu].counts[%zu] has no event", t, i);
				return -EINVAL;
			}
			if (snprintf(name, sizeof(name), "%s [%s]", ev, nodeid) >= (int)sizeof(name)) {
				snprintf(err, errlen, "test '%.60s...': its name and event '%.40s' are longer than %zu "
					 "characters (compare pairs tests by them)", nodeid, ev, sizeof(name) - 1);
				return -EINVAL;
			}
			if (!(s = pmc_loaded_add_series(l, name, PMC_SERIES_EVENT)))
				return -ENOMEM;
			for (size_t e = 0; e < events->n; e++)
				if (!strcmp(pmc_json_get_str(events->items[e], "name", ""), ev))
					reason = pmc_json_get_str(events->items[e], "reason", reason);
			s->ok = isfinite(v) && v >= 0;
			if (!s->ok)
				snprintf(s->reason, sizeof(s->reason), "%s", reason);
			else if (pmc_series_push(s, v))
				return -ENOMEM;
			pmc_series_summarize(s);
		}
	}
	return 0;
}

static int load_doc(struct pmc_loaded *l, const struct pmc_jvalue *doc, char *err, size_t errlen)
{
	const struct pmc_jvalue *runs = pmc_json_get(doc, "runs"), *events = pmc_json_get(doc, "events"),
				*metrics = pmc_json_get(doc, "metrics"), *origin = pmc_json_get(doc, "origin");
	unsigned nruns;
	int rc = 0;

	if (pmc_json_get_num(doc, "schema_version", 0) == 1 && !strcmp(pmc_json_get_str(doc, "kind", ""), "pytest"))
		return load_pytest(l, doc, err, errlen);
	if (pmc_json_get_num(doc, "schema_version", 0) != 1 || strcmp(pmc_json_get_str(doc, "kind", ""), "stat")) {
		snprintf(err, errlen, "not a pmctool stat report of schema_version 1 (kind '%.40s', schema_version %g): "
			 "write one with 'pmctool stat --json -o FILE'", pmc_json_get_str(doc, "kind", "?"),
			 pmc_json_get_num(doc, "schema_version", 0));
		return -EINVAL;
	}
	if (!runs || !events || events->type != PMC_J_ARRAY || !metrics || metrics->type != PMC_J_ARRAY) {
		snprintf(err, errlen, "a stat report without its runs, events or metrics");
		return -EINVAL;
	}
	if (bad_doc_values(doc, err, errlen))
		return -EINVAL;
	snprintf(l->workload, sizeof(l->workload), "%s", pmc_json_get_str(doc, "workload", ""));
	l->partial = pmc_json_get_bool(doc, "partial", false);
	l->exit_status = (int)jint(doc, "exit_status", 1, 0, 255 + 128);
	nruns = (unsigned)jint(runs, "count", 0, 0, RUN_MAX);
	l->runs = nruns;
	l->runs_used = (unsigned)jint(runs, "used", 0, 0, RUN_MAX);
	l->runs_failed = (unsigned)jint(runs, "failed", 0, 0, RUN_MAX);
	l->runs_partial = (unsigned)jint(runs, "partial", 0, 0, RUN_MAX);
	l->rank = -1;
	if (origin && origin->type == PMC_J_OBJECT) {
		l->has_origin = true;
		snprintf(l->host, sizeof(l->host), "%s", pmc_json_get_str(origin, "host", ""));
		snprintf(l->job, sizeof(l->job), "%s", pmc_json_get_str(origin, "job", ""));
		l->pid = jint(origin, "pid", 0, 0, 1L << 30);
		l->rank = jint(origin, "rank", -1, 0, 1L << 30);
	}
	load_env(&l->env, pmc_json_get(doc, "environment"));
	l->iterations = pmc_json_get_num(pmc_json_get(doc, "constants"), "ITERATIONS", 0);
	rc = load_context(l, doc);
	for (size_t i = 0; !rc && i < events->n; i++)
		rc = load_event(l, doc, events->items[i], nruns);
	for (size_t i = 0; !rc && i < metrics->n; i++)
		rc = load_metric(l, doc, metrics->items[i]);
	if (!rc)
		rc = load_time(l, doc, nruns);
	if (!rc)
		rc = load_declared(l, pmc_json_get(doc, "constants"), l->runs_used);
	if (!rc)
		rc = load_regions(l, doc);
	if (rc == -EINVAL)
		snprintf(err, errlen, "an event, metric, region or region count without a name");
	else if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

/* stat -I --json writes NDJSON: one "interval" document a line, then the run's total (kind "stat") as the last line.
 * When text is such a stream, *doc is that last line's document (0), or -EINVAL saying what the file is; 1 when text
 * is not an interval stream (read it as one document). */
static int ndjson_total(const char *text, size_t len, struct pmc_jvalue **doc, char *err, size_t errlen)
{
	const char *nl = memchr(text, '\n', len), *last;
	struct pmc_jvalue *first;
	char why[160];
	bool interval;
	size_t end = len;

	if (!nl || pmc_json_parse(text, (size_t)(nl - text), &first, why, sizeof(why)))
		return 1;
	interval = !strcmp(pmc_json_get_str(first, "kind", ""), "interval");
	pmc_json_free(first);
	if (!interval)
		return 1;
	while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r'))
		end--;
	for (last = text + end; last > text && last[-1] != '\n'; last--)
		;
	if (pmc_json_parse(last, (size_t)(text + end - last), doc, why, sizeof(why)) == 0) {
		if (!strcmp(pmc_json_get_str(*doc, "kind", ""), "stat"))
			return 0;
		pmc_json_free(*doc);
	}
	snprintf(err, errlen, "pmctool's -I --json stream (one interval a line) without the run's total as its last line "
		 "(the run did not finish?): report, compare and merge read the total; run again, or give stat's "
		 "--json -o FILE without -I");
	return -EINVAL;
}

int pmc_loaded_parse(const char *text, size_t len, struct pmc_loaded *ret, char *err, size_t errlen)
{
	struct pmc_jvalue *doc;
	struct pmc_loaded l;
	int rc;

	memset(&l, 0, sizeof(l));
	rc = ndjson_total(text, len, &doc, err, errlen);
	if (rc == 1)
		rc = pmc_json_parse(text, len, &doc, err, errlen);
	if (rc)
		return rc;
	rc = load_doc(&l, doc, err, errlen);
	pmc_json_free(doc);
	if (rc) {
		pmc_loaded_fini(&l);
		return rc;
	}
	*ret = l;
	return 0;
}

int pmc_loaded_read_file(const char *path, struct pmc_loaded *ret, char *err, size_t errlen)
{
	struct stat st;
	int fd = pmc_open_regular(path, &st), rc; /* a FIFO is refused as -g refuses one, never waited on */
	char *buf;
	size_t len = 0;

	if (fd < 0) {
		snprintf(err, errlen, "%s", pmc_open_regular_why(fd));
		return fd == -EISDIR ? -EINVAL : fd;
	}
	if ((size_t)st.st_size > PMC_LOAD_MAX_BYTES) {
		close(fd);
		snprintf(err, errlen, "larger than %u MiB", PMC_LOAD_MAX_BYTES >> 20);
		return -EFBIG;
	}
	buf = malloc(PMC_LOAD_MAX_BYTES + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, PMC_LOAD_MAX_BYTES + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
		if (len > PMC_LOAD_MAX_BYTES) {
			rc = -EFBIG;
			break;
		}
	}
	close(fd);
	if (rc)
		snprintf(err, errlen, "%s", rc == -EFBIG ? "larger than 64 MiB" : strerror(-rc));
	else
		rc = pmc_loaded_parse(buf, len, ret, err, errlen);
	free(buf);
	return rc;
}

void pmc_loaded_fini(struct pmc_loaded *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->s[i].runs);
		if (l->s[i].ev)
			free(l->s[i].ev->samples);
		free(l->s[i].ev);
	}
	free(l->s);
	free(l->execs);
	free(l->checks);
	l->s = NULL;
	l->n = 0;
	l->execs = NULL;
	l->checks = NULL;
	l->nexecs = l->nchecks = 0;
}

const struct pmc_series *pmc_loaded_find(const struct pmc_loaded *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->s[i].kind != PMC_SERIES_REGION && !strcasecmp(l->s[i].name, name))
			return &l->s[i];
	return NULL;
}

bool pmc_series_same(const struct pmc_series *a, const struct pmc_series *b)
{
	return a->kind == b->kind && !strcmp(a->region, b->region) && !strcmp(a->name, b->name);
}

int pmc_loaded_pool(struct pmc_loaded *dst, const struct pmc_loaded *src)
{
	for (size_t i = 0; i < src->n; i++) {
		const struct pmc_series *s = &src->s[i];
		struct pmc_series *d = NULL;

		if (s->kind == PMC_SERIES_REGION)
			continue;
		for (size_t k = 0; k < dst->n && !d; k++)
			if (pmc_series_same(&dst->s[k], s))
				d = &dst->s[k];
		if (!d) {
			if (!(d = pmc_loaded_add_series(dst, s->name, s->kind)))
				return -ENOMEM;
			memcpy(d->unit, s->unit, sizeof(d->unit));
		}
		if (!d->reason[0])
			memcpy(d->reason, s->reason, sizeof(d->reason));
		for (size_t r = 0; r < s->nruns; r++)
			if (pmc_series_push(d, s->runs[r]))
				return -ENOMEM;
		pmc_series_summarize(d);
	}
	dst->runs += src->runs;
	dst->runs_used += src->runs_used;
	dst->runs_failed += src->runs_failed;
	dst->runs_partial += src->runs_partial;
	dst->partial |= src->partial;
	if (!dst->exit_status)
		dst->exit_status = src->exit_status;
	if (!dst->workload[0])
		memcpy(dst->workload, src->workload, sizeof(dst->workload));
	/* where the pooled runs were measured: the first report's (stat --compare's own runs carry one each) */
	if (!dst->env.present && src->env.present)
		dst->env = src->env;
	if (dst->iterations <= 0)
		dst->iterations = src->iterations;
	return 0;
}
