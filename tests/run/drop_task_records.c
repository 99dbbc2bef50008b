/* SPDX-License-Identifier: MIT */
/*
 * An injected kernel that writes none of the records --per-thread reads (LD_PRELOAD): the inherited side-band dummy
 * is opened without comm and task (no PERF_RECORD_FORK, COMM, EXIT) and the counting events without inherit_stat (no
 * PERF_RECORD_READ when a task exits), so every task but the command leaves no trace in the buffer and nothing is
 * reported lost: the silent loss the shared buffer suffers when tasks on several CPUs overwrite each other's
 * records, made certain. The counts themselves are the kernel's (inherited counts still fold into the total), and so
 * is the count of tasks created (the sched_process_fork tracepoint), unless PMC_INJECT_CREATED_ERRNO=N answers its
 * open with -N, as a kernel that refuses kernel counts to this user would. Every other syscall goes to the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "../perf/preload_types.h"

static long preload_perf_event_open(struct perf_event_attr *a, long pid, long cpu, long group_fd, long flags)
{
	struct perf_event_attr b = *a;
	const char *e = getenv("PMC_INJECT_CREATED_ERRNO");

	if (b.type == PERF_TYPE_TRACEPOINT && b.inherit && e && atoi(e) > 0) {
		errno = atoi(e);
		return -1;
	}
	if (b.type == PERF_TYPE_SOFTWARE && b.config == PERF_COUNT_SW_DUMMY && b.inherit)
		b.comm = b.task = 0;
	b.inherit_stat = 0;
	return real_syscall(SYS_perf_event_open, (long)&b, pid, cpu, group_fd, flags);
}
