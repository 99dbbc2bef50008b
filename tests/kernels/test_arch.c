/* SPDX-License-Identifier: MIT */
/* The architecture seam's pure parts, on any machine: arm64 MIDR decoding and names, the MIDR from sysfs or
 * /proc/cpuinfo text, the core PMU and its `rdpmc` format term in a sysfs fixture (PMCTOOL_SYSFS_ROOT, built here in
 * a temporary directory), the page index -> register map, and the counter budget learnt with an injected opener. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "arch/aarch64/arm64.h"
#include "arch/aarch64/layout.h"
#include "arch/arch.h"
#include "info/inventory.h"

static char root[PATH_MAX];

/* Write text to root/rel, creating the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int make_root(void **state)
{
	snprintf(root, sizeof(root), "%s/pmctool-arch-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	return 0;
}

static int drop_root(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	unsetenv("PMCTOOL_SYSFS_ROOT");
	return 0;
}

static void test_arm64_midr_decodes_fields_and_names(void **state)
{
	static const struct {
		int line;
		uint32_t midr;
		unsigned impl, var, part, rev;
		const char *name;
	} rows[] = {
		{ __LINE__, 0x411fd070, 0x41, 1, 0xd07, 0, "ARM Cortex-A57 (r1p0)" },   /* QEMU -cpu cortex-a57 */
		{ __LINE__, 0x413fd0c1, 0x41, 3, 0xd0c, 1, "ARM Neoverse-N1 (r3p1)" },  /* Graviton 2, Ampere Altra */
		{ __LINE__, 0x411fd401, 0x41, 1, 0xd40, 1, "ARM Neoverse-V1 (r1p1)" },  /* Graviton 3 */
		{ __LINE__, 0x410fd4f0, 0x41, 0, 0xd4f, 0, "ARM Neoverse-V2 (r0p0)" },  /* Grace, Graviton 4 */
		{ __LINE__, 0xc00fac30, 0xc0, 0, 0xac3, 0, "Ampere AmpereOne (r0p0)" },
		{ __LINE__, 0x410f0000, 0x41, 0, 0x000, 0, "ARM part 0 (r0p0)" },
		{ __LINE__, 0x990f1230, 0x99, 0, 0x123, 0, "implementer 0x99 part 0x123 (r0p0)" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_arm64_midr m;
		char buf[96];

		pmc_arm64_midr_decode(rows[i].midr, &m);
		if (m.implementer != rows[i].impl || m.variant != rows[i].var || m.part != rows[i].part ||
		    m.revision != rows[i].rev || m.architecture != 0xf)
			fail_msg("row at line %d: fields %#x %u %#x %u", rows[i].line, m.implementer, m.variant, m.part,
				 m.revision);
		if (strcmp(pmc_arm64_cpu_name(&m, buf, sizeof(buf)), rows[i].name))
			fail_msg("row at line %d: name '%s', want '%s'", rows[i].line, buf, rows[i].name);
	}
}

static void test_arm64_midr_from_cpuinfo_text_and_sysfs_midr_el1_first(void **state)
{
	char path[PATH_MAX * 2];
	const char *src = NULL;
	uint32_t midr = 0;

	put("cpuinfo", "processor\t: 0\nBogoMIPS\t: 125.00\nFeatures\t: fp asimd evtstrm cpuid\n"
		       "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x1\nCPU part\t: 0xd07\n"
		       "CPU revision\t: 0\n\nprocessor\t: 1\nCPU implementer\t: 0x51\nCPU part\t: 0x801\n");
	snprintf(path, sizeof(path), "%s/cpuinfo", root);
	assert_int_equal(pmc_arm64_midr_from_cpuinfo(path, &midr), 0);
	assert_int_equal(midr, 0x411fd070); /* the first CPU listed */
	put("x86info", "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\n");
	snprintf(path, sizeof(path), "%s/x86info", root);
	assert_int_equal(pmc_arm64_midr_from_cpuinfo(path, &midr), -ENOENT);
	/* sysfs midr_el1 wins over /proc/cpuinfo: it is the register itself. */
	put("devices/system/cpu/cpu0/regs/identification/midr_el1", "0x00000000413fd0c1\n");
	assert_int_equal(pmc_arm64_midr_read(&midr, &src), 0);
	assert_int_equal(midr, 0x413fd0c1);
	assert_string_equal(src, "midr_el1 (sysfs)");
}

