/* SPDX-License-Identifier: MIT */
/* x86's pure CPU facts on any machine (their files in arch/x86_64/ are built everywhere): CPUID decoding, the
 * counter budget's vendor/SMT/model rules with injected inputs and a forced PMU's table, info's CPU section from
 * injected leaves, the TSC rate parsers (CPUID 0x15, the model name's "@ 2.40GHz", the kernel's cpuinfo), the perf
 * page's mult/shift, and the region timer rate every architecture gives through pmc_arch_timer_hz. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "arch/x86_64/budget.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/tsc.h"
#include "sys/perf_time.h"
#include "util/util.h"

static void test_tsc_from_cpuid15_mult_shift_and_model_name(void **state)
{
	double hz = 0;

	(void)state;
	assert_int_equal(pmc_tsc_from_cpuid15(2, 176, 24000000, &hz), 0);
	assert_true(hz == 2112000000.0);
	assert_int_equal(pmc_tsc_from_cpuid15(2, 176, 0, &hz), -ENODATA); /* crystal not enumerated */
	assert_int_equal(pmc_tsc_from_cpuid15(0, 176, 24000000, &hz), -ENODATA);
	/* the kernel's mult for a 3 GHz TSC with shift 31 */
	assert_int_equal(pmc_tsc_from_mult_shift(715827883, 31, &hz), 0);
	assert_true(hz > 2999999990.0 && hz < 3000000010.0);
	assert_int_equal(pmc_tsc_from_mult_shift(0, 31, &hz), -EINVAL);
	assert_int_equal(pmc_tsc_from_model_name("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", &hz), 0);
	assert_true(hz == 2.4e9);
	assert_int_equal(pmc_tsc_from_model_name("Genuine CPU @ 800 MHz", &hz), 0);
	assert_true(hz == 8e8);
	assert_int_equal(pmc_tsc_from_model_name("AMD EPYC", &hz), -ENODATA);
	assert_int_equal(pmc_tsc_from_model_name("weird @ fast", &hz), -ENODATA);
}

/* The kernel's rate is taken from cpuinfo's cpu MHz only when tsc_known_freq says the kernel was told it, and no
 * live-frequency source (aperfmperf, a cpufreq driver) may stand behind "cpu MHz" instead. */
static void test_tsc_from_kernel_cpuinfo_only_with_known_freq_and_no_live_clock(void **state)
{
	static const struct {
		int line;
		const char *text;
		bool cpufreq;
		int rc;
		double hz;
	} rows[] = {
		{ __LINE__, "processor\t: 0\ncpu MHz\t\t: 2596.150\nflags\t\t: fpu tsc constant_tsc tsc_known_freq pni\n",
		  false, 0, 2596150000.0 },
		{ __LINE__, "flags\t\t: tsc tsc_known_freq\ncpu MHz\t\t: 2100.000\n", false, 0, 2100000000.0 },
		{ __LINE__, "cpu MHz\t\t: 2596.150\nflags\t\t: fpu tsc constant_tsc pni\n", false, -ENODATA, 0 },
		{ __LINE__, "cpu MHz\t\t: 2596.150\nflags\t\t: tsc_known_freq_x\n", false, -ENODATA, 0 },
		{ __LINE__, "cpu MHz\t\t: 3700.000\nflags\t\t: tsc_known_freq aperfmperf\n", false, -ENODATA, 0 },
		{ __LINE__, "cpu MHz\t\t: 3700.000\nflags\t\t: tsc_known_freq\n", true, -ENODATA, 0 },
		{ __LINE__, "flags\t\t: tsc_known_freq\n", false, -ENODATA, 0 },
		/* only the first processor's block counts */
		{ __LINE__, "flags\t\t: tsc\n\nflags\t\t: tsc_known_freq\ncpu MHz\t\t: 1.0\n", false, -ENODATA, 0 },
	};
	char path[] = "/tmp/pmc-cpuinfo-XXXXXX";
	int fd = mkstemp(path);
	double hz;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		FILE *f = fopen(path, "w");
		int rc;

		assert_non_null(f);
		fputs(rows[i].text, f);
		fclose(f);
		hz = 0;
		rc = pmc_tsc_from_kernel_cpuinfo(path, rows[i].cpufreq, &hz);
		if (rc != rows[i].rc || (!rc && hz != rows[i].hz))
			fail_msg("row at line %d: rc %d hz %.0f", rows[i].line, rc, hz);
	}
	unlink(path);
	assert_int_equal(pmc_tsc_from_kernel_cpuinfo("/nonexistent/cpuinfo", false, &hz), -ENOENT);
}

