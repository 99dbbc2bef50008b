/* SPDX-License-Identifier: MIT */
/* x86's group rule for the counter set (arch.h, pmc_arch_group_rule): Intel's TOPDOWN.SLOTS and the PERF_METRICS
 * pseudo-events (Ice Lake and later; Linux arch/x86/events/intel/core.c). Pure: built on every host for its test. */
#ifndef PMC_ARCH_X86_64_GROUP_H
#define PMC_ARCH_X86_64_GROUP_H

#include <linux/perf_event.h>
#include <stdbool.h>

/* The rule for a on an Intel CPU (intel false: PMC_GROUP_ANY, AMD's event 0x00 is an ordinary event): the slots
 * pseudo-encoding (event 0x00, umask 0x04) must lead its group and is never tried alone after a refusal there; a
 * top-down metric (event 0x00, umask 0x80 to 0x87) must be in slots' group. Only the core PMU's encodings: PERF_TYPE_RAW
 * or a dynamic type (a hybrid CPU's cpu_core). */
unsigned pmc_x86_group_rule(const struct perf_event_attr *a, bool intel);

#endif
