/* SPDX-License-Identifier: MIT */
/* The core PMU's identity behind the arch seam (issue 26 step 8): which libpfm4 tables are a CPU's core PMU and
 * whose (pmc_arch_pfm_core), and where each identity's rules place generic events and raw encodings. Pure: the
 * recognizers and rules are built on every architecture, so these rows hold on any host; in particular a forced
 * Intel table keeps Intel's fixed counters whatever CPU runs the test, and tables of other architectures that list
 * fixed counters (RISC-V, s390x, HiSilicon's arm_kunpeng) are not taken for Intel's, and which generic events it
 * lacks (ref-cycles on AMD and Arm) is the table's answer, not the host's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "util/util.h"

#define HW(c) { .type = PERF_TYPE_HARDWARE, .config = (c) }
#define RAW(c) { .type = PERF_TYPE_RAW, .config = (c) }

/* libpfm4's names, descriptions and num_fixed_cntrs as its 4.13 tables (and later ones) give them. */
static void test_pfm_core_identity_from_the_table_not_the_host(void **state)
{
	static const struct {
		int line;
		const char *name, *desc;
		int table_fixed;
		bool core;
		const char *vendor; /* NULL: no port knows it */
		unsigned nfixed;
		bool ref_cycles, own_rules; /* own_rules: not the host's (place != NULL) */
	} rows[] = {
		{ __LINE__, "hsw", "Intel Haswell", 3, true, "Intel", 3, true, true },
		{ __LINE__, "icl", "Intel Icelake", 4, true, "Intel", 4, true, true },
		{ __LINE__, "spr", "Intel SapphireRapid", 4, true, "Intel", 4, true, true },
		{ __LINE__, "adl_glc", "Intel AlderLake GoldenCove (P-Core)", 4, true, "Intel", 4, true, true },
		{ __LINE__, "knc", "Intel Knights Corner", 0, true, "Intel", 0, false, true },
		{ __LINE__, "ix86arch", "Intel X86 architectural PMU", 0, true, "Intel", 0, false, true },
		{ __LINE__, "amd64_fam19h_zen3", "AMD64 Fam19h Zen3", 0, true, "AMD", 0, false, true },
		{ __LINE__, "amd64_fam17h_zen2", "AMD64 Fam17h Zen2", 0, true, "AMD", 0, false, true },
		{ __LINE__, "netburst", "Pentium4", 0, true, NULL, 0, false, false },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, true, "Arm", 0, false, true },
		{ __LINE__, "arm_n1", "ARM Neoverse N1", 0, true, "Arm", 0, false, true },
		{ __LINE__, "arm_kunpeng", "Hisilicon Kunpeng", 1, true, "Arm", 0, false, true },
		{ __LINE__, "riscv_sifive_u74", "RISC-V SiFive U74", 2, true, NULL, 0, false, false },
		{ __LINE__, "cpum_cf", "CPU-measurement counter facility", 160, true, NULL, 0, false, false },
		{ __LINE__, "perf", "perf_events generic PMU", 0, false, NULL, 0, false, false },
		{ __LINE__, "perf_raw", "perf_events raw PMU", 0, false, NULL, 0, false, false },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_arch_core_id id;
		bool core;

		memset(&id, 0x5a, sizeof(id));
		core = pmc_arch_pfm_core(rows[i].name, rows[i].desc, rows[i].table_fixed, &id);
		if (core != rows[i].core)
			fail_msg("line %d: %s is%s a core PMU, expected%s", rows[i].line, rows[i].name, core ? "" : " not",
				 rows[i].core ? "" : " not");
		if (!core)
			continue;
		if ((id.vendor == NULL) != (rows[i].vendor == NULL) ||
		    (id.vendor && strcmp(id.vendor, rows[i].vendor)))
			fail_msg("line %d: %s vendor %s, expected %s", rows[i].line, rows[i].name,
				 id.vendor ? id.vendor : "(none)", rows[i].vendor ? rows[i].vendor : "(none)");
		if (id.nfixed != rows[i].nfixed || id.ref_cycles != rows[i].ref_cycles ||
		    (id.place != NULL) != rows[i].own_rules)
			fail_msg("line %d: %s: %u fixed, ref-cycles %d, own rules %d; expected %u %d %d", rows[i].line,
				 rows[i].name, id.nfixed, id.ref_cycles, id.place != NULL, rows[i].nfixed,
				 rows[i].ref_cycles, rows[i].own_rules);
	}
}

