/* SPDX-License-Identifier: MIT */
/* Why perf_event_open failed, in words for a user (libc only: libpmctool compiles it in too). */
#ifndef PMC_SYS_PERF_REASON_H
#define PMC_SYS_PERF_REASON_H

/* A one-line reason for an open failure, for a user: what it means and what to do.
 * 'hardware' says whether the event needs the CPU's PMU. Returns a static string. */
const char *pmc_perf_open_reason(int err, int hardware);

/* The same, where the caller knows whether the kernel has a core PMU: a hardware event's ENOENT is then "this CPU's
 * PMU does not have this event" rather than "no hardware PMU". */
const char *pmc_perf_hw_reason(int err, int hardware, int core_pmu);

/* Why a software event the scheduler counts in kernel mode (pmc_perf_kernel_side_only) is not counted: asked in user
 * mode only (user_only), or refused by perf_event_paranoid and, user-only counting nothing, not retried so. */
const char *pmc_perf_kernel_side_reason(int user_only);

#endif
