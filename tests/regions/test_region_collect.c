/* SPDX-License-Identifier: MIT */
/* pmctool's reader of region results (src/engine/rg_collect.c) and the region checks, on written channel text: how
 * blocks merge over threads, processes and executions, where a batch's events land, and what is left out. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/rg_collect.h"
#include "util/util.h"

#define LAUNCHER 100

/* A report of three events, as pmc_eng_measure makes it before the runs. */
static void report_init(struct pmc_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->events = calloc(3, sizeof(*rep->events));
	assert_non_null(rep->events);
	rep->nevents = 3;
	for (size_t i = 0; i < 3; i++) {
		snprintf(rep->events[i].ev.name, sizeof(rep->events[i].ev.name), "ev%zu", i);
		rep->events[i].status = PMC_COUNT_OK;
		rep->events[i].mean = 1000;
		rep->events[i].ev.cls = PMC_CLASS_BREAKPOINT;
	}
}

static const struct pmc_report_region *region(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; rep->regions && i < rep->regions->n; i++)
		if (!strcmp(rep->regions->r[i].name, name))
			return &rep->regions->r[i];
	fail_msg("no region %s", name);
	return NULL;
}

static const struct pmc_report_region_thread *thread(const struct pmc_report_region *r, const char *label)
{
	for (size_t i = 0; i < r->nthreads; i++)
		if (!strcmp(r->threads[i].label, label))
			return &r->threads[i];
	fail_msg("region %s has no thread %s", r->name, label);
	return NULL;
}

static const char two_processes[] =
	"pmctool-regions 1\nprocess 200 201 2\nevent 0 0 0 a\nevent 1 0 0 b\nregion 0 child\n"
	"thread 0 200 0 8 0 0 0 0\ncount 0 0 1 50 5\ntop 0 50 5\ncost 0 2 0\nbadnames 0\nend\n"
	"pmctool-regions 1\nprocess 201 100 2\nevent 0 0 0 a\nevent 1 0 0 b\nregion 0 outer\nregion 1 inner\n"
	"thread 0 201 0 40 0 1 0 0\ncount 0 0 3 630 7\ncount 0 1 6 600 0\n"
	"thread 1 202 1 8 0 0 0 0\ncount 1 1 2 200 0\ntop 0 630 7\ntop 1 0 0\ncost 0 1 0\ncost 1 3 0\n"
	"open 1 1 0\nbadnames 2\nend\n";

static void test_collect_merges_threads_and_labels_forked_processes(void **s)
{
	static const size_t map[2] = { 0, 2 };
	struct pmc_report rep;
	const struct pmc_report_region *inner;

	(void)s;
	report_init(&rep);
	assert_int_equal(pmc_regions_collect(&rep, two_processes, strlen(two_processes), map, 2, LAUNCHER), 0);
	inner = region(&rep, "inner");
	assert_int_equal((int)pmc_region_calls(&inner->all), 8);
	assert_int_equal((int)pmc_region_value(&inner->all, 0), 800);  /* threads 0 and 1 */
	assert_true(isnan(pmc_region_value(&inner->all, 1)));           /* not in this batch */
	assert_int_equal((int)pmc_region_value(&inner->all, 2), 0);
	assert_int_equal((int)pmc_region_value(&thread(inner, "1")->val, 0), 200);
	assert_int_equal((int)pmc_region_value(&thread(region(&rep, "child"), "p1.0")->val, 2), 5);
	assert_int_equal(inner->not_left, 1);
	assert_int_equal((int)rep.regions->cost[0], 1);                 /* the least over threads */
	assert_int_equal((int)rep.regions->top_sum[0], 680);            /* both processes' top levels */
	assert_int_equal(rep.regions->procs_max, 2);
	assert_int_equal(rep.regions->unmatched, 1);
	assert_int_equal(rep.regions->bad_names, 2);
	pmc_report_fini(&rep);
}

static void test_collect_takes_a_block_whole_or_not_at_all(void **s)
{
	static const struct {
		int line;
		const char *text;
		unsigned cut, regions;
	} rows[] = {
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 1 5\n", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 1 5\nend", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 1 1 5\nend\n", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 2\nregion 0 r\ncount 0 0 1 5\nend\n", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 1 x\nend\n", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\nbogus\nend\n", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 1 5\n"
			    "pmctool-regions 1\nprocess 2 100 1\nregion 0 s\ncount 0 0 1 5\nend\n", 1, 1 },
		{ __LINE__, "noise\npmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 1 5\nend\nnoise\n", 0, 1 },
		{ __LINE__, "", 0, 0 },
		/* calls past 2^53 are no count a program made (2^64 - 1 once became an out-of-range float conversion) */
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 18446744073709551615 5\nend\n", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 9007199254740993 5\nend\n", 1, 0 },
		{ __LINE__, "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\ncount 0 0 9007199254740992 5\nend\n", 0, 1 },
	};
	static const size_t map[1] = { 1 };

	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_report rep;

		report_init(&rep);
		if (pmc_regions_collect(&rep, rows[i].text, strlen(rows[i].text), map, 1, LAUNCHER))
			fail_msg("line %d: collect failed", rows[i].line);
		if (rep.regions->blocks_cut != rows[i].cut || rep.regions->n != rows[i].regions)
			fail_msg("line %d: %u cut, %zu regions; expected %u, %u", rows[i].line, rep.regions->blocks_cut,
				 rep.regions->n, rows[i].cut, rows[i].regions);
		assert_int_equal(rep.regions->execs_silent, rows[i].regions ? 0 : 1);
		pmc_report_fini(&rep);
	}
}

