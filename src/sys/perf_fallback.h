/* SPDX-License-Identifier: MIT */
/* perf's perf_event_paranoid fallback, the one rule for pmctool's counting opens (perf/open.c) and the region
 * library's (regions/rg_events.c). Static inline and libc only: the library links nothing of pmctool's. */
#ifndef PMC_SYS_PERF_FALLBACK_H
#define PMC_SYS_PERF_FALLBACK_H

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>

/* Software events the kernel counts only in kernel mode, whatever the task does (context-switches, cpu-migrations,
 * cgroup-switches: the scheduler's): in user mode only they count nothing, so a counting open never opens them so
 * (-EOPNOTSUPP for :u) and never retries them user-only under perf_event_paranoid. */
static inline bool pmc_perf_kernel_side_only(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
						 a->config == PERF_COUNT_SW_CPU_MIGRATIONS ||
						 a->config == PERF_COUNT_SW_CGROUP_SWITCHES);
}

enum pmc_perf_fallback {
	PMC_FALLBACK_NONE,          /* the kernel's answer stands */
	PMC_FALLBACK_USER_ONLY,     /* retry with exclude_kernel and exclude_hv */
	PMC_FALLBACK_KERNEL_DENIED, /* the answer stands: the event counts kernel mode, and user-only it would count
				       nothing (kernel-side-only, or kernel mode only: perf's evsel__fallback guard) */
};

/* What to do after the kernel answered err (the fd or -errno) to an open of a. may_exclude: false for a PMU that
 * refuses exclude bits (msr), which is never retried. */
static inline enum pmc_perf_fallback pmc_perf_fallback(const struct perf_event_attr *a, int err, bool may_exclude)
{
	if (err != -EACCES && err != -EPERM)
		return PMC_FALLBACK_NONE;
	if (pmc_perf_kernel_side_only(a) || (a->exclude_user && !a->exclude_kernel))
		return PMC_FALLBACK_KERNEL_DENIED;
	if (a->exclude_kernel || !may_exclude)
		return PMC_FALLBACK_NONE;
	return PMC_FALLBACK_USER_ONLY;
}

#endif
