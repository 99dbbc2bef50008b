/* SPDX-License-Identifier: MIT */
/* Executing CPUID (x86-64 only). */
#include "arch/x86_64/cpuid.h"

#include <cpuid.h>
#include <string.h>

/* The maximum leaf of each range (basic, extended), read once: every CPUID is a VM exit under a hypervisor. */
static uint32_t max_leaf(uint32_t range)
{
	static uint32_t max[2];
	static bool known[2];
	int k = range ? 1 : 0;

	if (!known[k]) {
		max[k] = (uint32_t)__get_cpuid_max(range, NULL);
		known[k] = true;
	}
	return max[k];
}

bool pmc_cpuid(uint32_t leaf, uint32_t subleaf, struct pmc_cpuid_regs *ret)
{
	unsigned a, b, c, d;

	if (max_leaf(leaf & 0x80000000u) < leaf)
		return false;
	__cpuid_count(leaf, subleaf, a, b, c, d);
	*ret = (struct pmc_cpuid_regs){ a, b, c, d };
	return true;
}

static bool has_leaf23(const struct pmc_cpu_id *id, struct pmc_cpuid_regs *ret)
{
	struct pmc_cpuid_regs r;

	/* CPUID.(7,1):EAX[8] ArchPerfmonExt announces leaf 0x23; sub-leaf 0 EAX[1] says sub-leaf 1 is valid. */
	if (id->max_leaf < 0x23 || !pmc_cpuid(7, 1, &r) || !((r.eax >> 8) & 1))
		return false;
	if (!pmc_cpuid(0x23, 0, &r) || !((r.eax >> 1) & 1))
		return false;
	return pmc_cpuid(0x23, 1, ret);
}

static void cpuid_read(struct pmc_cpu_id *ret_id, struct pmc_arch_perfmon *ret_arch, bool *ret_has_arch,
		       struct pmc_amd_perfmon *ret_amd, bool *ret_has_amd)
{
	struct pmc_cpu_id id = { 0 };
	struct pmc_cpuid_regs r, r23, r22;
	uint32_t ext1_ecx = 0;

	*ret_has_arch = *ret_has_amd = false;
	memset(ret_arch, 0, sizeof(*ret_arch));
	memset(ret_amd, 0, sizeof(*ret_amd));
	if (!pmc_cpuid(0, 0, &r)) {
		*ret_id = id;
		return;
	}
	id.max_leaf = r.eax;
	id.vendor = pmc_cpuid_decode_vendor(&r, id.vendor_str);
	if (pmc_cpuid(1, 0, &r)) {
		pmc_cpuid_decode_signature(r.eax, id.vendor, &id.family, &id.model, &id.stepping);
		id.hypervisor = (r.ecx >> 31) & 1;
	}
	if (pmc_cpuid(0x80000000u, 0, &r))
		id.max_ext_leaf = r.eax;
	if (id.vendor != PMC_VENDOR_AMD && pmc_cpuid(0xa, 0, &r) && (r.eax & 0xff)) {
		pmc_cpuid_decode_arch_perfmon(&r, has_leaf23(&id, &r23) ? &r23 : NULL, ret_arch);
		*ret_has_arch = true;
	}
	if (id.vendor == PMC_VENDOR_AMD) {
		if (pmc_cpuid(0x80000001u, 0, &r))
			ext1_ecx = r.ecx;
		pmc_cpuid_decode_amd(ext1_ecx, pmc_cpuid(0x80000022u, 0, &r22) ? &r22 : NULL, ret_amd);
		*ret_has_amd = true;
	}
	*ret_id = id;
}

/* The CPU does not change under a process: read once (pmctool asks from several places), copied out each time. */
void pmc_cpuid_read(struct pmc_cpu_id *ret_id, struct pmc_arch_perfmon *ret_arch, bool *ret_has_arch,
		    struct pmc_amd_perfmon *ret_amd, bool *ret_has_amd)
{
	static struct pmc_cpu_id id;
	static struct pmc_arch_perfmon arch;
	static struct pmc_amd_perfmon amd;
	static bool has_arch, has_amd, done;

	if (!done) {
		cpuid_read(&id, &arch, &has_arch, &amd, &has_amd);
		done = true;
	}
	*ret_id = id;
	*ret_arch = arch;
	*ret_has_arch = has_arch;
	*ret_amd = amd;
	*ret_has_amd = has_amd;
}
