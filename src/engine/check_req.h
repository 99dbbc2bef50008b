/* SPDX-License-Identifier: MIT */
/* The trust check's measurements (info/check.h) as engine requests, for its two runners: `pmctool check` (cli/) and
 * the library's pmctool_check (api/). One request and one reading of its report, so both judge the same numbers. */
#ifndef PMC_ENGINE_CHECK_REQ_H
#define PMC_ENGINE_CHECK_REQ_H

#include "engine/engine.h"
#include "info/check.h"
#include "report/report.h"

/* Storage the options point into: keep it alive while they are used. */
struct pmc_eng_check_args {
	char events[1024], iters[32], cpu[16];
	char *loop[16];
	uint64_t loop_iters;  /* q->command: the forked loop's iterations (0: the kernel's default) and CPU (-1: any) */
	int loop_cpu;
};

/* o (from pmc_engine_opts_init) measures q: the loop kernel in this process, or with q->command the loop kernel run
 * by a forked child as a launched command (no exec: the engine's forked-function workload, o->fork_fn), pinned to
 * q's CPU. */
void pmc_eng_check_opts(const struct pmc_check_req *q, struct pmc_eng_check_args *a,
			struct pmc_engine_opts *o);

/* The report's typed fields as check's sample: counts (a 0 the PMU itself disowns is not counted), the constants
 * the judgements use, and the read method. */
void pmc_eng_check_sample(const struct pmc_report *rep, struct pmc_check_sample *s);

#endif
