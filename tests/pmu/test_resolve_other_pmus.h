/* SPDX-License-Identifier: MIT */
/* One test binary per forced PMU (libpfm4 cannot switch PMUs within a process): each includes this after defining
 * FORCED_PMU, INTEL_FIXED, struct decode_case and its rows[] / round_trip[] / decodes[]. The core PMU is absent
 * from sysfs here
 * (PMCTOOL_SYSFS_ROOT names a missing directory), so cpu/.../ uses the built-in architectural layout. */
#include "pmu_test.h"

static void test_pmu_identity_of_forced_pmu(void **state)
{
	(void)state;
	assert_string_equal(pmc_pmu_core_name(), FORCED_PMU);
	assert_int_equal(pmc_pmu_has_intel_fixed(), INTEL_FIXED);
}

static void test_resolve_forced_pmu_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		check_row(&rows[i]);
}

static void test_perf_spelling_round_trips_on_forced_pmu(void **state)
{
	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(round_trip); i++)
		check_round_trip(__LINE__, round_trip[i]);
}

static int collect(const char *name, void *ctx)
{
	char *out = ctx;

	strncat(out, name, 4000 - strlen(out));
	strncat(out, "\n", 4000 - strlen(out));
	return 0;
}

static void test_decode_forced_pmu_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(decodes); i++) {
		char out[4096] = "", want[300];

		snprintf(want, sizeof(want), "%s\n", decodes[i].name);
		if (pmc_event_decode(decodes[i].raw, NULL, collect, out) < 1 || !strstr(out, want))
			fail_msg("line %d: r%llx decodes to [%s], expected %s", decodes[i].line,
				 (unsigned long long)decodes[i].raw, out, decodes[i].name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_identity_of_forced_pmu),
		cmocka_unit_test(test_resolve_forced_pmu_table),
		cmocka_unit_test(test_perf_spelling_round_trips_on_forced_pmu),
		cmocka_unit_test(test_decode_forced_pmu_names),
	};
	int rc;

	test_force(FORCED_PMU, "no-such-sysfs-root");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pmc_pmu_fini();
	return rc;
}
