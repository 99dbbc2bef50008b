/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs at the attr level: the core PMUs found in an Alder Lake sysfs fixture (tests/pmu/sysfs-adl: cpu_core
 * type 4 on CPUs 0-15, cpu_atom type 10 on CPUs 16-23) and the copies of each event, type and config per copy.
 * libpfm4 4.13 has no Alder Lake tables (adl_glc / adl_grt came later), so icl is forced for Intel's fixed-counter
 * layout, which both Alder Lake core types share. */
#include "pmu_test.h"

#include "sys/sysfs.h"
#include "pmu/hybrid.h"

static struct pmc_core_pmu pmus[PMC_MAX_CORE_PMUS];
static size_t npmus;

static int setup(void **state)
{
	(void)state;
	test_force("icl", "sysfs-adl");
	npmus = pmc_hybrid_core_pmus(pmus, PMC_MAX_CORE_PMUS);
	return 0;
}

static void test_hybrid_fixture_has_cpu_atom_and_cpu_core_with_their_types_and_cpus(void **state)
{
	(void)state;
	assert_int_equal(npmus, 2);
	assert_string_equal(pmus[0].name, "cpu_atom");
	assert_int_equal(pmus[0].type, 10);
	assert_string_equal(pmus[0].cpus, "16-23");
	assert_string_equal(pmus[1].name, "cpu_core");
	assert_int_equal(pmus[1].type, 4);
	assert_string_equal(pmus[1].cpus, "0-15");
}

static void test_hybrid_not_found_on_a_machine_with_one_cpu_pmu(void **state)
{
	struct pmc_core_pmu p[PMC_MAX_CORE_PMUS];
	char root[4096];
	const char *old = getenv("PMCTOOL_SYSFS_ROOT");
	char saved[4096];

	(void)state;
	snprintf(saved, sizeof(saved), "%s", old);
	snprintf(root, sizeof(root), "%s/tests/pmu/sysfs", getenv("PMC_SOURCE_DIR") ? getenv("PMC_SOURCE_DIR") : ".");
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	assert_int_equal(pmc_hybrid_core_pmus(p, PMC_MAX_CORE_PMUS), 0);
	setenv("PMCTOOL_SYSFS_ROOT", "/nonexistent-pmctool-root", 1);
	assert_int_equal(pmc_hybrid_core_pmus(p, PMC_MAX_CORE_PMUS), 0);
	setenv("PMCTOOL_SYSFS_ROOT", saved, 1);
}

static void test_hybrid_cpu_to_core_pmu_table(void **state)
{
	static const struct {
		int cpu, pmu;
	} rows[] = { { 0, 1 }, { 15, 1 }, { 16, 0 }, { 23, 0 }, { 24, -ENOENT }, { -1, -ENOENT } };

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		if (pmc_hybrid_pmu_of_cpu(pmus, npmus, rows[i].cpu) != rows[i].pmu)
			fail_msg("CPU %d: core PMU %d, expected %d", rows[i].cpu,
				 pmc_hybrid_pmu_of_cpu(pmus, npmus, rows[i].cpu), rows[i].pmu);
}

