/* SPDX-License-Identifier: MIT */
/* CPUID decoders: pure functions of register values, built on every architecture (tests, budget reasoning);
 * executing CPUID is in cpuid_read.c (x86-64 only). */
#include "arch/x86_64/cpuid.h"

#include <string.h>

static const char *const arch_event_names[] = {
	"UnHalted Core Cycles", "Instruction Retired", "UnHalted Reference Cycles", "LLC Reference",
	"LLC Misses", "Branch Instruction Retired", "Branch Misses Retired", "Topdown Slots",
	"Topdown Backend Bound", "Topdown Bad Speculation", "Topdown Frontend Bound", "Topdown Retiring",
	"LBR Inserts",
};

enum pmc_vendor pmc_cpuid_decode_vendor(const struct pmc_cpuid_regs *leaf0, char ret_str[13])
{
	memcpy(ret_str, &leaf0->ebx, 4);
	memcpy(ret_str + 4, &leaf0->edx, 4);
	memcpy(ret_str + 8, &leaf0->ecx, 4);
	ret_str[12] = '\0';
	if (!strcmp(ret_str, "GenuineIntel"))
		return PMC_VENDOR_INTEL;
	if (!strcmp(ret_str, "AuthenticAMD") || !strcmp(ret_str, "HygonGenuine"))
		return PMC_VENDOR_AMD;
	return PMC_VENDOR_OTHER;
}

void pmc_cpuid_decode_signature(uint32_t eax, enum pmc_vendor vendor, unsigned *ret_family, unsigned *ret_model,
				unsigned *ret_stepping)
{
	unsigned family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;
	unsigned ext_family = (eax >> 20) & 0xff, ext_model = (eax >> 16) & 0xf;
	bool use_ext_model = vendor == PMC_VENDOR_AMD ? family == 0xf : (family == 0x6 || family == 0xf);

	if (use_ext_model)
		model |= ext_model << 4;
	if (family == 0xf)
		family += ext_family;
	*ret_family = family;
	*ret_model = model;
	*ret_stepping = eax & 0xf;
}

void pmc_cpuid_decode_arch_perfmon(const struct pmc_cpuid_regs *leafa, const struct pmc_cpuid_regs *leaf23,
				   struct pmc_arch_perfmon *ret)
{
	struct pmc_arch_perfmon a = { 0 };
	unsigned fixed_from_bitmap = 0;

	a.version = leafa->eax & 0xff;
	a.gp_counters = (leafa->eax >> 8) & 0xff;
	a.gp_width = (leafa->eax >> 16) & 0xff;
	a.ebx_length = (leafa->eax >> 24) & 0xff;
	a.unavailable = a.ebx_length >= 32 ? leafa->ebx : leafa->ebx & ((1u << a.ebx_length) - 1);
	if (a.version >= 2) {
		a.fixed_counters = leafa->edx & 0x1f;
		a.fixed_width = (leafa->edx >> 5) & 0xff;
		a.anythread_deprecated = (leafa->edx >> 15) & 1;
	}
	/* v5+: fixed counter i exists if ECX[i] or EDX[4:0] > i; count the highest one named either way. */
	if (a.version >= 5)
		for (unsigned i = 0; i < 32; i++)
			if (leafa->ecx & (1u << i))
				fixed_from_bitmap = i + 1;
	if (fixed_from_bitmap > a.fixed_counters)
		a.fixed_counters = fixed_from_bitmap;
	if (leaf23) {
		a.has_leaf23 = true;
		a.gp_bitmap = leaf23->eax;
		a.fixed_bitmap = leaf23->ebx;
		a.gp_counters = (unsigned)__builtin_popcount(a.gp_bitmap);
		a.fixed_counters = (unsigned)__builtin_popcount(a.fixed_bitmap);
	}
	*ret = a;
}

void pmc_cpuid_decode_amd(uint32_t ext1_ecx, const struct pmc_cpuid_regs *leaf22, struct pmc_amd_perfmon *ret)
{
	struct pmc_amd_perfmon a = { 0 };

	a.perfctr_core = (ext1_ecx >> 23) & 1;
	if (leaf22 && (leaf22->eax & 1)) {
		a.perfmon_v2 = true;
		a.v2_core_counters = leaf22->ebx & 0xf;
	}
	if (a.perfmon_v2 && a.v2_core_counters)
		a.core_counters = a.v2_core_counters;
	else
		a.core_counters = a.perfctr_core ? 6 : 4;
	*ret = a;
}

const char *pmc_cpuid_arch_event_name(unsigned i)
{
	return i < sizeof(arch_event_names) / sizeof(arch_event_names[0]) ? arch_event_names[i] : NULL;
}
