/* SPDX-License-Identifier: MIT */
/* The engine's flow (engine.h): prepare (events, plan), check, measure (runs, then statistics, metrics and checks),
 * status. The CLI's stat, sweep and compare and any embedding program go through these. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "arch/arch.h"
#include "engine/fields.h"
#include "perf/probe.h"
#include "pmu/event.h"
#include "sys/sysfs.h"

void pmc_engine_opts_init(struct pmc_engine_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->runs = 1;
	o->cpu = -1;
	o->warmup_s = 0.2;
}

void pmc_engine_init(struct pmc_engine *se, struct pmc_engine_ctx *ctx)
{
	memset(se, 0, sizeof(*se));
	se->ctx = ctx;
}

/* An engine call's messages go to its context's sink while it runs; the caller's sink is back when it returns. */
struct eng_call {
	bool swapped;
	struct pmc_diag_sink prev;
};

static struct eng_call eng_enter(const struct pmc_engine *se)
{
	struct eng_call c = { 0 };

	if (se->ctx && se->ctx->diag) {
		c.prev = pmc_diag_exchange((struct pmc_diag_sink){ se->ctx->diag, se->ctx->diag_ctx });
		c.swapped = true;
	}
	return c;
}

static int eng_leave(struct eng_call c, int rc)
{
	if (c.swapped)
		pmc_diag_exchange(c.prev);
	return rc;
}

static int prepare(struct pmc_engine *se, struct pmc_engine_opts *o, struct pmc_metric_def **metrics)
{
	char err[256];
	int rc;

	*metrics = NULL;
	/* libpfm4 starts only when an event needs it (its start-up costs milliseconds in a VM); a failure to start
	 * is told when an event could not be resolved. se->subject: the request's part a failure is about. */
	se->subject = "metrics";
	rc = pmc_eng_metrics_join(o, metrics);
	if (!rc && o->k && (se->subject = "kernel"))
		rc = pmc_eng_kernel_prepare(o);
	if (!rc && (se->subject = "topdown"))
		rc = pmc_eng_topdown_prepare(se, o);
	if (rc)
		return rc;
	se->subject = o->set_name ? "eventset" : "events";
	rc = pmc_eng_events_from_opts(se, o);
	if (rc && pmc_pmu_init(err, sizeof(err)) < 0) {
		pmc_diag_error("libpfm4 could not start: %s", err);
		rc = PMC_EXIT_INTERNAL;
	}
	if (!rc && (se->subject = "metrics"))
		rc = pmc_eng_metrics_check(se, *metrics, o->nmetric_defs + o->nmetrics);
	if (!rc && (se->subject = "events"))
		rc = pmc_eng_events_plan(se, o);
	if (!rc && (se->subject = "topdown"))
		rc = pmc_eng_topdown_plan(se, o);
	if (!rc)
		se->subject = "";
	if (!rc)
		pmc_eng_breakpoints_probe(se);
	return rc;
}

int pmc_engine_prepare(struct pmc_engine *se, struct pmc_engine_opts *o, struct pmc_metric_def **metrics)
{
	struct eng_call c = eng_enter(se);

	return eng_leave(c, prepare(se, o, metrics));
}

static int check(const struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	bool scoped = pmc_eng_scope_wanted(o);
	int rc;

	if (se->plan.nbatches > 1 && o->batch == PMC_BATCH_AUTO)
		pmc_diag_note("%zu events need %zu batches (%s): the workload runs %zu time%s%s", se->n,
			      se->plan.nbatches, se->budget_why, se->plan.nbatches * o->runs,
			      se->plan.nbatches * o->runs == 1 ? "" : "s", " (" RQ_BATCHING "=multiplex for one run)");
	if (scoped)
		pmc_eng_scope_note_batches(se, o);
	rc = pmc_eng_emulate_check(se, o);
	if (!rc && !pmc_eng_emulated(se))
		rc = pmc_eng_guard(se);
	if (!rc && scoped)
		rc = pmc_eng_scope_guard(o);
	return rc;
}

