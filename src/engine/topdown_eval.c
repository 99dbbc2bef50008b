/* SPDX-License-Identifier: MIT */
/* stat --topdown after the runs (issue 27, doc/topdown.md): each tree from the report's counts (the total, each row,
 * each region, each -I interval) into rep->topdown's chain, and the checks on them. An input not counted is n/a with
 * its reason, never 0%. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "engine/topdown_int.h"
#include "metrics/topdown_report.h"
#include "perf/perf.h"
#include "report/regions.h"

/* How many of the inputs only deeper levels need were planned outside level 1's batch (0 with one batch). */
static unsigned deep_elsewhere(const struct pmc_engine *se, const struct td_part *td)
{
	size_t l1 = SIZE_MAX;
	unsigned n = 0;

	if (se->plan.nbatches < 2 || pmc_plan_group_batch(&se->plan, se->evs, td->g_l1, &l1) < 0)
		return 0;
	for (size_t b = 0; b < se->plan.nbatches; b++)
		for (size_t k = 0; b != l1 && k < se->plan.batches[b].n; k++)
			for (size_t i = 0; i < td->tree->ninputs; i++)
				n += td->needed[i] && !td->l1[i] && td->name[i][0] &&
				     !strcmp(se->evs[se->plan.batches[b].events[k]].name, td->name[i]);
	return n;
}

/* Input i's value from one count (a total, a row's, an interval's): counted, or not counted with the reason. An event
 * that opened and read 0 on a PMU that does not implement it (QEMU's) is not a count. why is the caller's buffer. */
static void count_value(const struct td_part *td, size_t i, const struct pmc_event *ev, bool ok, double value,
			double running_pct, const char *reason, struct pmc_td_value *v, bool *scaled, char *why,
			size_t whylen)
{
	char not_impl[PMC_TD_REASON_LEN];

	(void)td;
	(void)i;
	*v = (struct pmc_td_value){ .counted = false, .reason = reason && reason[0] ? reason : "not counted" };
	if (ok && value == 0 && pmc_arch_event_implemented(&ev->attr, not_impl, sizeof(not_impl)) == 0) {
		snprintf(why, whylen, "it read 0 and %.180s", not_impl);
		v->reason = why;
	} else if (ok) {
		v->counted = true;
		v->value = value;
		*scaled |= running_pct < 100.0;
	}
}

/* The value of input i that needs no count (a property; an input with no event), or false: look for its count. */
static bool uncounted_value(const struct td_part *td, size_t i, struct pmc_td_value *v)
{
	*v = (struct pmc_td_value){ .counted = false, .reason = td->why_not[i] };
	if (td->tree->inputs[i].kind == PMC_TD_PROPERTY) {
		v->counted = td->prop_ok[i];
		v->value = td->prop[i];
		return true;
	}
	return !td->name[i][0];
}

/* The mean of e's counted samples in batch b, NAN when none. */
static double batch_mean(const struct pmc_report_event *e, size_t b)
{
	double sum = 0;
	unsigned n = 0;

	for (size_t k = 0; k < e->nsamples; k++)
		if (e->samples[k].batch == b && e->samples[k].count.status == PMC_COUNT_OK) {
			sum += pmc_count_scaled(&e->samples[k].count);
			n++;
		}
	return n ? sum / n : NAN;
}

/* Several batches: e's value as level 1's run saw it. An anchor input (counted in every batch) is its level-1 batch's
 * mean, so level 1's ratios are all from its group; an input of another batch is scaled by the clock anchor's ratio
 * between level 1's run and its own (X x CLK_l1 / CLK_b), so its ratio to the clock is its own run's. Else the mean. */
static double in_level1_run(const struct td_part *td, const struct pmc_report *rep, const struct pmc_report_event *e,
			    const struct pmc_row_scope *scope)
{
	double x;

	if (td->l1b == SIZE_MAX || td->clock < 0)
		return e->mean;
	if (e->in_every_batch)
		return isnan(x = batch_mean(e, td->l1b)) ? e->mean : x;
	if (e->batch < 0 || (size_t)e->batch == td->l1b)
		return e->mean;
	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_report_event *a = &rep->events[k];
		double c1, cb;

		if (strcmp(a->ev.name, td->name[td->clock]) || a->scope.kind != e->scope.kind ||
		    strcmp(a->scope.label, e->scope.label))
			continue;
		c1 = batch_mean(a, td->l1b);
		cb = batch_mean(a, (size_t)e->batch);
		return isnan(c1) || isnan(cb) || cb <= 0 ? e->mean : e->mean * c1 / cb;
	}
	(void)scope;
	return e->mean;
}

