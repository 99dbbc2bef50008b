/* SPDX-License-Identifier: MIT */
/* A saved stat report (report/load.h) back as a struct pmc_report, for pmctool report: the same metrics, checks and
 * top-down tree as stat's are evaluated on it, from the counts in the file. Events are found by their encoding
 * (perf type, config, config1), so that a report written by another tool or by hand, which names events its own
 * way, still feeds the formulas. */
#ifndef PMC_REPORT_REPLAY_H
#define PMC_REPORT_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "report/load.h"
#include "report/report.h"

/*
 * Fill rep (zeroed here; pmc_report_fini frees it) from l: the totals rows of its events with their samples (or,
 * for a hand-written event without samples, one sample holding its mean), executions, constants, the schedule,
 * the CPU; then pmc_report_summarize. Rows (-A, --per-*) are left out: *rows_left gets how many. Metrics and checks
 * are not copied (the caller evaluates them again). 0 or -ENOMEM.
 */
int pmc_report_from_loaded(const struct pmc_loaded *l, struct pmc_report *rep, size_t *rows_left);

/* An encoding to look for: perf type and config, config1 when has_config1. */
struct pmc_encoding {
	uint32_t type;
	uint64_t config, config1;
	bool has_config1;
};

/*
 * The report's totals event with this encoding, or NULL. The same event may be written as a raw code of the core
 * PMU in several ways, and these are equal: type PERF_TYPE_RAW (4) and the dynamic type of the core PMU the event
 * names ("cpu/...", "cpu_core/...", "armv8_pmuv3_0/..."); on x86 (x86 set) the config bits the kernel ignores in a
 * raw code (usr 16, os 17, int 20, en 22) do not count. config1 is compared when both sides have it. A report event
 * written without a type or config never matches.
 */
const struct pmc_report_event *pmc_report_find_encoding(const struct pmc_report *rep, const struct pmc_encoding *enc,
							bool x86);

#endif
