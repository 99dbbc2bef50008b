/* SPDX-License-Identifier: MIT */
/*
 * An injected machine whose hardware breakpoints never fire (LD_PRELOAD), as VMs on AMD Zen 5 hosts behave: every
 * PERF_TYPE_BREAKPOINT open the kernel accepts is answered with the software dummy event instead, opened with the same
 * target, group, exclude and enable bits, so it opens, is scheduled (time running > 0) and reads 0. The kernel still
 * judges the breakpoint itself first (a real open, closed at once), so what it refuses stays refused. Every other
 * syscall goes to the kernel unchanged (the syscall() wrapper of preload_types.h, shared with the other
 * injected PMUs). Used to show, on any host, what pmctool does where breakpoints never fire.
 */
#include <unistd.h>

#include "preload_types.h"

static long preload_perf_event_open(struct perf_event_attr *a, long pid, long cpu, long group_fd, long flags)
{
	if (a->type == PERF_TYPE_BREAKPOINT) {
		struct perf_event_attr dummy = *a;
		long fd = real_syscall(SYS_perf_event_open, (long)a, pid, cpu, group_fd, flags);

		if (fd < 0)
			return fd;
		close((int)fd);
		dummy.type = PERF_TYPE_SOFTWARE;
		dummy.config = PERF_COUNT_SW_DUMMY;
		dummy.bp_type = 0;
		dummy.bp_addr = 0;
		dummy.bp_len = 0;
		return real_syscall(SYS_perf_event_open, (long)&dummy, pid, cpu, group_fd, flags);
	}
	return real_syscall(SYS_perf_event_open, (long)a, pid, cpu, group_fd, flags);
}
