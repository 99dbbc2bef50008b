/* SPDX-License-Identifier: MIT */
/* The loop whose cost bench/region_cost.c and tests/regions/region_apart.c measure: N empty pairs of 'empty' inside
 * one 'outer' region (the per-pair cost is the difference of two N over their difference). */
#ifndef PMC_BENCH_REGION_PAIRS_H
#define PMC_BENCH_REGION_PAIRS_H

#include "include/pmctool.h"

static void __attribute__((noinline, unused)) pmc_bench_pairs(pmctool_region_t outer, pmctool_region_t empty, long n)
{
	pmctool_region_enter(outer);
	for (long i = 0; i < n; i++) {
		pmctool_region_enter(empty);
		pmctool_region_leave(empty);
	}
	pmctool_region_leave(outer);
}

#endif
