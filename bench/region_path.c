/* SPDX-License-Identifier: MIT */
/*
 * The instructions of libpmctool's in-process path (enter + leave with 4 counters), countable without a PMU: this
 * program compiles the library's core with the counter read replaced by the timer read (x86: RDTSC for RDPMC, the
 * same single instruction with the same EDX:EAX result; arm64: an mrs of CNTVCT_EL0 for the switch over PMEVCNTR<n>)
 * and gives each thread's 4 software events fake perf pages that allow in-process reads (index 1, cap_user_rdpmc,
 * 48-bit width). Run it under callgrind, counting only the loop:
 *
 *   valgrind --tool=callgrind --toggle-collect=path_pairs --callgrind-out-file=OUT region_path N
 *
 * for two trip counts N; the difference of the totals over the difference of N is the instructions per pair, the
 * loop's own 3 or 4 included. bench/bench.py and tests/regions/test_regions_path.sh do that.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"

static inline uint64_t timer_as_counter(uint32_t index)
{
	(void)index;
	return pmc_arch_timer_now();
}

static inline uint64_t timer_as_reader(pmc_arch_reader r)
{
	(void)r;
	return pmc_arch_timer_now();
}

/* The enter's stored read, as the architecture's: x86 stores RDTSC's EDX:EAX as RDPMC's, in two halves. */
static inline void timer_as_store(pmc_arch_reader r, uint64_t *dst)
{
	(void)r;
#if defined(PMC_ARCH_X86_64)
	pmc_rdtsc_store(dst);
#else
	*dst = pmc_arch_timer_now();
#endif
}

#define PMC_RG_COUNTER_READ timer_as_counter
#define PMC_RG_READER_OF pmc_arch_reader_of
#define PMC_RG_READER_READ timer_as_reader
#define PMC_RG_READER_STORE timer_as_store
#include "regions/lib/rg_core.c"

/* Side by side, as the library maps the real pages (the path every thread gets where pages are 4 KiB). */
static union {
	struct perf_event_mmap_page pg;
	char stride[RG_PAGE_STRIDE];
} fake[RG_EV];

void path_pairs(pmctool_region_t r, long n);

void __attribute__((noinline)) path_pairs(pmctool_region_t r, long n)
{
	for (long i = 0; i < n; i++) {
		pmctool_region_enter(r);
		pmctool_region_leave(r);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;


	pmctool_region_t r;

	/* What the library's constructor does with PMCTOOL_REGIONS_EVENTS set (no exec: callgrind follows this process). */
	if (pmc_rg_parse_events("task-clock,page-faults,context-switches,cpu-migrations", pmc_rg.setup_err,
				sizeof(pmc_rg.setup_err)) || pthread_key_create(&thread_key, thread_gone))
		return 1;
	pmc_rg.mode = RG_STANDALONE;
	snprintf(pmc_rg.out_path, sizeof(pmc_rg.out_path), "/dev/null");
	RG_ON_EXIT(at_exit);
	if (!PMC_ARCH_USER_READ) {
		fprintf(stderr, "region_path: no in-process read on this architecture\n");
		return 77;
	}
	r = pmctool_region("empty");
	if (pmctool_thread_init() < 0 || self->nev != 4) {
		fprintf(stderr, "region_path: the library could not open its 4 software events\n");
		return 1;
	}
	for (int i = 0; i < 4; i++) {
		fake[i].pg.capabilities = 1ull << 2; /* cap_user_rdpmc */
		fake[i].pg.index = 1;
		fake[i].pg.pmc_width = 48;
		self->page[i] = &fake[i].pg;
	}
	path_pairs(r, n);
	if (self->enter != enter_ident[4] || self->leave != leave_ident[4]) {
		fprintf(stderr, "region_path: the pairs did not run on the path for 4 counters with pages side by side\n");
		return 1;
	}
	if (strcmp(pmctool_regions_read_method(), "in process and read(2)")) {
		fprintf(stderr, "region_path: the fake pages were not read in process (%s)\n",
			pmctool_regions_read_method());
		return 1;
	}
	printf("%ld pairs, in process\n", n);
	/* The fake pages are not the kernel's: take them away before the library unmaps at thread exit. */
	memset(self->page, 0, sizeof(self->page));
	return 0;
}
