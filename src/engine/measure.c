/* SPDX-License-Identifier: MIT */
/* The engine: run the plan (runs x batches) and collect every count into the report. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/exec.h"
#include "engine/fields.h"
#include "run/hook.h"
#include "perf/evlist.h"
#include "perf/keep.h"
#include "perf/open.h"
#include "run/launch.h"
#include "util/fdlimit.h"


/* -v: one trace line per perf_event_open (the format is perf/open.h's; tests compare it). */
void pmc_eng_trace_open(const struct pmc_open_record *rec, void *ctx)
{
	char line[512];

	(void)ctx;
	pmc_perf_record_format(rec, line, sizeof(line));
	pmc_diag(PMC_DIAG_TRACE, "%s", line);
}

/* Every sample goes to the report's store (kept out of the workload's fork: report/store.h). */
int pmc_eng_push_sample(struct pmc_report_event *e, unsigned run, unsigned batch, const struct pmc_count *c)
{
	return pmc_report_push_sample(e, run, batch, c);
}

/* The batch each planned event belongs to, after any split. */
static void assign_batches(const struct pmc_engine *se, struct pmc_report *rep)
{
	for (size_t i = 0; i < se->n; i++) {
		rep->events[i].in_every_batch = se->plan.in_every[i];
		rep->events[i].batch = -1;
	}
	for (size_t b = 0; b < se->plan.nbatches; b++)
		for (size_t k = 0; k < se->plan.batches[b].n; k++)
			rep->events[se->plan.batches[b].events[k]].batch = (int)b;
}

size_t pmc_eng_build_request(const struct pmc_engine *se, size_t b, const struct pmc_event **reqev, size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < se->plan.nevery; i++) {
		if (!pmc_plan_every_in_batch(&se->plan, b, &se->evs[se->plan.every[i]]))
			continue; /* its fixed counter is this batch's own fixed-only event's */
		idx[n] = se->plan.every[i];
		reqev[n] = &se->evs[idx[n]];
		n++;
	}
	for (size_t k = 0; k < se->plan.batches[b].n; k++, n++) {
		idx[n] = se->plan.batches[b].events[k];
		reqev[n] = &se->evs[idx[n]];
	}
	return n;
}

int pmc_eng_report_launch_failure(const struct pmc_engine_opts *o, const struct pmc_launch_error *le)
{
	if (le->what == PMC_LAUNCH_EXEC) {
		pmc_diag_error("cannot execute '%s': %s%s", o->argv[0], strerror(le->err),
			le->err != ENOENT ? "" : pmc_eng_enoent_why(o->argv[0]));
		return le->err == ENOENT ? PMC_EXIT_NOTFOUND : PMC_EXIT_NOEXEC;
	}
	pmc_diag_error("cannot run '%s': %s", o->argv[0], strerror(le->err));
	return PMC_EXIT_INTERNAL;
}

/* Whether some batch other than b runs (is not known to be unsupported): only then may b be skipped, so that the
 * every-batch events (anchors, free events) are counted at least once. */
static bool another_batch_runs(const struct pmc_engine *se, size_t b)
{
	for (size_t k = 0; k < se->plan.nbatches; k++)
		if (k != b && !se->plan.batches[k].unsupported)
			return true;
	return false;
}

/* One run of one batch. Returns 0, 1 to retry the batch (the plan was split or the batch ungrouped), or an exit
 * status > 1. */
/* run_batch's return when --pre or --post failed (run_batch's 1 means "again, regrouped"): the runs stop, and the
 * measurement's status is the hook's (se->hook_status), as perf's. */
#define HOOK_STOP 1000
#define HOOK_STOP_AFTER 1001 /* --post: the execution before it was made and counts */
#define HOOK_STOP_SIGNAL 1002 /* pmctool was interrupted during the hook: the runs end, nothing to say */