/* The report's row of input i (scope: the totals' or a row's): its mean, or not counted with the reason. */
static void input_value(const struct td_part *td, size_t i, const struct pmc_report *rep,
			const struct pmc_row_scope *scope, struct pmc_td_value *v, bool *scaled, char *why,
			size_t whylen)
{
	if (uncounted_value(td, i, v))
		return;
	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_report_event *e = &rep->events[k];

		if (strcmp(e->ev.name, td->name[i]) ||
		    (scope ? e->scope.kind != scope->kind || strcmp(e->scope.label, scope->label)
			   : e->scope.kind != PMC_ROW_ALL))
			continue;
		count_value(td, i, &e->ev, e->status == PMC_COUNT_OK, e->status == PMC_COUNT_OK ? e->max : 0, 100, NULL,
			    v, scaled, why, whylen);
		if (v->counted) {
			v->value = in_level1_run(td, rep, e, scope);
			*scaled |= e->running_pct < 100.0;
		} else if (e->status != PMC_COUNT_OK) {
			v->reason = e->reason[0] ? e->reason : "not counted";
		}
		return;
	}
	v->reason = "its event is not in the report";
}

/* The tree on vals into out (its shown nodes; out's other fields are the caller's), the checks in res. */
static int eval_into(const struct td_part *td, const struct pmc_td_value *vals, struct pmc_td_result *res,
		     struct pmc_report_topdown *out)
{
	int r = pmc_td_eval(td->tree, vals, res);

	if (r)
		return r;
	out->tree = td->tree->name;
	out->title = td->tree->title;
	out->unit = td->tree->unit;
	out->why = td->why;
	out->note = td->tree->note;
	out->level = td->level;
	pmc_td_report_nodes(out, td->tree, td->level, res);
	return 0;
}

/* The checks of one tree into the report; scope names whose tree it is ("" for the total). */
static void add_checks(struct pmc_report *rep, const struct pmc_td_result *res, const char *scope)
{
	for (size_t c = 0; c < res->nchecks; c++)
		pmc_report_add_check(rep, PMC_CHECK_WARN,
				     res->check[c].kind == PMC_TD_CHECK_SUM	 ? "topdown-sum"
				     : res->check[c].kind == PMC_TD_CHECK_CHILDREN ? "topdown-children"
										   : "topdown-range",
				     "%s%s%s", scope[0] ? scope : "", scope[0] ? ": " : "", res->check[c].msg);
}

/* One tree from the report's counts of scope (NULL: the totals) appended to rep's chain. 0 or -ENOMEM. */
static int eval_scope(const struct td_part *td, struct pmc_report *rep, const struct pmc_row_scope *scope,
		      struct pmc_td_result *res, bool *scaled)
{
	struct pmc_td_value vals[PMC_TD_MAX_INPUTS];
	char why[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	struct pmc_report_topdown *out = calloc(1, sizeof(*out)), **tail = &rep->topdown;
	int r;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < td->tree->ninputs; i++)
		input_value(td, i, rep, scope, &vals[i], scaled, why[i], sizeof(why[i]));
	r = eval_into(td, vals, res, out);
	if (r) {
		free(out);
		return r;
	}
	snprintf(out->scope, sizeof(out->scope), "%.15s%s%.47s", td->pmu, td->pmu[0] && scope ? " " : "",
		 scope ? scope->label : "");
	while (*tail)
		tail = &(*tail)->next;
	*tail = out;
	add_checks(rep, res, out->scope);
	return 0;
}

