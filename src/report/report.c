/* SPDX-License-Identifier: MIT */
#include "report/report.h"
#include "report/regions.h"
#include "report/topdown.h"
#include "report/store.h"
#include "perf/probe.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define RUN_USED 0x80

bool pmc_report_run_used(const struct pmc_report *rep, unsigned r)
{
	if (!rep->run_state)
		return true;
	return r < rep->nrun_state && (rep->run_state[r] & RUN_USED);
}

enum pmc_run_state pmc_report_run_state(const struct pmc_report *rep, unsigned r)
{
	if (!rep->run_state || r >= rep->nrun_state)
		return PMC_RUN_OK;
	return (enum pmc_run_state)(rep->run_state[r] & ~RUN_USED);
}

/* Sort the runs into ok / failed / partial, choose the ones the statistics are over, set the exit status of the first
 * failing run and the run-level times over the used runs. */
static void summarize_runs(struct pmc_report *rep)
{
	unsigned nruns = rep->nruns, *batches;
	enum pmc_run_state want;
	double n = 0;

	free(rep->run_state);
	rep->run_state = NULL;
	rep->nrun_state = 0;
	rep->runs_ok = rep->runs_failed = rep->runs_partial = rep->runs_used = 0;
	rep->stats_over = NULL;
	if (!rep->nexecs)
		return;
	for (size_t i = 0; i < rep->nexecs; i++)
		nruns = rep->execs[i].run + 1 > nruns ? rep->execs[i].run + 1 : nruns;
	rep->run_state = calloc(nruns, 1);
	batches = calloc(nruns, sizeof(*batches));
	if (!rep->run_state || !batches) {
		free(rep->run_state);
		free(batches);
		rep->run_state = NULL;
		return;
	}
	rep->nrun_state = nruns;
	rep->exit_status = rep->term_signal = 0;
	for (size_t i = 0; i < rep->nexecs; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];
		batches[x->run]++;
		if (x->interrupted)
			rep->run_state[x->run] = PMC_RUN_PARTIAL;
		else if (x->exit_status && rep->run_state[x->run] == PMC_RUN_OK)
			rep->run_state[x->run] = PMC_RUN_FAILED;
		if (x->exit_status && !rep->exit_status && !x->interrupted) {
			rep->exit_status = x->exit_status;
			rep->term_signal = x->signal;
		}
	}
	for (unsigned r = 0; r < nruns; r++) {
		if (batches[r] + rep->nbatches_skipped < rep->nbatches)
			rep->run_state[r] = PMC_RUN_PARTIAL;
		rep->runs_ok += rep->run_state[r] == PMC_RUN_OK;
		rep->runs_failed += rep->run_state[r] == PMC_RUN_FAILED;
		rep->runs_partial += rep->run_state[r] == PMC_RUN_PARTIAL;
	}
	free(batches);
	want = rep->runs_ok ? PMC_RUN_OK : rep->runs_failed ? PMC_RUN_FAILED : PMC_RUN_PARTIAL;
	rep->stats_over = want == PMC_RUN_OK ? "ok runs" : want == PMC_RUN_FAILED ? "failed runs" : "partial runs";
	rep->wall_ns_mean = rep->user_s = rep->sys_s = rep->wall_ns_min = rep->wall_ns_max = 0;
	rep->counting_ns_mean = rep->delayed_ns_mean = rep->disabled_ns_mean = 0;
	for (unsigned r = 0; r < nruns; r++)
		if (rep->run_state[r] == want) {
			rep->run_state[r] |= RUN_USED;
			rep->runs_used++;
		}
	for (size_t i = 0; i < rep->nexecs; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];
		if (!pmc_report_run_used(rep, x->run))
			continue;
		rep->wall_ns_mean += x->wall_ns;
		rep->user_s += x->user_s;
		rep->sys_s += x->sys_s;
		rep->counting_ns_mean += pmc_report_exec_counting_ns(x);
		rep->delayed_ns_mean += x->delayed_ns;
		rep->disabled_ns_mean += x->disabled_ns;
		rep->wall_ns_min = n == 0 || x->wall_ns < rep->wall_ns_min ? x->wall_ns : rep->wall_ns_min;
		rep->wall_ns_max = x->wall_ns > rep->wall_ns_max ? x->wall_ns : rep->wall_ns_max;
		n++;
	}
	if (n > 0) {
		rep->wall_ns_mean /= n;
		rep->user_s /= n;
		rep->sys_s /= n;
		rep->counting_ns_mean /= n;
		rep->delayed_ns_mean /= n;
		rep->disabled_ns_mean /= n;
	}
	if (rep->delayed_ns_mean + rep->disabled_ns_mean <= 0)
		rep->counting_ns_mean = rep->delayed_ns_mean = rep->disabled_ns_mean = 0;
}

