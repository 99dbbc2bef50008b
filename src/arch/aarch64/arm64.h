/* SPDX-License-Identifier: MIT */
/* arm64 facts as pure functions and sysfs/procfs readers (built on every architecture, so the units run anywhere):
 * MIDR_EL1 decoding and names, the core PMU in sysfs, its `rdpmc` format term, the counter index -> register map. */
#ifndef PMC_ARCH_AARCH64_ARM64_H
#define PMC_ARCH_AARCH64_ARM64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

/* MIDR_EL1: [31:24] implementer, [23:20] variant, [19:16] architecture, [15:4] part number, [3:0] revision. */
struct pmc_arm64_midr {
	uint32_t midr;
	unsigned implementer, variant, architecture, part, revision;
};

void pmc_arm64_midr_decode(uint32_t midr, struct pmc_arm64_midr *ret);

/* "ARM", "Ampere", "Apple", ...; NULL when unknown. */
const char *pmc_arm64_implementer_name(unsigned implementer);

/* "Cortex-A57", "Neoverse-N1", ...; NULL when unknown. */
const char *pmc_arm64_part_name(unsigned implementer, unsigned part);

/* "ARM Cortex-A57" (or "implementer 0x41 part 0xd07" when unknown) into buf; returns buf. */
const char *pmc_arm64_cpu_name(const struct pmc_arm64_midr *m, char *buf, size_t len);

/* MIDR from a /proc/cpuinfo text file (path; NULL = /proc/cpuinfo): CPU implementer, variant, architecture, part,
 * revision of the first CPU listed. 0, -ENOENT when the fields are missing, or -errno. */
int pmc_arm64_midr_from_cpuinfo(const char *path, uint32_t *ret);

/* MIDR of CPU 0: $sysfs/devices/system/cpu/cpu0/regs/identification/midr_el1, else /proc/cpuinfo. *ret_source says
 * which ("midr_el1 (sysfs)" or "/proc/cpuinfo"). 0 or -errno. */
int pmc_arm64_midr_read(uint32_t *ret, const char **ret_source);

/* The core PMU's directory under $sysfs/bus/event_source/devices: the first (by name) armv8_pmuv3* PMU (or one named
 * cpu), else the first PMU with a cpus or cpumask file, format/event and an events/ directory. 0 or -ENODEV. */
int pmc_arm64_core_pmu_dir(char *buf, size_t len);

/* The names the kernel's arm PMU drivers give core PMUs: cpu, armv8_pmuv3, armv8_pmuv3_0, armv8_cortex_a72,
 * armv8_neoverse_n1, ... (armv8_*), armv9_* and armv7_* (32-bit cores). */
bool pmc_arm64_core_pmu_name(const char *name);

/* The attr field (0 config, 1 config1, 2 config2) and bit mask of the PMU's `rdpmc` format term (format/rdpmc,
 * "config1:1" on Linux 5.17+). 0, -ENOENT when the PMU has no such term (a kernel without user access), -EINVAL when
 * malformed. */
int pmc_arm64_rdpmc_term(const char *pmu_dir, int *ret_field, uint64_t *ret_mask);

/* /proc/sys/kernel/perf_user_access: 1 allowed, 0 refused (the default), -1 absent (kernel before 5.17). */
int pmc_arm64_user_access(void);

/* The register a perf mmap page's index names: 32 -> "PMCCNTR_EL0", 1..31 -> "PMEVCNTR<index-1>_EL0"; NULL for 0 or
 * beyond 32 (no counter). */
const char *pmc_arm64_counter_register(uint32_t index, char *buf, size_t len);

/* Whether attr is CPU_CYCLES where the PMUv3 driver's armv8pmu_get_event_idx puts it on the cycle counter
 * (PMCCNTR_EL0) when it is free: a generic cycles event, or event 0x11 without a threshold (config1 above the long
 * and rdpmc terms) and without bits above the event number. */
bool pmc_arm64_cycle_counter_event(const struct perf_event_attr *a);

/* arm64's placement rules (pmc_arch_place_fn): CPU_CYCLES on the cycle counter, planned as fixed counter 1 (it fits
 * an event counter too); everything else programmable. nfixed and name are not used. */
/* arm64's generic event map (pmc_arch_missing_fn): ref-cycles is missing (the PMUv3 driver maps none). */
int pmc_arm64_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len);

int pmc_arm64_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			     struct pmc_arch_placement *ret, char *why, size_t len);

#endif
