/* SPDX-License-Identifier: MIT */
/* x86-64 hooks: CPUID identity, the TSC's rate, RDPMC, ISA features from CPUID and XCR0. */
#include "arch/arch.h"

#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "arch/common.h"
#include "arch/x86_64/budget.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/fixed.h"
#include "arch/x86_64/group.h"
#include "arch/x86_64/tsc.h"
#include "sys/perf_time.h"
#include "sys/sysfs.h"

const char *pmc_arch_name(void)
{
	return "x86_64";
}

int pmc_arch_tables_cpuid(char *buf, size_t len, const char **ret_from)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU"), *id;
	struct pmc_arch_cpu cpu;

	*ret_from = NULL;
	if (forced && *forced) {
		if (!(id = pmc_x86_forced_cpuid(forced)))
			return -ENOENT;
		*ret_from = "LIBPFM_FORCE_PMU";
		snprintf(buf, len, "%s", id);
		return 0;
	}
	pmc_arch_cpu_identify(&cpu);
	if (!cpu.vendor[0] || !cpu.family)
		return -ENOENT;
	*ret_from = "cpuid";
	snprintf(buf, len, "%s-%u-%X-%X", cpu.vendor, cpu.family, cpu.model, cpu.stepping);
	return 0;
}

void pmc_arch_cpu_identify(struct pmc_arch_cpu *ret)
{
	static struct pmc_arch_cpu cpu;
	static bool done;

	if (!done) {
		struct pmc_cpu_id id;
		struct pmc_arch_perfmon arch;
		struct pmc_amd_perfmon amd;
		bool has_arch, has_amd;

		pmc_cpuid_read(&id, &arch, &has_arch, &amd, &has_amd);
		snprintf(cpu.vendor, sizeof(cpu.vendor), "%s", id.vendor_str);
		cpu.family = id.family;
		cpu.model = id.model;
		cpu.stepping = id.stepping;
		cpu.hypervisor = id.hypervisor;
		cpu.source = id.max_leaf ? "cpuid" : NULL;
		if (pmc_arch_cpuinfo_field(NULL, "model name", cpu.name, sizeof(cpu.name)))
			snprintf(cpu.name, sizeof(cpu.name), "%s family %u model %u", id.vendor_str, id.family,
				 id.model);
		done = true;
	}
	*ret = cpu;
}

const char *pmc_arch_cpu_pfm_model(void)
{
	static char name[32];
	struct pmc_arch_cpu cpu;
	const char *pfm;

	if (!name[0]) {
		pmc_arch_cpu_identify(&cpu); /* CPUID once, cached */
		pfm = pmc_x86_amd_zen_pfm(cpu.vendor, cpu.family, cpu.model);
		snprintf(name, sizeof(name), "%s", pfm ? pfm : "-");
	}
	return name[0] == '-' ? NULL : name;
}

const char *pmc_arch_timer_name(void)
{
	return "TSC";
}

const char *pmc_arch_timer_how(void)
{
	return "lfence; rdtsc";
}

const char *pmc_arch_user_read_name(void)
{
	return "RDPMC";
}

static int from_cpuid(double *ret_hz)
{
	struct pmc_cpuid_regs r;

	if (!pmc_cpuid(0x15, 0, &r))
		return -ENODATA;
	return pmc_tsc_from_cpuid15(r.eax, r.ebx, r.ecx, ret_hz);
}

static int from_cpuinfo(double *ret_hz)
{
	char name[256];
	int rc = pmc_arch_cpuinfo_field(NULL, "model name", name, sizeof(name));

	return rc ? rc : pmc_tsc_from_model_name(name, ret_hz);
}

static int from_kernel(double *ret_hz)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cpufreq", pmc_sysfs_root());
	return pmc_tsc_from_kernel_cpuinfo("/proc/cpuinfo", access(path, F_OK) == 0, ret_hz);
}

static uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* 100 ms between two (rdtsc, clock) pairs: enough for ~1e-5 relative error with a ~1 us clock read. */
static int from_calibration(double *ret_hz)
{
	const struct timespec nap = { 0, 100000000 };
	uint64_t t0 = raw_ns(), c0 = pmc_rdtsc(), t1, c1;

	nanosleep(&nap, NULL);
	c1 = pmc_rdtsc();
	t1 = raw_ns();
	if (t1 <= t0 || c1 <= c0)
		return -ENODEV;
	*ret_hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
	return 0;
}