/* --pre / --post around one execution: 0, or HOOK_STOP after the message with the status in se->hook_status. */
static int hook(struct pmc_engine *se, const char *what, const char *cmd, unsigned run, size_t b)
{
	int st = 0, r;

	if (!cmd)
		return 0;
	r = pmc_run_hook(cmd, se->ctx ? &se->ctx->child : NULL, &st);
	if (pmc_eng_stopped(se))
		return HOOK_STOP_SIGNAL; /* stopped with pmctool (its status is the interruption's): not a failed hook */
	if (r < 0) {
		pmc_diag_error("%s '%.200s': cannot run /bin/sh: %s", what, cmd, strerror(-r));
		return PMC_EXIT_INTERNAL;
	}
	if (!st)
		return 0;
	pmc_diag_error("%s '%.200s' exited with status %d (run %u, batch %zu): the runs stop here, as perf's do", what,
		       cmd, st, run + 1, b + 1);
	se->hook_status = st;
	return HOOK_STOP;
}

/* Before an execution of the command: -S's sync(), then --pre. 0, or HOOK_STOP (hook()). */
static int before_run(struct pmc_engine *se, const struct pmc_engine_opts *o, unsigned run, size_t b)
{
	if (o->sync_first)
		sync();
	return hook(se, RQ_PRE_CMD, o->pre_cmd, run, b);
}

static int run_batch(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep, unsigned run,
		     size_t b)
{
	const struct pmc_event **reqev = malloc(se->n * sizeof(*reqev));
	size_t *idx = malloc(se->n * sizeof(*idx));
	struct pmc_count *counts = calloc(se->n, sizeof(*counts));
	struct pmc_measure_req req = { 0 };
	struct pmc_measure_out out = { 0 };
	struct pmc_launch_error le = { 0 };
	int rc = 0;

	if (!reqev || !idx || !counts) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	req.events = (const struct pmc_event *const *)reqev;
	req.n = pmc_eng_build_request(se, b, reqev, idx);
	req.group = !se->plan.batches[b].ungrouped && !se->popts.multiplex;
	req.first_own = req.n - se->plan.batches[b].n;
	req.skip_unsupported = another_batch_runs(se, b);
	req.no_inherit = o->no_inherit;
	req.child = se->ctx ? &se->ctx->child : NULL;
	out.counts = counts;
	if (o->regions && (rc = pmc_eng_regions_begin(o, &req)))
		goto out;
	if (o->k) {
		struct pmc_kernel_opts ko = { .iters = o->iters, .cpu = o->cpu, .warmup_s = o->warmup_s,
					      .subtract_overhead = o->subtract_overhead,
					      .syscall_reads = o->syscall_reads };
		struct pmc_kernel_info info;
		char err[256] = "";
		int r;

		memset(&info, 0, sizeof(info));
		r = pmc_kernel_measure(o->k, &o->kp, &ko, &req, &out, &info, err, sizeof(err));
		if (r < 0) {
			pmc_diag_error("kernel %s: %s", o->k->name, err[0] ? err : strerror(-r));
			rc = r == -EINVAL || r == -ENOTSUP ? PMC_EXIT_USAGE : PMC_EXIT_INTERNAL;
		} else if (out.group_err && req.group) {
			rc = pmc_eng_regroup(se, b, req.n, (size_t)out.group_err_index, run);
		} else if (out.never_ran) {
			rc = pmc_eng_regroup_never_ran(se, b, req.n, run);
		} else if (run == 0 && b == 0) {
			pmc_eng_kernel_report(o, &info, rep);
		}
		pmc_kernel_info_fini(&info);
		if (rc)
			goto out;
	} else if ((rc = before_run(se, o, run, b))) {
		goto out;
	} else if (pmc_eng_cmd_run(o->argv, &req, &out, &le) < 0 || out.group_err) {
		if (pmc_eng_stopped(se) && le.what != PMC_LAUNCH_EXEC)
			rc = 0; /* interrupted before the command could run (its go pipe broken, or never sent): no run */
		else if (out.group_err) /* the kernel refused the group: the command never ran */
			rc = pmc_eng_regroup(se, b, req.n, (size_t)out.group_err_index, run);
		else
			rc = pmc_eng_report_launch_failure(o, &le);
		goto out;
	} else if (out.skipped) {
		/* Nothing of its own could be counted: its events keep the reason, the command was not run, and later
		 * runs skip the batch without opening anything. */
		se->plan.batches[b].unsupported = true;
		for (size_t k = req.first_own; k < req.n; k++)
			if (pmc_eng_push_sample(&rep->events[idx[k]], run, (unsigned)b, &counts[k]))
				rc = PMC_EXIT_INTERNAL;
		goto out;
	} else if (out.never_ran && !out.interrupted) {
		rc = pmc_eng_regroup_never_ran(se, b, req.n, run);
		goto out;
	}
	for (size_t k = 0; k < req.n; k++) {
		if (pmc_eng_push_sample(&rep->events[idx[k]], run, (unsigned)b, &counts[k])) {
			rc = PMC_EXIT_INTERNAL;
			goto out;
		}
	}
	if (o->regions && (rc = pmc_eng_regions_collect(rep, &req, idx)))
		goto out;
	if (!o->k && !pmc_eng_stopped(se) && (rc = hook(se, RQ_POST_CMD, o->post_cmd, run, b)))
		rc = rc == HOOK_STOP ? HOOK_STOP_AFTER : rc == HOOK_STOP_SIGNAL ? 0 : rc;
	{
		/* Each execution's status, kept per run: failed and interrupted runs stay out of the statistics. */
		struct pmc_report_exec x = {
			.run = run, .batch = (unsigned)b, .interrupted = pmc_eng_stopped(se) != 0,
			.wall_ns = (double)out.wall_ns, .counting_ns = (double)out.wall_ns,
			.user_s = pmc_eng_tv_s(&out.ru.ru_utime), .sys_s = pmc_eng_tv_s(&out.ru.ru_stime),
		};
		if (!o->k) {
			x.exit_status = pmc_wait_status_code(out.wait_status);
			x.signal = WIFSIGNALED(out.wait_status) ? WTERMSIG(out.wait_status) : 0;
		}
		if (pmc_eng_exec_record(rep, &x))
			rc = PMC_EXIT_INTERNAL;
	}
out:
	pmc_eng_regions_end(&req);
	free(reqev);
	free(idx);
	free(counts);
	return rc;
}