/* A forced PMU's name -> its identity -> where its rules put generic events and raw encodings, with the fixed counters
 * that identity has. Intel's indexes come from the table (cycles 1, instructions 0, ref-cycles 2 and only there,
 * 0xc0 on 0, 0x0300 on 2); AMD has none; Arm's cycle counter takes cycles and 0x11 (planned as 1). */
static void test_forced_pmu_names_place_events_by_their_identity(void **state)
{
	static const struct {
		int line;
		const char *name, *desc;
		int table_fixed;
		struct perf_event_attr a;
		int index;
		bool only;
	} rows[] = {
		{ __LINE__, "hsw", "Intel Haswell", 3, HW(PERF_COUNT_HW_CPU_CYCLES), 1, false },
		{ __LINE__, "hsw", "Intel Haswell", 3, HW(PERF_COUNT_HW_INSTRUCTIONS), 0, false },
		{ __LINE__, "hsw", "Intel Haswell", 3, HW(PERF_COUNT_HW_REF_CPU_CYCLES), 2, true },
		{ __LINE__, "hsw", "Intel Haswell", 3, HW(PERF_COUNT_HW_BRANCH_INSTRUCTIONS), -1, false },
		{ __LINE__, "hsw", "Intel Haswell", 3, HW(PERF_COUNT_HW_CACHE_MISSES), -1, false },
		{ __LINE__, "hsw", "Intel Haswell", 3, RAW(0xc0), 0, false },
		{ __LINE__, "hsw", "Intel Haswell", 3, RAW(0x3c), 1, false },
		{ __LINE__, "hsw", "Intel Haswell", 3, RAW(0x0300), 2, true },
		{ __LINE__, "hsw", "Intel Haswell", 3, RAW(0x11), -1, false },
		{ __LINE__, "icl", "Intel Icelake", 4, RAW(0x0400), 3, true },
		{ __LINE__, "icl", "Intel Icelake", 4, HW(PERF_COUNT_HW_REF_CPU_CYCLES), 2, true },
		{ __LINE__, "knc", "Intel Knights Corner", 0, HW(PERF_COUNT_HW_CPU_CYCLES), -1, false },
		{ __LINE__, "amd64_fam19h_zen3", "AMD64 Fam19h Zen3", 0, HW(PERF_COUNT_HW_CPU_CYCLES), -1, false },
		{ __LINE__, "amd64_fam19h_zen3", "AMD64 Fam19h Zen3", 0, HW(PERF_COUNT_HW_INSTRUCTIONS), -1, false },
		{ __LINE__, "amd64_fam19h_zen3", "AMD64 Fam19h Zen3", 0, RAW(0xc0), -1, false },
		{ __LINE__, "amd64_fam19h_zen3", "AMD64 Fam19h Zen3", 0, RAW(0x0300), -1, false },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, HW(PERF_COUNT_HW_CPU_CYCLES), 1, false },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, HW(PERF_COUNT_HW_INSTRUCTIONS), -1, false },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, RAW(0x11), 1, false },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, RAW(0x08), -1, false },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, RAW(0xc0), -1, false },
		{ __LINE__, "arm_kunpeng", "Hisilicon Kunpeng", 1, HW(PERF_COUNT_HW_INSTRUCTIONS), -1, false },
		{ __LINE__, "arm_kunpeng", "Hisilicon Kunpeng", 1, RAW(0x11), 1, false },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_arch_core_id id;
		struct pmc_arch_placement pl;
		int v;

		if (!pmc_arch_pfm_core(rows[i].name, rows[i].desc, rows[i].table_fixed, &id) || !id.place)
			fail_msg("line %d: %s has no rules of its own", rows[i].line, rows[i].name);
		v = id.place(&rows[i].a, id.nfixed, "", &pl, NULL, 0);
		if (v != 0 || pl.fixed_index != rows[i].index || pl.fixed_only != rows[i].only)
			fail_msg("line %d: %s type %u config %#llx: verdict %d, counter %d, only %d; expected 0 %d %d",
				 rows[i].line, rows[i].name, rows[i].a.type, (unsigned long long)rows[i].a.config, v,
				 pl.fixed_index, pl.fixed_only, rows[i].index, rows[i].only);
	}
}