/* The region timer's rate (pmc_arch_timer_hz): the TSC on x86-64 (100 MHz..10 GHz), CNTFRQ_EL0 on arm64 (tens of
 * MHz to 1 GHz), cached after the first call. */
static void test_region_timer_hz_gives_a_plausible_cached_rate(void **state)
{
	double a = 0, b = 0, lo = strcmp(pmc_arch_timer_name(), "TSC") ? 1e6 : 1e8;
	const char *src = NULL, *src2 = NULL;

	(void)state;
	assert_int_equal(pmc_arch_timer_hz(&a, &src), 0);
	assert_non_null(src);
	assert_true(a >= lo && a < 1e10);
	assert_int_equal(pmc_arch_timer_hz(&b, &src2), 0);
	assert_true(a == b && src == src2);
}

static void test_cpuid_leaf_0a_decodes_sdm_layouts(void **state)
{
	static const struct {
		int line;
		struct pmc_cpuid_regs a;
		bool has23;
		struct pmc_cpuid_regs l23;
		unsigned version, gp, gp_width, fixed, fixed_width;
		uint32_t unavailable;
		bool anythread_deprecated;
	} rows[] = {
		/* Haswell: v3, 4 GP x 48 bits, 3 fixed x 48 bits */
		{ __LINE__, { 0x07300403, 0, 0, 0x603 }, false, { 0 }, 3, 4, 48, 3, 48, 0, false },
		/* Skylake with HT off: 8 GP */
		{ __LINE__, { 0x08300804, 0, 0, 0x603 }, false, { 0 }, 4, 8, 48, 3, 48, 0, false },
		/* v1: EDX is reserved, so no fixed counters even when EDX has bits */
		{ __LINE__, { 0x07280201, 0, 0, 0x603 }, false, { 0 }, 1, 2, 40, 0, 0, 0, false },
		/* EBX bits 2 and 6 within a 7-bit vector: ref cycles and branch misses not available */
		{ __LINE__, { 0x07300403, 0x44, 0, 0x603 }, false, { 0 }, 3, 4, 48, 3, 48, 0x44, false },
		/* EBX bit 7 lies beyond the 7-bit length: ignored */
		{ __LINE__, { 0x07300403, 0x80, 0, 0x603 }, false, { 0 }, 3, 4, 48, 3, 48, 0, false },
		/* Ice Lake v5: fixed bitmap in ECX names 4, AnyThread deprecated */
		{ __LINE__, { 0x08300805, 0, 0xf, 0x8603 }, false, { 0 }, 5, 8, 48, 4, 48, 0, true },
		/* leaf 0x23.1 bitmaps override the counts */
		{ __LINE__, { 0x08300805, 0, 0xf, 0x8604 }, true, { 0xff, 0x70f, 0, 0 }, 5, 8, 48, 7, 48, 0, true },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_arch_perfmon a;

		pmc_cpuid_decode_arch_perfmon(&rows[i].a, rows[i].has23 ? &rows[i].l23 : NULL, &a);
		if (a.version != rows[i].version || a.gp_counters != rows[i].gp || a.gp_width != rows[i].gp_width ||
		    a.fixed_counters != rows[i].fixed || a.fixed_width != rows[i].fixed_width ||
		    a.unavailable != rows[i].unavailable || a.anythread_deprecated != rows[i].anythread_deprecated ||
		    a.has_leaf23 != rows[i].has23)
			fail_msg("row at line %d: got v%u gp %u/%u fixed %u/%u unavail %#x", rows[i].line, a.version,
				 a.gp_counters, a.gp_width, a.fixed_counters, a.fixed_width, a.unavailable);
	}
	assert_string_equal(pmc_cpuid_arch_event_name(2), "UnHalted Reference Cycles");
	assert_null(pmc_cpuid_arch_event_name(31));
}