/* Every sample is kept (the exact median, the per-run output), so -r x the events each run records is bounded
 * (PMC_REPORT_MAX_SAMPLES, pmctool-stat(1)); within it, room for all of them is made before the first run. */
static int reserve_samples(const struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	unsigned long long per_run = 0;

	for (size_t b = 0; b < se->plan.nbatches; b++) {
		for (size_t i = 0; i < se->plan.nevery; i++)
			per_run += pmc_plan_every_in_batch(&se->plan, b, &se->evs[se->plan.every[i]]);
		per_run += se->plan.batches[b].n;
	}
	if (per_run * o->runs > PMC_REPORT_MAX_SAMPLES) {
		pmc_diag_error(RQ_RUNS " %u x %llu counts per run (events, and each every-batch event once per batch) "
			"is %llu counts; at most %u are kept (every one is, for the exact median): lower " RQ_RUNS
			" to %llu or "
			"measure fewer events",
			o->runs, per_run, per_run * o->runs, PMC_REPORT_MAX_SAMPLES,
			PMC_REPORT_MAX_SAMPLES / (per_run ? per_run : 1));
		return PMC_EXIT_USAGE;
	}
	for (size_t i = 0; i < se->n; i++)
		if (pmc_report_reserve_samples(&rep->events[i], (size_t)o->runs *
						(se->plan.in_every[i] ? se->plan.nbatches : 1)))
			return PMC_EXIT_INTERNAL;
	return 0;
}

/* How many copies may be kept open (perf/keep.h): the descriptors left once the largest batch (on each of targets
 * tasks or CPUs, or all batches at once when every event is opened together) and a margin for pipes and the guard
 * are counted, after asking for room for all of them (this process's limit only). */
