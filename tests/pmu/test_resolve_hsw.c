/* SPDX-License-Identifier: MIT */
/* Resolution under LIBPFM_FORCE_PMU=hsw with the fixture sysfs tree (tests/pmu/sysfs: Intel cpu layout, msr). */
#include "pmu_test.h"

#define RAW PERF_TYPE_RAW
#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE
#define MSR_TYPE 12 /* tests/pmu/sysfs/msr/type */
#define UK (EXCL_K | EXCL_H)  /* :u */
#define GP PMC_CLASS_GP
#define FX PMC_CLASS_FIXED
#define FREE PMC_CLASS_FREE

static const struct resolve_row rows[] = {
	/* libpfm4 names: the perf_event layer moves USR/OS (0x53....) into exclude_* */
	{ __LINE__, "UOPS_ISSUED:ANY", RAW, 0x10e, 0, 0, GP, -1, "hsw::UOPS_ISSUED:ANY" },
	{ __LINE__, "uops_issued:any:c=1:i=1", RAW, 0x180010e, 0, 0, GP, -1, "hsw::UOPS_ISSUED:ANY" },
	{ __LINE__, "UOPS_ISSUED:ANY:u", RAW, 0x10e, 0, UK, GP, -1, NULL },
	{ __LINE__, "UOPS_ISSUED:ANY:k", RAW, 0x10e, 0, EXCL_U, GP, -1, NULL },
	{ __LINE__, "hsw::UOPS_ISSUED:ANY:c=1:e=1", RAW, 0x104010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "INST_RETIRED:ANY_P", RAW, 0xc0, 0, 0, FX, 0, "hsw::INST_RETIRED:ANY_P" },
	{ __LINE__, "INST_RETIRED:ANY_P:c=1", RAW, 0x10000c0, 0, 0, GP, -1, NULL },
	{ __LINE__, "UNHALTED_CORE_CYCLES", RAW, 0x3c, 0, 0, FX, 1, NULL },
	{ __LINE__, "UNHALTED_REFERENCE_CYCLES", RAW, 0x300, 0, 0, FX, 2, NULL },
	{ __LINE__, "UNHALTED_CORE_CYCLES:t=1", RAW, 0x20003c, 0, 0, GP, -1, NULL },
	{ __LINE__, "BR_INST_EXEC:0x81", RAW, 0x8188, 0, 0, GP, -1, "hsw::BR_INST_EXEC:0x81" },
	/* generic names: fixed counters on Intel */
	{ __LINE__, "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, FX, 1, "cycles" },
	{ __LINE__, "CPU-Cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, FX, 1, "cycles" },
	{ __LINE__, "instructions", HW, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, FX, 0, NULL },
	{ __LINE__, "ref-cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, 0, 0, FX, 2, NULL },
	{ __LINE__, "branch-instructions", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, 0, GP, -1, "branches" },
	{ __LINE__, "stalled-cycles-backend", HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 0, 0, GP, -1, NULL },
	{ __LINE__, "cycles:u", HW, PERF_COUNT_HW_CPU_CYCLES, 0, UK, FX, 1, NULL },
	{ __LINE__, "instructions:k", HW, PERF_COUNT_HW_INSTRUCTIONS, 0, EXCL_U, FX, 0, NULL },
	{ __LINE__, "cycles:uk", HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, FX, 1, NULL },
	{ __LINE__, "task-clock", SW, PERF_COUNT_SW_TASK_CLOCK, 0, 0, FREE, -1, "task-clock" },
	{ __LINE__, "cs", SW, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, FREE, -1, "context-switches" },
	{ __LINE__, "faults:u", SW, PERF_COUNT_SW_PAGE_FAULTS, 0, UK, FREE, -1, "page-faults" },
	{ __LINE__, "migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0, FREE, -1, NULL },
	/* raw: USR/OS/INT/EN bits leave config; USR or OS alone becomes :u / :k */
	{ __LINE__, "r53010e", RAW, 0x10e, 0, 0, GP, -1, "r53010e" },
	{ __LINE__, "R1D3010E", RAW, 0x180010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "r51010e", RAW, 0x10e, 0, UK, GP, -1, NULL },
	{ __LINE__, "r52010e", RAW, 0x10e, 0, EXCL_U, GP, -1, NULL },
	{ __LINE__, "r10e", RAW, 0x10e, 0, 0, GP, -1, NULL },
	{ __LINE__, "r10e:u", RAW, 0x10e, 0, UK, GP, -1, NULL },
	{ __LINE__, "r5300c0", RAW, 0xc0, 0, 0, FX, 0, NULL },
	{ __LINE__, "r530300", RAW, 0x300, 0, 0, FX, 2, NULL },
	{ __LINE__, "r153003c", RAW, 0x100003c, 0, 0, GP, -1, NULL },
	/* test-bench (libpfc) spelling of seed 001 */
	{ __LINE__, "uops_issued.any", RAW, 0x10e, 0, 0, GP, -1, "hsw::UOPS_ISSUED:ANY" },
	{ __LINE__, "uops_issued.any>=2", RAW, 0x200010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "uops_issued.any<1", RAW, 0x180010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "*uops_issued.any>=1", RAW, 0x104010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "*uops_issued.any", RAW, 0x104010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "uops_issued.any:a", RAW, 0x20010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "uops_issued.any>=3:u", RAW, 0x300010e, 0, UK, GP, -1, NULL },
	{ __LINE__, "br_inst_exec.0x81", RAW, 0x8188, 0, 0, GP, -1, NULL },
	{ __LINE__, "idq.mite_all_uops", RAW, 0x3c79, 0, 0, GP, -1, "hsw::IDQ:ALL_MITE_UOPS" },
	{ __LINE__, "rs_events.empty", RAW, 0x15e, 0, 0, GP, -1, "hsw::RS_EVENTS:EMPTY_CYCLES" },
	{ __LINE__, "cpu_clk_unhalted.core_clk", RAW, 0x3c, 0, 0, FX, 1, NULL },
	{ __LINE__, "cpu_clk_unhalted.ref_xclk", RAW, 0x13c, 0, 0, GP, -1, NULL },
	/* sysfs syntax against the fixture tree */
	{ __LINE__, "cpu/event=0x0e,umask=0x01,cmask=1,inv/", RAW, 0x180010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "cpu/event=0x0e,umask=0x01/u", RAW, 0x10e, 0, UK, GP, -1, NULL },
	{ __LINE__, "cpu/event=0x0e,umask=0x01/:k", RAW, 0x10e, 0, EXCL_U, GP, -1, NULL },
	{ __LINE__, "cpu/edge,event=0x0e,umask=1,cmask=1/", RAW, 0x104010e, 0, 0, GP, -1, NULL },
	{ __LINE__, "cpu/any,event=0x3c/", RAW, 0x20003c, 0, 0, GP, -1, NULL },
	{ __LINE__, "cpu/cpu-cycles/", RAW, 0x3c, 0, 0, FX, 1, NULL },
	{ __LINE__, "cpu/ref-cycles/", RAW, 0x300, 0, 0, FX, 2, NULL },
	{ __LINE__, "cpu/instructions,cmask=1/", RAW, 0x10000c0, 0, 0, GP, -1, NULL },
	{ __LINE__, "cpu/config=0x53010e/", RAW, 0x10e, 0, 0, GP, -1, NULL },
	{ __LINE__, "cpu/event=0xb7,umask=0x01,offcore_rsp=0x10001/", RAW, 0x1b7, 0x10001, 0, GP, -1, NULL },
	{ __LINE__, "msr/tsc/", MSR_TYPE, 0, 0, 0, FREE, -1, "msr/tsc/" },
	{ __LINE__, "MSR/TSC/", MSR_TYPE, 0, 0, 0, FREE, -1, NULL },
	{ __LINE__, "msr/aperf/", MSR_TYPE, 1, 0, 0, FREE, -1, NULL },
	{ __LINE__, "msr/event=0x2/", MSR_TYPE, 2, 0, 0, FREE, -1, NULL },
	{ __LINE__, "fakeamd/event=0x1c0/", 30, 0x1000000c0, 0, 0, FREE, -1, NULL },
	{ __LINE__, "fakeamd/ex_ret_instr/", 30, 0x1000000c0, 0, 0, FREE, -1, NULL },
};

/* Seed 001's whole test schedule (libpfc spelling), Haswell. */
static const char *const seed001[] = {
	"uops_issued.any", "uops_issued.any<1", "uops_issued.any>=1", "uops_issued.any>=2",
	"uops_issued.any>=3", "uops_issued.any>=4", "uops_issued.any>=5", "uops_issued.any>=6",
	"uops_executed_port.port_0", "uops_executed_port.port_1", "uops_executed_port.port_2",
	"uops_executed_port.port_3", "uops_executed_port.port_4", "uops_executed_port.port_5",
	"uops_executed_port.port_6", "uops_executed_port.port_7", "resource_stalls.any", "resource_stalls.rs",
	"resource_stalls.sb", "resource_stalls.rob", "uops_retired.all", "uops_retired.all<1", "uops_retired.all>=1",
	"uops_retired.all>=2", "uops_retired.all>=3", "uops_retired.all>=4", "uops_retired.all>=5",
	"uops_retired.all>=6", "inst_retired.any_p", "inst_retired.any_p<1", "inst_retired.any_p>=1",
	"inst_retired.any_p>=2", "inst_retired.any_p>=3", "inst_retired.any_p>=4", "inst_retired.any_p>=5",
	"inst_retired.any_p>=6", "idq_uops_not_delivered.core", "idq_uops_not_delivered.core<1",
	"idq_uops_not_delivered.core>=1", "idq_uops_not_delivered.core>=2", "idq_uops_not_delivered.core>=3",
	"idq_uops_not_delivered.core>=4", "rs_events.empty", "idq.empty", "idq.mite_all_uops", "idq.mite_all_uops<1",
	"idq.mite_all_uops>=1", "idq.mite_all_uops>=2", "idq.mite_all_uops>=3", "idq.mite_all_uops>=4",
	"move_elimination.int_not_eliminated", "move_elimination.simd_not_eliminated", "lsd.uops", "lsd.uops<1",
	"lsd.uops>=1", "lsd.uops>=2", "lsd.uops>=3", "lsd.uops>=4", "ild_stall.lcp", "ild_stall.iq_full",
	"br_inst_exec.all_branches", "br_inst_exec.0x81", "br_inst_exec.0x82", "icache.misses",
	"br_misp_exec.all_branches", "br_misp_exec.0x81", "br_misp_exec.0x82", "fp_assist.any",
	"cpu_clk_unhalted.core_clk", "cpu_clk_unhalted.ref_xclk", "baclears.any",
};

static void test_resolve_hsw_table_gives_expected_attr_and_class(void **state)
{
	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		check_row(&rows[i]);
}

static void test_resolve_seed001_schedule_all_71_resolve_to_hsw_events(void **state)
{
	(void)state;
	assert_int_equal(PMC_ARRAY_SIZE(seed001), 71);
	for (size_t i = 0; i < PMC_ARRAY_SIZE(seed001); i++) {
		struct pmc_event ev;
		struct pmc_resolve_error err;

		if (pmc_event_resolve(seed001[i], &ev, &err))
			fail_msg("seed 001 event '%s': %s", seed001[i], err.msg);
		assert_int_equal(ev.attr.type, PERF_TYPE_RAW);
		assert_true(ev.flags & PMC_EVF_HARDWARE);
		if (strncmp(ev.canonical, "hsw::", 5))
			fail_msg("'%s' canonical '%s'", seed001[i], ev.canonical);
	}
}

static void test_resolve_testbench_cmask_maps_to_libpfm_c(void **state)
{
	struct pmc_event a, b;

	(void)state;
	for (int n = 1; n <= 6; n++) {
		char tb[64], pfm[64];

		snprintf(tb, sizeof(tb), "uops_retired.all>=%d", n);
		snprintf(pfm, sizeof(pfm), "UOPS_RETIRED:ALL:c=%d", n);
		assert_int_equal(pmc_event_resolve(tb, &a, NULL), 0);
		assert_int_equal(pmc_event_resolve(pfm, &b, NULL), 0);
		assert_int_equal(a.attr.config, b.attr.config);
		assert_string_equal(a.canonical, b.canonical);
	}
}

static void test_pmu_hsw_identity(void **state)
{
	(void)state;
	assert_true(pmc_pmu_has_intel_fixed());
	assert_string_equal(pmc_pmu_core_name(), "hsw");
}

static void test_perf_spelling_round_trips_on_hsw(void **state)
{
	static const char *const specs[] = {
		"UOPS_ISSUED:ANY", "UOPS_ISSUED:ANY:c=1:i=1", "UOPS_ISSUED:ANY:c=2:e=1:u", "UOPS_ISSUED:ANY:t=1:k",
		"r53010e", "r51010e", "cycles", "cycles:u", "instructions:k", "task-clock", "ref-cycles", "msr/tsc/",
		"msr/aperf/", "mem:0x401000:x", "mem:0x1000:w/2", "cpu/event=0xb7,umask=0x01,offcore_rsp=0x10001/",
		"INST_RETIRED:ANY_P", "UNHALTED_REFERENCE_CYCLES", "idq.mite_all_uops<1", "fakeamd/event=0x1c0/",
	};
	char buf[256];
	struct pmc_event ev;

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(specs); i++)
		check_round_trip(__LINE__, specs[i]);
	assert_int_equal(pmc_event_resolve("uops_issued.any<1", &ev, NULL), 0);
	assert_int_equal(pmc_event_perf_spelling(&ev, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "cpu/event=0x0e,umask=0x01,cmask=1,inv/");
	assert_int_equal(pmc_event_resolve("msr/event=0/", &ev, NULL), 0);
	assert_int_equal(pmc_event_perf_spelling(&ev, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "msr/tsc/");
	assert_true(ev.flags & PMC_EVF_TSC);
	assert_int_equal(pmc_event_perf_spelling(&ev, buf, 4), -ENOSPC);
}

static int collect(const char *name, void *ctx)
{
	char *out = ctx;

	strncat(out, name, 4000 - strlen(out));
	strncat(out, "\n", 4000 - strlen(out));
	return 0;
}

static void test_decode_hsw_finds_stall_cycles_spellings(void **state)
{
	char out[4096] = "";

	(void)state;
	assert_true(pmc_event_decode(0x1d3010e, NULL, collect, out) >= 2);
	assert_non_null(strstr(out, "hsw::UOPS_ISSUED:ANY:c=1:i=1\n"));
	assert_non_null(strstr(out, "hsw::UOPS_ISSUED:STALL_CYCLES\n"));
	out[0] = '\0';
	assert_true(pmc_event_decode(0x51010e, NULL, collect, out) >= 1);
	assert_non_null(strstr(out, "hsw::UOPS_ISSUED:ANY:u\n"));
	assert_int_equal(pmc_event_decode(0x5300ff, NULL, collect, out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_hsw_identity),
		cmocka_unit_test(test_resolve_hsw_table_gives_expected_attr_and_class),
		cmocka_unit_test(test_resolve_seed001_schedule_all_71_resolve_to_hsw_events),
		cmocka_unit_test(test_resolve_testbench_cmask_maps_to_libpfm_c),
		cmocka_unit_test(test_perf_spelling_round_trips_on_hsw),
		cmocka_unit_test(test_decode_hsw_finds_stall_cycles_spellings),
	};
	int rc;

	test_force("hsw", "sysfs");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pmc_pmu_fini();
	return rc;
}
