/* SPDX-License-Identifier: MIT */
/* Which common events an armv8 PMU implements, as its kernel driver says: it lists in sysfs events/ exactly the
 * common events (0x0000-0x003f, 0x4000-0x403f) that the CPU's PMCEID registers say are implemented. QEMU's PMU opens
 * every event and counts only INST_RETIRED and CPU_CYCLES: an unlisted event that read 0 was not counted. Pure (a
 * directory in, an answer out): built on every host for its test. */
#ifndef PMC_ARCH_AARCH64_PMCEID_H
#define PMC_ARCH_AARCH64_PMCEID_H

#include <stddef.h>
#include <stdint.h>

/* Event number event (config bits 0-15) against the PMU directory pmu_dir ($sysfs/bus/event_source/devices/NAME):
 * 1 listed; 0 not listed (why filled: "event 0x23 is not in .../events (the CPU's PMCEID)"); -1 unknown (no events/
 * directory, or not a common event, which the driver lists or not whatever the CPU does). */
int pmc_arm64_event_listed(const char *pmu_dir, uint64_t event, char *why, size_t len);

#endif
