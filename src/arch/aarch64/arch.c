/* SPDX-License-Identifier: MIT */
/* AArch64 hooks: MIDR identity, CNTVCT_EL0 at CNTFRQ_EL0, PMU user access (kernel.perf_user_access and the core PMU's
 * `rdpmc` format term), the NEON kernels. */
#include "arch/arch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/aarch64/arm64.h"
#include "arch/common.h"
#include "sys/sysfs.h"

const char *pmc_arch_name(void)
{
	return "aarch64";
}

/* perf's arm64 CPUID: the MIDR with its variant (23-20) and revision (3-0) cleared, as 16 hex digits. A forced
 * libpfm4 PMU maps to no MIDR yet (PMCTOOL_CPUID names one). */
int pmc_arch_tables_cpuid(char *buf, size_t len, const char **ret_from)
{
	struct pmc_arch_cpu cpu;

	*ret_from = NULL;
	pmc_arch_cpu_identify(&cpu);
	if (!cpu.midr)
		return -ENOENT;
	*ret_from = "midr_el1";
	snprintf(buf, len, "0x%016llx", (unsigned long long)(cpu.midr & ~0x00f0000fu));
	return 0;
}

void pmc_arch_cpu_identify(struct pmc_arch_cpu *ret)
{
	static struct pmc_arch_cpu cpu;
	static bool done;

	if (!done) {
		struct pmc_arm64_midr m;
		uint32_t midr;

		if (!pmc_arm64_midr_read(&midr, &cpu.source)) {
			const char *impl;

			pmc_arm64_midr_decode(midr, &m);
			impl = pmc_arm64_implementer_name(m.implementer);
			cpu.midr = midr;
			cpu.implementer = m.implementer;
			cpu.variant = m.variant;
			cpu.part = m.part;
			cpu.revision = m.revision;
			if (impl)
				snprintf(cpu.vendor, sizeof(cpu.vendor), "%s", impl);
			else
				snprintf(cpu.vendor, sizeof(cpu.vendor), "implementer %#x", m.implementer);
			pmc_arm64_cpu_name(&m, cpu.name, sizeof(cpu.name));
		} else {
			cpu.source = NULL;
		}
		done = true;
	}
	*ret = cpu;
}

const char *pmc_arch_timer_name(void)
{
	return "CNTVCT";
}

const char *pmc_arch_timer_how(void)
{
	return "isb; mrs CNTVCT_EL0";
}

int pmc_arch_timer_hz(double *ret_hz, const char **ret_source)
{
	uint64_t f;

	__asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
	if (!f)
		return -ENODEV;
	*ret_hz = (double)f;
	if (ret_source)
		*ret_source = "CNTFRQ_EL0";
	return 0;
}

const char *pmc_arch_user_read_name(void)
{
	return "mrs PMEVCNTR<n>_EL0/PMCCNTR_EL0";
}

bool pmc_arch_core_pmu(const char *name, const char *dir)
{
	return pmc_arm64_core_pmu_name(name) || pmc_arch_pmu_dir_is_core(dir);
}

int pmc_arch_core_pmu_dir(char *buf, size_t len)
{
	return pmc_arm64_core_pmu_dir(buf, len);
}

/* The core PMU's type and its rdpmc term, learnt once. */
static struct {
	bool done;
	long type;       /* -1 unknown */
	int field;       /* -1: no rdpmc term */
	uint64_t mask;
} core;

static void core_learn(void)
{
	char dir[512], path[600];

	if (core.done)
		return;
	core.done = true;
	core.type = -1;
	core.field = -1;
	if (pmc_arm64_core_pmu_dir(dir, sizeof(dir)))
		return;
	snprintf(path, sizeof(path), "%s/type", dir);
	if (pmc_sysfs_read_long(path, &core.type))
		core.type = -1;
	if (pmc_arm64_rdpmc_term(dir, &core.field, &core.mask))
		core.field = -1;
}

void pmc_arch_selfread_attr(struct perf_event_attr *attr)
{
	bool on_core;

	core_learn();
	on_core = attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE || attr->type == PERF_TYPE_RAW ||
		  (core.type >= 0 && attr->type == (uint32_t)core.type);
	if (!on_core || core.field < 0)
		return;
	if (core.field == 1)
		attr->config1 |= core.mask;
	else if (core.field == 2)
		attr->config2 |= core.mask;
	else
		attr->config |= core.mask;
}

int pmc_arch_user_read_blocked(char *why, size_t whylen)
{
	int access = pmc_arm64_user_access();
	char dir[512];

	if (why && whylen)
		why[0] = '\0';
	if (pmc_arm64_core_pmu_dir(dir, sizeof(dir))) {
		if (why)
			snprintf(why, whylen, "no kernel core PMU (armv8_pmuv3): no hardware counter to read");
		return -ENODEV;
	}
	if (access == 0) {
		if (why)
			snprintf(why, whylen, "sysctl kernel.perf_user_access is 0: the kernel refuses user-space counter "
				 "reads (the page says index 0); to allow them, as root: sysctl -w kernel.perf_user_access=1 "
				 "(pmctool never changes it)");
		return -EPERM;
	}
	core_learn();
	if (access < 0 || core.field < 0) {
		if (why)
			snprintf(why, whylen, "this kernel has no user-space counter reads for arm64 (needs Linux 5.17+: "
				 "kernel.perf_user_access and the PMU's rdpmc format term)");
		return -EOPNOTSUPP;
	}
	return 0;
}

int pmc_arch_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len)
{
	return pmc_arm64_hw_event_missing(id, ref_cycles, pmu, why, len);
}

int pmc_arch_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			    struct pmc_arch_placement *ret, char *why, size_t len)
{
	return pmc_arm64_core_placement(a, nfixed, name, ret, why, len);
}

bool pmc_arch_budget_from_kernel(void)
{
	return true;
}

const char *pmc_arch_extra_counters(void)
{
	return "the cycle counter (PMCCNTR_EL0: cycles only)";
}

unsigned pmc_arch_isa_have(void)
{
	return 0;
}

const char *pmc_arch_isa_baseline(void)
{
	return "AArch64 (NEON)";
}