double pmc_report_exec_counting_ns(const struct pmc_report_exec *x)
{
	return x->delayed_ns + x->disabled_ns > 0 ? x->counting_ns : x->wall_ns;
}

bool pmc_report_paused(const struct pmc_report *rep)
{
	return rep->delayed_ns_mean + rep->disabled_ns_mean > 0;
}

double pmc_report_counting_ns(const struct pmc_report *rep)
{
	return pmc_report_paused(rep) ? rep->counting_ns_mean : rep->wall_ns_mean;
}

bool pmc_report_counting_note(const struct pmc_report *rep, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	if (!pmc_report_paused(rep) || !len)
		return false;
	used += (size_t)snprintf(buf, len, "counting was");
	if (rep->delayed_ns_mean > 0 && used < len)
		used += (size_t)snprintf(buf + used, len - used, " delayed %.1f ms (-D, or --control until 'enable')",
					 rep->delayed_ns_mean / 1e6);
	if (rep->disabled_ns_mean > 0 && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s off %.1f ms after it started ('disable' on "
					 "--control)", rep->delayed_ns_mean > 0 ? " and" : "", rep->disabled_ns_mean / 1e6);
	if (used < len)
		snprintf(buf + used, len - used, "%s: the counts and the time metrics (SECONDS, CPUs) are over the %.6f s "
			 "it was on, of %.6f s elapsed", rep->nruns > 1 ? " per run on average" : "",
			 rep->counting_ns_mean / 1e9, rep->wall_ns_mean / 1e9);
	return true;
}

/* One statement of which runs failed or were cut short and what the numbers are over, for every format (issue 22
 * item 8): the rule is pmc_report_summarize's (failed runs are kept out while any run succeeded; when none did, the
 * numbers are the failed runs', and this says so). */
bool pmc_report_runs_note(const struct pmc_report *rep, char *buf, size_t len)
{
	const char *over = rep->stats_over ? rep->stats_over : "runs";
	unsigned bad = rep->runs_failed + rep->runs_partial, shown = 0;
	size_t used;

	buf[0] = '\0';
	if (!bad || !len)
		return false;
	used = (size_t)snprintf(buf, len, "%u of %u run%s %s", bad, rep->nruns, rep->nruns == 1 ? "" : "s",
				!rep->runs_partial ? "failed" : !rep->runs_failed ? "interrupted" : "failed or interrupted");
	for (size_t i = 0; i < rep->nexecs && shown < 4 && used < len; i++) {
		const struct pmc_report_exec *x = &rep->execs[i];
		int n;

		if (!x->exit_status && !x->interrupted)
			continue;
		if (x->interrupted)
			n = snprintf(buf + used, len - used, "%srun %u interrupted", shown ? "; " : " (", x->run + 1);
		else if (x->signal)
			n = snprintf(buf + used, len - used, "%srun %u killed by signal %d", shown ? "; " : " (", x->run + 1,
				     x->signal);
		else
			n = snprintf(buf + used, len - used, "%srun %u exited %d", shown ? "; " : " (", x->run + 1,
				     x->exit_status);
		used += (size_t)n;
		shown++;
	}
	if (shown && used < len)
		used += (size_t)snprintf(buf + used, len - used, ")");
	if (used >= len)
		return true;
	if (rep->runs_used && rep->runs_used < rep->nruns && !strcmp(over, "ok runs"))
		snprintf(buf + used, len - used, ": kept out; the numbers are over the %u ok run%s", rep->runs_used,
			 rep->runs_used == 1 ? "" : "s");
	else if (rep->runs_used && rep->runs_used < rep->nruns)
		snprintf(buf + used, len - used, ": the numbers are over the %u %.*s run%s", rep->runs_used,
			 (int)strcspn(over, " "), over, rep->runs_used == 1 ? "" : "s");
	else
		snprintf(buf + used, len - used, ": no run %s, so the numbers shown are %s",
			 rep->runs_failed ? "succeeded" : "completed", rep->runs_used == 1 ? "that run's" : "those runs'");
	return true;
}

double pmc_report_sem(const struct pmc_report_event *e)
{
	return e->nok > 1 ? e->stddev / sqrt((double)e->nok) : 0;
}

int pmc_report_add_exec(struct pmc_report *rep, const struct pmc_report_exec *x)
{
	void *p = rep->execs;

	if (pmc_store_reserve(&p, &rep->execs_cap, rep->nexecs + 1, sizeof(*x)))
		return -ENOMEM;
	rep->execs = p;
	rep->execs[rep->nexecs++] = *x;
	return 0;
}

int pmc_report_reserve_samples(struct pmc_report_event *e, size_t n)
{
	void *p = e->samples;

	if (e->samples && !e->samples_cap) {
		/* a malloc'd array (a merged row, a test's report): move it into the store */
		void *q = NULL;
		size_t cap = 0;

		if (pmc_store_reserve(&q, &cap, n > e->nsamples ? n : e->nsamples, sizeof(*e->samples)))
			return -ENOMEM;
		memcpy(q, e->samples, e->nsamples * sizeof(*e->samples));
		free(e->samples);
		e->samples = q;
		e->samples_cap = cap;
		return 0;
	}
	if (pmc_store_reserve(&p, &e->samples_cap, n, sizeof(*e->samples)))
		return -ENOMEM;
	e->samples = p;
	return 0;
}

int pmc_report_push_sample(struct pmc_report_event *e, unsigned run, unsigned batch, const struct pmc_count *c)
{
	struct pmc_sample *s;

	if (pmc_report_reserve_samples(e, e->nsamples + 1))
		return -ENOMEM;
	s = &e->samples[e->nsamples++];
	s->run = run;
	s->batch = batch;
	s->count = *c;
	return 0;
}

/* Hybrid CPUs: a copy bound to one core PMU counts only while the workload runs there; its time running below
 * time enabled is time on the other core type, so its counts are never scaled. */
double pmc_report_sample_value(const struct pmc_report_event *e, const struct pmc_count *c)
{
	return e->ev.core_pmu ? (double)c->value : pmc_count_scaled(c);
}

void pmc_report_core_pmu_name(const struct pmc_report_event *e, char *buf, size_t len)
{
	const char *b = strrchr(e->ev.name, '[');
	size_t n = b ? strcspn(b + 1, "]") : strcspn(e->ev.canonical, "/");

	snprintf(buf, len, "%.*s", (int)n, b ? b + 1 : e->ev.canonical);
}

static void summarize_event(const struct pmc_report *rep, struct pmc_report_event *e, unsigned nbatches)
{
	double *vals;
	size_t n = 0;
	double sum = 0, minrun = 100.0;
	bool idle = false; /* a sample not counted because its time enabled is 0: the task did not run while counted */

	e->nok = 0;
	e->mean = e->median = e->stddev = e->min = e->max = 0;
	e->running_pct = 0;
	e->core_share_pct = 0;
	e->batch_spread_pct = -1;
	e->reason[0] = '\0';
	if (e->nsamples == 0) {
		e->status = PMC_COUNT_NOT_RUN;
		snprintf(e->reason, sizeof(e->reason), "not run: the measurement stopped before this event's batch");
		return;
	}
	vals = malloc(e->nsamples * sizeof(*vals));
	if (!vals) {
		e->status = PMC_COUNT_NOT_RUN;
		snprintf(e->reason, sizeof(e->reason), "out of memory while summarizing");
		return;
	}
	e->status = e->samples[0].count.status;
	e->err = e->samples[0].count.err;
	for (size_t i = 0; i < e->nsamples; i++) {
		const struct pmc_count *c = &e->samples[i].count;
		double pct;

		if (!pmc_report_run_used(rep, e->samples[i].run))
			continue;
		if (c->status != PMC_COUNT_OK) {
			idle |= c->status == PMC_COUNT_NOT_COUNTED && c->enabled == 0 && !c->err;
			if (e->status != PMC_COUNT_OK && c->status == PMC_COUNT_NOT_SUPPORTED) {
				e->status = c->status;
				e->err = c->err;
			}
			continue;
		}
		vals[n++] = pmc_report_sample_value(e, c);
		sum += vals[n - 1];
		pct = c->enabled ? 100.0 * (double)c->running / (double)c->enabled : 100.0;
		if (pct < minrun)
			minrun = pct;
	}
	if (n == 0) {
		if (e->status == PMC_COUNT_NOT_COUNTED && (e->ev.flags & PMC_EVF_BP_NEVER_FIRES))
			snprintf(e->reason, sizeof(e->reason), "%s", PMC_BP_NEVER_REASON);
		else if (e->status == PMC_COUNT_NOT_SUPPORTED && (e->ev.flags & PMC_EVF_TSC) &&
		    (e->err == EACCES || e->err == EPERM))
			/* the msr PMU refuses every exclude bit: :u is no way out for it */
			snprintf(e->reason, sizeof(e->reason), "not permitted by kernel.perf_event_paranoid: the msr PMU "
				 "counts only with kernel mode included (it refuses :u and every exclude bit), which needs "
				 "kernel.perf_event_paranoid <= 1 or CAP_PERFMON");
		else if (e->status == PMC_COUNT_NOT_SUPPORTED)
			snprintf(e->reason, sizeof(e->reason), "%s",
				 pmc_perf_event_reason(e->err, &e->ev.attr, !!(e->ev.flags & PMC_EVF_HARDWARE)));
		else if (e->status == PMC_COUNT_NOT_COUNTED && e->ev.core_pmu) {
			char pmu[64];
			pmc_report_core_pmu_name(e, pmu, sizeof(pmu));
			snprintf(e->reason, sizeof(e->reason),
				 "time running 0 on %s: the workload did not run on a %s CPU (or its counters were busy)",
				 pmu, pmu);
		} else if (e->status == PMC_COUNT_NOT_COUNTED && e->err == EPERM)
			snprintf(e->reason, sizeof(e->reason),
				 "the command gains privilege at exec (set-user-ID, set-group-ID, file capabilities or not "
				 "readable): the kernel stops counting such a task; run it as the file's owner, or count a "
				 "copy without that bit");
		else if (e->status == PMC_COUNT_NOT_COUNTED && idle)
			snprintf(e->reason, sizeof(e->reason),
				 "time enabled 0: the task did not run while counting was on (a sleeping process, or "
				 "counting never started before it ended)");
		else if (e->status == PMC_COUNT_NOT_COUNTED)
			snprintf(e->reason, sizeof(e->reason),
				 "opened but never scheduled on a counter (time running 0): the counters were busy");
		else if (e->status == PMC_COUNT_OK)
			snprintf(e->reason, sizeof(e->reason),
				 "counted only in runs kept out of the statistics (failed or interrupted)");
		else
			snprintf(e->reason, sizeof(e->reason), "not run: the measurement stopped before this event");
		if (e->status == PMC_COUNT_OK)
			e->status = PMC_COUNT_NOT_RUN;
		free(vals);
		return;
	}
	e->status = PMC_COUNT_OK;
	e->nok = n;
	e->mean = sum / (double)n;
	qsort(vals, n, sizeof(*vals), cmp_double);
	e->min = vals[0];
	e->max = vals[n - 1];
	e->median = n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (vals[i] - e->mean) * (vals[i] - e->mean);
		e->stddev = sqrt(ss / (double)(n - 1));
	}
	e->running_pct = e->ev.core_pmu ? 100.0 : minrun;
	e->core_share_pct = e->ev.core_pmu ? minrun : 0;
	free(vals);

	if (e->in_every_batch && nbatches > 1) {
		double bmin = INFINITY, bmax = -INFINITY, bsum = 0, *bsums = calloc(nbatches, sizeof(*bsums));
		unsigned bn = 0, *cnt = calloc(nbatches, sizeof(*cnt));

		/* One pass over the samples (not one per batch: with many batches and runs that was quadratic). */
		for (size_t i = 0; bsums && cnt && i < e->nsamples; i++) {
			const struct pmc_sample *sm = &e->samples[i];
			if (sm->batch >= nbatches || sm->count.status != PMC_COUNT_OK ||
			    !pmc_report_run_used(rep, sm->run))
				continue;
			bsums[sm->batch] += pmc_report_sample_value(e, &sm->count);
			cnt[sm->batch]++;
		}
		for (unsigned b = 0; bsums && cnt && b < nbatches; b++) {
			double s;

			if (!cnt[b])
				continue;
			s = bsums[b] / cnt[b];
			bmin = s < bmin ? s : bmin;
			bmax = s > bmax ? s : bmax;
			bsum += s;
			bn++;
		}
		if (bn > 1 && bsum > 0)
			e->batch_spread_pct = 100.0 * (bmax - bmin) / (bsum / bn);
		free(bsums);
		free(cnt);
	}
}

