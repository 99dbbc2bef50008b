/* SPDX-License-Identifier: MIT */
/* Non-core PMU discovery on fixture sysfs trees written in the kernel's shape (tests/pmu/sysfs-uncore-*): Intel SKX
 * (six uncore_imc boxes, power), AMD Zen (amd_df, amd_l3, power) and Arm (arm_cmn_0, arm_dsu_0). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eventsets/eventset.h"
#include "pmu/uncore.h"
#include "roofline/mem_events.h"

static struct pmc_uncore u;

static void scan(const char *fixture)
{
	char root[1024];

	snprintf(root, sizeof(root), "%s/tests/pmu/%s", getenv("PMC_SOURCE_DIR") ? getenv("PMC_SOURCE_DIR") : ".",
		 fixture);
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	assert_int_equal(pmc_uncore_scan(&u), 0);
}

static void test_family_of_strips_only_a_box_number(void **state)
{
	static const struct {
		int line;
		const char *pmu, *fam;
	} rows[] = {
		{ __LINE__, "uncore_imc_0", "uncore_imc" }, { __LINE__, "uncore_imc_15", "uncore_imc" },
		{ __LINE__, "arm_cmn_0", "arm_cmn" },       { __LINE__, "power", "power" },
		{ __LINE__, "amd_df", "amd_df" },           { __LINE__, "amd_l3", "amd_l3" },
		{ __LINE__, "uncore_imc_free_running_1", "uncore_imc_free_running" },
		{ __LINE__, "cstate_pkg", "cstate_pkg" },   { __LINE__, "x_", "x_" }, { __LINE__, "_3", "_3" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(pmc_uncore_family_of(rows[i].pmu, buf, sizeof(buf)), rows[i].fam))
			fail_msg("line %d: %s -> %s, want %s", rows[i].line, rows[i].pmu, buf, rows[i].fam);
}

static void test_skx_imc_boxes_merge_into_one_family_with_cpumask_and_scale(void **state)
{
	const struct pmc_uncore_family *f;
	const struct pmc_uncore_alias *a;
	char buf[256];

	(void)state;
	scan("sysfs-uncore-skx");
	assert_int_equal(u.n, 2); /* power, uncore_imc: cpu and msr are not non-core PMUs */
	f = pmc_uncore_find(&u, "uncore_imc");
	assert_non_null(f);
	assert_ptr_equal(pmc_uncore_find(&u, "uncore_imc_3"), f);
	assert_int_equal(f->kind, PMC_UNCORE_MEMORY);
	assert_int_equal(f->nboxes, 6);
	assert_string_equal(f->box[0], "uncore_imc_0");
	assert_string_equal(f->box[5], "uncore_imc_5");
	assert_int_equal(f->type[0], 20);
	assert_int_equal(f->type[5], 25);
	assert_int_equal(f->ncpus, 2);
	assert_int_equal(f->cpus[0], 0);
	assert_int_equal(f->cpus[1], 28);
	assert_int_equal(f->nformats, 5);
	a = pmc_uncore_alias(f, "cas_count_read");
	assert_non_null(a);
	assert_string_equal(a->terms, "event=0x04,umask=0x03");
	assert_string_equal(a->unit, "MiB");
	assert_true(fabs(pmc_uncore_bytes_per_count(a) - 64.0) < 1e-9); /* CAS count x 64 = bytes */
	a = pmc_uncore_alias(f, "clockticks");
	assert_non_null(a);
	assert_true(a->scale == 1 && pmc_uncore_bytes_per_count(a) == 0);
	assert_null(pmc_uncore_alias(f, "cas_count_read.scale"));
	assert_string_equal(pmc_uncore_describe(f, buf, sizeof(buf)),
			    "6 boxes (uncore_imc_0..uncore_imc_5), types 20-25, cpumask 0,28");
}

static void test_power_energy_in_joules_with_the_kernel_scale(void **state)
{
	const struct pmc_uncore_family *f;
	const struct pmc_uncore_alias *a;

	(void)state;
	scan("sysfs-uncore-skx");
	f = pmc_uncore_find(&u, "power");
	assert_non_null(f);
	assert_int_equal(f->kind, PMC_UNCORE_ENERGY);
	assert_int_equal(f->naliases, 4); /* energy-cores, -pkg, -psys, -ram */
	a = pmc_uncore_alias(f, "energy-pkg");
	assert_non_null(a);
	assert_string_equal(a->unit, "Joules");
	/* 2^32 counts of 2^-32 J are one Joule */
	assert_true(fabs(pmc_uncore_joules(a, 4294967296.0) - 1.0) < 1e-12);
	assert_true(isnan(pmc_uncore_joules(pmc_uncore_alias(pmc_uncore_find(&u, "uncore_imc"), "clockticks"), 1)));
}

