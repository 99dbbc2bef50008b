/* SPDX-License-Identifier: MIT */
/* CPUID: the CPU's identity and the counters it says it has. Decoders are pure functions of register values. */
#ifndef PMC_ARCH_X86_64_CPUID_H
#define PMC_ARCH_X86_64_CPUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

struct pmc_cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

enum pmc_vendor {
	PMC_VENDOR_OTHER = 0,
	PMC_VENDOR_INTEL,
	PMC_VENDOR_AMD,
};

/* Identity from leaves 0, 1 and 0x80000000. */
struct pmc_cpu_id {
	char vendor_str[13];   /* "GenuineIntel", "AuthenticAMD", ... */
	enum pmc_vendor vendor;
	unsigned family, model, stepping; /* display values (extended fields folded in per the vendor's rule) */
	bool hypervisor;       /* CPUID.1:ECX[31]: running under a hypervisor */
	uint32_t max_leaf, max_ext_leaf;
};

/* Intel architectural performance monitoring (leaf 0xA, and leaf 0x23 sub-leaf 1 where present). */
struct pmc_arch_perfmon {
	unsigned version;        /* EAX[7:0]; 0: no architectural perfmon */
	unsigned gp_counters;    /* EAX[15:8], per logical CPU */
	unsigned gp_width;       /* EAX[23:16] bits */
	unsigned ebx_length;     /* EAX[31:24]: how many EBX bits are meaningful */
	uint32_t unavailable;    /* EBX bit i set (i < ebx_length): architectural event i NOT available */
	unsigned fixed_counters; /* EDX[4:0] or the ECX bitmap (v5), whichever names more; 0 before v2 */
	unsigned fixed_width;    /* EDX[12:5] bits */
	bool anythread_deprecated; /* EDX[15] */
	bool has_leaf23;         /* leaf 0x23 sub-leaf 1 read: the bitmaps below are valid */
	uint32_t gp_bitmap;      /* 0x23.1 EAX: GP counters present */
	uint32_t fixed_bitmap;   /* 0x23.1 EBX: fixed counters present */
};

/* AMD core counters. */
struct pmc_amd_perfmon {
	bool perfctr_core;       /* CPUID 0x80000001 ECX[23] PerfCtrExtCore: six core counters */
	bool perfmon_v2;         /* CPUID 0x80000022 EAX[0] */
	unsigned v2_core_counters; /* 0x80000022 EBX[3:0] when perfmon_v2 */
	unsigned core_counters;  /* what this CPU has: v2 count, else 6 with PerfCtrExtCore, else 4 */
};

/* Execute CPUID. False (and *ret untouched) when the leaf lies above the maximum of its range. */
bool pmc_cpuid(uint32_t leaf, uint32_t subleaf, struct pmc_cpuid_regs *ret);

/* Display family/model/stepping from CPUID.1:EAX. Intel: extended family added when family is 0xF, extended
 * model when family is 6 or 0xF; AMD: both only when the base family is 0xF. */
void pmc_cpuid_decode_signature(uint32_t eax, enum pmc_vendor vendor, unsigned *ret_family, unsigned *ret_model,
				unsigned *ret_stepping);

/* Vendor from the 12 bytes of leaf 0 (EBX, EDX, ECX order). */
enum pmc_vendor pmc_cpuid_decode_vendor(const struct pmc_cpuid_regs *leaf0, char ret_str[13]);

/* Decode leaf 0xA; leaf23 (sub-leaf 1) may be NULL when the CPU lacks it. */
void pmc_cpuid_decode_arch_perfmon(const struct pmc_cpuid_regs *leafa, const struct pmc_cpuid_regs *leaf23,
				   struct pmc_arch_perfmon *ret);

/* Decode AMD counters from CPUID 0x80000001 ECX and leaf 0x80000022 (NULL when absent). */
void pmc_cpuid_decode_amd(uint32_t ext1_ecx, const struct pmc_cpuid_regs *leaf22, struct pmc_amd_perfmon *ret);

/* The SDM's name of architectural event i (leaf 0xA EBX bit i), or NULL when i is beyond the known ones. */
const char *pmc_cpuid_arch_event_name(unsigned i);

/* Read the running CPU: identity, perfmon leaves. Fills what the CPU has; flags say which parts are valid. */
void pmc_cpuid_read(struct pmc_cpu_id *ret_id, struct pmc_arch_perfmon *ret_arch, bool *ret_has_arch,
		    struct pmc_amd_perfmon *ret_amd, bool *ret_has_amd);

/* What pmc_x86_describe shows: CPUID's identity and counter leaves, /proc/cpuinfo's model name (NULL or "" when
 * unknown), the architecture's name and the CPU's display name (pmc_arch_cpu's). */
struct pmc_x86_cpu_facts {
	struct pmc_cpu_id id;
	const char *model_name;
	bool has_arch;
	struct pmc_arch_perfmon arch;
	bool has_amd;
	struct pmc_amd_perfmon amd;
	const char *arch_name, *name;
};

/* `pmctool info`'s CPU facts from CPUID (pure: pmc_arch_describe of x86_64 reads the CPU and calls this). Text lines
 * vendor, family/model, hypervisor, the 0xA/0x23.1 leaves and the AMD counters; JSON "cpu" members and the top-level
 * "cpuid_arch_perfmon" and "amd_perfmon". Returns how many facts it filled (at most max). */
size_t pmc_x86_describe(const struct pmc_x86_cpu_facts *in, struct pmc_arch_fact *ret, size_t max);

/* The vendor tables' CPUID string of libpfm4 core table pfm (LIBPFM_FORCE_PMU's value: "skx" ->
 * "GenuineIntel-6-55-4"), or NULL when none is known (x86_64/tables_cpuid.c lists them). */
const char *pmc_x86_forced_cpuid(const char *pfm);

#endif