void pmc_report_summarize(struct pmc_report *rep)
{
	summarize_runs(rep);
	for (size_t i = 0; i < rep->nevents; i++)
		summarize_event(rep, &rep->events[i], rep->nbatches);
}

const struct pmc_report_event *pmc_report_find_event(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nevents; i++)
		if (!strcasecmp(rep->events[i].ev.name, name))
			return &rep->events[i];
	for (size_t i = 0; i < rep->nevents; i++)
		if (!strcasecmp(rep->events[i].ev.canonical, name))
			return &rep->events[i];
	return NULL;
}

int pmc_report_set_const(struct pmc_report *rep, const char *name, double value)
{
	for (size_t i = 0; i < rep->nconsts; i++) {
		if (!strcasecmp(rep->consts[i].name, name)) {
			rep->consts[i].value = value;
			return 0;
		}
	}
	if (rep->nconsts >= PMC_REPORT_MAX_CONSTS)
		return -ENOSPC;
	snprintf(rep->consts[rep->nconsts].name, sizeof(rep->consts[0].name), "%s", name);
	rep->consts[rep->nconsts++].value = value;
	return 0;
}

int pmc_report_get_const(const struct pmc_report *rep, const char *name, double *ret)
{
	for (size_t i = 0; i < rep->nconsts; i++) {
		if (!strcasecmp(rep->consts[i].name, name)) {
			*ret = rep->consts[i].value;
			return 0;
		}
	}
	return -ENOENT;
}