static void test_zen_df_l3_power_discovered_without_aliases(void **state)
{
	const struct pmc_uncore_family *df, *l3, *pw;

	(void)state;
	scan("sysfs-uncore-zen");
	assert_int_equal(u.n, 3);
	df = pmc_uncore_find(&u, "amd_df");
	l3 = pmc_uncore_find(&u, "amd_l3");
	pw = pmc_uncore_find(&u, "power");
	assert_non_null(df);
	assert_non_null(l3);
	assert_non_null(pw);
	assert_int_equal(df->kind, PMC_UNCORE_INTERCONNECT);
	assert_int_equal(l3->kind, PMC_UNCORE_CACHE);
	assert_int_equal(df->naliases, 0);
	assert_string_equal(df->format[0], "event=config:0-7,32-35,59-60");
	assert_int_equal(l3->ncpus, 4); /* one CPU per CCX */
	assert_int_equal(l3->cpus[3], 72);
	assert_int_equal(pw->naliases, 1);
}

static void test_cmn_and_dsu_discovered_beside_the_armv8_core_pmu(void **state)
{
	const struct pmc_uncore_family *cmn;

	(void)state;
	scan("sysfs-uncore-cmn");
	assert_int_equal(u.n, 2); /* arm_cmn, arm_dsu: armv8_pmuv3_0 is the core PMU */
	cmn = pmc_uncore_find(&u, "arm_cmn_0");
	assert_non_null(cmn);
	assert_string_equal(cmn->name, "arm_cmn");
	assert_int_equal(cmn->nboxes, 1);
	assert_non_null(pmc_uncore_alias(cmn, "hnf_mc_reqs"));
	assert_int_equal(cmn->ncpus, 1);
}

static void test_roofline_memory_bytes_per_fixture(void **state)
{
	struct pmc_rf_mem_events me;

	(void)state;
	scan("sysfs-uncore-skx");
	pmc_rf_mem_events(&me);
	assert_int_equal(me.n, 12); /* read and write on each of 6 boxes */
	assert_string_equal(me.ev[0].name, "uncore_imc_0/cas_count_read/");
	assert_string_equal(me.ev[11].name, "uncore_imc_5/cas_count_write/");
	assert_true(me.ev[0].bytes_per_count == 64);
	assert_int_equal(me.ncpus, 2);
	assert_int_equal(me.cpus[1], 28);
	scan("sysfs-uncore-zen");
	pmc_rf_mem_events(&me);
	assert_int_equal(me.n, 0);
	assert_non_null(strstr(me.why, "amd_df has no DRAM byte aliases"));
	scan("sysfs-uncore-cmn");
	pmc_rf_mem_events(&me);
	assert_int_equal(me.n, 0);
	assert_non_null(strstr(me.why, "not bytes"));
	scan("sysfs");
	pmc_rf_mem_events(&me);
	assert_int_equal(me.n, 0);
	assert_non_null(strstr(me.why, "no memory-controller PMU"));
}

/* needs:KERNELPMU: a variant for this CPU applies only where the kernel has that PMU; else the '*' one. */
static void test_set_variant_needs_the_kernel_pmu(void **state)
{
	static const char text[] = "set e\ndescription d\nprovenance p\n"
				   "variant rapl needs:power skx\nevent power/energy-pkg/\n"
				   "variant other *\nnote not on this machine\n";
	struct pmc_eventset *set = NULL;
	char err[256];

	(void)state;
	assert_int_equal(pmc_eventset_parse(text, sizeof(text) - 1, "e.set", &set, err, sizeof(err)), 0);
	scan("sysfs-uncore-skx");
	assert_string_equal(pmc_eventset_select(set, "skx")->name, "rapl");
	assert_string_equal(pmc_eventset_select(set, "icx")->name, "other");
	scan("sysfs-uncore-cmn"); /* no power PMU */
	assert_string_equal(pmc_eventset_select(set, "skx")->name, "other");
	pmc_eventset_free(set);
}

