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

/* --pre / --post around one execution: 0, or PMC_ENG_HOOK_STOP after the message with the status in
 * se->hook_status (the runs stop, and the measurement's status is the hook's, as perf's). */
static int hook(struct pmc_engine *se, const char *what, const char *cmd, unsigned run, size_t b)
{
	int st = 0, r;

	if (!cmd)
		return 0;
	r = pmc_run_hook(cmd, se->ctx ? &se->ctx->child : NULL, &st);
	if (pmc_eng_stopped(se))
		return PMC_ENG_HOOK_STOP_SIGNAL; /* stopped with pmctool (its status is the interruption's): not a failed hook */
	if (r < 0) {
		pmc_diag_error("%s '%.200s': cannot run /bin/sh: %s", what, cmd, strerror(-r));
		return PMC_EXIT_INTERNAL;
	}
	if (!st)
		return 0;
	pmc_diag_error("%s '%.200s' exited with status %d (run %u, batch %zu): the runs stop here, as perf's do", what,
		       cmd, st, run + 1, b + 1);
	se->hook_status = st;
	return PMC_ENG_HOOK_STOP;
}

/* Before an execution of the command: -S's sync(), then --pre. 0, or PMC_ENG_HOOK_STOP (hook()). */
static int before_run(struct pmc_engine *se, const struct pmc_engine_opts *o, unsigned run, size_t b)
{
	if (o->sync_first)
		sync();
	return hook(se, RQ_PRE_CMD, o->pre_cmd, run, b);
}

/* The executor of a command or a kernel (the loop's ctx). */
struct measure_exec {
	struct pmc_engine *se;
	const struct pmc_engine_opts *o;
	struct pmc_report *rep;
};

/* The kernel's execution: 0 (the counts in out, the group's fate in s), or an exit status after the message. */
static int kernel_run(struct measure_exec *m, struct pmc_eng_step *s, const struct pmc_measure_req *req,
		      struct pmc_measure_out *out)
{
	const struct pmc_engine_opts *o = m->o;
	struct pmc_kernel_opts ko = { .iters = o->iters, .cpu = o->cpu, .warmup_s = o->warmup_s,
				      .subtract_overhead = o->subtract_overhead, .syscall_reads = o->syscall_reads };
	struct pmc_kernel_info info;
	char err[256] = "";
	int r;

	memset(&info, 0, sizeof(info));
	r = pmc_kernel_measure(o->k, &o->kp, &ko, req, out, &info, err, sizeof(err));
	if (r < 0) {
		pmc_diag_error("kernel %s: %s", o->k->name, err[0] ? err : strerror(-r));
		return r == -EINVAL || r == -ENOTSUP ? PMC_EXIT_USAGE : PMC_EXIT_INTERNAL;
	}
	if (out->group_err && req->group)
		s->refused_at = out->group_err_index;
	else if (out->never_ran)
		s->never_ran = true;
	else if (s->run == 0 && s->batch == 0)
		pmc_eng_kernel_report(o, &info, m->rep);
	pmc_kernel_info_fini(&info);
	return 0;
}

/* command_run's return when the command never ran and nothing is to be recorded (not an error). */
#define NOT_RUN (-1)

/* The command's execution, between the hooks: 0 (the counts in out, the group's fate in s), NOT_RUN, or an exit
 * status after the message. */
static int command_run(struct measure_exec *m, struct pmc_eng_step *s, const struct pmc_measure_req *req,
		       struct pmc_measure_out *out)
{
	const struct pmc_eng_workload w = { .argv = m->o->argv, .fn = m->o->fork_fn, .ctx = m->o->fork_ctx };
	struct pmc_launch_error le = { 0 };

