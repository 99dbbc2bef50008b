/* SPDX-License-Identifier: MIT */
/* CPUID on an architecture that has none: no leaf exists, the identity is empty. */
#include "arch/x86_64/cpuid.h"

#include <string.h>

bool pmc_cpuid(uint32_t leaf, uint32_t subleaf, struct pmc_cpuid_regs *ret)
{
	(void)leaf;
	(void)subleaf;
	(void)ret;
	return false;
}

void pmc_cpuid_read(struct pmc_cpu_id *ret_id, struct pmc_arch_perfmon *ret_arch, bool *ret_has_arch,
		    struct pmc_amd_perfmon *ret_amd, bool *ret_has_amd)
{
	memset(ret_id, 0, sizeof(*ret_id));
	memset(ret_arch, 0, sizeof(*ret_arch));
	memset(ret_amd, 0, sizeof(*ret_amd));
	*ret_has_arch = *ret_has_amd = false;
}
