/* SPDX-License-Identifier: MIT */
/* The engine: each metric evaluated in each run, so that reports carry per-run samples for comparisons
 * (pmctool compare). A run's view of the report: every event's value is its value in that run, SECONDS that run's
 * wall time; the metrics are evaluated on it with the same definitions as the summary. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "metrics/metrics.h"

/* Per-run lookups walk forward with a cursor: runs happen in order (engine/measure.c: run-major), so each event's
 * samples and the executions are sorted by run, and all runs take one pass (a scan per run was O(runs^2): a third of
 * -r 3000's time with 100 events). Anything out of order falls back to the scan. */
struct run_cursors {
	size_t *ev;     /* per event: its first sample not yet passed */
	bool *sorted;   /* per event: its samples are in run order */
	size_t exec;
	bool execs_sorted;
};

static double run_wall_ns(const struct pmc_report *rep, unsigned r, struct run_cursors *c)
{
	double sum = 0;
	size_t n = 0, i = c->execs_sorted ? c->exec : 0;

	while (c->execs_sorted && i < rep->nexecs && rep->execs[i].run < r)
		i++;
	for (; i < rep->nexecs && (!c->execs_sorted || rep->execs[i].run == r); i++)
		if (rep->execs[i].run == r) {
			sum += pmc_report_exec_counting_ns(&rep->execs[i]); /* -D, --control: the time counted */
			n++;
		}
	if (c->execs_sorted)
		c->exec = i;
	return n ? sum / (double)n : pmc_report_counting_ns(rep);
}

static int cursors_init(const struct pmc_report *rep, struct run_cursors *c)
{
	size_t m = rep->nevents ? rep->nevents : 1;

	c->ev = calloc(m, sizeof(*c->ev));
	c->sorted = calloc(m, sizeof(*c->sorted));
	if (!c->ev || !c->sorted)
		return -ENOMEM;
	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_report_event *e = &rep->events[k];

		c->sorted[k] = true;
		for (size_t i = 1; i < e->nsamples && c->sorted[k]; i++)
			c->sorted[k] = e->samples[i - 1].run <= e->samples[i].run;
	}
	c->exec = 0;
	c->execs_sorted = true;
	for (size_t i = 1; i < rep->nexecs && c->execs_sorted; i++)
		c->execs_sorted = rep->execs[i - 1].run <= rep->execs[i].run;
	return 0;
}

/* Narrow view (a copy of e) to the samples of run r, from the cursor *pos on (samples in run order); *pos moves past
 * them. */
static void run_span(const struct pmc_report_event *e, unsigned r, size_t *pos, struct pmc_report_event *view)
{
	size_t i = *pos, from;

	while (i < e->nsamples && e->samples[i].run < r)
		i++;
	from = i;
	while (i < e->nsamples && e->samples[i].run == r)
		i++;
	*pos = i;
	view->samples = e->samples + from;
	view->nsamples = i - from;
	view->samples_cap = 0;
}

/* Evaluate defs on run r's view of rep and store each value under the summary metric of the same name. Runs in
 * increasing order (the cursors only go forward). */
static void eval_run(const struct pmc_report *rep, unsigned r, const struct pmc_metric_def *defs, size_t ndefs,
		     const struct pmc_metric_def *cli, size_t ncli, unsigned flags, struct pmc_report_event *evs,
		     struct run_cursors *c)
{
	struct pmc_report view = *rep;

	for (size_t i = 0; i < rep->nevents; i++) {
		double v;
		evs[i] = rep->events[i];
		/* The view's event holds run r's samples only: whatever reads them (the mode a sample was counted in, for
		 * the metric's choice of events) costs the run's samples, never every run's (issue 39: a scan of all of
		 * them per run made -r 100000 quadratic, minutes after a signal). */
		if (c->sorted[i])
			run_span(&rep->events[i], r, &c->ev[i], &evs[i]);
		if (evs[i].status == PMC_COUNT_OK &&
		    pmc_report_event_run_value(&evs[i], r, NULL, &v) == 0)
			evs[i].mean = v;
		else if (evs[i].status == PMC_COUNT_OK) {
			evs[i].status = PMC_COUNT_NOT_COUNTED;
			strcpy(evs[i].reason, "not counted in this run");
		}
	}
	view.events = evs;
	view.metrics = NULL;
	view.nmetrics = 0;
	view.checks = NULL;
	view.nchecks = 0;
	view.wall_ns_mean = run_wall_ns(rep, r, c);
	pmc_report_set_const(&view, "SECONDS", view.wall_ns_mean / 1e9);
	pmc_metrics_eval(&view, defs, ndefs, flags);
	if (ncli)
		pmc_metrics_eval(&view, cli, ncli, 0);
	for (size_t m = 0; m < view.nmetrics; m++)
		for (size_t k = 0; k < rep->nmetrics; k++)
			if (!strcmp(view.metrics[m].name, rep->metrics[k].name) && view.metrics[m].valid)
				rep->metric_runs[k * rep->nruns + r] = view.metrics[m].value;
	free(view.metrics);
}

