/* SPDX-License-Identifier: MIT */
#include "report/report.h"

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

static void summarize_event(struct pmc_report_event *e, unsigned nbatches)
{
	double *vals;
	size_t n = 0;
	double sum = 0, minrun = 100.0;

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

		if (c->status != PMC_COUNT_OK) {
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
		if (e->status == PMC_COUNT_NOT_SUPPORTED)
			snprintf(e->reason, sizeof(e->reason), "%s",
				 pmc_perf_event_reason(e->err, &e->ev.attr, !!(e->ev.flags & PMC_EVF_HARDWARE)));
		else if (e->status == PMC_COUNT_NOT_COUNTED && e->ev.core_pmu) {
			char pmu[64];
			pmc_report_core_pmu_name(e, pmu, sizeof(pmu));
			snprintf(e->reason, sizeof(e->reason),
				 "time running 0 on %s: the workload did not run on a %s CPU (or its counters were busy)",
				 pmu, pmu);
		} else if (e->status == PMC_COUNT_NOT_COUNTED)
			snprintf(e->reason, sizeof(e->reason),
				 "opened but never scheduled on a counter (time running 0): the counters were busy");
		else
			snprintf(e->reason, sizeof(e->reason), "not run: the measurement stopped before this event");
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
		double bmin = INFINITY, bmax = -INFINITY, bsum = 0;
		unsigned bn = 0;

		for (unsigned b = 0; b < nbatches; b++) {
			double s = 0;
			unsigned k = 0;
			for (size_t i = 0; i < e->nsamples; i++) {
				if (e->samples[i].batch != b || e->samples[i].count.status != PMC_COUNT_OK)
					continue;
				s += pmc_report_sample_value(e, &e->samples[i].count);
				k++;
			}
			if (!k)
				continue;
			s /= k;
			bmin = s < bmin ? s : bmin;
			bmax = s > bmax ? s : bmax;
			bsum += s;
			bn++;
		}
		if (bn > 1 && bsum > 0)
			e->batch_spread_pct = 100.0 * (bmax - bmin) / (bsum / bn);
	}
}

void pmc_report_summarize(struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nevents; i++)
		summarize_event(&rep->events[i], rep->nbatches);
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

int pmc_report_add_check(struct pmc_report *rep, enum pmc_check_severity sev, const char *name, const char *fmt, ...)
{
	struct pmc_check_note *p = realloc(rep->checks, (rep->nchecks + 1) * sizeof(*p));
	va_list ap;

	if (!p)
		return -ENOMEM;
	rep->checks = p;
	p += rep->nchecks++;
	memset(p, 0, sizeof(*p));
	p->severity = sev;
	snprintf(p->name, sizeof(p->name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return 0;
}

void pmc_report_fini(struct pmc_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->nevents; i++)
		free(rep->events[i].samples);
	free(rep->events);
	free(rep->metrics);
	free(rep->checks);
	rep->events = NULL;
	rep->metrics = NULL;
	rep->checks = NULL;
	rep->nevents = rep->nmetrics = rep->nchecks = 0;
}
