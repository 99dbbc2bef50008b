/* SPDX-License-Identifier: MIT */
/* Intel's fixed counters as the kernel places encodings on them (pure functions: built on every architecture so the
 * units run anywhere; arch/x86_64/arch.c's pmc_arch_core_placement uses them). */
#ifndef PMC_ARCH_X86_64_FIXED_H
#define PMC_ARCH_X86_64_FIXED_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

/* Where an Intel core PMU with nfixed fixed counters puts raw encoding config (the USR/OS/INT/EN bits ignored;
 * config1 set: never a fixed counter): the architectural encodings 0xc0 (fixed counter 0) and 0x3c (1), the
 * pseudo-encoding 0x0300 (2), and from Ice Lake on (4 or more fixed counters) every pseudo-encoding 0x0N00 of fixed
 * counter N-1 (0x0100-0x0800), which fit that counter only. name: the libpfm4 name the encoding came from
 * ("icl::TOPDOWN:BACKEND_BOUND_SLOTS..."), "" or NULL for a raw code. Fills *ret; returns 0, 1 with why filled when
 * a pseudo-encoding is counted for a name that is not that counter's event (a table error), or -1 with why filled
 * when no counter can take it (event 0x00 that is no fixed counter of this PMU: on a programmable counter it counts
 * nothing). Event 0x00 with umask 0x80 and above (the top-down metrics read through TOPDOWN.SLOTS) is left alone.
 * nfixed 0 (AMD, no Intel PMU): always a programmable counter. */
int pmc_x86_fixed_placement(uint64_t config, uint64_t config1, unsigned nfixed, const char *name,
			    struct pmc_arch_placement *ret, char *why, size_t len);

/* x86's placement rules (pmc_arch_place_fn): a generic hardware event (attr type PERF_TYPE_HARDWARE) on a PMU with
 * fixed counters is instructions on fixed counter 0, cycles on 1, ref-cycles on 2 (and only there: the kernel's
 * 0x0300); any other attr is a raw encoding for pmc_x86_fixed_placement. nfixed 0: every event programmable. */
int pmc_x86_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			   struct pmc_arch_placement *ret, char *why, size_t len);

/* x86's generic event map (pmc_arch_missing_fn): ref-cycles is Intel's fixed counter 2, missing where the PMU has
 * none (ref_cycles false): 1 with why filled, naming the core PMU pmu (a libpfm4 name); 0 otherwise.
 * pmc_x86_ref_cycles_missing writes that reason for who ("the core PMU amd64_fam19h_zen3", "this CPU (AuthenticAMD)")
 * and returns 1. */
int pmc_x86_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len);

/* Intel's core PMU events perf names bare from sysfs (the kernel's events/ of cpu and cpu_core) that need the slots
 * fixed counter (nfixed at least 4): slots and the topdown-* PERF_METRICS fields. 0 with *config, or -ENOENT. */
int pmc_x86_intel_alias(const char *name, unsigned nfixed, uint64_t *config);
int pmc_x86_ref_cycles_missing(const char *who, char *why, size_t len);

#endif
