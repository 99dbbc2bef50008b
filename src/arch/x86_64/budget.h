/* SPDX-License-Identifier: MIT */
/* x86's counter-budget reasoning (pmc_arch_counter_budget of x86_64 fills the input from CPUID; tests inject it). */
#ifndef PMC_ARCH_X86_64_BUDGET_H
#define PMC_ARCH_X86_64_BUDGET_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/arch.h"
#include "arch/x86_64/cpuid.h"

/* Inputs of the counter-budget reasoning: CPUID's identity and counts with the machine's facts. */
struct pmc_budget_input {
	enum pmc_vendor vendor;
	unsigned family, model;
	bool has_kernel_pmu;   /* a kernel core PMU driver exists (sysfs cpu / cpu_core / cpu_atom) */
	unsigned cpuid_gp;     /* live count: CPUID 0xA/0x23 GP counters per logical CPU, AMD core counters; 0 unknown */
	unsigned table_gp;     /* libpfm4's static num_cntrs for the core PMU; 0 unknown */
	int smt_active;        /* 1 on, 0 off, -1 unknown */
	int nmi_watchdog;      /* /proc/sys/kernel/nmi_watchdog: 1 on, 0 off, -1 unknown */
	int tsx_force_abort;   /* cpu/allow_tsx_force_abort: 0 = the kernel keeps PMC3 for TSX; -1 absent */
	bool amd_v2;           /* AMD: cpuid_gp came from CPUID 0x80000022 EBX (PerfMonV2), not from a feature bit */
};

/*
 * Programmable counters a user can rely on in one batch, with the reasoning as text lines ('\n'-separated) in why
 * (may be NULL). -ENODEV (why says so) when there is no kernel PMU or no count is known; *ret_n untouched then.
 */
int pmc_counter_budget(const struct pmc_budget_input *in, unsigned *ret_n, char *why, size_t whylen);

/* True for Intel family-6 big cores from Sandy Bridge to before Ice Lake, whose 8 counters per core are split 4 per
 * thread with SMT on (Nehalem and Westmere have 4 per thread either way). */
bool pmc_intel_smt_splits_counters(unsigned family, unsigned model);

#endif
