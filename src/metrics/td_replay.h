/* SPDX-License-Identifier: MIT */
/*
 * A saved report's top-down inputs (pmctool report): each input of a tree is found among the report's events by its
 * encoding for a CPU model (perf type, config, config1: the libpfm4 spelling's under the model's table, the raw terms'
 * in the model's core-PMU layout), then by one of its names, so that a report written by another tool or by hand
 * feeds the formulas whatever it calls its events. The tree says which libpfm4 table encodes its events and how its
 * raw codes are laid out (metrics/topdown.h: pfm_pmu, layout): no name is guessed from the tree's.
 */
#ifndef PMC_METRICS_TD_REPLAY_H
#define PMC_METRICS_TD_REPLAY_H

#include <stdbool.h>

#include "metrics/topdown.h"
#include "report/report.h"

/* One tree's inputs from a report. */
struct pmc_td_replay {
	const struct pmc_td_tree *tree;
	const char *model;             /* the libpfm4 PMU whose encodings are looked for (libpfm4 started for it), or
					  NULL: names only */
	struct pmc_td_value v[PMC_TD_MAX_INPUTS];
	char reason[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	bool scaled;                   /* an input was multiplexed (its count an estimate) */
};

/* td->v[i] for each input of td->tree: counted with the report's mean, or not with the reason (the report lacks it,
 * has it not counted, has no such constant; absent on this CPU generation). */
void pmc_td_replay_inputs(const struct pmc_report *rep, struct pmc_td_replay *td);

/* The deepest level (at least 1) whose inputs the report has, after pmc_td_replay_inputs. */
int pmc_td_replay_deepest(const struct pmc_td_replay *td);

#endif
