/* SPDX-License-Identifier: MIT */
/* stat --topdown's tree in a report (issue 27): the nodes as evaluated (engine/topdown.c fills it from
 * metrics/topdown.h's result), for the renderers (output/topdown.c). Plain data, one allocation: free() it
 * (pmc_report_fini does). Strings point to the tree definitions, which are static. */
#ifndef PMC_REPORT_TOPDOWN_H
#define PMC_REPORT_TOPDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#define PMC_REPORT_TD_NODES 24
#define PMC_REPORT_TD_REASON 200

struct pmc_report_td_node {
	const char *name;             /* "frontend_bound" */
	const char *parent;           /* NULL at level 1 */
	const char *explain;          /* one line */
	int level;                    /* 1, 2 (helpers are not kept) */
	bool ok;                      /* false: n/a, reason says why */
	double value;                 /* fraction of the unit, clamped to [0, 1] */
	double raw;                   /* before clamping */
	bool clamped;
	bool bottleneck;
	double threshold;             /* a bottleneck exceeds it (fraction) */
	char reason[PMC_REPORT_TD_REASON];
};

struct pmc_report_topdown {
	const char *tree;             /* "intel-icl" */
	const char *title;
	const char *unit;             /* "slots", or "cycles" for the Arm fallback */
	const char *why;              /* why this tree (the chooser's reason, or "--topdown-def") */
	const char *note;             /* the tree's note, or NULL */
	int level;                    /* the level asked for */
	size_t nnodes;                /* shown nodes, parents before children */
	struct pmc_report_td_node node[PMC_REPORT_TD_NODES];
	/* Whose tree: "" for the measurement's total; a row's label ("S0-D0-C1", "CPU3"), a region's name, a core
	 * type's PMU ("cpu_atom"). The report's first tree is the total (or the first core type's); more follow. */
	char scope[64];
	unsigned interval;            /* -I: the interval (1-based), 0 in the report */
	double start_s, end_s;        /* -I: the interval, since counting started */
	struct pmc_report_topdown *next; /* the next tree of the report (rows, regions, core types), or NULL */
};

/* Free rep->topdown's chain (pmc_report_fini calls it). */
static inline void pmc_report_topdown_free(struct pmc_report_topdown *td)
{
	while (td) {
		struct pmc_report_topdown *next = td->next;

		free(td);
		td = next;
	}
}

#endif