/* --regions: input i in region rg, from the program's own counts of it (merged over threads, mean per execution). */
static void region_value(const struct td_part *td, size_t i, const struct pmc_report *rep,
			 const struct pmc_report_region *rg, struct pmc_td_value *v, bool *scaled, char *why,
			 size_t whylen)
{
	const struct pmc_report_regions *rr = rep->regions;

	if (uncounted_value(td, i, v))
		return;
	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_report_event *e = &rep->events[k];
		double x;

		if (strcmp(e->ev.name, td->name[i]) || e->scope.kind != PMC_ROW_ALL)
			continue;
		x = pmc_region_value(&rg->all, k);
		if (x != x) { /* NAN: no execution counted it in this region */
			if (rr->open_err && rr->open_err_index == k)
				snprintf(why, whylen, "the program could not open it: %.160s",
					 pmc_perf_event_reason(rr->open_err, &e->ev.attr, !!(e->ev.flags & PMC_EVF_HARDWARE)));
			else if (e->status != PMC_COUNT_OK && e->reason[0])
				snprintf(why, whylen, "the program counted it in no execution of this region (nor pmctool: "
					 "%.100s)", e->reason);
			else
				snprintf(why, whylen, "the program counted it in no execution of this region");
			*v = (struct pmc_td_value){ .counted = false, .reason = why };
			return;
		}
		count_value(td, i, &e->ev, true, x, 100, NULL, v, scaled, why, whylen);
		return;
	}
	v->reason = "its event is not in the report";
}

/* --regions: one tree per region from the program's counts, appended to rep's chain; the note says how the program
 * counted and read them. 0 or -ENOMEM. */
static int eval_regions(const struct td_part *td, struct pmc_report *rep, struct pmc_td_result *res)
{
	const struct pmc_report_regions *rr = rep->regions;
	struct pmc_td_value vals[PMC_TD_MAX_INPUTS];
	char why[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	bool scaled = false;

	for (size_t r = 0; rr && r < rr->n; r++) {
		struct pmc_report_topdown *out = calloc(1, sizeof(*out)), **tail = &rep->topdown;
		int rc;

		if (!out)
			return -ENOMEM;
		for (size_t i = 0; i < td->tree->ninputs; i++)
			region_value(td, i, rep, &rr->r[r], &vals[i], &scaled, why[i], sizeof(why[i]));
		rc = eval_into(td, vals, res, out);
		if (rc) {
			free(out);
			return rc;
		}
		snprintf(out->scope, sizeof(out->scope), "%.15s%sregion %.40s", td->pmu, td->pmu[0] ? " " : "",
			 rr->r[r].name);
		while (*tail)
			tail = &(*tail)->next;
		*tail = out;
		add_checks(rep, res, out->scope);
	}
	if (rr && rr->n)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-regions",
				     "each region's tree is from the program's own counters (libpmctool), opened one by one "
				     "beside pmctool's group (read: %s); the tree of the whole program is pmctool's group",
				     pmc_regions_read_method(rr));
	return 0;
}

/* Rows (-A, --per-core, --per-socket, --per-thread...): a tree per row, in the report's order. A per-core (SMT) tree
 * has none for a row finer than a core (a CPU, a task, a cgroup): the note says so. 0 or -ENOMEM. */
static int eval_rows(const struct td_part *td, struct pmc_report *rep, struct pmc_td_result *res,
		     bool *scaled)
{
	size_t skipped = 0;

	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_row_scope *sc = &rep->events[k].scope;
		bool seen = false;
		int r;

		if (sc->kind == PMC_ROW_ALL)
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = rep->events[j].scope.kind == sc->kind && !strcmp(rep->events[j].scope.label, sc->label);
		if (seen)
			continue;
		if (td->core_tree && sc->kind != PMC_ROW_CORE && sc->kind != PMC_ROW_DIE && sc->kind != PMC_ROW_SOCKET &&
		    sc->kind != PMC_ROW_NODE) {
			skipped++;
			continue;
		}
		r = eval_scope(td, rep, sc, res, scaled);
		if (r)
			return r;
	}
	if (skipped)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-rows",
				     "%zu row%s (a CPU, a task or a cgroup) ha%s no tree: %s is the core's (SMT on: both "
				     "threads' counts); --per-core gives a tree per core", skipped, skipped == 1 ? "" : "s",
				     skipped == 1 ? "s" : "ve", td->tree->name);
	return 0;
}

/* One part's trees (total, rows, regions) and checks. 0 or -ENOMEM. */
static int eval_part(const struct pmc_engine *se, const struct td_part *td, const struct pmc_engine_opts *o,
		     struct pmc_report *rep)
{
	struct pmc_td_result *res = calloc(1, sizeof(*res));
	bool scaled = false;
	int r = res ? eval_scope(td, rep, NULL, res, &scaled) : -ENOMEM;

