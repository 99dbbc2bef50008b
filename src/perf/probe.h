/* SPDX-License-Identifier: MIT */
/* Counters pmctool opens on its own thread to ask the kernel something (may this process count, how many
 * instructions events fit in one group) or to hold them open (perf/keep.h): no target, no group rule of the counter
 * set, no paranoid fallback (each probe asks for exactly the attr it means). No printing here. */
#ifndef PMC_PERF_PROBE_H
#define PMC_PERF_PROBE_H

#include <linux/perf_event.h>

/* Open attr on this thread, any CPU, in group_fd's group (-1: a leader or alone), through the one syscall path
 * (sys/perf_open.h: the -v observer sees it, with note when not NULL). The caller closes it. fd or -errno. */
int pmc_perf_open_self(struct perf_event_attr *attr, int group_fd, const char *note);

/* Ask the kernel whether this process may count at all: open (and close) task-clock on itself in user mode only, the
 * least any perf_event_paranoid short of "no perf_event_open for users" allows. 0 when it may, else -errno. The number
 * in the sysctl does not tell: 3 forbids everything only on kernels with Debian's and Android's patch. */
int pmc_perf_probe_user_counting(void);

/* Ask the kernel whether attr opens system-wide on CPU cpu (pid -1: a non-core PMU's event on its cpumask CPU, as
 * stat opens it): opened and closed at once. 0, or -errno. */
int pmc_perf_probe_cpu(struct perf_event_attr *attr, int cpu, const char *note);

#endif
