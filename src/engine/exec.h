/* SPDX-License-Identifier: MIT */
/* The engine's executors: what runs the workload of one execution and opens the counter set on it. run/ launches,
 * holds, releases and reaps processes only; the counters are the engine's, opened on the launched pid. */
#ifndef PMC_ENGINE_EXEC_H
#define PMC_ENGINE_EXEC_H

#include "engine/engine.h"
#include "perf/measure.h"
#include "run/launch.h"

/* One execution of the command argv (engine/exec_cmd.c), libperf's prepare/start workload: launch it held, open
 * req's events on its pid (enable_on_exec, inherit unless req->no_inherit; CPU-wide events enabled around it),
 * release it, reap it, read every counter, decide on the live set whether its group ran (out->never_ran), close.
 * With req->n 0, no counter: the run's time, status and resources only. 0 (even when the command failed: see
 * out->wait_status; out->group_err when the kernel refused the group, the command never ran), or -1 with *err
 * filled. Counters are always closed and the child always reaped before returning. */
int pmc_eng_cmd_run(char *const argv[], const struct pmc_measure_req *req, struct pmc_measure_out *out,
		    struct pmc_launch_error *err);

/* A count of the command that the kernel stopped at its privileged exec (pmc_launch_gains_privilege): NOT_COUNTED
 * with this err. */
#define PMC_ENG_PRIVILEGED_ERR EPERM
/* Mark counts[0..req->n) of the command's own events (not CPU-wide ones) so. */
void pmc_eng_mark_privileged(const struct pmc_measure_req *req, struct pmc_count *counts);

/* The one rule for a batch that could not be counted as one group (engine/loop.c), for every target: the kernel
 * refused batch b's group at request position at (of nreq), or (_never_ran, counted in se->never_ran) accepted it and
 * never ran it (asked of the live set: out->never_ran). Split by the planner on the first run, so every run measures
 * the same batches; where it cannot be, the batch is counted ungrouped. Always 1: measure batch b again. */
int pmc_eng_regroup(struct pmc_engine *se, size_t b, size_t nreq, size_t at, unsigned run);
int pmc_eng_regroup_never_ran(struct pmc_engine *se, size_t b, size_t nreq, unsigned run);
/* The report's words for it, after the runs: 'group-never-ran' and 'ungrouped'. */
void pmc_eng_regroup_report(const struct pmc_engine *se, struct pmc_report *rep);

#endif
