/* SPDX-License-Identifier: MIT */
/* One test binary per forced PMU (libpfm4 cannot switch PMUs within a process): each includes this after defining
 * FORCED_PMU, INTEL_FIXED, struct decode_case and its rows[] / round_trip[] / decodes[]. The core PMU is absent
 * from sysfs here
 * (PMCTOOL_SYSFS_ROOT names a missing directory), so cpu/.../ uses the built-in architectural layout. */
#include "pmu_test.h"
#include "plan/plan.h"

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

/* Issue 22 item 14: ref-cycles is Intel's fixed counter 2. On a forced PMU without it (AMD) the event says why it is
 * not supported (a warning naming the PMU) and takes no programmable counter: with one counter, ref-cycles and
 * cycles fit one batch. Where the PMU has it, it is fixed counter 2 and nothing is said. */
static void test_ref_cycles_not_supported_where_the_forced_pmu_has_none(void **state)
{
	const struct pmc_plan_opts o = { .gp_budget = 1, .fixed_slots = pmc_pmu_fixed_counters(),
					 .bp_budget = PMC_BREAKPOINT_SLOTS };
	struct pmc_event evs[2];
	struct pmc_plan p;
	char note[600];
	int kind;

	(void)state;
	assert_int_equal(pmc_event_resolve("ref-cycles", &evs[0], NULL), 0);
	assert_int_equal(pmc_event_resolve("cycles", &evs[1], NULL), 0);
	kind = pmc_event_note(&evs[0], note, sizeof(note));
	if (INTEL_FIXED) {
		assert_false(evs[0].flags & PMC_EVF_ABSENT);
		assert_int_equal(kind, 0);
		return;
	}
	assert_true(evs[0].flags & PMC_EVF_ABSENT);
	assert_int_equal(kind, 2);
	if (!strstr(note, "not supported") || !strstr(note, FORCED_PMU) || !strstr(note, "ENOENT"))
		fail_msg("note on ref-cycles under %s: '%s'", FORCED_PMU, note);
	assert_int_equal(pmc_plan_gp_cost(&evs[0], o.fixed_slots), 0);
	assert_int_equal(pmc_plan_build(evs, 2, &o, &p), 0);
	if (p.nbatches != 1 || p.nevery != 1 || p.every[0] != 0)
		fail_msg("ref-cycles + cycles on 1 counter under %s: %zu batches, %zu in every batch", FORCED_PMU,
			 p.nbatches, p.nevery);
	pmc_plan_fini(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_identity_of_forced_pmu),
		cmocka_unit_test(test_resolve_forced_pmu_table),
		cmocka_unit_test(test_perf_spelling_round_trips_on_forced_pmu),
		cmocka_unit_test(test_decode_forced_pmu_names),
		cmocka_unit_test(test_ref_cycles_not_supported_where_the_forced_pmu_has_none),
	};
	int rc;

	test_force(FORCED_PMU, "no-such-sysfs-root");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pmc_pmu_fini();
	return rc;
}