/* The default metrics the summary evaluated (PMC_METRICS_SKIP_ABSENT left the others out), in their order: a copy
 * of each, *ret_n of them; NULL (the caller then filters in each run) when out of memory or when a name is also a
 * --metric's (the summary's row could be either). */
static struct pmc_metric_def *present_defaults(const struct pmc_report *rep, const struct pmc_metric_def *defs,
					       size_t ndefs, const struct pmc_metric_def *cli, size_t ncli, size_t *ret_n)
{
	struct pmc_metric_def *kept = malloc((ndefs ? ndefs : 1) * sizeof(*kept));
	size_t n = 0;

	if (!kept)
		return NULL;
	for (size_t i = 0; i < ndefs; i++) {
		bool in_summary = false;

		for (size_t k = 0; k < ncli; k++)
			if (!strcmp(cli[k].name, defs[i].name)) {
				free(kept);
				return NULL;
			}
		for (size_t m = 0; m < rep->nmetrics && !in_summary; m++)
			in_summary = !strcmp(rep->metrics[m].name, defs[i].name);
		if (in_summary)
			kept[n++] = defs[i];
	}
	*ret_n = n;
	return kept;
}

void pmc_eng_metrics_per_run(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
			  struct pmc_report *rep)
{
	const struct pmc_metric_def *defs;
	struct pmc_report_event *evs;
	struct pmc_metric_def *kept = NULL;
	struct run_cursors c = { 0 };
	size_t ndefs = 0;
	unsigned flags = 0;

	if (!rep->nmetrics || !rep->nruns)
		return;
	rep->metric_runs = malloc(rep->nmetrics * rep->nruns * sizeof(double));
	evs = calloc(rep->nevents ? rep->nevents : 1, sizeof(*evs));
	if (!rep->metric_runs || !evs || cursors_init(rep, &c)) {
		free(rep->metric_runs);
		rep->metric_runs = NULL;
		free(evs);
		free(c.ev);
		free(c.sorted);
		return;
	}
	for (size_t i = 0; i < rep->nmetrics * rep->nruns; i++)
		rep->metric_runs[i] = NAN;
	rep->nmetric_runs = rep->nmetrics;
	if (se->variant) {
		defs = se->variant->metrics;
		ndefs = se->variant->nmetrics;
	} else {
		defs = pmc_metrics_default(&ndefs);
		flags = PMC_METRICS_SKIP_ABSENT;
		/* Which defaults apply is the same in every run (it depends on the events' names only): decided once from
		 * the summary, not by parsing every default formula again in each run (most of a run's cost with a few
		 * events: issue 39). */
		kept = present_defaults(rep, defs, ndefs, cli, ncli, &ndefs);
		if (kept) {
			defs = kept;
			flags = 0;
		}
	}
	/* A second SIGINT/SIGTERM: the runs not evaluated yet keep no per-run value (NAN: null, as never measured) */
	for (unsigned r = 0; r < rep->nruns && !pmc_launch_hurry; r++)
		eval_run(rep, r, defs, ndefs, cli, ncli, flags, evs, &c);
	free(kept);
	free(evs);
	free(c.ev);
	free(c.sorted);
}

int pmc_eng_exec_record(struct pmc_report *rep, const struct pmc_report_exec *e)
{
	rep->wall_ns_mean += e->wall_ns;
	rep->wall_ns_min = rep->wall_ns_min == 0 || e->wall_ns < rep->wall_ns_min ? e->wall_ns : rep->wall_ns_min;
	rep->wall_ns_max = e->wall_ns > rep->wall_ns_max ? e->wall_ns : rep->wall_ns_max;
	rep->user_s += e->user_s;
	rep->sys_s += e->sys_s;
	return pmc_report_add_exec(rep, e) ? -ENOMEM : 0;
}

void pmc_eng_runs_finish(const struct pmc_engine *se, struct pmc_report *rep, unsigned done)
{
	if (done) {
		rep->wall_ns_mean /= done;
		rep->user_s /= done;
		rep->sys_s /= done;
	}
	rep->partial = pmc_eng_stopped(se) != 0;
}