int pmc_arch_timer_hz(double *ret_hz, const char **ret_source)
{
	static double hz;
	static const char *source;

	if (!source) {
		if (!from_cpuid(&hz))
			source = "cpuid-0x15";
		else if (!pmc_tsc_from_perf_page(&hz))
			source = "perf-mmap";
		else if (!from_kernel(&hz))
			source = "kernel-tsc-known-freq";
		else if (!from_cpuinfo(&hz))
			source = "cpuinfo-model-name";
		else if (!from_calibration(&hz))
			source = "calibration";
	}
	if (!source)
		return -ENODEV;
	*ret_hz = hz;
	if (ret_source)
		*ret_source = source;
	return 0;
}

int pmc_arch_tsc_hz(double *ret_hz, const char **ret_source)
{
	return pmc_arch_timer_hz(ret_hz, ret_source);
}

/* CPUID 0x16 EAX: the nominal (base) frequency in MHz, where the CPU reports it. */
int pmc_arch_base_hz(double *ret_hz)
{
	struct pmc_cpuid_regs r;

	if (!pmc_cpuid(0x16, 0, &r) || !(r.eax & 0xffff))
		return -ENODEV;
	*ret_hz = (double)(r.eax & 0xffff) * 1e6;
	return 0;
}

/* CPUID 0xA on an Intel CPU (EDX[4:0], or the v5 bitmap): the live count. */
unsigned pmc_arch_fixed_counters(void)
{
	struct pmc_cpu_id id;
	struct pmc_arch_perfmon arch;
	struct pmc_amd_perfmon amd;
	bool has_arch, has_amd;

	pmc_cpuid_read(&id, &arch, &has_arch, &amd, &has_amd);
	if (id.vendor != PMC_VENDOR_INTEL || !has_arch || arch.version < 2)
		return 0;
	return arch.fixed_counters;
}

size_t pmc_arch_describe(struct pmc_arch_fact *ret, size_t max)
{
	struct pmc_x86_cpu_facts in = { .arch_name = pmc_arch_name() };
	struct pmc_arch_cpu cpu;
	char model_name[128];

	pmc_cpuid_read(&in.id, &in.arch, &in.has_arch, &in.amd, &in.has_amd);
	pmc_arch_cpu_identify(&cpu);
	if (pmc_arch_cpuinfo_field(NULL, "model name", model_name, sizeof(model_name)))
		model_name[0] = '\0';
	if (!in.id.max_leaf)
		return pmc_arch_describe_midr(&cpu, model_name, ret, max);
	in.model_name = model_name;
	in.name = cpu.name;
	return pmc_x86_describe(&in, ret, max);
}

int pmc_arch_user_read_blocked(char *why, size_t whylen)
{
	char dir[512], path[600];
	long v;

	if (why && whylen)
		why[0] = '\0';
	if (pmc_arch_core_pmu_dir(dir, sizeof(dir))) {
		if (why)
			snprintf(why, whylen, "no kernel core PMU: no hardware counter to read");
		return -ENODEV;
	}
	snprintf(path, sizeof(path), "%s/rdpmc", dir);
	if (!pmc_sysfs_read_long(path, &v) && v == 0) {
		if (why)
			snprintf(why, whylen, "%s is 0: RDPMC is refused in user space (1 allows it for mmapped events; "
				 "pmctool does not change it)", path);
		return -EPERM;
	}
	return 0;
}

static const char *const core_names[] = { "cpu", "cpu_core", "cpu_atom" };

bool pmc_arch_core_pmu(const char *name, const char *dir)
{
	for (size_t i = 0; i < sizeof(core_names) / sizeof(core_names[0]); i++)
		if (!strcasecmp(name, core_names[i]))
			return true;
	return pmc_arch_pmu_dir_is_core(dir);
}

int pmc_arch_core_pmu_dir(char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(core_names) / sizeof(core_names[0]); i++)
		if (!pmc_arch_pmu_dir(core_names[i], buf, len))
			return 0;
	return pmc_arch_core_pmu_scan(buf, len);
}

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

int pmc_arch_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len)
{
	struct pmc_arch_cpu cpu;
	char who[96];

	if (pmu || id != PERF_COUNT_HW_REF_CPU_CYCLES || ref_cycles)
		return pmc_x86_hw_event_missing(id, ref_cycles, pmu, why, len);
	pmc_arch_cpu_identify(&cpu);
	snprintf(who, sizeof(who), "this CPU (%s)", cpu.vendor[0] ? cpu.vendor : "not Intel");
	return pmc_x86_ref_cycles_missing(who, why, len);
}

int pmc_arch_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			    struct pmc_arch_placement *ret, char *why, size_t len)
{
	return pmc_x86_core_placement(a, nfixed, name, ret, why, len);
}

