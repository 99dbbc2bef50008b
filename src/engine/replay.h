/* SPDX-License-Identifier: MIT */
/*
 * A saved stat report (report/load.h) evaluated again from its counts: what `pmctool report` prints and the engine's
 * library returns (pmctool_report_eval). The default metrics and the request's, the vendor tables' metrics with the
 * report's literals (metrics/tm_replay.h), the checks, and the top-down tree: the request's, the report's, or the
 * chooser's for the report's CPU, its inputs found by encoding for that CPU and then by name (metrics/td_replay.h).
 * Messages go to the diagnostics sink in request-field words (util/diag.h: PMC_FIELD).
 */
#ifndef PMC_ENGINE_REPLAY_H
#define PMC_ENGINE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/metrics.h"
#include "report/load.h"
#include "report/report.h"

/* What is asked of the report. */
struct pmc_replay_req {
	const char *topdown_def;       /* the tree (pmctool-topdown(7)); NULL: the report's, else its CPU's */
	int topdown_level;             /* levels 1..N; 0: the report's level (not with topdown_def), else the deepest
					  level whose inputs the report has */
	bool topdown;                  /* the tree is asked for: no tree for the report is an error */
	const struct pmc_metric_def *metrics; /* evaluated after the defaults (--metric); the caller's */
	size_t nmetrics;
	const char *tables;            /* the vendor tables that evaluate its table metrics again, NULL: the report's */
};

/* What the filled report points into: the caller's, kept as long as the report. */
struct pmc_replay_keep {
	char why[200];                 /* why the tree was chosen */
};

/*
 * Fill rep (zeroed here; pmc_report_fini frees it) from l, evaluated again as rq asks. 0, PMC_EXIT_USAGE (an unknown
 * tree, a level the tree does not have, no tree when rq->topdown; the message given) or PMC_EXIT_INTERNAL (out of
 * memory). The tree's inputs are encoded for the report's CPU ("cpu": {"pmu"}), else LIBPFM_FORCE_PMU's, else the
 * tree's own table (pmc_td_tree.pfm_pmu): libpfm4 is started forced to that model when no one started it yet (it
 * reads the variable once per process), so a caller that measured before replays with names and raw codes only
 * where the model is not this CPU's.
 */
int pmc_engine_replay(const struct pmc_loaded *l, const struct pmc_replay_req *rq, struct pmc_replay_keep *keep,
		      struct pmc_report *rep);

#endif
