/* SPDX-License-Identifier: MIT */
/*
 * The default of every architecture hook but pmc_arch_name and pmc_arch_kernels, each __attribute__((weak)): what
 * pmctool does on an architecture it has no port for (read() only, no kernels, no in-process counter reads,
 * CLOCK_MONOTONIC_RAW as the region timer, the counter budget learnt from the kernel). arch/<name>/arch.c defines only what differs, and must
 * define pmc_arch_name (it has no default here): the linker pulls a static archive's member only for a symbol still
 * undefined, and a weak default pulled first would otherwise satisfy every hook of a port whose object was never
 * pulled. With pmc_arch_name undefined until arch.c is pulled, the port's strong definitions always win.
 * pmc_arch_kernels has no default for the same reason: a port defines it in kernels_table.c, another member of the
 * archive, which nothing else pulls (generic/arch.c defines it for a port without kernels).
 */
#include "arch/arch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/common.h"

#define PMC_WEAK __attribute__((weak))

PMC_WEAK void pmc_arch_cpu_identify(struct pmc_arch_cpu *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!pmc_arch_cpuinfo_field(NULL, "model name", ret->name, sizeof(ret->name)) ||
	    !pmc_arch_cpuinfo_field(NULL, "cpu model", ret->name, sizeof(ret->name)) ||
	    !pmc_arch_cpuinfo_field(NULL, "cpu", ret->name, sizeof(ret->name)))
		ret->source = "/proc/cpuinfo";
}

PMC_WEAK int pmc_arch_tables_cpuid(char *buf, size_t len, const char **ret_from)
{
	(void)buf, (void)len;
	if (ret_from)
		*ret_from = NULL;
	return -ENOENT;
}

PMC_WEAK const char *pmc_arch_timer_name(void)
{
	return "clock";
}

PMC_WEAK const char *pmc_arch_timer_how(void)
{
	return "clock_gettime(CLOCK_MONOTONIC_RAW)";
}

PMC_WEAK int pmc_arch_timer_hz(double *ret_hz, const char **ret_source)
{
	*ret_hz = 1e9;
	if (ret_source)
		*ret_source = "CLOCK_MONOTONIC_RAW (ns)";
	return 0;
}

PMC_WEAK const char *pmc_arch_user_read_name(void)
{
	return NULL;
}

PMC_WEAK void pmc_arch_selfread_attr(struct perf_event_attr *attr)
{
	(void)attr;
}

PMC_WEAK int pmc_arch_user_read_blocked(char *why, size_t whylen)
{
	if (why)
		snprintf(why, whylen, "pmctool has no in-process counter read for %s: counters are read with read()",
			 pmc_arch_name());
	return -EOPNOTSUPP;
}

PMC_WEAK bool pmc_arch_core_pmu(const char *name, const char *dir)
{
	return !strcmp(name, "cpu") || pmc_arch_pmu_dir_is_core(dir);
}

PMC_WEAK int pmc_arch_core_pmu_dir(char *buf, size_t len)
{
	return pmc_arch_pmu_dir("cpu", buf, len) ? pmc_arch_core_pmu_scan(buf, len) : 0;
}

PMC_WEAK int pmc_arch_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len)
{
	(void)id;
	(void)ref_cycles;
	(void)pmu;
	(void)why;
	(void)len;
	return 0; /* unknown here: the kernel's answer says */
}

PMC_WEAK int pmc_arch_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			    struct pmc_arch_placement *ret, char *why, size_t len)
{
	(void)a;
	(void)nfixed;
	(void)name;
	(void)why;
	(void)len;
	ret->fixed_index = -1;
	ret->fixed_only = false;
	return 0;
}

PMC_WEAK bool pmc_arch_pfm_core(const char *name, const char *desc, int table_fixed, struct pmc_arch_core_id *ret)
{
	memset(ret, 0, sizeof(*ret));
	/* libpfm4's generic "perf" and "perf_raw" PMUs are typed core too: they are not a CPU's. */
	if (!name || !strncmp(name, "perf", 4))
		return false;
	if (!pmc_x86_pfm_core(name, desc, table_fixed, ret))
		pmc_arm64_pfm_core(name, desc, table_fixed, ret);
	return true;
}

PMC_WEAK int pmc_arch_pfm_perf_name(const char *pfm, const char *name, uint64_t *config)
{
	return pmc_x86_amd_perf_name(pfm, name, config);
}

PMC_WEAK const char *pmc_arch_cpu_pfm_model(void)
{
	return NULL;
}

PMC_WEAK void pmc_arch_cpu_core(struct pmc_arch_core_id *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->nfixed = pmc_arch_fixed_counters();
	ret->place = pmc_arch_core_placement;
}

PMC_WEAK bool pmc_arch_budget_from_kernel(void)
{
	return true;
}

PMC_WEAK const char *pmc_arch_extra_counters(void)
{
	return NULL;
}

PMC_WEAK unsigned pmc_arch_isa_have(void)
{
	return 0;
}

PMC_WEAK const char *pmc_arch_isa_baseline(void)
{
	return pmc_arch_name();
}

PMC_WEAK unsigned pmc_arch_fixed_counters(void)
{
	return 0;
}

PMC_WEAK int pmc_arch_base_hz(double *ret_hz)
{
	(void)ret_hz;
	return -ENODEV;
}

PMC_WEAK int pmc_arch_tsc_hz(double *ret_hz, const char **ret_source)
{
	(void)ret_hz;
	(void)ret_source;
	return -ENODEV;
}

PMC_WEAK size_t pmc_arch_describe(struct pmc_arch_fact *ret, size_t max)
{
	struct pmc_arch_cpu cpu;
	char model_name[128];

	pmc_arch_cpu_identify(&cpu);
	if (pmc_arch_cpuinfo_field(NULL, "model name", model_name, sizeof(model_name)))
		model_name[0] = '\0';
	return pmc_arch_describe_midr(&cpu, model_name, ret, max);
}

PMC_WEAK int pmc_arch_counter_budget(const struct pmc_budget_facts *f, unsigned *ret_n, char *why, size_t whylen)
{
	(void)f;
	(void)ret_n;
	if (why)
		snprintf(why, whylen, "%s learns the counter budget from the kernel", pmc_arch_name());
	return -EOPNOTSUPP;
}

PMC_WEAK size_t pmc_arch_hybrid_pmus(const struct pmc_arch_hybrid **ret)
{
	*ret = NULL;
	return 0;
}

PMC_WEAK int pmc_arch_event_implemented(const struct perf_event_attr *a, char *why, size_t len)
{
	(void)a, (void)why, (void)len;
	return -1;
}
