/* SPDX-License-Identifier: MIT */
/* Checks and metrics that regions make possible (pmctool's side). */
#include "engine/rg_collect.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf/perf.h"

/* Marker overhead above this share of a region's own count is worth a warning. */
#define OVERHEAD_WARN_PCT 5.0

static void check_calls(struct pmc_report *rep, const struct pmc_report_regions *rr)
{
	for (size_t r = 0; r < rr->n; r++) {
		const struct pmc_report_region *rg = &rr->r[r];
		uint64_t lo = UINT64_MAX, hi = 0;

		for (size_t k = 0; k < rg->nexec_calls && k < rr->execs; k++) {
			lo = rg->exec_calls[k] < lo ? rg->exec_calls[k] : lo;
			hi = rg->exec_calls[k] > hi ? rg->exec_calls[k] : hi;
		}
		if (rr->execs > 1 && lo != hi)
			pmc_report_add_check(rep, PMC_CHECK_WARN, "region-calls-differ",
					     "region %s was left %llu times in one execution and %llu in another: the "
					     "program did different work in different batches or runs, so counts from "
					     "different batches do not describe the same work", rg->name,
					     (unsigned long long)lo, (unsigned long long)hi);
	}
}

static void check_top(struct pmc_report *rep, const struct pmc_report_regions *rr)
{
	for (size_t i = 0; i < rr->nevents && i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		double top, slack;

		if (!rr->top_n[i] || e->status != PMC_COUNT_OK || e->nparts)
			continue;
		top = rr->top_sum[i] / rr->top_n[i];
		/* Exact events (breakpoints, software counts) may not exceed at all; counters opened apart by the program
		 * and by pmctool may differ by a little. */
		slack = e->ev.cls == PMC_CLASS_GP || e->ev.cls == PMC_CLASS_FIXED ? 0.01 * e->mean : 0;
		if (top > e->mean + slack)
			pmc_report_add_check(rep, PMC_CHECK_BAD, "region-exceeds-program",
					     "%s: the top-level regions count %.0f together, more than the whole program's "
					     "%.0f: the program's counters and pmctool's disagree (multiplexing, or another "
					     "event than asked)", e->ev.name, top, e->mean);
	}
}

static void check_overhead(struct pmc_report *rep, const struct pmc_report_regions *rr)
{
	for (size_t r = 0; r < rr->n; r++) {
		const struct pmc_report_region *rg = &rr->r[r];
		double worst = 0;
		size_t wi = 0;

		for (size_t i = 0; i < rr->nevents; i++) {
			double v = pmc_region_value(&rg->all, i), c = rr->cost[i], pct;

			if (isnan(v) || isnan(c) || v <= 0 || c <= 0)
				continue;
			pct = 100.0 * pmc_region_calls(&rg->all) * c / v;
			if (pct > worst) {
				worst = pct;
				wi = i;
			}
		}
		if (worst > OVERHEAD_WARN_PCT)
			pmc_report_add_check(rep, PMC_CHECK_WARN, "region-overhead",
					     "region %s: the markers themselves are %.1f%% of its %s (%.0f per enter/leave "
					     "pair): the region is too short to measure this way; mark a larger part",
					     rg->name, worst > 100 ? 100 : worst, rep->events[wi].ev.name, rr->cost[wi]);
	}
}

