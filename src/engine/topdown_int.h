/* SPDX-License-Identifier: MIT */
/* stat --topdown inside the engine (engine/topdown.c chooses and plans, engine/topdown_eval.c evaluates): each tree
 * with its inputs' events, one per core type on a hybrid CPU. Private to those two files. */
#ifndef PMC_ENGINE_TOPDOWN_INT_H
#define PMC_ENGINE_TOPDOWN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"
#include "metrics/topdown.h"
#include "pmu/hybrid.h"
#include "report/topdown.h"

/* The perf group numbers of level 1 and of the inputs only deeper levels need (above any -e list's groups), two per
 * core type. */
enum { TD_GROUP_L1 = 0x7d01, TD_GROUP_DEEP = 0x7d02, TD_GROUP_FAMILY = 0x7e00 /* + 16 x core type + family */ };

/* One tree and its events: the CPU's, or one core type's on a hybrid CPU. */
struct td_part {
	char pmu[16];                                     /* hybrid: the core PMU ("cpu_atom"); "" otherwise */
	const char *pfm;                                  /* hybrid: its libpfm4 table ("adl_grt"), or NULL */
	unsigned g_l1, g_deep;                            /* its groups' numbers */
	int clock;                                        /* level >= 2 in several batches: the anchor input whose
							     ratio between a batch's run and level 1's scales that
							     batch's inputs (-1 none) */
	size_t l1b;                                       /* level 1's batch, SIZE_MAX with one batch */
	int fam[PMC_TD_MAX_INPUTS];                       /* own anchors: the level-1 node whose children need
							     this deeper input (its group's), -1: the deep group */
	const struct pmc_td_tree *tree;
	const char *why;                                  /* the chooser's reason, or "--topdown-def" */
	bool smt_thread;                                  /* SMT on, the core's tree not countable: the thread's */
	bool core_tree;                                   /* a per-core (SMT) tree: no tree for a CPU's or a task's row */
	int level;
	bool needed[PMC_TD_MAX_INPUTS];
	bool l1[PMC_TD_MAX_INPUTS];                       /* level 1's own group */
	char name[PMC_TD_MAX_INPUTS][PMC_NAME_MAX];       /* the event's name in the report; "" when none */
	char why_not[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN]; /* unresolved input, absent property */
	double prop[PMC_TD_MAX_INPUTS];                   /* PMC_TD_PROPERTY values */
	bool prop_ok[PMC_TD_MAX_INPUTS];
	/* -I: the interval's counts of the inputs (the total), and its tree (kept here: nothing allocated per tick) */
	struct pmc_td_value ival[PMC_TD_MAX_INPUTS];
	bool iseen[PMC_TD_MAX_INPUTS];
	char iwhy[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	char inot[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN]; /* why an input's event could not be opened, for ierr[] */
	int ierr[PMC_TD_MAX_INPUTS];
	struct pmc_td_result ires;
	struct pmc_report_topdown iout;
};

struct pmc_eng_topdown {
	struct td_part part[PMC_MAX_CORE_PMUS];
	size_t n;
	bool hybrid;
};

#endif
