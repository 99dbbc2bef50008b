/* SPDX-License-Identifier: MIT */
/* The arm64 counter layouts the region library reads directly (arch_inline.h pmc_arch_direct_read): pure functions,
 * included on every architecture so the units test them anywhere. */
#ifndef PMC_ARCH_AARCH64_LAYOUT_H
#define PMC_ARCH_AARCH64_LAYOUT_H

#include <stdint.h>

/*
 * Direct reads, without the chain's branches: where the kernel put the counters the way it does on an otherwise idle
 * PMU (armv8pmu_get_event_idx: a cycles event on the cycle counter when it is free, every other event on the first free
 * event counter, in the order the events were added), the layout of n counters is known from one number, the slot of
 * the one on the cycle counter (none, 0 .. n-1), and a copy of the code specialized for it reads each counter with one
 * mrs of a register named in the instruction. Layout L (0: none on the cycle counter, s + 1: slot s) puts slot k on
 * PMCCNTR_EL0 when k == L - 1, else on PMEVCNTR<k - (L > 0 && k >= L)>_EL0. A page index is the counter + 1, 32 the
 * cycle counter. Layouts exist for up to PMC_ARM64_DIRECT_MAX counters; anything else takes the chain.
 */
#define PMC_ARM64_DIRECT_MAX 4

static inline __attribute__((always_inline)) uint32_t pmc_arm64_direct_index(int layout, int k)
{
	return layout > 0 && k == layout - 1 ? 32u : 1u + (uint32_t)(k - (layout > 0 && k >= layout));
}

/* The layout of the counters at these page indexes, or -1 when they are in none. */
static inline int pmc_arm64_direct_layout(const uint32_t *index, int n)
{
	if (n < 1 || n > PMC_ARM64_DIRECT_MAX)
		return -1;
	for (int layout = 0; layout <= n; layout++) {
		int k = 0;

		while (k < n && index[k] == pmc_arm64_direct_index(layout, k))
			k++;
		if (k == n)
			return layout;
	}
	return -1;
}

#endif
