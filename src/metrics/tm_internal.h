/* SPDX-License-Identifier: MIT */
/* Private to src/metrics/tmetrics.c and tm_names.c. */
#ifndef PMC_METRICS_TM_INTERNAL_H
#define PMC_METRICS_TM_INTERNAL_H

#include <stddef.h>

#include "metrics/tmetrics.h"
#include "util/util.h"

#define PMC_TM_CAND_MAX 5
#define PMC_TM_SPEC_MAX PMC_NAME_MAX

/* A literal by name (case-insensitive), known or not; NULL when it is none of perf's. */
const struct pmc_tm_literal *pmc_tm_literal_find(const struct pmc_tm_literals *lits, const char *name);
/* The spellings to try for a table's event name, most faithful first: their number. */
size_t pmc_tm_candidates(const char *name, char out[PMC_TM_CAND_MAX][PMC_TM_SPEC_MAX]);

#endif
