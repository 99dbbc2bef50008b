/* SPDX-License-Identifier: MIT */
/* The engine's executors: what runs the workload of one execution and opens the counter set on it. run/ launches,
 * holds, releases and reaps processes only; the counters are the engine's, opened on the launched pid. */
#ifndef PMC_ENGINE_EXEC_H
#define PMC_ENGINE_EXEC_H

#include "engine/engine.h"
#include "perf/measure.h"
#include "run/launch.h"

/* One execution of the command w (engine/exec_cmd.c), libperf's prepare/start workload: launch it held, open
 * req's events on its pid (enable_on_exec, inherit unless req->no_inherit; CPU-wide events enabled around it),
 * release it, reap it, read every counter, decide on the live set whether its group ran (out->never_ran), close.
 * With req->n 0, no counter: the run's time, status and resources only. 0 (even when the command failed: see
 * out->wait_status; out->group_err when the kernel refused the group, the command never ran), or -1 with *err
 * filled. Counters are always closed and the child always reaped before returning. */
struct pmc_eng_workload {
	char *const *argv;         /* the command; or, with fn, only its name */
	int (*fn)(void *ctx);      /* set: a forked child runs fn(ctx) instead of an exec (pmc_launch_start_fn): the */
	void *ctx;                 /* counters are enabled just before it is released, not by its exec */
};
int pmc_eng_cmd_run(const struct pmc_eng_workload *w, const struct pmc_measure_req *req, struct pmc_measure_out *out,
		    struct pmc_launch_error *err);

/* A count of the command that the kernel stopped at its privileged exec (pmc_launch_gains_privilege): NOT_COUNTED
 * with this err. */
#define PMC_ENG_PRIVILEGED_ERR EPERM
/* Mark counts[0..req->n) of the command's own events (not CPU-wide ones) so. */
void pmc_eng_mark_privileged(const struct pmc_measure_req *req, struct pmc_count *counts);

/*
 * The measurement loop (engine/loop.c): runs x batches over an executor, the same for every target. For each run and
 * each batch (or once a run with every event, all_at_once: multiplexed, rotated, emulated) the loop builds the
 * request (pmc_eng_build_request), and the executor runs the workload once on it and puts the counts and the
 * execution's record into the report. What the loop decides, once for all executors: a group the kernel refused or
 * that never ran is regrouped (loop.c's regroup, the one rule) and the batch measured again; a batch none of whose own events
 * opens is skipped from then on; hooks that failed or an interruption end the runs; the report's run count and its
 * words ('hook-failed', 'batches-skipped', 'group-never-ran', 'ungrouped').
 */
struct pmc_eng_step {
	unsigned run;
	size_t batch;                    /* the plan's batch (0 with all_at_once) */
	const struct pmc_event **events; /* the request: every-batch events first, then the batch's own */
	size_t *idx;                     /* request position -> event index in se */
	size_t n, first_own;
	bool group;                      /* one group per core PMU (rerun); else each alone */
	bool skip_unsupported;           /* another batch runs: when none of its own events opens, skip this one */
	/* the executor's answer, with a return of 0 */
	long refused_at;                 /* the kernel refused the group at this request position; -1: it did not */
	bool never_ran;                  /* the group opened and was read, and never ran (asked of the live set) */
	bool skipped;                    /* none of the batch's own events opened: the workload was not run */
};

/* An executor's returns besides 0 (done: the execution is in the report) and an exit status (> 1, after the
 * message): --pre or --post failed (the status is se->hook_status), before the execution or after it (it counts),
 * or pmctool was interrupted during a hook (the runs end, nothing to say). */
#define PMC_ENG_HOOK_STOP 1000
#define PMC_ENG_HOOK_STOP_AFTER 1001
#define PMC_ENG_HOOK_STOP_SIGNAL 1002

struct pmc_eng_exec {
	bool all_at_once;
	int (*run)(void *ctx, struct pmc_eng_step *s);
	void *ctx;
};

/* Run the plan: o->runs runs, stopping early on an interruption or a failure. rep->nruns is the last run that
 * completed an execution; *ret_done (may be NULL) the executions done. 0, or the exit status that ended them. */
int pmc_eng_loop(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep,
		 const struct pmc_eng_exec *ex, unsigned *ret_done);

#endif
