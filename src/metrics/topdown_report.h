/* SPDX-License-Identifier: MIT */
/* A top-down result (metrics/topdown.h) into a report (report/topdown.h): the shown nodes of levels 1..level and the
 * checks as report notes (topdown-sum, topdown-children, topdown-range). */
#ifndef PMC_METRICS_TOPDOWN_REPORT_H
#define PMC_METRICS_TOPDOWN_REPORT_H

#include "metrics/topdown.h"
#include "report/report.h"

/* Set rep->topdown (replacing none: it must be NULL) from res, evaluated on tree; why says why this tree. 0 or
 * -ENOMEM (nothing set). */
/* The shown nodes (levels 1..level) of a tree's result into out->node, out->nnodes. */
void pmc_td_report_nodes(struct pmc_report_topdown *out, const struct pmc_td_tree *tree, int level,
			 const struct pmc_td_result *res);
int pmc_td_report_fill(struct pmc_report *rep, const struct pmc_td_tree *tree, int level, const char *why,
		       const struct pmc_td_result *res);

#endif