int pmc_engine_check(const struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	struct eng_call c = eng_enter(se);

	return eng_leave(c, check(se, o));
}

static void describe_workload(const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	size_t off = 0;

	rep->workload[0] = '\0';
	for (char **a = o->argv; a && *a && off < sizeof(rep->workload) - 1; a++)
		off += (size_t)snprintf(rep->workload + off, sizeof(rep->workload) - off, "%s%s", a == o->argv ? "" : " ",
					*a);
}

/* "counted here: task-clock, page-faults and 2 more" or "none of them was counted here": the report's counted totals. */
void pmc_eng_counted_list(const struct pmc_report *rep, char *buf, size_t len)
{
	size_t used = 0, n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < rep->nevents && used < len; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		bool dup = false;

		if (e->status != PMC_COUNT_OK || e->scope.kind != PMC_ROW_ALL)
			continue;
		for (size_t k = 0; k < i && !dup; k++)
			dup = rep->events[k].status == PMC_COUNT_OK && !strcmp(rep->events[k].ev.name, e->ev.name);
		if (dup)
			continue;
		if (n++ < 4)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n > 1 ? ", " : "counted here: ",
						 e->ev.name);
	}
	if (n > 4 && used < len)
		snprintf(buf + used, len - used, " and %zu more", n - 4);
	else if (!n)
		snprintf(buf, len, "none of them was counted here");
}

/* What the no-hardware-pmu check may say of breakpoints: only what the probe saw, when it ran (perf/probe.h); short,
 * as the check's message has room for the list of what was counted. */
static const char *breakpoints_without_pmu(void)
{
	const struct pmc_bp_probe *p = pmc_perf_probe_breakpoints_done();

	if (!p)
		return "";
	switch (p->fires) {
	case PMC_BP_FIRE:
		return ", breakpoints too";
	case PMC_BP_NEVER:
		return "; breakpoints never fire here";
	default:
		return "";
	}
}

/* Whole-report notes that only the whole measurement can see: interrupted, hardware counting missing, user-only. */
static void add_checks(const struct pmc_engine *se, struct pmc_report *rep)
{
	size_t hw_enoent = 0, user_only = 0, bp_dead = 0;
	char note[512], counted[200];

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		if (e->status == PMC_COUNT_NOT_SUPPORTED && e->err == ENOENT && (e->ev.flags & PMC_EVF_HARDWARE))
			hw_enoent++;
		bp_dead += (e->ev.flags & PMC_EVF_BP_NEVER_FIRES) && e->scope.kind == PMC_ROW_ALL && !e->nparts;
		for (size_t s = 0; s < e->nsamples; s++)
			if (e->samples[s].count.flags & PMC_COUNT_USER_ONLY) {
				user_only++;
				break;
			}
	}
	if (pmc_report_runs_note(rep, note, sizeof(note)))
		pmc_report_add_check(rep, PMC_CHECK_WARN, "runs", "%s", note);
	if (pmc_report_counting_note(rep, note, sizeof(note)))
		pmc_report_add_check(rep, PMC_CHECK_INFO, "counting-paused", "%s", note);
	if (rep->partial)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "partial",
				     "interrupted by %s: the counts are those measured before it; events whose batch "
				     "never ran are <not run>", pmc_eng_stopped(se) == SIGTERM ? "SIGTERM" : "SIGINT");
	/* Decided from the kernel (no core PMU in sysfs), never from one event's ENOENT: a working PMU may lack an event,
	 * and that event's reason says so. */
	if (hw_enoent && !pmc_arch_has_core_pmu()) {
		/* What was counted without it, from the report, never a list of what might have been. */
		pmc_eng_counted_list(rep, counted, sizeof(counted));
		pmc_report_add_check(rep, PMC_CHECK_WARN, "no-hardware-pmu",
				     "%zu hardware event%s not supported: the kernel has no PMU driver for this CPU (a VM "
				     "without a virtual PMU?); software events and msr/tsc/ work without it%s (%s). "
				     "'pmctool info' explains",
				     hw_enoent, hw_enoent == 1 ? " is" : "s are", breakpoints_without_pmu(), counted);
	}
	if (bp_dead)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "breakpoints-never-fire",
				     "%zu breakpoint event%s not counted: %s (an execute breakpoint on a function of "
				     "pmctool's own counted 0 of %u call%s); count on another machine or host",
				     bp_dead, bp_dead == 1 ? " is" : "s are", PMC_BP_NEVER_REASON, PMC_BP_PROBE_CALLS,
				     PMC_BP_PROBE_CALLS == 1 ? "" : "s");
	if (user_only)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "user-only",
				     "%zu event%s counted in user mode only: kernel.perf_event_paranoid forbids kernel "
				     "counting without CAP_PERFMON",
				     user_only, user_only == 1 ? "" : "s");
}