/* A forced PMU's generic event map comes from its identity too: ref-cycles is missing on AMD and Arm tables, with a
 * reason that names the table, present on Intel's; other generic events are never missing. */
static void test_forced_pmu_names_say_which_generic_events_they_lack(void **state)
{
	static const struct {
		int line;
		const char *name, *desc;
		int table_fixed;
		uint64_t id;
		int missing;
		const char *why; /* part of the reason */
	} rows[] = {
		{ __LINE__, "hsw", "Intel Haswell", 3, PERF_COUNT_HW_REF_CPU_CYCLES, 0, NULL },
		{ __LINE__, "knc", "Intel Knights Corner", 0, PERF_COUNT_HW_REF_CPU_CYCLES, 1, "the core PMU knc" },
		{ __LINE__, "amd64_fam19h_zen3", "AMD64 Fam19h Zen3", 0, PERF_COUNT_HW_REF_CPU_CYCLES, 1,
		  "Intel's fixed counter 2 (reference cycles at the TSC rate), which the core PMU amd64_fam19h_zen3 does "
		  "not have" },
		{ __LINE__, "amd64_fam19h_zen3", "AMD64 Fam19h Zen3", 0, PERF_COUNT_HW_CPU_CYCLES, 0, NULL },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, PERF_COUNT_HW_REF_CPU_CYCLES, 1,
		  "the arm64 core PMU arm_ac57 has no reference-cycles event" },
		{ __LINE__, "arm_ac57", "ARM Cortex A57", 0, PERF_COUNT_HW_INSTRUCTIONS, 0, NULL },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_arch_core_id id;
		char why[600] = "";
		int v;

		if (!pmc_arch_pfm_core(rows[i].name, rows[i].desc, rows[i].table_fixed, &id) || !id.missing)
			fail_msg("line %d: %s has no generic event map of its own", rows[i].line, rows[i].name);
		v = id.missing(rows[i].id, id.ref_cycles, rows[i].name, why, sizeof(why));
		if (v != rows[i].missing || (rows[i].why && !strstr(why, rows[i].why)))
			fail_msg("line %d: %s event %llu: %d '%s'; expected %d '%s'", rows[i].line, rows[i].name,
				 (unsigned long long)rows[i].id, v, why, rows[i].missing, rows[i].why ? rows[i].why : "");
	}
}

/* This CPU's identity (no forced PMU) is the host's own hooks: its fixed counters are pmc_arch_fixed_counters, its
 * rules place a generic event as pmc_arch_core_placement does, and only a PMU with fixed counters or a CPU the port
 * says has them has ref-cycles without a kernel PMU to ask. */
static void test_cpu_core_identity_agrees_with_the_host_hooks(void **state)
{
	static const struct perf_event_attr attrs[] = {
		HW(PERF_COUNT_HW_CPU_CYCLES), HW(PERF_COUNT_HW_INSTRUCTIONS), HW(PERF_COUNT_HW_REF_CPU_CYCLES),
		HW(PERF_COUNT_HW_BRANCH_MISSES), RAW(0xc0), RAW(0x11), RAW(0x0300),
	};
	struct pmc_arch_core_id id;

	(void)state;
	pmc_arch_cpu_core(&id);
	assert_int_equal(id.nfixed, pmc_arch_fixed_counters());
	for (size_t i = 0; i < PMC_ARRAY_SIZE(attrs); i++) {
		struct pmc_arch_placement a, b;
		int va = pmc_arch_core_placement(&attrs[i], id.nfixed, "", &a, NULL, 0);
		int vb = (id.place ? id.place : pmc_arch_core_placement)(&attrs[i], id.nfixed, "", &b, NULL, 0);

		if (va != vb || a.fixed_index != b.fixed_index || a.fixed_only != b.fixed_only)
			fail_msg("attr %zu: the identity's rules say %d/%d/%d, the host's %d/%d/%d", i, vb, b.fixed_index,
				 b.fixed_only, va, a.fixed_index, a.fixed_only);
	}
	if (id.nfixed)
		assert_true(id.ref_cycles);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pfm_core_identity_from_the_table_not_the_host),
		cmocka_unit_test(test_forced_pmu_names_place_events_by_their_identity),
		cmocka_unit_test(test_forced_pmu_names_say_which_generic_events_they_lack),
		cmocka_unit_test(test_cpu_core_identity_agrees_with_the_host_hooks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