	if (!r)
		r = eval_rows(td, rep, res, &scaled);
	if (!r)
		r = eval_regions(td, rep, res);
	free(res);
	if (r)
		return r;
	if (deep_elsewhere(se, td))
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-batches",
				     "%s%slevel 1 was counted as one group; %u input%s of level 2 did not fit its batch and "
				     "were counted in other runs of the workload (the anchors compare those runs)%s: a "
				     "level-2 node's share of its parent mixes runs", td->pmu, td->pmu[0] ? ": " : "",
				     deep_elsewhere(se, td), deep_elsewhere(se, td) == 1 ? "" : "s",
				     td->clock >= 0 ? ", each scaled by the clock anchor's ratio between level 1's run and "
						      "its own (its ratio to the clock is its run's)" : "");
	if (td->smt_thread)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "topdown-smt",
				     "SMT is on: the tree (%s) is the counted threads' share of their cores' slots, not the "
				     "cores' answer (the sibling threads' work is not in it); the core's tree needs both "
				     "threads of each core: pmctool stat -a --per-core --topdown", td->tree->name);
	if (scaled || o->batch == PMC_BATCH_MULTIPLEX)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "topdown-multiplexed",
				     "%s%sthe top-down tree is built from scaled estimates: its events were multiplexed%s",
				     td->pmu, td->pmu[0] ? ": " : "", o->batch == PMC_BATCH_MULTIPLEX ? " (--batch=multiplex)" : "");
	return 0;
}

int pmc_eng_topdown_eval(const struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	const struct pmc_eng_topdown *td = se->topdown;

	for (size_t k = 0; td && k < td->n; k++) {
		int r = eval_part(se, &td->part[k], o, rep);

		if (r)
			return r;
	}
	if (td && td->hybrid)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-hybrid",
				     "one tree per core type (%s: %s, %s: %s), each from its own PMU's events while the "
				     "workload ran there; no merged tree: the core types' slots differ in width and in what "
				     "a slot is, so a sum of their slots would be no core's answer",
				     td->part[0].pmu, td->part[0].tree->name, td->part[1].pmu, td->part[1].tree->name);
	return 0;
}

/* -I: the total's count of one interval, kept until the interval ends. */
void pmc_eng_topdown_record(const struct pmc_engine *se, const struct pmc_interval_record *r)
{
	for (size_t k = 0; se->topdown && k < se->topdown->n && !r->scope; k++) {
		struct td_part *td = &se->topdown->part[k];

		for (size_t i = 0; i < td->tree->ninputs; i++)
			if (td->name[i][0] && !strcmp(td->name[i], r->ev->name)) {
				const struct pmc_count *c = &r->count;
				bool ok = c->status == PMC_COUNT_OK, scaled = false;

				if (c->status == PMC_COUNT_NOT_SUPPORTED && td->ierr[i] != c->err) { /* once: it may ask
													 the kernel */
					td->ierr[i] = c->err;
					snprintf(td->inot[i], sizeof(td->inot[i]), "%s",
						 pmc_perf_event_reason(c->err, &r->ev->attr,
								       !!(r->ev->flags & PMC_EVF_HARDWARE)));
				}
				count_value(td, i, r->ev, ok, ok ? pmc_count_scaled(c) : 0,
					    c->enabled && ok ? 100.0 * (double)c->running / (double)c->enabled : 100.0,
					    c->status == PMC_COUNT_NOT_SUPPORTED ? td->inot[i]
										 : "its event did not run in this interval",
					    &td->ival[i], &scaled, td->iwhy[i], sizeof(td->iwhy[i]));
				td->iseen[i] = true;
			}
	}
}

/* -I: the interval's trees to the sink, from the counts pmc_eng_topdown_record kept; then they are forgotten. */
void pmc_eng_topdown_interval(const struct pmc_engine *se, const struct pmc_interval_sink *sink, unsigned n,
			      double start_s, double end_s)
{
	for (size_t k = 0; se->topdown && k < se->topdown->n && sink->topdown; k++) {
		struct td_part *td = &se->topdown->part[k];

		for (size_t i = 0; i < td->tree->ninputs; i++)
			if (!td->iseen[i] && !uncounted_value(td, i, &td->ival[i]))
				td->ival[i] = (struct pmc_td_value){ .counted = false,
								     .reason = "its event was not counted in this interval" };
		if (eval_into(td, td->ival, &td->ires, &td->iout) == 0) {
			memcpy(td->iout.scope, td->pmu, sizeof(td->pmu));
			td->iout.interval = n;
			td->iout.start_s = start_s;
			td->iout.end_s = end_s;
			sink->topdown(sink->ctx, &td->iout);
		}
		memset(td->iseen, 0, sizeof(td->iseen));
	}
}

