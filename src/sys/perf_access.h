/* SPDX-License-Identifier: MIT */
/* What the kernel lets this process count: kernel.perf_event_paranoid and the capabilities that lift it. */
#ifndef PMC_SYS_PERF_ACCESS_H
#define PMC_SYS_PERF_ACCESS_H

#include <stdbool.h>

/* /proc/sys/kernel/perf_event_paranoid, or INT_MIN if unreadable. */
int pmc_perf_paranoid(void);

/* The effective CAP_PERFMON and CAP_SYS_ADMIN of this process (false when capget fails). */
void pmc_perf_caps(bool *ret_perfmon, bool *ret_sys_admin);

#endif
