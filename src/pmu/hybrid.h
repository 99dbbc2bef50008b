/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs (Intel Alder Lake and later): two core PMUs, cpu_core (P-cores) and cpu_atom (E-cores), each with its
 * own dynamic type and the CPUs it counts on. A per-task event counts only while the task runs on a CPU of its PMU,
 * so each hardware event is opened once per core PMU (perf's way) and the copies are summed. */
#ifndef PMC_PMU_HYBRID_H
#define PMC_PMU_HYBRID_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu/event.h"

#define PMC_MAX_CORE_PMUS 4

struct pmc_core_pmu {
	char name[16];  /* "cpu_core", "cpu_atom" */
	unsigned type;  /* its perf_event_attr.type (sysfs type) */
	char cpus[128]; /* the CPUs it counts on, as sysfs lists them ("0-15") */
};

/* The core PMUs of a hybrid machine, from <sysfs>/bus/event_source/devices/cpu_{core,atom}/{type,cpus}: the number
 * found when there are at least two, else 0 (not hybrid: one core PMU named cpu, or none). */
size_t pmc_hybrid_core_pmus(struct pmc_core_pmu *ret, size_t max);

/* Index of the core PMU that counts on CPU cpu, or -ENOENT. */
int pmc_hybrid_pmu_of_cpu(const struct pmc_core_pmu *pmus, size_t n, int cpu);

/* The architecture's word for the core type of hybrid core PMU pmu ("E-core" for cpu_atom), NULL when unknown. */
const char *pmc_hybrid_label(const char *pmu);

/*
 * The copies of one event for a hybrid machine, into out[0..max):
 *  - generic hardware and cache events (PERF_TYPE_HARDWARE / HW_CACHE): one per core PMU, the PMU's type in config
 *    bits 32-63 (PERF_PMU_TYPE_SHIFT);
 *  - raw core events (rHEX, libpfm4 names encoded as PERF_TYPE_RAW): one per core PMU, attr.type the PMU's type;
 *  - an event that names its PMU (cpu_atom/event=0xc0/): itself, tagged with that PMU;
 *  - anything else (software, msr, breakpoints...): itself, untouched.
 * only >= 0 keeps the copy of that core PMU alone (-k pinned to one CPU); an event of another PMU then gives 0
 * copies. A copy's name is "NAME [pmu]", its canonical "pmu/NAME/" (perf's spelling) and core_pmu = index + 1.
 * Returns the number written, or -ENOSPC (max too small) / -ENAMETOOLONG (name too long for a copy).
 */
int pmc_hybrid_expand(const struct pmc_event *ev, const struct pmc_core_pmu *pmus, size_t n, int only,
		      struct pmc_event *out, size_t max);

#endif