/* CPUID's vendor: Intel's fixed counters as CPUID 0xA reports them live, and its ref-cycles; AMD neither. */
void pmc_arch_cpu_core(struct pmc_arch_core_id *ret)
{
	struct pmc_cpu_id id;
	struct pmc_arch_perfmon arch;
	struct pmc_amd_perfmon amd;
	bool has_arch, has_amd;

	pmc_cpuid_read(&id, &arch, &has_arch, &amd, &has_amd);
	*ret = (struct pmc_arch_core_id){ .nfixed = pmc_arch_fixed_counters(), .place = pmc_x86_core_placement,
					  .missing = pmc_arch_hw_event_missing };
	ret->vendor = id.vendor == PMC_VENDOR_INTEL ? "Intel" : id.vendor == PMC_VENDOR_AMD ? "AMD" : NULL;
	ret->ref_cycles = id.vendor == PMC_VENDOR_INTEL;
	ret->alias = id.vendor == PMC_VENDOR_INTEL ? pmc_x86_intel_alias : NULL;
}

/* Intel's hybrid parts: the core PMU directories in the order perf lists them, with libpfm4's tables of the core types
 * (libpfm4 newer than 4.13). */
static const struct pmc_arch_hybrid hybrid_types[] = {
	{ "cpu_atom", "adl_grt", "E-core" },
	{ "cpu_core", "adl_glc", "P-core" },
};

size_t pmc_arch_hybrid_pmus(const struct pmc_arch_hybrid **ret)
{
	*ret = hybrid_types;
	return sizeof(hybrid_types) / sizeof(hybrid_types[0]);
}

bool pmc_arch_budget_from_kernel(void)
{
	return false;
}

int pmc_arch_counter_budget(const struct pmc_budget_facts *f, unsigned *ret_n, char *why, size_t whylen)
{
	struct pmc_cpu_id id;
	struct pmc_arch_perfmon arch;
	struct pmc_amd_perfmon amd;
	bool has_arch, has_amd;
	struct pmc_budget_input in;

	pmc_cpuid_read(&id, &arch, &has_arch, &amd, &has_amd);
	in = (struct pmc_budget_input){ .vendor = id.vendor, .family = id.family, .model = id.model,
					.has_kernel_pmu = f->has_kernel_pmu, .smt_active = f->smt_active,
					.nmi_watchdog = f->nmi_watchdog, .tsx_force_abort = f->tsx_force_abort };
	if (has_arch)
		in.cpuid_gp = arch.gp_counters;
	else if (has_amd)
		in.cpuid_gp = amd.core_counters;
	in.amd_v2 = has_amd && amd.perfmon_v2 && amd.v2_core_counters;
	/* libpfm4's static table only where CPUID gives no live count: starting it costs ~0.5 ms and 1 MiB. */
	if (!in.cpuid_gp && f->table_gp)
		in.table_gp = f->table_gp();
	return pmc_counter_budget(&in, ret_n, why, whylen);
}

unsigned pmc_arch_isa_have(void)
{
	unsigned a, b, c, d, have = 0;
	uint64_t xcr0 = 0;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	/* The OS must save the wider registers (XCR0) or using them faults even when CPUID lists them. */
	if (c & bit_OSXSAVE)
		xcr0 = xgetbv0();
	bool ymm_os = (xcr0 & 0x6) == 0x6, zmm_os = (xcr0 & 0xe6) == 0xe6;
	if ((c & bit_AVX) && ymm_os)
		have |= PMC_ISA_AVX;
	if ((c & bit_FMA) && ymm_os)
		have |= PMC_ISA_FMA;
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		if ((b & bit_AVX2) && ymm_os)
			have |= PMC_ISA_AVX2;
		if ((b & bit_AVX512F) && zmm_os)
			have |= PMC_ISA_AVX512F;
	}
	return have;
}

const char *pmc_arch_isa_baseline(void)
{
	return "x86-64 (SSE2)";
}

/* The counter set's group rule: Intel's slots leads, the top-down metrics follow it (arch/x86_64/group.c). */
unsigned pmc_arch_group_rule(const struct perf_event_attr *a)
{
	struct pmc_arch_cpu cpu;

	const char *forced = getenv("LIBPFM_FORCE_PMU");

	/* the PMU in use decides: a forced libpfm4 PMU's vendor (every AMD table is amd64_*), else this CPU's */
	if (forced && *forced)
		return pmc_x86_group_rule(a, strncmp(forced, "amd64", 5) != 0);
	pmc_arch_cpu_identify(&cpu); /* CPUID once, cached */
	return pmc_x86_group_rule(a, !strcmp(cpu.vendor, "GenuineIntel"));
}
