/* SPDX-License-Identifier: MIT */
/* The arm64 core PMU's own spellings (tests/pmu/sysfs-armv8: armv8_pmuv3_0 as Linux 6.1 shows it, and an uncore
 * arm_dsu_0): every spelling of a core event (armv8_pmuv3_0/event=0x08/u, .../inst_retired/u, .../config=0x8/u) is
 * a core event, classed, planned and spelt for perf like r08:u, on whatever architecture the test runs (issue 22
 * items 1 and 3). */
#include "pmu_test.h"

#include "plan/plan.h"

#define ARMV8_TYPE 8 /* sysfs-armv8/.../armv8_pmuv3_0/type */
#define DSU_TYPE 9

static void setup_fixture(void)
{
	char root[4096];
	const char *src = getenv("PMC_SOURCE_DIR");

	snprintf(root, sizeof(root), "%s/tests/pmu/sysfs-armv8", src ? src : ".");
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	assert_int_equal(pmc_pmu_init(NULL, 0), 0);
}

static struct pmc_event resolve(const char *spec)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;

	if (pmc_event_resolve(spec, &ev, &err))
		fail_msg("'%s' did not resolve: %s", spec, err.msg);
	return ev;
}

/* Each sysfs spelling against the raw spelling of the same event: same config and levels, same class and fixed
 * counter, a hardware event; the type is the core PMU's own. */
static void test_sysfs_spellings_of_core_events_class_like_raw(void **state)
{
	static const struct {
		int line;
		const char *sysfs, *raw;
	} rows[] = {
		{ __LINE__, "armv8_pmuv3_0/event=0x08/u", "r08:u" },
		{ __LINE__, "armv8_pmuv3_0/inst_retired/u", "r08:u" },
		{ __LINE__, "armv8_pmuv3_0/config=0x8/u", "r08:u" },
		{ __LINE__, "ARMV8_PMUV3_0/INST_RETIRED/", "r08" },
		{ __LINE__, "armv8_pmuv3_0/event=0x08/k", "r08:k" },
		{ __LINE__, "armv8_pmuv3_0/cpu_cycles/u", "r11:u" },
		{ __LINE__, "armv8_pmuv3_0/event=0x11/", "r11" },
		{ __LINE__, "armv8_pmuv3_0/br_mis_pred/", "r10" },
		{ __LINE__, "armv8_pmuv3_0/l1d_cache,long/u", "r04:u" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_event s = resolve(rows[i].sysfs), r = resolve(rows[i].raw);

		if (s.attr.type != ARMV8_TYPE)
			fail_msg("line %d: '%s' type %u, expected the core PMU's %d", rows[i].line, rows[i].sysfs,
				 s.attr.type, ARMV8_TYPE);
		if (s.attr.config != r.attr.config || excl_bits(&s.attr) != excl_bits(&r.attr))
			fail_msg("line %d: '%s' config %#llx excl %u, '%s' %#llx %u", rows[i].line, rows[i].sysfs,
				 (unsigned long long)s.attr.config, excl_bits(&s.attr), rows[i].raw,
				 (unsigned long long)r.attr.config, excl_bits(&r.attr));
		if (s.cls != r.cls || s.fixed_index != r.fixed_index || s.cls == PMC_CLASS_FREE)
			fail_msg("line %d: '%s' class %d/%d, '%s' %d/%d (a core event is never free)", rows[i].line,
				 rows[i].sysfs, s.cls, s.fixed_index, rows[i].raw, r.cls, r.fixed_index);
		if (!(s.flags & PMC_EVF_HARDWARE))
			fail_msg("line %d: '%s' is not marked a hardware event", rows[i].line, rows[i].sysfs);
	}
	/* the long term is config1 bit 0 */
	assert_int_equal(resolve("armv8_pmuv3_0/l1d_cache,long/u").attr.config1, 1);
}

/* An uncore PMU (cpumask, not cpus) counts no core event: no core counter, in every batch. */
static void test_uncore_pmu_events_stay_free(void **state)
{
	struct pmc_event ev = resolve("arm_dsu_0/cycles/");

	(void)state;
	assert_int_equal(ev.attr.type, DSU_TYPE);
	assert_int_equal(ev.cls, PMC_CLASS_FREE);
	assert_false(ev.flags & PMC_EVF_HARDWARE);
}

/* 12 events on 6 counters: the sysfs spellings take two rerun batches exactly as 12 x r08:u does, none of them in
 * every batch (where the kernel would multiplex them). */
static void test_plan_12_sysfs_spelt_core_events_in_2_batches_like_raw(void **state)
{
	static const char *const spellings[] = { "armv8_pmuv3_0/event=0x08/u", "armv8_pmuv3_0/inst_retired/u",
						  "armv8_pmuv3_0/config=0x8/u", "r08:u" };
	const struct pmc_plan_opts o = { .gp_budget = 6, .fixed_slots = 0, .bp_budget = PMC_BREAKPOINT_SLOTS };

	(void)state;
	for (size_t s = 0; s < PMC_ARRAY_SIZE(spellings); s++) {
		struct pmc_event evs[12];
		struct pmc_plan p;

		for (size_t i = 0; i < 12; i++)
			evs[i] = resolve(spellings[s]);
		assert_int_equal(pmc_plan_build(evs, 12, &o, &p), 0);
		if (p.nbatches != 2 || p.nevery != 0 || p.batches[0].n != 6 || p.batches[1].n != 6)
			fail_msg("'%s' x 12: %zu batches, %zu events in every batch (expected 2 batches of 6, none in "
				 "every batch)", spellings[s], p.nbatches, p.nevery);
		pmc_plan_fini(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_spellings_of_core_events_class_like_raw),
		cmocka_unit_test(test_uncore_pmu_events_stay_free),
		cmocka_unit_test(test_plan_12_sysfs_spelt_core_events_in_2_batches_like_raw),
	};

	setup_fixture();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
