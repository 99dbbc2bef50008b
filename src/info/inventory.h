/* SPDX-License-Identifier: MIT */
/* What this machine can count and why: the CPU's own facts, libpfm4, kernel PMUs, permissions, the counter budget, a verdict. */
#ifndef PMC_INFO_INVENTORY_H
#define PMC_INFO_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <linux/perf_event.h>

#include "arch/arch.h"
#include "sys/sysfs.h"

#define PMC_INV_MAX_PFM_PMUS 64
#define PMC_INV_WHY_LEN 1024

/* Opens attr in group group_fd (-1: a leader) and returns the fd or -errno; tests inject one. */
typedef int (*pmc_budget_opener)(struct perf_event_attr *attr, int group_fd);

#define PMC_BUDGET_PROBE_MAX 32

/*
 * The counter budget as the kernel accepts it: instructions events (user only, on this thread) opened into one group
 * with an ENABLED leader until the kernel refuses one (a disabled leader lets one member too many in: REFERENCE 11).
 * *ret_n = members accepted; why (may be NULL) says how it was learnt. -ENODEV when not even the leader opens.
 */
int pmc_budget_from_kernel(pmc_budget_opener opener, unsigned *ret_n, char *why, size_t whylen);

/* The budget for a forced libpfm4 PMU (LIBPFM_FORCE_PMU): pmc_arch_forced_pmu_budget (arch/arch.h), under the name the
 * engine calls. */
int pmc_forced_pmu_budget(const char *name, bool intel, unsigned table_gp, unsigned *ret_n, char *why, size_t whylen);

enum pmc_verdict {
	PMC_VERDICT_AVAILABLE = 0,
	PMC_VERDICT_DEGRADED,
	PMC_VERDICT_UNAVAILABLE,
};

struct pmc_verdict_input {
	bool has_core_pmu;     /* sysfs core PMU */
	int probe_errno;       /* errno of perf_event_open(instructions, user only, self); 0 when it opened */
	int paranoid;          /* INT_MIN unknown */
	bool can_count_kernel;
	int rdpmc;             /* core PMU's rdpmc file, -1 absent */
	bool hypervisor;       /* CPUID says we run in a VM */
};

struct pmc_verdict_result {
	enum pmc_verdict verdict;
	char reason[512];      /* "" when available */
	char action[512];      /* what to do; "" when nothing */
};

/* Decide from the inputs (pure). */
void pmc_inventory_verdict(const struct pmc_verdict_input *in, struct pmc_verdict_result *ret);

/* "available", "degraded", "not available". */
const char *pmc_verdict_name(enum pmc_verdict v);

/* Everything pmctool info shows. Large: allocate it (or make it static); plain data, nothing to free. */
struct pmc_inventory {
	size_t ncpu_facts;
	struct pmc_arch_fact cpu_facts[PMC_ARCH_FACTS_MAX]; /* what the CPU says about itself (pmc_arch_describe) */

	int pfm_error;               /* libpfm4 pfm_initialize result (PFM_SUCCESS = 0) */
	unsigned npfm_pmus;
	char pfm_pmus[PMC_INV_MAX_PFM_PMUS][64]; /* detected (is_present) libpfm4 PMUs */
	char pfm_core[64];           /* the default core PMU, "" when none */
	char pfm_core_desc[128];
	int pfm_table_gp, pfm_table_fixed; /* libpfm4's static table values for it (not live), -1 when none */
	unsigned pfm_major, pfm_minor;       /* the libpfm4 loaded at run time (pfm_get_version), 0.0 unknown */
	char pfm_release[32];                /* its release (4.13.0): pmu/release.c, "" when unknown */
	const char *pfm_release_how;         /* "shared" (the object loaded), "static" (the build's), NULL */

	int sysfs_error;             /* 0, or -errno reading the devices directory */
	size_t npmus;
	struct pmc_sysfs_pmu pmus[PMC_SYSFS_MAX_PMUS];
	int core_pmu;                /* index in pmus of cpu / cpu_core (first core PMU), -1 when none */
	int rdpmc;                   /* core PMU's rdpmc, -1 when absent */
	int tsx_force_abort;

	int paranoid;                /* INT_MIN when unreadable */
	int nmi_watchdog;            /* -1 when unreadable */
	uid_t uid;
	bool cap_perfmon, cap_sys_admin;
	bool can_count_kernel;

	int cpu_index;               /* the CPU we ran on (sched_getcpu), -1 unknown */
	int smt_active;
	char smt_siblings[64];
	unsigned nsmt_siblings;      /* 0 unknown */

	int tsc_error;
	double tsc_hz;
	const char *tsc_source;

	bool budget_from_kernel;     /* the budget was learnt by opening a group (arm64), not reasoned from CPUID */
	int budget_error;            /* 0 or -ENODEV */
	unsigned gp_budget;
	char budget_why[PMC_INV_WHY_LEN];

	struct pmc_arch_cpu acpu;    /* architecture-neutral identity (arm64: MIDR) */
	const char *timer_name;      /* the region timer: "TSC", "CNTVCT" */
	const char *user_read_name;  /* the in-process counter read ("RDPMC", "mrs ..."), NULL when none */
	int user_read_error;         /* 0, -EPERM (turned off: user_read_why says how to turn it on), -EOPNOTSUPP */
	char user_read_why[256];

	int probe_errno;             /* perf_event_open(PERF_COUNT_HW_INSTRUCTIONS, exclude_kernel) on self */
	struct pmc_verdict_result verdict;
};

/* Gather everything (takes ~1 ms, plus up to 100 ms when the TSC must be calibrated). 0, or -ENOMEM never: always
 * fills what it can; per-part errors are in the struct. */
int pmc_inventory_collect(struct pmc_inventory *ret);

/* Programmable counters one batch may use (the batch budget), reasoning in why ('\n'-separated lines).
 * -ENODEV (and why says so) when there is no kernel PMU. */
int pmc_inventory_gp_counters(unsigned *ret_n, char *why, size_t whylen);

/* Kernel-mode counting is allowed: paranoid < 2, or CAP_PERFMON / CAP_SYS_ADMIN held. */
bool pmc_inventory_can_count_kernel(void);

#endif
