/* SPDX-License-Identifier: MIT */
/*
 * A saved report's vendor-table metrics (stat -M) evaluated again from its counts, for pmctool report: the tables are
 * loaded for the report's CPU (its environment's cpuid and tables, or the caller's DIR), each metric row of the report
 * that names a table metric is planned as stat plans it (pmc_tm_plan), but an event spelling is accepted when the
 * report has an event of that name, and the '#' literals are the report's (its SMT state and what it counted), never
 * this machine's. Rows that cannot be evaluated again say why, for the caller to keep the saved value with the reason.
 */
#ifndef PMC_METRICS_TM_REPLAY_H
#define PMC_METRICS_TM_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/tmetrics.h"
#include "report/report.h"

/* Where the report was measured, as it says. */
struct pmc_tm_replay_src {
	const char *tables_dir;    /* the caller's table directory (--tables DIR), or NULL */
	const char *env_tables;    /* the report's environment "tables" ("DIR (model)"), or "" */
	const char *cpuid;         /* the report's environment "cpuid", or "": then PMCTOOL_CPUID */
	int smt;                   /* the report's cpu.smt: 1, 0, -1 when it does not say */
	const char *target_kind;   /* the report's target.kind ("command", "system-wide", "cpus", ...), or "" */
	double tsc_hz;             /* the report's tsc_hz, 0 when none */
};

/* One metric row of the report, asked for. */
struct pmc_tm_replayed {
	const char *name;          /* as the report names it ("tma_retiring", "table:IPC") */
	bool evaluated;            /* a row for it was appended to the report, from its formula */
	char why[160];             /* when not: why it was not evaluated again */
};

/* The literals a report's table formulas are evaluated with: #smt_on from src->smt, #core_wide from the SMT state
 * and what was counted (perf's rule: pmc_tm_scope), #system_tsc_freq from tsc_hz; the others are unknown. */
void pmc_tm_literals_of_report(struct pmc_tm_literals *ret, const struct pmc_tm_replay_src *src);

/*
 * Evaluate the rows' table metrics on rep's counts (pmc_metrics_eval, in evaluation order, with the metrics their
 * formulas reference) and fill rows[i].evaluated / why. A summary goes into info (which tables, which literals,
 * from where). Nothing is looked for when neither src->tables_dir nor the report's tables are given (a report measured
 * without tables, or written by hand): info and each why stay empty. 0 (also when no tables were found: every row
 * and info say so), -ENOMEM.
 */
int pmc_tm_replay(struct pmc_report *rep, const struct pmc_tm_replay_src *src, struct pmc_tm_replayed *rows,
		  size_t nrows, char *info, size_t infolen);

#endif