static void test_cpulist_has_table(void **state)
{
	static const struct {
		const char *list;
		int cpu;
		bool has;
	} rows[] = {
		{ "0-15", 0, true }, { "0-15", 15, true }, { "0-15", 16, false }, { "16-23", 16, true },
		{ "0,2,4-5", 4, true }, { "0,2,4-5", 3, false }, { "0,2,4-5", 2, true }, { "", 0, false },
		{ "0-", 0, false }, { "x", 0, false }, { "3", -1, false },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		if (pmc_cpulist_has(rows[i].list, rows[i].cpu) != rows[i].has)
			fail_msg("'%s' has %d: expected %d", rows[i].list, rows[i].cpu, rows[i].has);
}

/* One expected copy: the attr asked of the kernel. */
struct copy {
	uint32_t type;
	uint64_t config;
	unsigned core_pmu;
	const char *name, *perf;
};

static void check_expand(int line, const char *spec, int only, int n, const struct copy *want)
{
	struct pmc_event ev, out[PMC_MAX_CORE_PMUS];
	struct pmc_resolve_error err;
	int got;

	memset(&err, 0, sizeof(err));
	if (pmc_event_resolve(spec, &ev, &err))
		fail_msg("line %d: '%s' did not resolve: %s", line, spec, err.msg);
	got = pmc_hybrid_expand(&ev, pmus, npmus, only, out, PMC_MAX_CORE_PMUS);
	if (got != n)
		fail_msg("line %d: '%s' (only %d): %d copies, expected %d", line, spec, only, got, n);
	for (int i = 0; i < n; i++) {
		char perf[PMC_NAME_MAX];

		if (out[i].attr.type != want[i].type || out[i].attr.config != want[i].config ||
		    out[i].core_pmu != want[i].core_pmu || strcmp(out[i].name, want[i].name))
			fail_msg("line %d: '%s' copy %d: type %u config %#llx core_pmu %u name '%s', expected %u %#llx %u "
				 "'%s'", line, spec, i, out[i].attr.type, (unsigned long long)out[i].attr.config,
				 out[i].core_pmu, out[i].name, want[i].type, (unsigned long long)want[i].config,
				 want[i].core_pmu, want[i].name);
		assert_int_equal(pmc_event_perf_spelling(&out[i], perf, sizeof(perf)), 0);
		if (want[i].perf && strcmp(perf, want[i].perf))
			fail_msg("line %d: '%s' copy %d: perf spelling '%s', expected '%s'", line, spec, i, perf,
				 want[i].perf);
		/* everything but the PMU selection is the original's */
		assert_int_equal(out[i].attr.exclude_user, ev.attr.exclude_user);
		assert_int_equal(out[i].attr.exclude_kernel, ev.attr.exclude_kernel);
		assert_int_equal(out[i].cls, ev.cls);
	}
}

static void test_hybrid_expand_attr_per_copy_table(void **state)
{
	static const struct {
		int line;
		const char *spec;
		int only, n;
		struct copy c[2];
	} rows[] = {
		/* generic hardware: PERF_TYPE_HARDWARE, the PMU type in config bits 32-63 */
		{ __LINE__, "cycles", -1, 2, { { 0, 0xa00000000ull, 1, "cycles [cpu_atom]", "cpu_atom/cycles/" },
					       { 0, 0x400000000ull, 2, "cycles [cpu_core]", "cpu_core/cycles/" } } },
		{ __LINE__, "instructions:u", -1, 2,
		  { { 0, 0xa00000001ull, 1, "instructions:u [cpu_atom]", "cpu_atom/instructions/u" },
		    { 0, 0x400000001ull, 2, "instructions:u [cpu_core]", "cpu_core/instructions/u" } } },
		{ __LINE__, "ref-cycles", -1, 2, { { 0, 0xa00000009ull, 1, "ref-cycles [cpu_atom]", NULL },
						   { 0, 0x400000009ull, 2, "ref-cycles [cpu_core]", NULL } } },
		/* a raw code: the PMU's own type (cpu_core's is PERF_TYPE_RAW on Alder Lake) */
		{ __LINE__, "r01c2", -1, 2,
		  { { 10, 0x1c2, 1, "r01c2 [cpu_atom]", "cpu_atom/event=0xc2,umask=0x01/" },
		    { 4, 0x1c2, 2, "r01c2 [cpu_core]", "cpu_core/event=0xc2,umask=0x01/" } } },
		/* the built-in cpu/ layout names no hybrid PMU: both */
		{ __LINE__, "cpu/event=0xc4/", -1, 2, { { 10, 0xc4, 1, "cpu/event=0xc4/ [cpu_atom]", NULL },
							{ 4, 0xc4, 2, "cpu/event=0xc4/ [cpu_core]", NULL } } },
		/* an event that names its PMU: itself, tagged */
		{ __LINE__, "cpu_atom/event=0xc0/", -1, 1, { { 10, 0xc0, 1, "cpu_atom/event=0xc0/", NULL } } },
		{ __LINE__, "cpu_core/event=0xc0/", -1, 1, { { 4, 0xc0, 2, "cpu_core/event=0xc0/", NULL } } },
		{ __LINE__, "cpu_core/instructions/", -1, 1, { { 4, 0xc0, 2, "cpu_core/instructions/", NULL } } },
		/* -k pinned to one core type: that copy only, or none for the other PMU's event */
		{ __LINE__, "cycles", 0, 1, { { 0, 0xa00000000ull, 1, "cycles [cpu_atom]", NULL } } },
		{ __LINE__, "cycles", 1, 1, { { 0, 0x400000000ull, 2, "cycles [cpu_core]", NULL } } },
		{ __LINE__, "cpu_atom/event=0xc0/", 1, 0, { { 0 } } },
		{ __LINE__, "cpu_atom/event=0xc0/", 0, 1, { { 10, 0xc0, 1, "cpu_atom/event=0xc0/", NULL } } },
		/* no core PMU: untouched, core_pmu 0 */
		{ __LINE__, "task-clock", -1, 1, { { 1, 1, 0, "task-clock", NULL } } },
		{ __LINE__, "msr/tsc/", -1, 1, { { 11, 0, 0, "msr/tsc/", NULL } } },
		{ __LINE__, "mem:0x1000:x", -1, 1, { { 5, 0, 0, "mem:0x1000:x", NULL } } },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		check_expand(rows[i].line, rows[i].spec, rows[i].only, rows[i].n, rows[i].c);
}

static void test_hybrid_expand_without_core_pmus_copies_the_event_unchanged(void **state)
{
	struct pmc_event ev, out[2];

	(void)state;
	assert_int_equal(pmc_event_resolve("cycles", &ev, NULL), 0);
	assert_int_equal(pmc_hybrid_expand(&ev, pmus, 0, -1, out, 2), 1);
	assert_memory_equal(&out[0], &ev, sizeof(ev));
}

static void test_hybrid_expand_reports_a_full_output_array(void **state)
{
	struct pmc_event ev, out[1];

	(void)state;
	assert_int_equal(pmc_event_resolve("cycles", &ev, NULL), 0);
	assert_int_equal(pmc_hybrid_expand(&ev, pmus, npmus, -1, out, 1), -ENOSPC);
	assert_int_equal(pmc_hybrid_expand(&ev, pmus, npmus, -1, out, 0), -ENOSPC);
}

static void test_hybrid_expand_refuses_a_name_too_long_for_the_suffix(void **state)
{
	struct pmc_event ev, out[2];

	(void)state;
	assert_int_equal(pmc_event_resolve("cycles", &ev, NULL), 0);
	memset(ev.name, 'x', sizeof(ev.name) - 2);
	ev.name[sizeof(ev.name) - 2] = '\0';
	assert_int_equal(pmc_hybrid_expand(&ev, pmus, npmus, -1, out, 2), -ENAMETOOLONG);
}

/* libpfm4 newer than 4.13 encodes Alder Lake events from adl_glc (cpu_core) or adl_grt (cpu_atom): such an event is
 * opened on its table's core PMU, with that PMU's type when libpfm4 gave PERF_TYPE_RAW. Built by hand here (4.13 has
 * no such tables); the name is in no table, so no copy for the other core type can be made. */
static void test_hybrid_libpfm4_table_event_opens_on_its_core_type(void **state)
{
	static const struct {
		const char *canonical;
		unsigned type, core_pmu;
	} rows[] = {
		{ "adl_grt::PMCTOOL_NO_SUCH_EVENT:u=1", 10, 1 },
		{ "adl_glc::PMCTOOL_NO_SUCH_EVENT:u=1", 4, 2 },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_event ev, out[PMC_MAX_CORE_PMUS];

		memset(&ev, 0, sizeof(ev));
		snprintf(ev.name, sizeof(ev.name), "PMCTOOL_NO_SUCH_EVENT");
		snprintf(ev.canonical, sizeof(ev.canonical), "%s", rows[i].canonical);
		ev.attr.type = PERF_TYPE_RAW;
		ev.attr.config = 0x1c2;
		ev.flags = PMC_EVF_HARDWARE;
		assert_int_equal(pmc_hybrid_expand(&ev, pmus, npmus, -1, out, PMC_MAX_CORE_PMUS), 1);
		assert_int_equal(out[0].attr.type, rows[i].type);
		assert_int_equal(out[0].core_pmu, rows[i].core_pmu);
		assert_string_equal(out[0].name, "PMCTOOL_NO_SUCH_EVENT");
		/* pinned to the other core type: nothing to open */
		assert_int_equal(pmc_hybrid_expand(&ev, pmus, npmus, (int)(2 - rows[i].core_pmu), out, 2), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hybrid_fixture_has_cpu_atom_and_cpu_core_with_their_types_and_cpus),
		cmocka_unit_test(test_hybrid_not_found_on_a_machine_with_one_cpu_pmu),
		cmocka_unit_test(test_hybrid_cpu_to_core_pmu_table),
		cmocka_unit_test(test_cpulist_has_table),
		cmocka_unit_test(test_hybrid_expand_attr_per_copy_table),
		cmocka_unit_test(test_hybrid_expand_without_core_pmus_copies_the_event_unchanged),
		cmocka_unit_test(test_hybrid_expand_reports_a_full_output_array),
		cmocka_unit_test(test_hybrid_expand_refuses_a_name_too_long_for_the_suffix),
		cmocka_unit_test(test_hybrid_libpfm4_table_event_opens_on_its_core_type),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
