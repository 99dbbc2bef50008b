/* SPDX-License-Identifier: MIT */
/* Counters pmctool opens on its own thread to ask the kernel something (may this process count, how many
 * instructions events fit in one group) or to hold them open (perf/keep.h): no target, no group rule of the counter
 * set, no paranoid fallback (each probe asks for exactly the attr it means). No printing here. */
#ifndef PMC_PERF_PROBE_H
#define PMC_PERF_PROBE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

/* Open attr on this thread, any CPU, in group_fd's group (-1: a leader or alone), through the one syscall path
 * (sys/perf_open.h: the -v observer sees it, with note when not NULL). The caller closes it. fd or -errno. */
int pmc_perf_open_self(struct perf_event_attr *attr, int group_fd, const char *note);

/* Ask the kernel whether this process may count at all: open (and close) task-clock on itself in user mode only, the
 * least any perf_event_paranoid short of "no perf_event_open for users" allows. 0 when it may, else -errno. The number
 * in the sysctl does not tell: 3 forbids everything only on kernels with Debian's and Android's patch. */
int pmc_perf_probe_user_counting(void);

/* Do hardware breakpoints fire here? Some machines (VMs on AMD Zen 5 hosts have been seen) accept PERF_TYPE_BREAKPOINT
 * events and never trigger them: every breakpoint reads 0, a silent zero. The probe puts an execute breakpoint on a
 * function of pmctool's own, calls it PMC_BP_PROBE_CALLS times and reads the count back. */
enum pmc_bp_fires {
	PMC_BP_UNKNOWN = 0, /* the probe could not open its breakpoint, or it never ran (err, EBUSY): the events say why */
	PMC_BP_FIRE,        /* it counted every call */
	PMC_BP_NEVER,       /* accepted, counted 0: no breakpoint of this process can be trusted */
	PMC_BP_INEXACT,     /* it counted, but not once per call (count) */
};

#define PMC_BP_PROBE_CALLS 1u
/* The reason every breakpoint event of a run carries when the probe says PMC_BP_NEVER. */
#define PMC_BP_NEVER_REASON "this machine's debug registers accept breakpoints but never trigger them: a VM?"

struct pmc_bp_probe {
	enum pmc_bp_fires fires;
	int err;              /* PMC_BP_UNKNOWN: the open's errno */
	unsigned long long count, calls;
};

/* The verdict on a probe whose open returned open_result (an fd or -errno) and read count after calls calls. Pure. */
enum pmc_bp_fires pmc_bp_probe_judge(int open_result, unsigned long long count, unsigned long long calls);

/* The probe, run once per process (later calls return the first result): a handful of syscalls and two debug traps,
 * tens of microseconds. Call it only where a breakpoint is about to be counted, never while a workload is counted.
 * (Tests inject a machine whose breakpoints never fire at the syscall: tests/perf/bp_never_fire.c.) */
const struct pmc_bp_probe *pmc_perf_probe_breakpoints(void);
/* The result when the probe has run in this process, else NULL (it is not run for the asking). */
const struct pmc_bp_probe *pmc_perf_probe_breakpoints_done(void);

/* One line for a person about a probe result ("breakpoints fire: ...", PMC_BP_NEVER_REASON...) into buf. */
void pmc_bp_probe_describe(const struct pmc_bp_probe *p, char *buf, size_t len);
/* Ask the kernel whether attr opens system-wide on CPU cpu (pid -1: a non-core PMU's event on its cpumask CPU, as
 * stat opens it): opened and closed at once. 0, or -errno. */
int pmc_perf_probe_cpu(struct perf_event_attr *attr, int cpu, const char *note);

#endif
