/* SPDX-License-Identifier: MIT */
/*
 * libpmctool's copies for pages that are not side by side, on a real PMU (the arm64 rig's t_regions_slots): the
 * library's core compiled in with its real counter reads; after the thread's first use every page but the first is
 * mapped again elsewhere and the cache is taken again, as a thread whose pages could not be placed side by side (64
 * KiB pages, a page mapped elsewhere) has it. Then it measures the empty pair as bench/region_cost.c does (the
 * difference of an outer region around N and around 2N pairs) and prints one JSON line:
 *   {"read":"in process","copy":"apart","pair_counts":[...]}
 * PMCTOOL_REGIONS_EVENTS chooses the events (2 to 8). Exit 1 when the thread is not on those copies.
 */
#include "regions/lib/rg_core.c"

#include "bench/region_pairs.h"

int main(void)
{
	pmctool_region_t outer = pmctool_region("outer"), outer2 = pmctool_region("outer-2n");
	pmctool_region_t empty = pmctool_region("empty");
	unsigned long long c1, c2, v1[RG_EV], v2[RG_EV];
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	struct rg_thread *t;
	const long n = 100000;
	int nev;

	if (pmctool_thread_init() < 0) {
		fprintf(stderr, "region_apart: the library does not count (PMCTOOL_REGIONS_EVENTS)\n");
		return 1;
	}
	t = self;
	for (int i = 1; i < t->nev; i++) {
		void *p;

		if (!t->page[i])
			continue;
		p = mmap(NULL, psz, PROT_READ, MAP_SHARED, t->fd[i], 0);
		if (p == MAP_FAILED) {
			perror("region_apart: mmap");
			return 1;
		}
		munmap(t->page[i], psz);
		t->page[i] = p;
	}
	refresh(t);
	if (!t->c.on || t->c.lockbase || t->enter != enter_apart[t->c.n <= RG_APART_MAX ? t->c.n : 0]) {
		fprintf(stderr, "region_apart: the thread is not on the copies for pages apart (in process %d, n %d)\n",
			t->c.on, t->c.n);
		return 1;
	}
	pmc_bench_pairs(outer2, empty, 1000);
	pmc_bench_pairs(outer, empty, n);
	pmc_bench_pairs(outer2, empty, 2 * n);
	nev = pmctool_region_counts(outer, &c1, v1, RG_EV);
	pmctool_region_counts(outer2, &c2, v2, RG_EV);
	printf("{\"read\":\"%s\",\"copy\":\"apart\",\"pair_counts\":[", pmctool_regions_read_method());
	for (int i = 0; i < nev; i++)
		printf("%s%.3f", i ? "," : "", ((double)v2[i] - (double)v1[i]) / (double)(n + 1000));
	printf("]}\n");
	return 0;
}