/* perf's spellings of a family's event -> the box spellings pmctool opens (0: resolve it as written). */
static void test_perf_family_spellings_give_the_box_spellings(void **state)
{
	static const struct {
		const char *fixture, *spec;
		int n;
		const char *first, *last;
	} t[] = {
		{ "sysfs-uncore-skx", "uncore_imc/cas_count_read/", 6, "uncore_imc_0/cas_count_read/",
		  "uncore_imc_5/cas_count_read/" },
		{ "sysfs-uncore-skx", "uncore_imc/event=0x04,umask=0x0c/", 6, "uncore_imc_0/event=0x04,umask=0x0c/",
		  "uncore_imc_5/event=0x04,umask=0x0c/" },
		{ "sysfs-uncore-skx", "cas_count_write", 6, "uncore_imc_0/cas_count_write/", "uncore_imc_5/cas_count_write/" },
		{ "sysfs-uncore-skx", "energy-pkg", 1, "power/energy-pkg/", "power/energy-pkg/" },
		{ "sysfs-uncore-skx", "uncore_imc_3/cas_count_read/", 0, NULL, NULL }, /* a box: as written */
		{ "sysfs-uncore-skx", "power/energy-pkg/", 0, NULL, NULL },           /* no family of boxes */
		{ "sysfs-uncore-skx", "cas_count_read:u", 0, NULL, NULL },            /* a modifier: not a bare word */
		{ "sysfs-uncore-skx", "no_such_alias", 0, NULL, NULL },
		{ "sysfs-uncore-skx", "uncore_cha/event=1/", 0, NULL, NULL },         /* no such family */
		{ "sysfs-uncore-zen", "energy-pkg", 1, "power/energy-pkg/", "power/energy-pkg/" },
		{ "sysfs-uncore-cmn", "arm_cmn/event=1/", 1, "arm_cmn_0/event=1/", "arm_cmn_0/event=1/" },
	};
	static char out[PMC_UNCORE_MAX_BOXES][PMC_UNCORE_SPEC_MAX];
	(void)state;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int n;

		scan(t[i].fixture);
		n = pmc_uncore_box_specs(t[i].spec, out, PMC_UNCORE_MAX_BOXES);
		if (n != t[i].n)
			fail_msg("%s on %s: %d box spellings, expected %d", t[i].spec, t[i].fixture, n, t[i].n);
		if (n > 0) {
			assert_string_equal(out[0], t[i].first);
			assert_string_equal(out[n - 1], t[i].last);
		}
	}
	scan("sysfs-uncore-skx");
	assert_int_equal(pmc_uncore_box_specs("uncore_imc/cas_count_read/", out, 2), -ENOSPC);
}

static void test_alias_scale_and_unit_of_a_spelling(void **state)
{
	double scale = 0;
	char unit[16];
	(void)state;

	scan("sysfs-uncore-skx");
	assert_true(pmc_uncore_spec_scale("uncore_imc_2/cas_count_read/", &scale, unit, sizeof(unit)));
	assert_true(fabs(scale * 1048576.0 - 64.0) < 1e-9);
	assert_string_equal(unit, "MiB");
	assert_true(pmc_uncore_spec_scale("power/energy-pkg/", &scale, unit, sizeof(unit)));
	assert_true(scale == ldexp(1.0, -32));
	assert_string_equal(unit, "Joules");
	assert_false(pmc_uncore_spec_scale("power/event=0x2/", &scale, unit, sizeof(unit))); /* terms, no alias */
	assert_false(pmc_uncore_spec_scale("uncore_imc/cas_count_read/", &scale, unit, sizeof(unit))); /* no dir */
	assert_false(pmc_uncore_spec_scale("power/../../energy-pkg/", &scale, unit, sizeof(unit)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family_of_strips_only_a_box_number),
		cmocka_unit_test(test_skx_imc_boxes_merge_into_one_family_with_cpumask_and_scale),
		cmocka_unit_test(test_power_energy_in_joules_with_the_kernel_scale),
		cmocka_unit_test(test_zen_df_l3_power_discovered_without_aliases),
		cmocka_unit_test(test_cmn_and_dsu_discovered_beside_the_armv8_core_pmu),
		cmocka_unit_test(test_roofline_memory_bytes_per_fixture),
		cmocka_unit_test(test_set_variant_needs_the_kernel_pmu),
		cmocka_unit_test(test_perf_family_spellings_give_the_box_spellings),
		cmocka_unit_test(test_alias_scale_and_unit_of_a_spelling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
