/* SPDX-License-Identifier: MIT */
/* Sanity checks over a finished report: each adds a named note (struct pmc_check_note) when it fires. */
#ifndef PMC_METRICS_CHECKS_H
#define PMC_METRICS_CHECKS_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/metrics.h"
#include "report/report.h"

struct pmc_check_opts {
	double batch_drift_pct;      /* batch-drift: spread of an every-batch event's per-batch means, percent (2) */
	double utilization_tol;      /* utilization: |ref-cycles / TSC - 1| allowed (0.05) */
	double kernel_share_pct;     /* kernel-share: kernel share of instructions / cycles allowed, percent (1) */
	double short_run_s;          /* kernel-share: shorter runs must have no kernel counts (0.001) */
	double retired_tol_pct;      /* retired-vs-expected: |instructions / EXPECTED - 1|, percent (0.1) */
	double max_cycles_per_tsc;   /* impossible-count: core cycles per TSC tick no part reaches (6) */
	double max_uops_per_cycle;   /* impossible-count: uops per cycle no x86 core reaches (8) */
	bool nmi_watchdog;           /* nmi-watchdog: /proc/sys/kernel/nmi_watchdog is on: it holds a counter */
	double zero_count_min_s;     /* zero-count: a hardware event at 0 over a workload this long is suspect (0.001) */
	double descheduled_tol;      /* descheduled: a kernel's task-clock may fall this far below wall time (0.02) */
};

/* The defaults given in parentheses above. */
void pmc_check_opts_default(struct pmc_check_opts *ret);

/*
 * Run the built-in checks, adding notes with these stable names: multiplexed, batch-drift, utilization,
 * kernel-share, retired-vs-expected, impossible-count, nmi-watchdog, zero-count, descheduled. Each stays quiet when its inputs
 * are absent or not counted. opts may be NULL (defaults). Out of memory loses notes, nothing else.
 */
void pmc_checks_run(struct pmc_report *rep, const struct pmc_check_opts *opts);

/* A check an event set defines: when cond evaluates to non-zero, a note name/severity/msg is added. */
struct pmc_check_def {
	char name[48];
	enum pmc_check_severity severity;
	char cond[PMC_FORMULA_MAX];
	char msg[256];
};

/* Evaluate set checks; a condition that is n/a adds nothing. A condition that does not parse adds a WARN note
 * named after the check saying so. */
void pmc_checks_run_defs(struct pmc_report *rep, const struct pmc_check_def *defs, size_t ndefs);

#endif
