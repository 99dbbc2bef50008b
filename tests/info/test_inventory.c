/* SPDX-License-Identifier: MIT */
/* Inventory logic from given inputs: CPUID register values, a fixture sysfs tree, injected counter-budget facts. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "info/inventory.h"
#include "sys/sysfs.h"
#include "util/util.h"

static void test_verdict_names_reason_and_action(void **state)
{
	static const struct {
		int line;
		struct pmc_verdict_input in;
		enum pmc_verdict v;
		const char *reason, *action;
	} rows[] = {
		{ __LINE__, { false, ENOENT, 2, true, -1, true }, PMC_VERDICT_UNAVAILABLE, "no driver", "virtual PMU" },
		{ __LINE__, { false, ENOENT, 2, true, -1, false }, PMC_VERDICT_UNAVAILABLE, "ENOENT", "kernel" },
		{ __LINE__, { true, EACCES, 3, false, 1, false }, PMC_VERDICT_UNAVAILABLE, "paranoid=3", "CAP_PERFMON" },
		{ __LINE__, { true, 0, 2, false, 1, false }, PMC_VERDICT_DEGRADED, "user-only", "paranoid=1" },
		{ __LINE__, { true, 0, 1, true, 0, false }, PMC_VERDICT_DEGRADED, "rdpmc is off", "echo 1" },
		{ __LINE__, { true, 0, 2, false, 0, false }, PMC_VERDICT_DEGRADED, "; rdpmc is off", "; echo 1" },
		{ __LINE__, { true, 0, 2, true, 1, false }, PMC_VERDICT_AVAILABLE, "", "" },
		/* A driver, but instructions does not open (QEMU without -icount): partial, not "no driver". */
		{ __LINE__, { true, ENOENT, 2, true, 1, false }, PMC_VERDICT_DEGRADED, "partial PMU", "pmctool check" },
		{ __LINE__, { true, EOPNOTSUPP, 2, true, 1, true }, PMC_VERDICT_DEGRADED, "EOPNOTSUPP", "pmctool check" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_verdict_result r;

		pmc_inventory_verdict(&rows[i].in, &r);
		if (r.verdict != rows[i].v || !strstr(r.reason, rows[i].reason) || !strstr(r.action, rows[i].action))
			fail_msg("row at line %d: %s: %s; %s", rows[i].line, pmc_verdict_name(r.verdict), r.reason,
				 r.action);
	}
}

static void use_fixture(void)
{
	char root[1024];
	const char *src = getenv("PMC_SOURCE_DIR");

	assert_non_null(src);
	snprintf(root, sizeof(root), "%s/tests/info/sysfs", src);
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
}

static void test_sysfs_fixture_scan_reads_type_caps_rdpmc_events(void **state)
{
	static struct pmc_sysfs_pmu pmus[PMC_SYSFS_MAX_PMUS];
	size_t n = 0;

	(void)state;
	use_fixture();
	assert_int_equal(pmc_sysfs_scan_pmus(pmus, PMC_SYSFS_MAX_PMUS, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(pmus[0].name, "cpu");
	assert_true(pmus[0].is_core);
	assert_int_equal(pmus[0].type, 4);
	assert_string_equal(pmus[0].pmu_name, "skylake");
	assert_int_equal(pmus[0].max_precise, 3);
	assert_int_equal(pmus[0].branches, 32);
	assert_int_equal(pmus[0].rdpmc, 1);
	assert_int_equal(pmus[0].nevents, 3); /* topdown-x.scale is a companion file, not an event */
	assert_string_equal(pmus[1].name, "msr");
	assert_false(pmus[1].is_core);
	assert_int_equal(pmus[1].type, 9);
	assert_int_equal(pmus[1].nevents, 4);
	assert_int_equal(pmus[1].rdpmc, -1);
	assert_string_equal(pmus[2].name, "software");
	assert_true(pmc_arch_has_core_pmu());
	unsetenv("PMCTOOL_SYSFS_ROOT");
}

static void test_sysfs_fixture_smt_siblings_from_either_file(void **state)
{
	char buf[64];
	unsigned count = 0;

	(void)state;
	use_fixture();
	assert_int_equal(pmc_sysfs_smt_active(), 1);
	assert_int_equal(pmc_sysfs_smt_siblings(2, buf, sizeof(buf), &count), 0);
	assert_string_equal(buf, "2,6");
	assert_int_equal(count, 2);
	assert_int_equal(pmc_sysfs_smt_siblings(3, buf, sizeof(buf), &count), 0); /* thread_siblings_list */
	assert_string_equal(buf, "3,7");
	assert_int_equal(pmc_sysfs_smt_siblings(9, buf, sizeof(buf), &count), -ENOENT);
	setenv("PMCTOOL_SYSFS_ROOT", "/nonexistent-pmctool-root", 1);
	assert_false(pmc_arch_has_core_pmu());
	assert_int_equal(pmc_sysfs_smt_active(), -1);
	unsetenv("PMCTOOL_SYSFS_ROOT");
}

static void test_cpulist_count_accepts_ranges_rejects_garbage(void **state)
{
	static const struct {
		int line;
		const char *list;
		int rc;
		unsigned n;
	} rows[] = {
		{ __LINE__, "0", 0, 1 }, { __LINE__, "0-1", 0, 2 }, { __LINE__, "0,4", 0, 2 },
		{ __LINE__, "0-3,8,10-11", 0, 7 }, { __LINE__, "", 0, 0 }, { __LINE__, "3-1", -EINVAL, 0 },
		{ __LINE__, "a", -EINVAL, 0 }, { __LINE__, "1-", -EINVAL, 0 }, { __LINE__, "1;2", -EINVAL, 0 },
		{ __LINE__, "0-99999999999999999999", -ERANGE, 0 },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		unsigned n = 0;
		int rc = pmc_cpulist_count(rows[i].list, &n);

		if (rc != rows[i].rc || (!rc && n != rows[i].n))
			fail_msg("row at line %d: rc %d n %u", rows[i].line, rc, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_names_reason_and_action),
		cmocka_unit_test(test_sysfs_fixture_scan_reads_type_caps_rdpmc_events),
		cmocka_unit_test(test_sysfs_fixture_smt_siblings_from_either_file),
		cmocka_unit_test(test_cpulist_count_accepts_ranges_rejects_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