static size_t keep_budget(const struct pmc_engine *se, size_t targets, bool all_at_once)
{
	size_t most = 0, wanted = 0, limit = 0, runs_need;

	for (size_t b = 0; b < se->plan.nbatches; b++) {
		if (all_at_once)
			most += se->plan.batches[b].n;
		else if (se->plan.batches[b].n > most)
			most = se->plan.batches[b].n;
	}
	for (size_t i = 0; i < se->n; i++)
		wanted += pmc_keep_wanted(&se->evs[i].attr);
	runs_need = (se->plan.nevery + most) * (targets ? targets : 1) + 64;
	if (!wanted)
		return 0;
	pmc_fd_limit_ensure(runs_need + wanted, &limit);
	return limit > runs_need ? limit - runs_need : 0;
}

size_t pmc_eng_keep_open(const struct pmc_engine *se, unsigned runs, size_t targets, bool all_at_once,
			 struct pmc_keep *k)
{
	/* A copy saves a close's synchronization each time an event is opened again: with one execution (one run,
	 * and one batch or all of them at once) every event is opened once, and a copy would only add its own open
	 * and close. */
	if (runs < 2 && (all_at_once || se->plan.nbatches < 2))
		return 0;
	return pmc_keep_open(k, se->evs, se->n, keep_budget(se, targets, all_at_once));
}

int pmc_eng_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	struct pmc_keep keep = { 0 };
	unsigned done = 0; /* batch runs completed */
	int rc = 0;

	rep->events = calloc(se->n ? se->n : 1, sizeof(*rep->events));
	if (!rep->events)
		return PMC_EXIT_INTERNAL;
	if (se->ctx && se->ctx->observer)
		pmc_perf_set_observer(se->ctx->observer, se->ctx->observer_ctx);
	rep->nevents = se->n;
	for (size_t i = 0; i < se->n; i++)
		rep->events[i].ev = se->evs[i];
	rep->mode = se->popts.multiplex ? "multiplex" : se->plan.nbatches > 1 ? "rerun" : "single";
	rc = reserve_samples(se, o, rep);
	if (!rc)
		pmc_eng_keep_open(se, o->runs, 1, false, &keep);

	for (unsigned run = 0; run < o->runs && !pmc_eng_stopped(se) && !rc; run++) {
		unsigned done_before = done;

		for (size_t b = 0; b < se->plan.nbatches && !pmc_eng_stopped(se); b++) {
			int r;

			if (se->plan.batches[b].unsupported)
				continue;
			r = run_batch(se, o, rep, run, b);
			if (r == 1) {
				b--; /* the same batch again, now split or ungrouped */
				continue;
			}
			done += r == HOOK_STOP_AFTER;
			if (r == HOOK_STOP_SIGNAL)
				break; /* the loop ends: pmctool was interrupted */
			if (r) {
				rc = r == HOOK_STOP || r == HOOK_STOP_AFTER ? se->hook_status : r;
				break;
			}
			done++;
		}
		if (done > done_before) /* a run that failed before any batch finished adds nothing to report */
			rep->nruns = run + 1;
	}
	if (se->hook_status)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "hook-failed",
				     "%s exited with status %d: the runs stopped after %u execution%s (perf's rule); the "
				     "exit status is the hook's", o->pre_cmd && !done ? "--pre" : "--pre or --post",
				     se->hook_status, done, done == 1 ? "" : "s");
	for (size_t b = 0; b < se->plan.nbatches; b++)
		rep->nbatches_skipped += se->plan.batches[b].unsupported;
	if (rep->nbatches_skipped)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "batches-skipped",
				     "%u of %zu batches had no event of their own the kernel could open; the command was "
				     "not run for them (their events are listed with the reason), which saved %zu "
				     "execution%s",
				     rep->nbatches_skipped, se->plan.nbatches, (size_t)rep->nbatches_skipped * o->runs,
				     rep->nbatches_skipped * o->runs == 1 ? "" : "s");
	pmc_eng_regroup_report(se, rep);
	rep->nbatches = (unsigned)se->plan.nbatches;
	rep->mode = se->popts.multiplex ? "multiplex" : se->plan.nbatches > 1 ? "rerun" : "single";
	assign_batches(se, rep);
	pmc_eng_hybrid_report(o, rep); /* after assign_batches: the merged rows follow the measured events */
	pmc_eng_runs_finish(se, rep, done);
	pmc_keep_close(&keep);
	pmc_perf_set_observer(NULL, NULL);
	return rc;
}