/* The CPU the counts are from (the JSON's "cpu", which pmctool report reads back): libpfm4's core PMU, forced or
 * detected (lean: only where libpfm4 is started already); the vendor only when it is this CPU's (not under
 * LIBPFM_FORCE_PMU); whether SMT is active, also under a forced PMU (the machine's SMT state is what stat's --topdown
 * and table metrics' #smt_on used, and report replays). */
void pmc_eng_record_cpu(struct pmc_report *rep, bool lean)
{
	const char *pmu = lean && !pmc_pmu_libpfm_started() ? NULL : pmc_pmu_core_name();
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	struct pmc_arch_cpu cpu;

	snprintf(rep->cpu_pmu, sizeof(rep->cpu_pmu), "%s", pmu ? pmu : "");
	rep->cpu_smt = pmc_sysfs_smt_active();
	if (forced && *forced)
		return;
	pmc_arch_cpu_identify(&cpu);
	snprintf(rep->cpu_vendor, sizeof(rep->cpu_vendor), "%s", cpu.vendor);
}

/* After the counts are in rep (and its CPU): the statistics, metrics (totals and rows), top-down tree and checks. */
static void finish(const struct pmc_engine *se, const struct pmc_engine_opts *o, const struct pmc_metric_def *metrics,
		   struct pmc_report *rep, bool scoped, bool live)
{
	pmc_eng_breakpoints_regions(rep);
	pmc_eng_uncore_merge(rep); /* --no-merge: only the per-CPU copies of one box (their names are equal) */
	pmc_report_summarize(rep);
	/* The time metrics are over the time counting was on: with -D or --control that is not the wall time. */
	pmc_report_set_const(rep, "SECONDS", pmc_report_counting_ns(rep) / 1e9);
	if (pmc_report_paused(rep) && pmc_report_counting_ns(rep) <= 0)
		snprintf(rep->wall_unresolved, sizeof(rep->wall_unresolved), "counting never started: the command "
			 "ended before -D's delay or --control's 'enable'");
	if (o->k)
		pmc_eng_kernel_metrics(rep);
	pmc_eng_uncore_metrics(rep);
	pmc_eng_uncore_note(rep);
	pmc_eng_metrics_apply(se, metrics, o->nmetric_defs + o->nmetrics, rep);
	if (!live) /* a live read is one run: its metrics are the run's */
		pmc_eng_metrics_per_run(se, metrics, o->nmetric_defs + o->nmetrics, rep);
	pmc_eng_names_report(se, rep);
	if (pmc_eng_topdown_eval(se, o, rep))
		pmc_diag_error(RQ_TOPDOWN_LEVEL ": out of memory: the tree is left out");
	if (scoped)
		pmc_eng_scope_row_metrics(se, metrics, o->nmetric_defs + o->nmetrics, rep);
	add_checks(se, rep);
	/* Interrupted: pmctool exits 128 + the signal (pmc_engine_status), and the report's status says the same. */
	if (pmc_eng_stopped(se)) {
		rep->exit_status = 128 + pmc_eng_stopped(se);
		rep->term_signal = pmc_eng_stopped(se);
	}
}

