/* SPDX-License-Identifier: MIT */
/*
 * What regions cost a program (libpmctool, linked statically as users do):
 *   - an empty enter/leave pair with 4 counters, in the library's own counts: an outer region around N and around 2N
 *     empty pairs, the difference divided by N (the loop's own few instructions included: exact on the arm64 rig);
 *     in TSC (timer) ticks always, the same difference;
 *   - the start-up: a thread's first use (opening and mapping its 4 counters, calibrating the empty pair), and the
 *     whole process (exec to exit, no region entered) with and without the library counting, median of many.
 *
 * region_cost               one JSON document on stdout
 * region_cost --trace       1000 empty pairs between two marker writes to /dev/null, for strace to count the system
 *                           calls in between; prints the allocations counted in between (JSON)
 * region_cost --exit        return at once (the start-up measurement runs this)
 * PMCTOOL_REGIONS_EVENTS chooses the 4 events; unset: instructions:u,cycles:u,branches:u,branch-misses:u where the
 * PMU has them, else 4 software events (read with read(2)).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pmctool.h>

#include "arch/arch.h"
#include "bench/alloc_count.h"
#include "bench/region_pairs.h"

#define HW_EVENTS "instructions:u,cycles:u,branches:u,branch-misses:u"
#define SW_EVENTS "task-clock,page-faults,context-switches,cpu-migrations"
#define STARTS 41

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether this thread may count user-mode instructions (a PMU and the permission). */
static int hardware_ok(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_HARDWARE,
				     .config = PERF_COUNT_HW_INSTRUCTIONS, .exclude_kernel = 1, .exclude_hv = 1 };
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

/* Median over runs of exec-to-exit of this program with --exit, in ns. */
static uint64_t start_cost(const char *self, int counting)
{
	uint64_t t[STARTS];

	for (int k = 0; k < STARTS; k++) {
		uint64_t t0 = now_ns();
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			if (!counting)
				unsetenv("PMCTOOL_REGIONS_EVENTS");
			setenv("PMCTOOL_REGIONS_OUT", "/dev/null", 1);
			execl(self, self, "--exit", (char *)NULL);
			_exit(127);
		}
		waitpid(pid, &st, 0);
		t[k] = now_ns() - t0;
	}
	qsort(t, STARTS, sizeof(t[0]), cmp_u64);
	return t[STARTS / 2];
}

static void trace(pmctool_region_t outer, pmctool_region_t empty)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	unsigned long a0, a1;

	if (fd < 0)
		exit(1);
	pmc_bench_pairs(outer, empty, 1000); /* first touches outside the traced part */
	a0 = pmc_bench_nalloc;
	if (write(fd, "PMC_REGION_BEGIN", 16) != 16)
		exit(1);
	pmc_bench_pairs(outer, empty, 1000);
	if (write(fd, "PMC_REGION_END", 14) != 14)
		exit(1);
	a1 = pmc_bench_nalloc;
	close(fd);
	printf("{\"path\":\"%s\",\"allocation_hook\":%s,\"allocations_in_region\":", pmctool_regions_read_method(),
	       PMC_BENCH_ALLOC_HOOKED ? "true" : "false");
	if (PMC_BENCH_ALLOC_HOOKED)
		printf("%lu}\n", a1 - a0);
	else
		printf("null}\n");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	pmctool_region_t outer, outer2, empty;
	unsigned long long c1, c2, v1[PMCTOOL_REGION_EVENTS_MAX], v2[PMCTOOL_REGION_EVENTS_MAX];
	uint64_t t0, t1, t2, init_ns;
	long n = 100000;
	int nev;

	if (!strcmp(mode, "--exit"))
		return 0;
	if (argc > 2 || (argc == 2 && strcmp(mode, "--trace"))) {
		fprintf(stderr, "usage: region_cost [--trace|--exit]\n");
		return 2;
	}
	if (!getenv("PMCTOOL_REGIONS_EVENTS")) {
		/* The library reads its environment at start: choose the events, then start again. */
		setenv("PMCTOOL_REGIONS_EVENTS", hardware_ok() == 0 ? HW_EVENTS : SW_EVENTS, 1);
		unsetenv("PMCTOOL_REGIONS_FD");
		setenv("PMCTOOL_REGIONS_OUT", "/dev/null", 1);
		execv("/proc/self/exe", argv);
		perror("region_cost: exec");
		return 1;
	}
	outer = pmctool_region("outer");
	outer2 = pmctool_region("outer-2n");
	empty = pmctool_region("empty");
	t0 = now_ns();
	if (pmctool_thread_init() < 0) {
		fprintf(stderr, "region_cost: the library does not count (PMCTOOL_REGIONS_EVENTS=%s)\n",
			getenv("PMCTOOL_REGIONS_EVENTS"));
		return 1;
	}
	init_ns = now_ns() - t0;
	if (!strcmp(mode, "--trace")) {
		trace(outer, empty);
		return 0;
	}
	pmc_bench_pairs(outer2, empty, 1000); /* warm, and the counts of 'outer-2n' start from this */
	t0 = pmc_arch_timer_begin();
	pmc_bench_pairs(outer, empty, n);
	t1 = pmc_arch_timer_begin();
	pmc_bench_pairs(outer2, empty, 2 * n);
	t2 = pmc_arch_timer_end();
	nev = pmctool_region_counts(outer, &c1, v1, PMCTOOL_REGION_EVENTS_MAX);
	pmctool_region_counts(outer2, &c2, v2, PMCTOOL_REGION_EVENTS_MAX);
	/* outer-2n holds 2n + 1000 pairs in two entries, outer n pairs in one: (v2 - v1) / (n + 1000) per pair, each
	 * outer entry's own cost cancelling but one, spread over 101,000 pairs. */
	printf("{\"events\":\"%s\",\"read\":\"%s\",\"pairs\":%ld,\"pair_timer_ticks\":%.2f,\"pair_counts\":[",
	       getenv("PMCTOOL_REGIONS_EVENTS"), pmctool_regions_read_method(), n,
	       (double)((t2 - t1) - (t1 - t0)) / (double)n);
	for (int i = 0; i < nev; i++)
		printf("%s%.3f", i ? "," : "", ((double)v2[i] - (double)v1[i]) / (double)(n + 1000));
	printf("],\"thread_first_use_ns\":%llu,", (unsigned long long)init_ns);
	printf("\"start_ns_counting\":%llu,\"start_ns_off\":%llu}\n",
	       (unsigned long long)start_cost(argv[0], 1), (unsigned long long)start_cost(argv[0], 0));
	return 0;
}
