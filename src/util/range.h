/* SPDX-License-Identifier: MIT */
/* The values of a sweep: RANGE[,RANGE...] where a RANGE is one value (16, 1.5, static), a..b (step 1), a..b:step,
 * or a..b*f (geometric: a, a*f, a*f*f... up to b). Values keep the text they are written with; a list made only of
 * numbers is numeric (it can be plotted against), words make it a list of labels. */
#ifndef PMC_UTIL_RANGE_H
#define PMC_UTIL_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PMC_RANGE_MAX_POINTS 1000
#define PMC_RANGE_MAX_LEN 4096
#define PMC_RANGE_TEXT 32

struct pmc_range {
	size_t n;
	char (*text)[PMC_RANGE_TEXT]; /* each value as it goes on a command line */
	double *val;                  /* its number (NAN for a word) */
	bool numeric;                 /* every value is a number */
};

/* Parse s. 0 and *ret (pmc_range_fini frees it), -EINVAL with a message naming the bad part in err, -E2BIG past
 * the limits above, -ENOMEM. A value given twice is an error (each point is measured once per round). */
int pmc_range_parse(const char *s, struct pmc_range *ret, char *err, size_t errlen);
void pmc_range_fini(struct pmc_range *r);

/* The order the points are measured in: rounds x n indexes into order (rounds * n entries), each round a fresh
 * shuffle of every point (seeded: the same seed gives the same order), so a drift over time spreads over all
 * points instead of posing as an effect of the parameter. */
void pmc_range_schedule(size_t n, unsigned rounds, uint64_t seed, unsigned *order);

#endif
