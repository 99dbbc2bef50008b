/* SPDX-License-Identifier: MIT */
/* The format terms of x86's core PMUs (cpu, cpu_core, cpu_atom) when sysfs has no directory for them (no PMU driver):
 * the event still encodes, and opening it later fails with ENOENT. Intel's architectural layout (REFERENCE §7), or
 * AMD's when libpfm4's core PMU is AMD's. Pure data, built on every architecture: a forced x86 libpfm4 PMU
 * (LIBPFM_FORCE_PMU) uses it on any host. */
#include <string.h>

#include "arch/arch.h"

static const char *const core_pmus[] = { "cpu", "cpu_core", "cpu_atom", NULL };

static const struct pmc_arch_format_term intel_terms[] = {
	{ "event", "config:0-7" },
	{ "umask", "config:8-15" },
	{ "edge", "config:18" },
	{ "pc", "config:19" },
	{ "any", "config:21" },
	{ "inv", "config:23" },
	{ "cmask", "config:24-31" },
	{ "offcore_rsp", "config1:0-63" },
	{ "ldlat", "config1:0-15" },
	{ "frontend", "config1:0-23" },
};

static const struct pmc_arch_format_term amd_terms[] = {
	{ "event", "config:0-7,32-35" },
	{ "umask", "config:8-15" },
	{ "edge", "config:18" },
	{ "inv", "config:23" },
	{ "cmask", "config:24-31" },
};

static const struct pmc_arch_format intel = { core_pmus, intel_terms, sizeof(intel_terms) / sizeof(intel_terms[0]) };
static const struct pmc_arch_format amd = { core_pmus, amd_terms, sizeof(amd_terms) / sizeof(amd_terms[0]) };

const struct pmc_arch_format *pmc_arch_core_format(const char *pfm_core)
{
	struct pmc_arch_core_id id = { 0 };

	if (pfm_core)
		return !strncmp(pfm_core, "amd64", 5) ? &amd : &intel;
	/* no libpfm4 core PMU (a CPU newer than libpfm4: Zen 5 under 4.13): this CPU's vendor, by CPUID, decides; AMD's
	 * 12-bit event field, not Intel's 8 bits */
	pmc_arch_cpu_core(&id);
	return id.vendor && !strcmp(id.vendor, "AMD") ? &amd : &intel;
}
