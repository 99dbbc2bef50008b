/* SPDX-License-Identifier: MIT */
/* The core events that count the bytes each cache level supplies (lines filled into the level above it, times the
 * line size), per vendor, for per-level roofline points: they count per task, so every point (the program, a region,
 * an interval) has them. */
#ifndef PMC_ROOFLINE_LEVEL_EVENTS_H
#define PMC_ROOFLINE_LEVEL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "roofline/roofline.h"

#define PMC_RF_LEVEL_MAX_EVENTS 3

/* The bytes from one level: the sum of the events' counts, each a line of 'line' bytes. */
struct pmc_rf_level_source {
	int level;                       /* PMC_RF_L2, PMC_RF_L3 or PMC_RF_MEM: where the bytes come from */
	const char *ev[PMC_RF_LEVEL_MAX_EVENTS];
	size_t n;
	unsigned line;                   /* bytes a count stands for: the filled cache's coherency_line_size */
	bool valid;                      /* false: not countable here, why says so (n may still name the events) */
	char what[256];                  /* "L1D:REPLACEMENT x 64 B: lines filled into L1D" */
	char why[160];
};

/* The sources of L2, L3 and memory bytes this machine's PMU has (the first vendor's whose events resolve: Intel's,
 * AMD Zen's, Arm's), with the line sizes of c: ret[0..*ret_n). A level whose events resolve but whose line size
 * sysfs does not give is returned invalid with why; a level no event counts here is left out. */
void pmc_rf_level_sources(const struct pmc_rf_caches *c, struct pmc_rf_level_source ret[3], size_t *ret_n);

#endif
