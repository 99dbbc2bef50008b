/* SPDX-License-Identifier: MIT */
/*
 * Metrics from the vendor tables (src/tables): -M NAME and -M GROUP resolved to metric definitions pmctool evaluates
 * (metrics.h) and the event groups they need. A formula in perf's language (MetricExpr) or Intel perfmon's (Formula
 * over the aliases of its Events and Constants lists) is parsed with pmc_expr_parse_perf, each name is decided here
 * (another metric of the table, an event, a literal such as #smt_on, duration_time), and the formula is written back
 * as pmctool's (pmc_expr_render) over the event spellings that resolve on this machine. Pure but for the resolver
 * and the literals, which the caller hands in: the tests inject both.
 */
#ifndef PMC_METRICS_TMETRICS_H
#define PMC_METRICS_TMETRICS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "metrics/metrics.h"
#include "tables/tables.h"

/* The machine's values of perf's '#' literals and perfmon's constants (what pmc_tm_literals_read found). */
struct pmc_tm_literal {
	const char *name;             /* "#smt_on", "#slots", "#num_cpus", ... (perf's spelling, lower case) */
	bool known;
	double value;
	char source[96];              /* where the value came from ("/sys/devices/system/cpu/smt/active"), or why not */
};

#define PMC_TM_LITERALS 9
struct pmc_tm_literals {
	struct pmc_tm_literal l[PMC_TM_LITERALS];
};

/* What is counted, for #core_wide. perf's rule (tools/perf/util/smt.c, core_wide()): 1 only when everything that runs
 * on each counted core is counted: CPUs (-a, or -C listing every SMT sibling of the cores it touches), and with SMT
 * off any CPU scope; a command or task (per thread) is 0 even without SMT. It is also when the kernel lets an event
 * count both threads (AnyThread needs CPU-wide permission). */
struct pmc_tm_scope {
	bool cpus;                    /* CPUs are counted (-a or -C), not tasks */
	const int *cpu;               /* -C's CPUs; none: every CPU (-a) */
	size_t ncpu;
};

/* Read this machine's literals: #smt_on, #core_wide (for scope; NULL: a command or task), #num_cpus,
 * #num_cpus_online, #num_cores, #num_dies, #num_packages, #slots (the core PMU's caps/slots), #system_tsc_freq. */
void pmc_tm_literals_read(struct pmc_tm_literals *ret, const struct pmc_tm_scope *scope);
/* Every literal named and unknown, why saying why (a caller that knows its values sets them next). */
void pmc_tm_literals_init(struct pmc_tm_literals *ret, const char *why);
/* Mark one literal unknown with why (unless it is known already). */
void pmc_tm_literal_unknown(struct pmc_tm_literals *lits, const char *name, const char *why);
/* Set one literal by name (tests, or a caller that knows better): 0, or -ENOENT for a name not in the list. */
int pmc_tm_literal_set(struct pmc_tm_literals *lits, const char *name, double value, const char *source);

/* Whether spec resolves to an event on this machine: 0, or a negative errno with why filled; PMC_TM_UNNAMED when no
 * one here names it (no libpfm4 core PMU for this CPU, and the tables do not encode it): the plan then says so in one
 * note for every such event and metric, not once per metric. */
typedef int (*pmc_tm_resolve_fn)(const char *spec, void *ctx, char *why, size_t whylen);
#define PMC_TM_UNNAMED (-ENXIO)
/* The resolver of this process (pmc_event_resolve: vendor tables, then libpfm4, sysfs...); ctx unused. */
int pmc_tm_resolve_here(const char *spec, void *ctx, char *why, size_t whylen);

/* What -M asked for, planned. */
struct pmc_tm_plan {
	struct pmc_metric_def *defs;  /* in evaluation order: the metrics a formula references come before it */
	size_t ndefs;
	char **groups;                /* event lists for -e, one per metric whose events no earlier group holds:
					 "{A,B,C}:W" (perf's weak group: split, with a note, when it does not fit) */
	size_t ngroups;
	char **notes;                 /* for the user: literals taken from the machine, metrics left out and why,
					 a table name shown under another name */
	size_t nnotes;
};

/* Which table metrics an -M item names: a metric by name (case-insensitive), else the metrics of a group
 * (MetricGroup; TopdownLN is also perfmon's TmaLN and, from level 3, its TMA Level N). Each selected index is
 * marked in sel (pmc_tables_metrics order). The number selected. */
size_t pmc_tm_select(const struct pmc_tables *t, const char *item, bool *sel);

/*
 * Plan the metrics sel marks (pmc_tables_metrics order), and those their formulas reference. A metric whose formula
 * does not parse, names an event no spelling of which resolves, a literal the machine does not give, or a metric
 * left out is left out with a note saying why (the others go on). reserved(name) says whether a metric name is
 * pmctool's own (its row is then named "table:NAME", with a note). 0 (even if every metric was left out: the
 * notes say why), -ENOMEM. ret is pmc_tm_plan_fini's.
 */
int pmc_tm_plan(const struct pmc_tables *t, const bool *sel, const struct pmc_tm_literals *lits,
		pmc_tm_resolve_fn resolve, void *rctx, bool (*reserved)(const char *name), struct pmc_tm_plan *ret);
void pmc_tm_plan_fini(struct pmc_tm_plan *p);

/* One table metric's formula checked on its own (the optional real-table test): parses, and each event it names has
 * a spelling resolve accepts. 0; -EINVAL (does not parse) or -ENOENT (an event does not resolve) with why. */
int pmc_tm_check(const struct pmc_tables *t, const struct pmc_table_metric *m, pmc_tm_resolve_fn resolve, void *rctx,
		 char *why, size_t whylen);

#endif
