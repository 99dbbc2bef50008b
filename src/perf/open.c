/* SPDX-License-Identifier: MIT */
#include "perf/open.h"

#include <errno.h>

#include "perf/perf.h"
#include "sys/perf_fallback.h"

int pmc_perf_open_counting(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned opts,
			   unsigned *ret_count_flags)
{
	return pmc_perf_open_counting_via(pmc_perf_open_noted, a, pid, cpu, group_fd, opts, ret_count_flags);
}

int pmc_perf_open_counting_via(pmc_perf_open_fn open_fn, struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
			       unsigned opts, unsigned *ret_count_flags)
{
	int fd;

	if (opts & PMC_OPEN_NO_COUNTER)
		return -ENOENT;
	/* Counted in the scheduler, in kernel mode: in user mode only they can never count (0 would read as measured). */
	if (pmc_perf_kernel_side_only(a) && a->exclude_kernel)
		return -EOPNOTSUPP;
	unsigned long flags = (opts & PMC_OPEN_CGROUP) ? PERF_FLAG_PID_CGROUP : 0;

	fd = open_fn(a, pid, cpu, group_fd, flags, NULL);
	switch (pmc_perf_fallback(a, fd, !(opts & PMC_OPEN_NO_EXCLUDE))) {
	case PMC_FALLBACK_NONE:
		return fd;
	case PMC_FALLBACK_KERNEL_DENIED:
		*ret_count_flags |= PMC_COUNT_KERNEL_DENIED; /* no user-only retry: it would count nothing */
		return fd;
	case PMC_FALLBACK_USER_ONLY:
		break;
	}
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	fd = open_fn(a, pid, cpu, group_fd, flags, "retry: user mode only (perf_event_paranoid)");
	if (fd >= 0)
		*ret_count_flags |= PMC_COUNT_USER_ONLY;
	return fd;
}