/* Many threads near the limit: the execution's calls are summed exactly in 64 bits (a double would round them). */
static void test_collect_sums_calls_of_many_threads_exactly_in_64_bits(void **s)
{
	static const size_t map[1] = { 1 };
	char text[8192];
	size_t n = (size_t)snprintf(text, sizeof(text), "pmctool-regions 1\nprocess 1 100 1\nregion 0 r\n");
	struct pmc_report rep;

	(void)s;
	for (unsigned t = 0; t < 2100; t += 100) /* 21 lines, one per thread, 2^53 calls each */
		n += (size_t)snprintf(text + n, sizeof(text) - n, "count %u 0 9007199254740992 5\n", t);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "count 3 0 3 5\nend\n");
	report_init(&rep);
	assert_int_equal(pmc_regions_collect(&rep, text, n, map, 1, LAUNCHER), 0);
	assert_int_equal(rep.regions->n, 1);
	assert_true(rep.regions->r[0].exec_calls[0] == 21 * (1ULL << 53) + 3);
	pmc_report_fini(&rep);
}

/* The checks over executions: calls that differ, a top level above the whole program, markers over 5%. */
static void test_region_checks_flag_calls_that_differ_and_top_level_above_the_program(void **s)
{
	static const char one[] = "pmctool-regions 1\nprocess 1 100 1\nevent 0 0 0 a\nregion 0 r\n"
				  "thread 0 1 0 2 0 0 0 0\ncount 0 0 1 1500\ntop 0 1500\ncost 0 100\nend\n";
	static const char two[] = "pmctool-regions 1\nprocess 1 100 1\nevent 0 0 0 a\nregion 0 r\n"
				  "thread 0 1 0 2 0 0 0 0\ncount 0 0 2 1500\ntop 0 1500\ncost 0 100\nend\n";
	static const size_t map[1] = { 0 };
	struct pmc_report rep;
	bool differ = false, above = false, overhead = false;

	(void)s;
	report_init(&rep);
	assert_int_equal(pmc_regions_collect(&rep, one, strlen(one), map, 1, LAUNCHER), 0);
	assert_int_equal(pmc_regions_collect(&rep, two, strlen(two), map, 1, LAUNCHER), 0);
	pmc_regions_checks(&rep);
	for (size_t i = 0; i < rep.nchecks; i++) {
		differ |= !strcmp(rep.checks[i].name, "region-calls-differ");
		above |= !strcmp(rep.checks[i].name, "region-exceeds-program");
		overhead |= !strcmp(rep.checks[i].name, "region-overhead");
	}
	assert_true(differ);   /* 1 call, then 2 */
	assert_true(above);    /* 1500 > the whole program's 1000, an exact event */
	assert_true(overhead); /* 1.5 calls x 100 of 1500 = 10% */
	pmc_report_fini(&rep);
}

static void test_encode_gives_the_attr_fields_the_library_reads(void **s)
{
	struct pmc_event ev;
	const struct pmc_event *evs[1] = { &ev };
	char buf[128];

	(void)s;
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = PERF_TYPE_BREAKPOINT;
	ev.attr.bp_type = 4;
	ev.attr.bp_addr = 0x401000;
	ev.attr.bp_len = 8;
	ev.attr.exclude_kernel = 1;
	ev.attr.exclude_hv = 1;
	assert_int_equal(pmc_regions_encode(evs, 1, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "@5:0:401000:8:4:6");
	assert_int_equal(pmc_regions_encode(evs, 1, buf, 8), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_merges_threads_and_labels_forked_processes),
		cmocka_unit_test(test_collect_takes_a_block_whole_or_not_at_all),
		cmocka_unit_test(test_collect_sums_calls_of_many_threads_exactly_in_64_bits),
		cmocka_unit_test(test_region_checks_flag_calls_that_differ_and_top_level_above_the_program),
		cmocka_unit_test(test_encode_gives_the_attr_fields_the_library_reads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
