/* SPDX-License-Identifier: MIT */
/* x86's group rule (arch/x86_64/group.c, pure, built on every host): Intel's slots must lead its group and the
 * PERF_METRICS pseudo-events must be in it; nothing else, and nothing on a CPU that is not Intel's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "arch/x86_64/group.h"

static void test_x86_group_rule_slots_leads_metrics_follow_table(void **state)
{
	static const struct {
		int line;
		uint32_t type;
		uint64_t config;
		bool intel;
		unsigned want;
	} rows[] = {
		{ __LINE__, PERF_TYPE_RAW, 0x0400, true, PMC_GROUP_MUST_LEAD | PMC_GROUP_MUST_GROUP }, /* slots */
		{ __LINE__, 8, 0x0400, true, PMC_GROUP_MUST_LEAD | PMC_GROUP_MUST_GROUP },   /* cpu_core's slots (hybrid) */
		{ __LINE__, PERF_TYPE_RAW, 0x8000, true, PMC_GROUP_MUST_GROUP },             /* topdown-retiring */
		{ __LINE__, PERF_TYPE_RAW, 0x8700, true, PMC_GROUP_MUST_GROUP },             /* topdown-mem-bound */
		{ __LINE__, PERF_TYPE_RAW, 0x8800, true, PMC_GROUP_ANY },                    /* past the metrics */
		{ __LINE__, PERF_TYPE_RAW, 0x0300, true, PMC_GROUP_ANY },                    /* ref-cycles' pseudo-code */
		{ __LINE__, PERF_TYPE_RAW, 0x0401, true, PMC_GROUP_ANY },                    /* event 0x01, not slots */
		{ __LINE__, PERF_TYPE_RAW, 0x1000400, true, PMC_GROUP_ANY },                 /* slots with a cmask */
		{ __LINE__, PERF_TYPE_HARDWARE, 0x0400, true, PMC_GROUP_ANY },               /* a generic id */
		{ __LINE__, PERF_TYPE_RAW, 0x0400, false, PMC_GROUP_ANY },                   /* AMD: event 0x00 umask 4 */
		{ __LINE__, PERF_TYPE_RAW, 0x8000, false, PMC_GROUP_ANY },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct perf_event_attr a = { .type = rows[i].type, .size = sizeof(a), .config = rows[i].config };

		if (pmc_x86_group_rule(&a, rows[i].intel) != rows[i].want)
			fail_msg("row at line %d: got %#x, want %#x", rows[i].line, pmc_x86_group_rule(&a, rows[i].intel),
				 rows[i].want);
	}
	assert_int_equal(pmc_x86_group_rule(NULL, true), PMC_GROUP_ANY);
}

/* Issue 33 item 6c: the rule follows the PMU in use, not this host's vendor: a forced Intel PMU's slots leads its
 * group on any host (an AMD CI host too), a forced AMD PMU's event 0x00 umask 0x4 is an ordinary event. */
static void test_x86_group_rule_follows_the_forced_pmu_not_the_host(void **state)
{
	const struct perf_event_attr slots = { .type = PERF_TYPE_RAW, .config = 0x0400 };

	(void)state;
#if defined(__x86_64__) && !defined(PMC_ARCH_GENERIC)
	setenv("LIBPFM_FORCE_PMU", "icl", 1);
	assert_int_equal(pmc_arch_group_rule(&slots), PMC_GROUP_MUST_LEAD | PMC_GROUP_MUST_GROUP);
	setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3", 1);
	assert_int_equal(pmc_arch_group_rule(&slots), PMC_GROUP_ANY);
	unsetenv("LIBPFM_FORCE_PMU");
#else
	skip();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_group_rule_slots_leads_metrics_follow_table),
		cmocka_unit_test(test_x86_group_rule_follows_the_forced_pmu_not_the_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
