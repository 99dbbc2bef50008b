/* SPDX-License-Identifier: MIT */
/* Internal to src/arch: helpers the architectures' hooks share. */
#ifndef PMC_ARCH_COMMON_H
#define PMC_ARCH_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/arch.h"
#include "util/json_write.h"

/* The value of the first "KEY<blanks>: value" line of path (NULL: /proc/cpuinfo). 0, -ENOENT, or -errno. */
int pmc_arch_cpuinfo_field(const char *path, const char *key, char *buf, size_t len);

/* $sysfs/bus/event_source/devices/NAME into buf; 0 when it has a readable type file, else -errno. */
int pmc_arch_pmu_dir(const char *name, char *buf, size_t len);

/* Every architecture's rule for a core PMU's sysfs directory: its type is PERF_TYPE_RAW, or it has a cpus file. */
bool pmc_arch_pmu_dir_is_core(const char *dir);

/* The first PMU (by name) under $sysfs/bus/event_source/devices for which match(name, its directory, ctx) is true
 * and which has a readable type file, into buf. 0, or -ENODEV. */
int pmc_arch_pmu_find(bool (*match)(const char *name, const char *dir, void *ctx), void *ctx, char *buf, size_t len);

/* The first PMU (by name) under $sysfs/bus/event_source/devices that pmc_arch_core_pmu says is a core one, into buf.
 * 0, or -ENODEV. */
int pmc_arch_core_pmu_scan(char *buf, size_t len);

/* Append a text-only fact (label, printf text) or a JSON-only one (key, printf value; string: a string to quote) to
 * ret[*n] while *n < max. For the pmc_arch_describe hooks. */
__attribute__((format(printf, 5, 6))) void pmc_arch_fact_text(struct pmc_arch_fact *ret, size_t max, size_t *n,
							      const char *label, const char *fmt, ...);
__attribute__((format(printf, 7, 8))) void pmc_arch_fact_json(struct pmc_arch_fact *ret, size_t max, size_t *n,
							      const char *key, bool top, bool string,
							      const char *fmt, ...);

/* A JSON-only fact whose value the caller writes with the JSON writer: begin points w at ret[*n]'s value (false when
 * *n == max or out of memory: nothing to write), end closes it and counts it. A value longer than the fact's buffer
 * is cut short, as pmc_arch_fact_json's. */
bool pmc_arch_fact_json_begin(struct pmc_arch_fact *ret, size_t max, size_t *n, const char *key, bool top,
			      struct pmc_jw *w);
void pmc_arch_fact_json_end(struct pmc_jw *w, size_t *n);

/* The description of a CPU known by its MIDR (arm64) or by nothing but /proc/cpuinfo: architecture, vendor, model and
 * MIDR_EL1 lines, or "identity unknown"; the JSON "cpu" members with x86's keys empty. model_name: /proc/cpuinfo's
 * "model name" ("" when none). Returns the new count. */
size_t pmc_arch_describe_midr(const struct pmc_arch_cpu *c, const char *model_name, struct pmc_arch_fact *ret,
			      size_t max);

/* The libpfm4 core tables each port knows, by the table's identity (pure, built on every architecture, so that a
 * forced PMU is what its table is on any host): true and *ret filled when the table is the port's. x86_64/fixed.c:
 * amd64_* (AMD) and the Intel ones; aarch64/arm64.c: arm_* (Arm's PMUv3, its cycle counter). */
bool pmc_x86_pfm_core(const char *name, const char *desc, int table_fixed, struct pmc_arch_core_id *ret);
bool pmc_arm64_pfm_core(const char *name, const char *desc, int table_fixed, struct pmc_arch_core_id *ret);
/* perf's AMD names by code (x86_64/amd_names.c): pmc_arch_pfm_perf_name's answer for amd64_fam17h/19h/1ah tables. */
int pmc_x86_amd_perf_name(const char *pfm, const char *name, uint64_t *config);
size_t pmc_x86_amd_perf_name_count(void);
/* The libpfm4 core table name of an AMD CPU's Zen generation by its CPUID vendor, family and model, whether or not
 * this libpfm4 has that table (4.13 has no amd64_fam1ah_zen5); NULL for any other CPU. Pure. */
const char *pmc_x86_amd_zen_pfm(const char *vendor, unsigned family, unsigned model);

#endif
