/* SPDX-License-Identifier: MIT */
/* The perf_event_paranoid fallback rule (sys/perf_fallback.h) that pmctool's counting open and the region library
 * share: a pure decision from the attr and the kernel's answer, so every case is tested here without an open. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sys/perf_fallback.h"

static void test_fallback_retries_user_only_only_what_can_count_there(void **state)
{
	static const struct {
		int line;
		uint32_t type;
		uint64_t config;
		bool exclude_user, exclude_kernel, may_exclude;
		int answer;
		enum pmc_perf_fallback want;
	} cases[] = {
		{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 1, 3, PMC_FALLBACK_NONE },
		{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 1, -ENOENT, PMC_FALLBACK_NONE },
		{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 1, -EINVAL, PMC_FALLBACK_NONE },
		{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, 1, -EACCES, PMC_FALLBACK_USER_ONLY },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, 1, -EPERM, PMC_FALLBACK_USER_ONLY },
		/* already user only: nothing left to drop */
		{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1, 1, -EACCES, PMC_FALLBACK_NONE },
		/* kernel mode only (:k): user only it would count nothing */
		{ __LINE__, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, 0, 1, -EACCES, PMC_FALLBACK_KERNEL_DENIED },
		/* the scheduler's events count in kernel mode whatever the task does */
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, 1, -EACCES,
		  PMC_FALLBACK_KERNEL_DENIED },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0, 1, -EPERM, PMC_FALLBACK_KERNEL_DENIED },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES, 0, 0, 0, -EPERM,
		  PMC_FALLBACK_KERNEL_DENIED },
		{ __LINE__, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, 1, 5, PMC_FALLBACK_NONE },
		/* a PMU that refuses exclude bits (msr) is never retried */
		{ __LINE__, 9, 0, 0, 0, 0, -EACCES, PMC_FALLBACK_NONE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a = { .type = cases[i].type, .config = cases[i].config,
					     .exclude_user = cases[i].exclude_user,
					     .exclude_kernel = cases[i].exclude_kernel };
		enum pmc_perf_fallback got = pmc_perf_fallback(&a, cases[i].answer, cases[i].may_exclude);

		if (got != cases[i].want)
			fail_msg("line %d: fallback %d, want %d", cases[i].line, (int)got, (int)cases[i].want);
	}
}

static void test_kernel_side_only_names_the_scheduler_events_alone(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CONTEXT_SWITCHES };

	(void)state;
	assert_true(pmc_perf_kernel_side_only(&a));
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	assert_false(pmc_perf_kernel_side_only(&a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES; /* the same number in another type is another event */
	assert_false(pmc_perf_kernel_side_only(&a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fallback_retries_user_only_only_what_can_count_there),
		cmocka_unit_test(test_kernel_side_only_names_the_scheduler_events_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