int pmc_report_add_metric(struct pmc_report *rep, const struct pmc_metric_value *m)
{
	struct pmc_metric_value *p = realloc(rep->metrics, (rep->nmetrics + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	rep->metrics = p;
	p[rep->nmetrics++] = *m;
	return 0;
}

/* A message longer than its room (len bytes, full): its end replaced by "...", at a character's start. */
static void cut_mark(char *msg, size_t len)
{
	size_t at = len - 4;

	while (at > 0 && ((unsigned char)msg[at] & 0xc0) == 0x80)
		at--; /* not inside a UTF-8 sequence */
	memcpy(msg + at, "...", 4);
}

int pmc_report_add_check(struct pmc_report *rep, enum pmc_check_severity sev, const char *name, const char *fmt, ...)
{
	struct pmc_check_note *p = realloc(rep->checks, (rep->nchecks + 1) * sizeof(*p));
	va_list ap;
	int n;

	if (!p)
		return -ENOMEM;
	rep->checks = p;
	p += rep->nchecks++;
	memset(p, 0, sizeof(*p));
	p->severity = sev;
	snprintf(p->name, sizeof(p->name), "%s", name);
	va_start(ap, fmt);
	n = vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(p->msg)) /* cut: said so, at a whole character */
		cut_mark(p->msg, sizeof(p->msg));
	return 0;
}

void pmc_report_fini(struct pmc_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->nevents; i++) {
		struct pmc_report_event *e = &rep->events[i];

		if (e->samples_cap)
			pmc_store_free(e->samples, e->samples_cap, sizeof(*e->samples));
		else
			free(e->samples);
	}
	free(rep->events);
	free(rep->metrics);
	free(rep->checks);
	if (rep->execs_cap)
		pmc_store_free(rep->execs, rep->execs_cap, sizeof(*rep->execs));
	else
		free(rep->execs);
	free(rep->run_state);
	free(rep->metric_runs);
	rep->metric_runs = NULL;
	rep->nmetric_runs = 0;
	pmc_report_regions_free(rep->regions);
	rep->regions = NULL;
	pmc_report_topdown_free(rep->topdown);
	rep->topdown = NULL;
	rep->execs = NULL;
	rep->run_state = NULL;
	rep->nexecs = rep->nrun_state = rep->execs_cap = 0;
	rep->events = NULL;
	rep->metrics = NULL;
	rep->checks = NULL;
	rep->nevents = rep->nmetrics = rep->nchecks = 0;
}

int pmc_report_event_run_value(const struct pmc_report_event *e, unsigned r, size_t *pos, double *ret)
{
	double sum = 0;
	size_t n = 0, i = pos ? *pos : 0;

	while (pos && i < e->nsamples && e->samples[i].run < r)
		i++;
	for (; i < e->nsamples && (!pos || e->samples[i].run == r); i++) {
		if (e->samples[i].run != r || e->samples[i].count.status != PMC_COUNT_OK)
			continue;
		sum += pmc_count_scaled(&e->samples[i].count);
		n++;
	}
	if (pos)
		*pos = i;
	if (!n)
		return -ENODATA;
	*ret = sum / (double)n;
	return 0;
}
