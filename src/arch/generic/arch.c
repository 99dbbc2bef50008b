/* SPDX-License-Identifier: MIT */
/* Hooks of an architecture pmctool has no port for: it builds and counts through read(); no kernels, no in-process
 * counter reads, the timer is CLOCK_MONOTONIC_RAW. */
#include "arch/arch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "arch/common.h"

const char *pmc_arch_name(void)
{
	static struct utsname u;

	if (!u.machine[0] && uname(&u))
		snprintf(u.machine, sizeof(u.machine), "this architecture");
	return u.machine;
}

void pmc_arch_cpu_identify(struct pmc_arch_cpu *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!pmc_arch_cpuinfo_field(NULL, "model name", ret->name, sizeof(ret->name)) ||
	    !pmc_arch_cpuinfo_field(NULL, "cpu model", ret->name, sizeof(ret->name)) ||
	    !pmc_arch_cpuinfo_field(NULL, "cpu", ret->name, sizeof(ret->name)))
		ret->source = "/proc/cpuinfo";
}

bool pmc_arch_cpu_is_intel(void)
{
	return false;
}

const char *pmc_arch_timer_name(void)
{
	return "clock";
}

const char *pmc_arch_timer_how(void)
{
	return "clock_gettime(CLOCK_MONOTONIC_RAW)";
}

int pmc_arch_timer_hz(double *ret_hz, const char **ret_source)
{
	*ret_hz = 1e9;
	if (ret_source)
		*ret_source = "CLOCK_MONOTONIC_RAW (ns)";
	return 0;
}

const char *pmc_arch_user_read_name(void)
{
	return NULL;
}

void pmc_arch_selfread_attr(struct perf_event_attr *attr)
{
	(void)attr;
}

int pmc_arch_user_read_blocked(char *why, size_t whylen)
{
	if (why)
		snprintf(why, whylen, "pmctool has no in-process counter read for %s: counters are read with read()",
			 pmc_arch_name());
	return -EOPNOTSUPP;
}

bool pmc_arch_core_pmu(const char *name, const char *dir)
{
	return !strcmp(name, "cpu") || pmc_arch_pmu_dir_is_core(dir);
}

int pmc_arch_core_pmu_dir(char *buf, size_t len)
{
	return pmc_arch_pmu_dir("cpu", buf, len) ? pmc_arch_core_pmu_scan(buf, len) : 0;
}

int pmc_arch_hw_event_missing(uint64_t id, bool intel, const char *pmu, char *why, size_t len)
{
	(void)id;
	(void)intel;
	(void)pmu;
	(void)why;
	(void)len;
	return 0; /* unknown here: the kernel's answer says */
}

int pmc_arch_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
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

bool pmc_arch_budget_from_kernel(void)
{
	return true;
}

bool pmc_arch_cycle_counter_event(const struct perf_event_attr *a)
{
	(void)a;
	return false;
}

const char *pmc_arch_extra_counters(void)
{
	return NULL;
}

unsigned pmc_arch_isa_have(void)
{
	return 0;
}

const char *pmc_arch_isa_baseline(void)
{
	return pmc_arch_name();
}

const struct pmc_kernel *pmc_arch_kernels(size_t *ret_n)
{
	*ret_n = 0;
	return NULL;
}

unsigned pmc_arch_fixed_counters(void)
{
	return 0;
}

int pmc_arch_base_hz(double *ret_hz)
{
	(void)ret_hz;
	return -ENODEV;
}

int pmc_arch_tsc_hz(double *ret_hz, const char **ret_source)
{
	(void)ret_hz;
	(void)ret_source;
	return -ENODEV;
}

size_t pmc_arch_describe(struct pmc_arch_fact *ret, size_t max)
{
	struct pmc_arch_cpu cpu;
	char model_name[128];

	pmc_arch_cpu_identify(&cpu);
	if (pmc_arch_cpuinfo_field(NULL, "model name", model_name, sizeof(model_name)))
		model_name[0] = '\0';
	return pmc_arch_describe_midr(&cpu, model_name, ret, max);
}

int pmc_arch_counter_budget(const struct pmc_budget_facts *f, unsigned *ret_n, char *why, size_t whylen)
{
	(void)f;
	(void)ret_n;
	if (why)
		snprintf(why, whylen, "%s learns the counter budget from the kernel", pmc_arch_name());
	return -EOPNOTSUPP;
}
