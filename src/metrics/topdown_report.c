/* SPDX-License-Identifier: MIT */
/* A top-down result into a report: the nodes a renderer shows, the checks as notes. */
#include "metrics/topdown_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/topdown.h"

_Static_assert(PMC_REPORT_TD_NODES >= PMC_TD_MAX_NODES, "report/topdown.h holds every node of a tree");

static const char *check_name(enum pmc_td_check_kind k)
{
	return k == PMC_TD_CHECK_SUM ? "topdown-sum" : k == PMC_TD_CHECK_CHILDREN ? "topdown-children" : "topdown-range";
}

void pmc_td_report_nodes(struct pmc_report_topdown *out, const struct pmc_td_tree *tree, int level,
			 const struct pmc_td_result *res)
{
	out->nnodes = 0;
	for (size_t i = 0; i < tree->nnodes; i++) {
		const struct pmc_td_node *nd = &tree->nodes[i];
		const struct pmc_td_node_result *nr = &res->node[i];
		struct pmc_report_td_node *rn;

		if (nd->level < 1 || nd->level > level)
			continue;
		rn = &out->node[out->nnodes++];
		*rn = (struct pmc_report_td_node){ .name = nd->name, .parent = nd->parent, .explain = nd->explain,
						   .level = nd->level, .ok = nr->ok, .value = nr->value, .raw = nr->raw,
						   .clamped = nr->clamped, .bottleneck = nr->bottleneck,
						   .threshold = nd->threshold };
		snprintf(rn->reason, sizeof(rn->reason), "%s", nr->reason);
	}
}

int pmc_td_report_fill(struct pmc_report *rep, const struct pmc_td_tree *tree, int level, const char *why,
		       const struct pmc_td_result *res)
{
	struct pmc_report_topdown *out = calloc(1, sizeof(*out));

	if (!out)
		return -ENOMEM;
	*out = (struct pmc_report_topdown){ .tree = tree->name, .title = tree->title, .unit = tree->unit, .why = why,
					    .note = tree->note, .level = level };
	pmc_td_report_nodes(out, tree, level, res);
	for (size_t c = 0; c < res->nchecks; c++) {
		/* a check about a node deeper than the level shown, or about children not shown, is not the tree's */
		const struct pmc_td_check *ck = &res->check[c];

		if (ck->node >= 0 && (tree->nodes[ck->node].level > level ||
				      (ck->kind == PMC_TD_CHECK_CHILDREN && tree->nodes[ck->node].level >= level)))
			continue;
		pmc_report_add_check(rep, PMC_CHECK_WARN, check_name(ck->kind), "%s", ck->msg);
	}
	rep->topdown = out;
	return 0;
}