static void test_cpuid_signature_follows_vendor_rules(void **state)
{
	static const struct {
		int line;
		uint32_t eax;
		enum pmc_vendor vendor;
		unsigned family, model, stepping;
	} rows[] = {
		{ __LINE__, 0x000306c3, PMC_VENDOR_INTEL, 6, 0x3c, 3 },   /* Haswell */
		{ __LINE__, 0x000906ea, PMC_VENDOR_INTEL, 6, 0x9e, 0xa }, /* Coffee Lake */
		{ __LINE__, 0x00000f29, PMC_VENDOR_INTEL, 0xf, 2, 9 },    /* Pentium 4 */
		{ __LINE__, 0x00a00f11, PMC_VENDOR_AMD, 0x19, 0x01, 1 },  /* Zen 3 EPYC */
		{ __LINE__, 0x00b20f41, PMC_VENDOR_AMD, 0x1a, 0x24, 1 },  /* Zen 5 */
		/* AMD ignores the extended model unless the base family is 0xF; Intel uses it for family 6 */
		{ __LINE__, 0x00010663, PMC_VENDOR_AMD, 6, 6, 3 },
		{ __LINE__, 0x00010663, PMC_VENDOR_INTEL, 6, 0x16, 3 },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		unsigned f, m, s;

		pmc_cpuid_decode_signature(rows[i].eax, rows[i].vendor, &f, &m, &s);
		if (f != rows[i].family || m != rows[i].model || s != rows[i].stepping)
			fail_msg("row at line %d: got family %#x model %#x stepping %u", rows[i].line, f, m, s);
	}
}

static void test_cpuid_amd_counter_count_from_perfctr_core_and_v2(void **state)
{
	static const struct {
		int line;
		uint32_t ext1_ecx;
		bool has22;
		struct pmc_cpuid_regs l22;
		unsigned counters;
		bool v2;
	} rows[] = {
		{ __LINE__, 0, false, { 0 }, 4, false },
		{ __LINE__, 1u << 23, false, { 0 }, 6, false },
		{ __LINE__, 1u << 23, true, { 0, 6, 0, 0 }, 6, false },   /* leaf present, PerfMonV2 bit clear */
		{ __LINE__, 1u << 23, true, { 1, 0x36, 0, 0 }, 6, true },
		{ __LINE__, 0, true, { 1, 0x5, 0, 0 }, 5, true },
	};
	struct pmc_cpuid_regs leaf0 = { 0, 0x68747541, 0x444d4163, 0x69746e65 };
	char vendor[13];

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_amd_perfmon a;

		pmc_cpuid_decode_amd(rows[i].ext1_ecx, rows[i].has22 ? &rows[i].l22 : NULL, &a);
		if (a.core_counters != rows[i].counters || a.perfmon_v2 != rows[i].v2)
			fail_msg("row at line %d: got %u counters, v2 %d", rows[i].line, a.core_counters, a.perfmon_v2);
	}
	assert_int_equal(pmc_cpuid_decode_vendor(&leaf0, vendor), PMC_VENDOR_AMD);
	assert_string_equal(vendor, "AuthenticAMD");
}

static void test_budget_smt_and_watchdog_reasoning_with_injected_inputs(void **state)
{
	static const struct {
		int line;
		struct pmc_budget_input in;
		int rc;
		unsigned n;
		const char *why;
	} rows[] = {
		/* seed 004: Sandy Bridge, HT on (8 -> 4), NMI watchdog on (-1): guaranteed 3 */
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x2a, true, 4, 8, 1, 1, -1, false }, 0, 3, "split 4 per thread" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x2a, true, 4, 8, 1, 1, -1, false }, 0, 3, "-1 -> 3" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x2a, true, 8, 8, 0, 1, -1, false }, 0, 7, "smt/active is 0" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x7e, true, 8, 16, 1, 0, -1, false }, 0, 8, "watchdog is off" },
		{ __LINE__, { PMC_VENDOR_AMD, 0x19, 0x01, true, 6, 6, 1, 1, -1, false }, 0, 5, "holds a core counter" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x3c, true, 0, 8, 1, 0, -1, false }, 0, 4, "libpfm4's table says 8" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x6a, true, 0, 16, 1, 0, -1, false }, 0, 8, "upper bound" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x5e, true, 4, 8, 1, 0, 0, false }, 0, 3, "PMC3" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x5e, true, 4, 8, 1, -1, -1, false }, 0, 4, "not subtracted" },
		{ __LINE__, { PMC_VENDOR_AMD, 0x1a, 0x02, false, 4, 0, 0, 0, -1, false }, -ENODEV, 0, "no kernel PMU" },
		{ __LINE__, { PMC_VENDOR_OTHER, 0, 0, true, 0, 0, -1, 0, -1, false }, -ENODEV, 0, "neither CPUID nor libpfm4" },
		/* Nehalem / Westmere: 4 per thread whether SMT is on or off */
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x1a, true, 4, 4, 1, 0, -1, false }, 0, 4, "whether SMT is on or off" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x2c, true, 0, 4, 0, 0, -1, false }, 0, 4, "whether SMT is on or off" },
		/* the SMT notes name smt/active, what the kernel says, not a firmware setting it cannot see */
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x5e, true, 8, 8, 0, 0, -1, false }, 0, 8, "smt/active is 0" },
		{ __LINE__, { PMC_VENDOR_INTEL, 6, 0x5e, true, 4, 8, 1, 0, -1, false }, 0, 4, "smt/active is 1" },
		/* AMD Zen under a hypervisor that hides PerfCtrExtCore: still 6; PerfMonV2's count wins; pre-Zen 4 */
		{ __LINE__, { PMC_VENDOR_AMD, 0x19, 0x21, true, 4, 0, 1, 0, -1, false }, 0, 6, "6 core counters" },
		{ __LINE__, { PMC_VENDOR_AMD, 0x1a, 0x02, true, 4, 0, 1, 0, -1, true }, 0, 4, "CPUID 0x80000022" },
		{ __LINE__, { PMC_VENDOR_AMD, 0x15, 0x02, true, 4, 0, 1, 0, -1, false }, 0, 4, "0x80000001" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		char why[1024];
		unsigned n = 12345;
		int rc = pmc_counter_budget(&rows[i].in, &n, why, sizeof(why));

		if (rc != rows[i].rc || (rc == 0 && n != rows[i].n) || (rc && n != 12345) || !strstr(why, rows[i].why))
			fail_msg("row at line %d: rc %d n %u why:\n%s", rows[i].line, rc, n, why);
	}
}