static void test_arm64_core_pmu_by_name_then_by_shape_from_sysfs_fixture(void **state)
{
	char dir[PATH_MAX + 64];

	put("bus/event_source/devices/software/type", "1\n");
	put("bus/event_source/devices/breakpoint/type", "5\n");
	assert_int_equal(pmc_arm64_core_pmu_dir(dir, sizeof(dir)), -ENODEV);
	/* A big.LITTLE-style name: found by its shape (cpus, format/event, events/). */
	put("bus/event_source/devices/armv8_cortex_a72/type", "9\n");
	put("bus/event_source/devices/armv8_cortex_a72/cpus", "4-5\n");
	put("bus/event_source/devices/armv8_cortex_a72/format/event", "config:0-15\n");
	put("bus/event_source/devices/armv8_cortex_a72/events/inst_retired", "event=0x0008\n");
	assert_int_equal(pmc_arm64_core_pmu_dir(dir, sizeof(dir)), 0);
	assert_non_null(strstr(dir, "/armv8_cortex_a72"));
	/* armv8_pmuv3* first, whatever the order. */
	put("bus/event_source/devices/armv8_pmuv3_0/type", "8\n");
	assert_int_equal(pmc_arm64_core_pmu_dir(dir, sizeof(dir)), 0);
	assert_non_null(strstr(dir, "/armv8_pmuv3_0"));
}

static void test_arm64_rdpmc_term_read_from_sysfs_format_never_hard_coded(void **state)
{
	static const struct {
		int line;
		const char *text;
		int rc, field;
		uint64_t mask;
	} rows[] = {
		{ __LINE__, "config1:1\n", 0, 1, 0x2 },   /* Linux 5.17+ */
		{ __LINE__, "config1:3\n", 0, 1, 0x8 },   /* a different kernel: follow the file */
		{ __LINE__, "config2:0\n", 0, 2, 0x1 },
		{ __LINE__, "config1:\n", -EINVAL, 0, 0 },
		{ __LINE__, "bogus\n", -EINVAL, 0, 0 },
	};
	char dir[PATH_MAX + 64];
	int field;
	uint64_t mask;

	snprintf(dir, sizeof(dir), "%s/bus/event_source/devices/armv8_pmuv3_0", root);
	put("bus/event_source/devices/armv8_pmuv3_0/type", "8\n");
	assert_int_equal(pmc_arm64_rdpmc_term(dir, &field, &mask), -ENOENT); /* a kernel before 5.17 */
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int rc;

		put("bus/event_source/devices/armv8_pmuv3_0/format/rdpmc", rows[i].text);
		field = -1;
		mask = 0;
		rc = pmc_arm64_rdpmc_term(dir, &field, &mask);
		if (rc != rows[i].rc || (!rc && (field != rows[i].field || mask != rows[i].mask)))
			fail_msg("row at line %d: rc %d field %d mask %#llx", rows[i].line, rc, field,
				 (unsigned long long)mask);
	}
}

static void test_arm64_page_index_maps_to_pmevcntr_and_pmccntr(void **state)
{
	static const struct {
		uint32_t index;
		const char *reg;
	} rows[] = {
		{ 0, NULL }, { 1, "PMEVCNTR0_EL0" }, { 6, "PMEVCNTR5_EL0" }, { 31, "PMEVCNTR30_EL0" },
		{ 32, "PMCCNTR_EL0" }, { 33, NULL }, { (1u << 30) + 1, NULL },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got = pmc_arm64_counter_register(rows[i].index, buf, sizeof(buf));
		if (!rows[i].reg)
			assert_null(got);
		else
			assert_string_equal(got, rows[i].reg);
	}
}

/* The layouts libpmctool reads with one mrs a counter: the kernel's order on an idle PMU (cycles on the cycle counter,
 * index 32; the rest on event counters 0.. in order, index 1..), for up to 4 counters; anything else is -1 (the chain). */
