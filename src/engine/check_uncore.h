/* SPDX-License-Identifier: MIT */
#ifndef PMC_ENGINE_CHECK_UNCORE_H
#define PMC_ENGINE_CHECK_UNCORE_H

#include "info/check.h"

/* The trust check's items for the PMUs beside the core's (issue 36): "uncore" (memory controller, caches, fabric) and
 * "energy" (the power PMU): whether one of their events opens here, system-wide on the family's first cpumask CPU as
 * stat opens it, and why not (no such PMU: a VM or a kernel without the driver; perf_event_paranoid without
 * CAP_PERFMON; the kernel's errno). Informational: never changes the overall verdict on the core counters. */
void pmc_check_uncore_items(struct pmc_check_result *res);

#endif
