/* SPDX-License-Identifier: MIT */
/*
 * The environment a report was measured in (issue 25): enough to tell two machines, kernels, library versions or
 * counting backends apart, so that a comparison of two reports can say loudly when their difference may be the
 * machine's rather than the program's. Written into every stat report (JSON "environment"), read back by compare.
 */
#ifndef PMC_REPORT_ENV_H
#define PMC_REPORT_ENV_H

#include <stdbool.h>
#include <stddef.h>

struct pmc_env {
	bool present;            /* false: a report without one (an older pmctool, or written by hand) */
	char cpu[128];           /* the CPU's name ("AMD EPYC 7B13", "ARM Cortex-A57") */
	char cpuid[64];          /* vendor-family-model-stepping as perf's tables spell it, or the arm64 MIDR (the
				  * tables' PMCTOOL_CPUID when it chose them) */
	char microcode[32];      /* /proc/cpuinfo's microcode revision, "" when the CPU has none there */
	bool hypervisor;
	char kernel[128];        /* uname: release */
	char arch[16];           /* uname: machine */
	char libpfm4[16];        /* "4.13" (the library's runtime version) */
	char core_pmu[64];       /* libpfm4's core PMU (a forced one: LIBPFM_FORCE_PMU) */
	char tables[256];        /* the vendor event tables used ("DIR (model)"), "" when none */
	char pmctool[32];
	char backend[64];        /* "perf_event", "valgrind (lackey)" */
};

/* The fields that make two environments different for a comparison (every one but present). */
#define PMC_ENV_FIELDS 11

/* Name and value of field i (0 .. PMC_ENV_FIELDS-1); the value as text ("yes"/"no" for hypervisor). */
const char *pmc_env_field(const struct pmc_env *e, size_t i, const char **ret_name, char *buf, size_t len);

/* The fields in which a and b differ, as "kernel 6.1.0-13 vs 6.1.0-25; libpfm4 4.13 vs 4.11" into buf; the count.
 * Fields empty on one side only are differences too. Both must be present. */
size_t pmc_env_diff(const struct pmc_env *a, const struct pmc_env *b, char *buf, size_t len);

#endif
