/* SPDX-License-Identifier: MIT */
/* Which events get a copy kept open for the whole measurement: those whose last close costs a synchronization. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "perf/keep.h"

static void test_keep_wanted_for_tracepoints_and_static_key_software_events_only(void **state)
{
	static const struct {
		int line;
		unsigned type;
		unsigned long long config;
		bool want;
	} rows[] = {
		{ __LINE__, PERF_TYPE_TRACEPOINT, 372, true },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, true },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, true },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, true },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, true },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, true },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, false },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, false },
		{ __LINE__, PERF_TYPE_SOFTWARE, 999, false },
		{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false },
		{ __LINE__, PERF_TYPE_BREAKPOINT, 0, false },
		{ __LINE__, 9, 0, false }, /* a dynamic PMU (msr, uprobe) */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct perf_event_attr a = { .type = rows[i].type, .config = rows[i].config };
		if (pmc_keep_wanted(&a) != rows[i].want)
			fail_msg("row at line %d: wanted %d", rows[i].line, !rows[i].want);
	}
}

/* Real opens: duplicates are kept once, clocks not at all; close empties it. */
static void test_keep_open_keeps_each_distinct_wanted_event_once(void **state)
{
	struct pmc_event evs[4] = { 0 };
	struct pmc_keep k;

	(void)state;
	evs[0].attr.type = evs[1].attr.type = evs[2].attr.type = evs[3].attr.type = PERF_TYPE_SOFTWARE;
	evs[0].attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	evs[1].attr.config = PERF_COUNT_SW_TASK_CLOCK;
	evs[2].attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	evs[3].attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	if (pmc_keep_open(&k, evs, 4, 100) == 0)
		skip(); /* perf_event_open refused even a software event on ourselves */
	assert_int_equal(k.n, 2);
	pmc_keep_close(&k);
	/* never more than the descriptors it is given */
	assert_int_equal(pmc_keep_open(&k, evs, 4, 1), 1);
	pmc_keep_close(&k);
	assert_int_equal(pmc_keep_open(&k, evs, 4, 0), 0);
	assert_int_equal(k.n, 0);
	assert_null(k.fds);
	pmc_keep_close(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keep_wanted_for_tracepoints_and_static_key_software_events_only),
		cmocka_unit_test(test_keep_open_keeps_each_distinct_wanted_event_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