static void test_arm64_direct_layout_only_for_the_idle_pmu_order(void **state)
{
	static const struct {
		int n;
		uint32_t index[6];
		int layout;
	} rows[] = {
		{ 4, { 1, 2, 3, 4 }, 0 },      { 4, { 32, 1, 2, 3 }, 1 },   { 4, { 1, 32, 2, 3 }, 2 },
		{ 4, { 1, 2, 32, 3 }, 3 },     { 4, { 1, 2, 3, 32 }, 4 },   { 1, { 1 }, 0 },
		{ 1, { 32 }, 1 },              { 2, { 32, 1 }, 1 },         { 3, { 1, 2, 32 }, 3 },
		{ 4, { 2, 3, 4, 5 }, -1 },     /* counter 0 taken by somebody else */
		{ 4, { 1, 3, 2, 4 }, -1 },     /* out of order (multiplexed, rescheduled) */
		{ 4, { 1, 32, 3, 4 }, -1 },    /* a hole */
		{ 2, { 32, 32 }, -1 },         { 2, { 2, 1 }, -1 },
		{ 5, { 1, 2, 3, 4, 5 }, -1 },  /* more than the copies take */
		{ 0, { 0 }, -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got = pmc_arm64_direct_layout(rows[i].index, rows[i].n);

		if (got != rows[i].layout)
			fail_msg("row %zu: layout %d, expected %d", i, got, rows[i].layout);
		for (int k = 0; got >= 0 && k < rows[i].n; k++)
			assert_int_equal(pmc_arm64_direct_index(got, k), rows[i].index[k]);
	}
}

#if defined(PMC_ARCH_X86_64)
/* x86's enter stores EDX:EAX as two halves (pmc_arch_reader_store, RDPMC): the same store of RDTSC must land between
 * two ordinary RDTSC reads, which it cannot with the halves swapped. */
static void test_x86_halves_store_is_the_64_bit_value(void **state)
{
	(void)state;
	for (int i = 0; i < 1000; i++) {
		uint64_t v = 0, t0 = pmc_rdtsc(), t1;

		pmc_rdtsc_store(&v);
		t1 = pmc_rdtsc();
		if (v < t0 || v > t1)
			fail_msg("stored %llu, not between %llu and %llu", (unsigned long long)v, (unsigned long long)t0,
				 (unsigned long long)t1);
	}
}
#endif

/* The injected opener: a real fd (of /dev/null, so closing it is harmless) until 'accept' members, then 'err'. */
static int accept_n, refuse_err, opened, bad_leader;

static int inj_open(struct perf_event_attr *attr, int group_fd)
{
	if (opened >= accept_n)
		return -refuse_err;
	/* The leader must be enabled (REFERENCE 11: a disabled leader lets one member too many in). */
	if (group_fd < 0 && attr->disabled)
		bad_leader = 1;
	if (!attr->exclude_kernel)
		bad_leader = 1;
	opened++;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void test_budget_learnt_from_kernel_with_injected_opener(void **state)
{
	char why[512];
	unsigned n = 0;

	accept_n = 6, refuse_err = EINVAL, opened = bad_leader = 0;
	assert_int_equal(pmc_budget_from_kernel(inj_open, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 6);
	assert_false(bad_leader);
	assert_non_null(strstr(why, "took 6, the next was refused"));
	accept_n = 0, refuse_err = ENOENT, opened = 0;
	assert_int_equal(pmc_budget_from_kernel(inj_open, &n, why, sizeof(why)), -ENODEV);
	assert_non_null(strstr(why, "refused even one"));
	accept_n = 1000, refuse_err = EINVAL, opened = 0;
	assert_int_equal(pmc_budget_from_kernel(inj_open, &n, why, sizeof(why)), 0);
	assert_int_equal(n, PMC_BUDGET_PROBE_MAX);
}

/* The region timer has an honest name: "TSC" only on x86-64. */
static void test_arch_timer_name_is_tsc_only_on_x86_64(void **state)
{
	const char *name = pmc_arch_timer_name();

	if (!strcmp(pmc_arch_name(), "x86_64"))
		assert_string_equal(name, "TSC");
	else
		assert_string_not_equal(name, "TSC");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm64_midr_decodes_fields_and_names),
		cmocka_unit_test_setup_teardown(test_arm64_midr_from_cpuinfo_text_and_sysfs_midr_el1_first, make_root,
						drop_root),
		cmocka_unit_test_setup_teardown(test_arm64_core_pmu_by_name_then_by_shape_from_sysfs_fixture, make_root,
						drop_root),
		cmocka_unit_test_setup_teardown(test_arm64_rdpmc_term_read_from_sysfs_format_never_hard_coded,
						make_root, drop_root),
		cmocka_unit_test(test_arm64_page_index_maps_to_pmevcntr_and_pmccntr),
		cmocka_unit_test(test_arm64_direct_layout_only_for_the_idle_pmu_order),
#if defined(PMC_ARCH_X86_64)
		cmocka_unit_test(test_x86_halves_store_is_the_64_bit_value),
#endif
		cmocka_unit_test(test_budget_learnt_from_kernel_with_injected_opener),
		cmocka_unit_test(test_arch_timer_name_is_tsc_only_on_x86_64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
