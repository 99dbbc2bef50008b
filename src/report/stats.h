/* SPDX-License-Identifier: MIT */
/* Statistics over per-run samples: two-sample tests for A/B comparisons and step detection along a sweep. */
#ifndef PMC_REPORT_STATS_H
#define PMC_REPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>

enum pmc_test { PMC_TEST_WELCH = 0, PMC_TEST_MANN_WHITNEY };

struct pmc_test_result {
	double stat;   /* t, or U of the first sample */
	double df;     /* Welch's degrees of freedom; 0 for Mann-Whitney */
	double p;      /* two-sided p-value */
};

/* The smallest samples a test can judge: Welch 2 per side, Mann-Whitney 4 per side (normal approximation). */
size_t pmc_test_min_n(enum pmc_test t);
const char *pmc_test_name(enum pmc_test t); /* "welch-t", "mann-whitney-u" */

/* Two-sided test that a and b have the same mean (Welch) or distribution (Mann-Whitney). 0 and *ret, or -EDOM when
 * a side has fewer than pmc_test_min_n samples. Samples without spread on both sides: p = 0 when the means differ,
 * 1 when they are equal (exact counts need no test). */
int pmc_test_run(enum pmc_test t, const double *a, size_t na, const double *b, size_t nb, struct pmc_test_result *ret);

/* Student's t distribution: P(|T| >= |t|) with df degrees of freedom (df > 0). */
double pmc_t_two_sided_p(double t, double df);

/* Steps along a curve: for each neighbour pair i, i+1 the score |y[i+1] - y[i]| / noise, where noise is the larger of
 * the pair's combined standard error (err, may be NULL) and the median of all neighbour changes (a steady slope is
 * not a step). score[i] for i < n - 1; the index of the largest is returned (-1 when n < 2). */
long pmc_steps_score(const double *y, const double *err, size_t n, double *score);
/* Whether the change between y[i] and y[i+1] is a step whose levels hold: the point before i is nearer y[i] than
 * y[i+1], and the point after i+1 nearer y[i+1] than y[i] (where those points exist). A single-point spike (the level
 * comes back) fails it on both of its edges: an outlier to rerun, not two steps. */
bool pmc_steps_level_holds(const double *y, size_t n, size_t i);
/* A step's score must reach this to be reported. */
#define PMC_STEP_MIN_SCORE 3.0

#endif