static void check_use(struct pmc_report *rep, const struct pmc_report_regions *rr)
{
	for (size_t r = 0; r < rr->n; r++)
		if (rr->r[r].not_left)
			pmc_report_add_check(rep, PMC_CHECK_WARN, "region-not-left",
					     "region %s was entered and not left %u time%s (the thread or the program ended "
					     "inside it): those entries are not in its counts", rr->r[r].name,
					     rr->r[r].not_left, rr->r[r].not_left == 1 ? "" : "s");
	if (rr->unmatched || rr->invalid || rr->too_deep || rr->bad_names)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "region-misuse",
				     "ignored: %llu leave%s of a region that was not the innermost open one, %llu "
				     "enter/leave%s of an invalid handle, %llu enter%s beyond %d open regions; %llu "
				     "region name%s refused (empty, too long or too many: pmctool-regions(7))",
				     (unsigned long long)rr->unmatched, rr->unmatched == 1 ? "" : "s",
				     (unsigned long long)rr->invalid, rr->invalid == 1 ? "" : "s",
				     (unsigned long long)rr->too_deep, rr->too_deep == 1 ? "" : "s", 64,
				     (unsigned long long)rr->bad_names, rr->bad_names == 1 ? "" : "s");
	if (rr->refused)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "region-misuse",
				     "refused: %llu enter/leave%s that interrupted the library itself (a signal "
				     "handler's, during a thread's first use or while it re-read its counters' pages) or "
				     "came after its thread ended: not counted (pmctool-regions(7), SIGNAL HANDLERS)",
				     (unsigned long long)rr->refused, rr->refused == 1 ? "" : "s");
	if (rr->execs_silent)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "regions-silent",
				     "%u of %u executions wrote no region results: the program is not linked with "
				     "libpmctool or was built without -DPMCTOOL_MARKERS, entered no region, or ended "
				     "without exit() (killed by a signal, _exit)", rr->execs_silent, rr->execs);
	if (rr->procs_silent)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "regions-silent",
				     "%u process%s counted regions and ended without exit() (_exit(2) or a signal; a "
				     "forked child that ends with _exit, for one): %s region results are not in the report "
				     "(call pmctool_regions_finish before _exit: pmctool-regions(7))", rr->procs_silent,
				     rr->procs_silent == 1 ? "" : "es", rr->procs_silent == 1 ? "its" : "their");
	if (rr->blocks_cut)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "regions-cut",
				     "%u region result block%s cut short or malformed and left out", rr->blocks_cut,
				     rr->blocks_cut == 1 ? " was" : "s were");
	if (rr->open_err && rr->open_err_index < rep->nevents) {
		/* In pmctool's words for the same failure (perf_event_open's errno alone says "No such file or
		 * directory" for a missing PMU), with the event as the user named it. */
		const struct pmc_event *ev = &rep->events[rr->open_err_index].ev;

		pmc_report_add_check(rep, PMC_CHECK_WARN, "regions-not-counted",
				     "the program could not open %s for its regions: %s", ev->name,
				     pmc_perf_event_reason(rr->open_err, &ev->attr, !!(ev->flags & PMC_EVF_HARDWARE)));
	}
	if (rr->user_only)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "regions-user-only",
				     "the program's region counters count user mode only (kernel.perf_event_paranoid)");
	pmc_report_add_check(rep, PMC_CHECK_INFO, "regions-read",
			     "the program read its region counters %s", pmc_regions_read_method(rr));
}

void pmc_regions_checks(struct pmc_report *rep)
{
	const struct pmc_report_regions *rr = rep->regions;

	if (!rr)
		return;
	check_calls(rep, rr);
	check_top(rep, rr);
	check_overhead(rep, rr);
	check_use(rep, rr);
}

/* A region's metrics: the report's formulas over a copy of the report whose event means are the region's counts
 * (SECONDS is the program's, so it is left out: a region has no time of its own unless a clock event is counted). */
int pmc_regions_metrics(struct pmc_report *rep, const struct pmc_metric_def *defs, size_t ndefs, unsigned flags)
{
	struct pmc_report_regions *rr = rep->regions;
	struct pmc_report_event *evs;
	int rc = 0;

	if (!rr || !ndefs)
		return 0;
	evs = malloc((rep->nevents ? rep->nevents : 1) * sizeof(*evs));
	if (!evs)
		return -ENOMEM;
	for (size_t r = 0; r < rr->n && !rc; r++) {
		struct pmc_report_region *rg = &rr->r[r];
		struct pmc_report shadow = *rep;

		shadow.events = evs;
		shadow.metrics = rg->metrics;
		shadow.nmetrics = rg->nmetrics;
		shadow.checks = NULL;
		shadow.nchecks = 0;
		shadow.wall_ns_mean = 0;
		shadow.nconsts = 0;
		shadow.regions = NULL;
		for (size_t i = 0; i < rep->nevents; i++) {
			double v = pmc_region_value(&rg->all, i);

			evs[i] = rep->events[i];
			evs[i].samples = NULL;
			evs[i].nsamples = 0;
			evs[i].status = isnan(v) ? PMC_COUNT_NOT_COUNTED : PMC_COUNT_OK;
			snprintf(evs[i].reason, sizeof(evs[i].reason), "%s", isnan(v) ? "not counted in this region" : "");
			evs[i].mean = evs[i].median = evs[i].min = evs[i].max = isnan(v) ? 0 : v;
			evs[i].stddev = 0;
			evs[i].nok = isnan(v) ? 0 : 1;
		}
		rc = pmc_metrics_eval(&shadow, defs, ndefs, flags);
		rg->metrics = shadow.metrics;
		rg->nmetrics = shadow.nmetrics;
		free(shadow.checks);
	}
	free(evs);
	return rc;
}