static int measure(struct pmc_engine *se, const struct pmc_engine_opts *o, const struct pmc_metric_def *metrics,
		   struct pmc_report *rep)
{
	bool scoped = pmc_eng_scope_wanted(o);
	int rc;

	describe_workload(o, rep);
	pmc_eng_environment(rep, pmc_eng_emulated(se) ? "valgrind (lackey)" : "perf_event", o->env_lean);
	rc = pmc_eng_emulated(se) ? pmc_eng_emulate_measure(se, o, rep)
	     : scoped		  ? pmc_eng_scope_measure(se, o, rep)
				  : pmc_eng_measure(se, o, rep);
	if (rc && !rep->nruns)
		return rc;
	pmc_eng_record_cpu(rep, o->env_lean); /* lean: only JSON shows it */
	finish(se, o, metrics, rep, scoped, false);
	return rc;
}

int pmc_engine_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, const struct pmc_metric_def *metrics,
		       struct pmc_report *rep)
{
	struct eng_call c = eng_enter(se);

	return eng_leave(c, measure(se, o, metrics, rep));
}

int pmc_engine_live_open(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_eng_live **ret)
{
	struct eng_call c = eng_enter(se);
	int rc;

	if (se->ctx && se->ctx->observer)
		pmc_perf_set_observer(se->ctx->observer, se->ctx->observer_ctx);
	rc = pmc_eng_live_open(se, o, ret);
	pmc_perf_set_observer(NULL, NULL);
	se->nmi_known = true;
	se->nmi_on = pmc_eng_nmi_watchdog_on();
	return eng_leave(c, rc);
}

int pmc_engine_live_read(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_eng_live *l,
			 const struct pmc_metric_def *metrics, struct pmc_report *rep)
{
	struct eng_call c = eng_enter(se);
	int rc = pmc_eng_live_read(l, rep);

	if (!rc)
		finish(se, o, metrics, rep, true, true);
	return eng_leave(c, rc);
}

/* Whether some event counted, or was counting while its task never ran (time enabled 0: a sleeping process was
 * measured, and nothing happened in it): either is a measurement, not a failure to count. */
static bool counted_anything(const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		if (e->status == PMC_COUNT_OK)
			return true;
		for (size_t s = 0; s < e->nsamples; s++)
			if (e->samples[s].count.status == PMC_COUNT_NOT_COUNTED && !e->samples[s].count.enabled &&
			    !e->samples[s].count.err)
				return true;
	}
	return false;
}

int pmc_engine_status(const struct pmc_engine *se, const struct pmc_report *rep)
{
	if (pmc_eng_stopped(se))
		return 128 + pmc_eng_stopped(se);
	if (rep->exit_status)
		return rep->exit_status;
	return counted_anything(rep) || !rep->nevents ? PMC_EXIT_OK : PMC_EXIT_NOCOUNT; /* -n asked for nothing */
}

void pmc_engine_fini(struct pmc_engine *se)
{
	pmc_launch_reap_guards(true); /* told to exit at its run's end: none outlives pmctool */
	pmc_eng_topdown_fini(se);
	pmc_eng_events_fini(se);
	/* libpfm4 stays: it is the process's (main.c ends it at exit), and another measurement may follow */
}

int pmc_engine_run(struct pmc_engine_ctx *ctx, struct pmc_engine_opts *o, struct pmc_report *rep)
{
	struct pmc_engine se;
	struct pmc_metric_def *metrics = NULL;
	int rc;

	pmc_engine_init(&se, ctx);
	rc = pmc_engine_prepare(&se, o, &metrics);
	if (!rc)
		rc = pmc_engine_check(&se, o);
	if (!rc) {
		rc = pmc_engine_measure(&se, o, metrics, rep);
		if (!rc)
			rc = pmc_engine_status(&se, rep);
	}
	free(metrics);
	pmc_engine_fini(&se);
	return rc;
}
