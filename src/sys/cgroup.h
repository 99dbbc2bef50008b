/* SPDX-License-Identifier: MIT */
/* The cgroup a perf event may be restricted to (perf_event_open's PERF_FLAG_PID_CGROUP: pid is then an open
 * descriptor of the cgroup's directory). Names are as perf takes them: paths under the cgroup file system that holds
 * the perf_event controller (cgroup v2's unified hierarchy, or v1's perf_event hierarchy). */
#ifndef PMC_SYS_CGROUP_H
#define PMC_SYS_CGROUP_H

#include <stddef.h>

/* The mount point of the hierarchy that holds perf_event, from /proc/self/mountinfo: 0, or -ENOENT when none is
 * mounted (then no event can be restricted to a cgroup). */
int pmc_cgroup_mount(char *buf, size_t len);
/* Open cgroup name ("work/a"; a leading '/' is allowed) under that mount, read-only, as a directory: the descriptor,
 * or -errno (-ENOENT no such cgroup, -EINVAL a name with '..'). */
int pmc_cgroup_open(const char *name);

#endif
