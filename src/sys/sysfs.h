/* SPDX-License-Identifier: MIT */
/* The kernel's view: PMUs under /sys/bus/event_source/devices, CPU topology, /proc/sys/kernel knobs. */
#ifndef PMC_SYS_SYSFS_H
#define PMC_SYS_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

#define PMC_SYSFS_MAX_PMUS 128

/* One kernel PMU. Integers are -1 when the file is absent. */
struct pmc_sysfs_pmu {
	char name[64];
	int type;          /* perf_event_attr.type for this PMU */
	bool is_core;      /* cpu, cpu_core or cpu_atom */
	char pmu_name[64]; /* caps/pmu_name ("skylake"...), "" when absent */
	int max_precise;   /* caps/max_precise */
	int branches;      /* caps/branches (LBR depth) */
	int rdpmc;         /* rdpmc: 0 never, 1 while mmapped, 2 always */
	unsigned nevents;  /* entries in events/ (aliases such as .scale/.unit files not counted) */
	char cpus[128];    /* cpus: the CPUs this PMU counts on (hybrid cpu_core / cpu_atom: "0-15"), "" when absent */
};

/* The sysfs root: $PMCTOOL_SYSFS_ROOT when set (tests point it at a fixture tree), else "/sys". */
const char *pmc_sysfs_root(void);

/* Read one integer from a file (decimal or 0x hex, trailing newline allowed). 0 or -errno / -EINVAL. */
int pmc_sysfs_read_long(const char *path, long *ret);

/* Read the first line of a file, newline stripped. 0 or -errno; -ENOSPC when it does not fit. */
int pmc_sysfs_read_line(const char *path, char *buf, size_t len);

/* Scan <root>/bus/event_source/devices, sorted by name. *ret_n set; -errno when the directory cannot be read. */
int pmc_sysfs_scan_pmus(struct pmc_sysfs_pmu *ret, size_t max, size_t *ret_n);

/* SMT state from <root>/devices/system/cpu/smt/active: 1 on, 0 off, -1 unknown. */
int pmc_sysfs_smt_active(void);

/* The SMT siblings of CPU 'cpu' as the kernel lists them ("0,4" or "0-1"), from topology/core_cpus_list or the
 * older thread_siblings_list; *ret_count is how many CPUs the list names. 0 or -errno. */
int pmc_sysfs_smt_siblings(int cpu, char *buf, size_t len, unsigned *ret_count);

/* Each range a-b of a CPU list ("0-3,8,10-11", a single CPU is a-a), in order: range(a, b, ctx), stopping at its
 * first non-zero return, which is returned. -EINVAL at the first malformed range (the ranges before it were given);
 * an empty list has none, and a trailing comma ends it (as the kernel's lists may); -ERANGE at the first number above
 * PMC_CPULIST_MAX (no kernel numbers CPUs that high). The one parser of CPU lists. */
#define PMC_CPULIST_MAX (1L << 20)
int pmc_cpulist_ranges(const char *list, int (*range)(long a, long b, void *ctx), void *ctx);

/* True when the kernel CPU list ("0-15,20") names CPU cpu (false when malformed). */
bool pmc_cpulist_has(const char *list, int cpu);

/* Count the CPUs in a kernel CPU list ("0-3,8,10-11"). -EINVAL when malformed. */
int pmc_cpulist_count(const char *list, unsigned *ret_count);

#endif
