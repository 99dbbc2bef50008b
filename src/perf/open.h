/* SPDX-License-Identifier: MIT */
/* pmctool's counting open: pmc_perf_open (sys/perf_open.h: the syscall and its -v observer) with the one
 * perf_event_paranoid fallback (sys/perf_fallback.h) that command mode and -k share. No printing here. */
#ifndef PMC_PERF_OPEN_H
#define PMC_PERF_OPEN_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <sys/types.h>

#include "sys/perf_open.h"

enum pmc_open_opts {
	PMC_OPEN_NO_EXCLUDE = 1u << 0, /* the PMU refuses exclude bits (msr): no user-only retry */
	PMC_OPEN_CGROUP = 1u << 2,     /* pid is a cgroup directory's descriptor (PERF_FLAG_PID_CGROUP) */
	PMC_OPEN_NO_COUNTER = 1u << 1, /* no counter of the core PMU can count it (pmc_event_note says why): not
					  opened, -ENOENT */
};

/*
 * Open a counting event with perf's perf_event_paranoid fallback: when the kernel refuses (EACCES/EPERM) an event
 * that counts kernel mode, retry it with exclude_kernel and exclude_hv, and set PMC_COUNT_USER_ONLY in
 * *ret_count_flags. An event that counts kernel mode only (exclude_user already set) is never retried: user-only it
 * would count nothing, so it fails with the kernel's errno and PMC_COUNT_KERNEL_DENIED. a is updated to what was
 * opened. Returns the fd or -errno.
 */
int pmc_perf_open_counting(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned opts,
			   unsigned *ret_count_flags);
/* The raw open under the fallback, pmc_perf_open_noted's shape; and the fallback over another one (tests play the
 * kernel with it). */
typedef int (*pmc_perf_open_fn)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags,
				const char *note);
int pmc_perf_open_counting_via(pmc_perf_open_fn open_fn, struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
			       unsigned opts, unsigned *ret_count_flags);

#endif