	if (pmc_eng_cmd_run(&w, req, out, &le) < 0 || out->group_err) {
		if (pmc_eng_stopped(m->se) && le.what != PMC_LAUNCH_EXEC)
			return NOT_RUN; /* interrupted before the command could run (go pipe broken, or never sent) */
		if (!out->group_err)
			return pmc_eng_report_launch_failure(m->o, &le);
		s->refused_at = out->group_err_index; /* the kernel refused the group: the command never ran */
	} else if (out->skipped) {
		/* Nothing of its own could be counted: its events keep the reason, the command was not run, and later
		 * runs skip the batch without opening anything. */
		s->skipped = true;
		for (size_t k = req->first_own; k < req->n; k++)
			if (pmc_eng_push_sample(&m->rep->events[s->idx[k]], s->run, (unsigned)s->batch, &out->counts[k]))
				return PMC_EXIT_INTERNAL;
	} else if (out->never_ran && !out->interrupted) {
		s->never_ran = true;
	}
	return 0;
}

/* One run of one batch, a command's or a kernel's (the loop's executor): 0, an exit status, or PMC_ENG_HOOK_STOP*. */
static int measure_step(void *ctx, struct pmc_eng_step *s)
{
	struct measure_exec *m = ctx;
	struct pmc_engine *se = m->se;
	const struct pmc_engine_opts *o = m->o;
	struct pmc_report *rep = m->rep;
	struct pmc_count *counts = calloc(se->n, sizeof(*counts));
	struct pmc_measure_req req = { 0 };
	struct pmc_measure_out out = { 0 };
	int rc = 0;

	if (!counts)
		return PMC_EXIT_INTERNAL;
	req.events = (const struct pmc_event *const *)s->events;
	req.n = s->n;
	req.group = s->group;
	req.first_own = s->first_own;
	req.skip_unsupported = s->skip_unsupported;
	req.no_inherit = o->no_inherit;
	req.child = se->ctx ? &se->ctx->child : NULL;
	out.counts = counts;
	if (o->regions && (rc = pmc_eng_regions_begin(o, &req)))
		goto out;
	if (!o->k && (rc = before_run(se, o, s->run, s->batch)))
		goto out;
	rc = o->k ? kernel_run(m, s, &req, &out) : command_run(m, s, &req, &out);
	if (rc == NOT_RUN)
		rc = 0;
	if (rc || s->refused_at >= 0 || s->never_ran || s->skipped)
		goto out;
	for (size_t k = 0; k < req.n; k++) {
		if (pmc_eng_push_sample(&rep->events[s->idx[k]], s->run, (unsigned)s->batch, &counts[k])) {
			rc = PMC_EXIT_INTERNAL;
			goto out;
		}
	}
	if (o->regions && (rc = pmc_eng_regions_collect(rep, &req, s->idx)))
		goto out;
	if (!o->k && !pmc_eng_stopped(se) && (rc = hook(se, RQ_POST_CMD, o->post_cmd, s->run, s->batch)))
		rc = rc == PMC_ENG_HOOK_STOP ? PMC_ENG_HOOK_STOP_AFTER : rc == PMC_ENG_HOOK_STOP_SIGNAL ? 0 : rc;
	{
		/* Each execution's status, kept per run: failed and interrupted runs stay out of the statistics. */
		struct pmc_report_exec x = {
			.run = s->run, .batch = (unsigned)s->batch, .interrupted = pmc_eng_stopped(se) != 0,
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
	unsigned done = 0; /* executions completed */
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

	if (!rc) {
		struct measure_exec m = { .se = se, .o = o, .rep = rep };
		struct pmc_eng_exec ex = { .run = measure_step, .ctx = &m };

		rc = pmc_eng_loop(se, o, rep, &ex, &done);
	}
	rep->nbatches = (unsigned)se->plan.nbatches;
	rep->mode = se->popts.multiplex ? "multiplex" : se->plan.nbatches > 1 ? "rerun" : "single";
	assign_batches(se, rep);
	pmc_eng_hybrid_report(o, rep); /* after assign_batches: the merged rows follow the measured events */
	pmc_eng_runs_finish(se, rep, done);
	pmc_keep_close(&keep);
	pmc_perf_set_observer(NULL, NULL);
	return rc;
}