static void test_forced_pmu_budget_reads_the_table_like_a_live_count(void **state)
{
	static const struct {
		int line;
		const char *name;
		bool intel;
		unsigned table, n;
		const char *why;
	} rows[] = {
		{ __LINE__, "amd64_fam19h_zen3", false, 6, 6, "6 core counters" },
		{ __LINE__, "hsw", true, 8, 4, "split with SMT on" },
		{ __LINE__, "icx", true, 16, 8, "upper bound" },
		{ __LINE__, "arm_ac57", false, 6, 6, "6 core counters" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		char why[256];
		unsigned n = 0;

		if (pmc_arch_forced_pmu_budget(rows[i].name, rows[i].intel, rows[i].table, &n, why, sizeof(why)) ||
		    n != rows[i].n || !strstr(why, rows[i].why))
			fail_msg("row at line %d: n %u why: %s", rows[i].line, n, why);
	}
	{
		unsigned z = 0;
		assert_int_equal(pmc_arch_forced_pmu_budget("x", true, 0, &z, NULL, 0), -ENODEV);
	}
}

/* The text line labelled label (key NULL) or the JSON member key of facts; NULL when absent. */
static const struct pmc_arch_fact *fact(const struct pmc_arch_fact *f, size_t n, const char *label, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if ((label && f[i].label && !strcmp(f[i].label, label)) || (key && f[i].key && !strcmp(f[i].key, key)))
			return &f[i];
	return NULL;
}

/* info's CPU section from injected CPUID leaves: the text lines and JSON members `pmctool info` printed from them
 * before the describe hook existed (cli/cmd_info.c's print_cpu and json_cpu), for an Intel CPU with leaf 0x23, an
 * AMD one in a VM, and a CPU whose CPUID names no counters. */
static void test_x86_describe_words_info_cpu_section_from_injected_cpuid(void **state)
{
	static const struct {
		int line;
		struct pmc_x86_cpu_facts in;
		const char *label, *text, *key, *json;
	} rows[] = {
#define INTEL { "GenuineIntel", PMC_VENDOR_INTEL, 6, 0x55, 4, false, 0x16, 0x80000008 }, \
	"Intel(R) Xeon(R) Gold 6132 CPU @ 2.60GHz", true, { 4, 4, 48, 7, 0x4, 3, 48, false, true, 0xf, 0x7 }, false, \
	{ 0 }, "x86_64", "Xeon"
		{ __LINE__, { INTEL }, "vendor", "GenuineIntel (Intel(R) Xeon(R) Gold 6132 CPU @ 2.60GHz)", NULL, NULL },
		{ __LINE__, { INTEL }, "family/model", "0x6 / 0x55, stepping 4", NULL, NULL },
		{ __LINE__, { INTEL }, "hypervisor", "no", NULL, NULL },
		{ __LINE__, { INTEL }, "CPUID 0xA", "perfmon v4: 4 programmable x 48 bits, 3 fixed x 48 bits", NULL, NULL },
		{ __LINE__, { INTEL }, "CPUID 0x23.1", "GP bitmap 0xf, fixed bitmap 0x7", NULL, NULL },
		{ __LINE__, { INTEL }, "unavailable", "UnHalted Reference Cycles (architectural events, CPUID 0xA EBX)",
		  NULL, NULL },
		{ __LINE__, { INTEL }, NULL, NULL, "cpuid_arch_perfmon",
		  "{\"version\":4,\"gp_counters\":4,\"gp_width\":48,\"fixed_counters\":3,\"fixed_width\":48,"
		  "\"unavailable_events\":[\"UnHalted Reference Cycles\"],\"gp_bitmap\":15,\"fixed_bitmap\":7}" },
		{ __LINE__, { INTEL }, NULL, NULL, "amd_perfmon", "null" },
		{ __LINE__, { INTEL }, NULL, NULL, "family", "6" },
		{ __LINE__, { INTEL }, NULL, NULL, "model", "85" },
		{ __LINE__, { INTEL }, NULL, NULL, "midr", "null" },
		{ __LINE__, { INTEL }, NULL, NULL, "architecture", "\"x86_64\"" },
		{ __LINE__, { INTEL }, NULL, NULL, "name", "Xeon" },
		{ __LINE__, { INTEL }, "AMD counters", NULL, NULL, NULL },
#define AMD { "AuthenticAMD", PMC_VENDOR_AMD, 0x19, 0x1, 1, true, 0x10, 0x80000028 }, "", false, { 0 }, true, \
	{ true, false, 0, 6 }, "x86_64", "AMD EPYC"
		{ __LINE__, { AMD }, "vendor", "AuthenticAMD", NULL, NULL },
		{ __LINE__, { AMD }, "family/model", "0x19 / 0x1, stepping 1", NULL, NULL },
		{ __LINE__, { AMD }, "hypervisor", "yes (running in a VM)", NULL, NULL },
		{ __LINE__, { AMD }, "AMD counters", "6 core counters (PerfCtrExtCore yes, PerfMonV2 no)", NULL, NULL },
		{ __LINE__, { AMD }, NULL, NULL, "amd_perfmon",
		  "{\"perfctr_core\":true,\"perfmon_v2\":false,\"core_counters\":6}" },
		{ __LINE__, { AMD }, NULL, NULL, "cpuid_arch_perfmon", "null" },
		{ __LINE__, { AMD }, NULL, NULL, "hypervisor", "true" },
		{ __LINE__, { AMD }, "CPUID 0xA", NULL, NULL, NULL },
#define NONE { "GenuineIntel", PMC_VENDOR_INTEL, 6, 0x1a, 5, false, 0xb, 0x80000008 }, NULL, false, { 0 }, false, \
	{ 0 }, "x86_64", ""
		{ __LINE__, { NONE }, "CPUID", "reports no performance counters", NULL, NULL },
		{ __LINE__, { NONE }, NULL, NULL, "model_name", "" },
		{ __LINE__, { NONE }, "unavailable", NULL, NULL, NULL },
#undef INTEL
#undef AMD
#undef NONE
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_arch_fact f[PMC_ARCH_FACTS_MAX];
		size_t n = pmc_x86_describe(&rows[i].in, f, PMC_ARCH_FACTS_MAX);
		const struct pmc_arch_fact *got = fact(f, n, rows[i].label, rows[i].key);
		const char *want = rows[i].label ? rows[i].text : rows[i].json;

		if (!want && got)
			fail_msg("row at line %d: %s present, expected absent", rows[i].line, rows[i].label);
		if (want && (!got || strcmp(rows[i].label ? got->text : got->json, want)))
			fail_msg("row at line %d: got '%s', expected '%s'", rows[i].line,
				 got ? rows[i].label ? got->text : got->json : "(absent)", want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpuid_leaf_0a_decodes_sdm_layouts),
		cmocka_unit_test(test_cpuid_signature_follows_vendor_rules),
		cmocka_unit_test(test_cpuid_amd_counter_count_from_perfctr_core_and_v2),
		cmocka_unit_test(test_budget_smt_and_watchdog_reasoning_with_injected_inputs),
		cmocka_unit_test(test_forced_pmu_budget_reads_the_table_like_a_live_count),
		cmocka_unit_test(test_tsc_from_cpuid15_mult_shift_and_model_name),
		cmocka_unit_test(test_tsc_from_kernel_cpuinfo_only_with_known_freq_and_no_live_clock),
		cmocka_unit_test(test_region_timer_hz_gives_a_plausible_cached_rate),
		cmocka_unit_test(test_x86_describe_words_info_cpu_section_from_injected_cpuid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
