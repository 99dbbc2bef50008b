/* SPDX-License-Identifier: MIT */
/* Derived metrics: named formulas evaluated over a report's event means and constants. */
#ifndef PMC_METRICS_METRICS_H
#define PMC_METRICS_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"

#define PMC_FORMULA_MAX 8192

/* One metric definition. Plain data: copyable, nothing to free. */
struct pmc_metric_def {
	char name[PMC_METRIC_NAME_MAX]; /* [A-Za-z_][A-Za-z0-9_]*: later formulas may reference it */
	char formula[PMC_FORMULA_MAX];
	char unit[16];                  /* "", "GHz", "%", "FLOP/s"... */
	char desc[160];
	char threshold[1024];           /* "" or a formula over this and other metrics' values (a vendor table's
					 * MetricThreshold): when it is not 0 the row's desc starts "[over threshold] " */
};

/* Constants pmctool knows by name, whether or not a report sets them (TSC_HZ, BASE_HZ, SECONDS, ...). */
extern const char *const pmc_metric_known_consts[];

/* True when name is one of pmc_metric_known_consts (case-insensitive). */
bool pmc_metric_is_known_const(const char *name);

/* A metric name pmctool gives its own rows (its default metrics) or constants: a vendor table's metric of that name
 * is shown as "table:NAME" (stat -M, pmctool report). */
bool pmc_metric_name_reserved(const char *name);

/* Metric names: a letter or '_' first, then letters, digits, '_'; shorter than PMC_METRIC_NAME_MAX. */
bool pmc_metric_name_valid(const char *name);

enum pmc_metrics_flags {
	/* Leave out (add no row for) a metric whose formula names an event that is not in the report at all, or a
	 * constant the report does not have (EXPECTED_* outside kernels). For the built-in default list, whose events
	 * the user may not have asked for. An event in the report that was not counted still gives an n/a row. */
	PMC_METRICS_SKIP_ABSENT = 1u << 0,
};

/*
 * Evaluate defs in order and append one row each to rep->metrics (pmc_report_add_metric). A name in a formula is,
 * in this order: a metric evaluated earlier in this call, an event of the report (its mean, when counted), a constant
 * of rep->consts; TSC_HZ falls back to rep->tsc_hz and SECONDS to rep->wall_ns_mean when not set as constants.
 * A value that cannot be computed is a row with valid = false and the reason (which event, why); a formula that does
 * not parse is such a row too. 0, or -ENOMEM.
 */
int pmc_metrics_eval(struct pmc_report *rep, const struct pmc_metric_def *defs, size_t ndefs, unsigned flags);

/* Evaluate one formula against a report, as pmc_metrics_eval does (without earlier metrics).
 * 0 and *ret, -ENODATA (n/a, reason filled) or -EINVAL (parse error, reason filled). */
int pmc_metrics_eval_formula(const struct pmc_report *rep, const char *formula, double *ret,
			     char *reason, size_t reasonlen);

/*
 * Parse a --metric argument: NAME=FORMULA, optionally NAME[UNIT]=FORMULA ("GHz[GHz]=cycles/{task-clock}").
 * The formula is parsed to check it. 0 and *ret, or -EINVAL with a message in err naming the bad part.
 */
int pmc_metric_def_parse_cli(const char *arg, struct pmc_metric_def *ret, char *err, size_t errlen);

/* Metrics for pmctool's default events (instructions, cycles, ref-cycles, msr/tsc/, task-clock, branches,
 * branch-misses...): evaluate with PMC_METRICS_SKIP_ABSENT. Static storage; *ret_n gets the count. */
const struct pmc_metric_def *pmc_metrics_default(size_t *ret_n);

#endif
