/* SPDX-License-Identifier: MIT */
/*
 * pmctool check (issue 25): can counts be trusted on this machine, now? A fixed list of measurements on the built-in
 * loop kernel, whose retired instructions and branches are known exactly, each judged into one verdict per item.
 *
 * The measuring is behind an ops table (pmctool check runs what 'pmctool stat -k loop' measures, in process:
 * cli/cmd_check.c; the unit tests inject a fake PMU there, named as such), so every judgement here is pure and every verdict can be produced on a
 * machine without counters. Nothing here prints.
 */
#ifndef PMC_INFO_CHECK_H
#define PMC_INFO_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "info/inventory.h"
#include "perf/probe.h"

enum pmc_check_verdict {
	PMC_CHECK_TRUSTWORTHY = 0,
	PMC_CHECK_DEGRADED,
	PMC_CHECK_UNAVAILABLE,
};

#define PMC_CHECK_MAX_EVENTS 16
#define PMC_CHECK_MAX_ITEMS 24
#define PMC_CHECK_MAX_CORES 4
#define PMC_CHECK_TEXT 600

/* One event of one measurement, as the report gave it. */
struct pmc_check_count {
	char name[64];
	bool counted;
	double value;        /* the count (scaled when multiplexed) */
	double running_pct;  /* 100 unless multiplexed; negative when the report did not say */
	char reason[200];    /* why not counted */
};

/* One measurement: 'pmctool stat -k loop --iters ITERS -e EVENTS' with the options below, or with command set the
 * same loop in a launched command (a forked child running the loop kernel, its counters inherited and enabled as it
 * is released, the way most measurements count; engine/check_req.c). */
struct pmc_check_req {
	bool command;
	uint64_t iters;
	int cpu;                  /* --cpu, -1: any */
	bool syscall_reads;       /* --read=syscall */
	bool multiplex;           /* --batch=multiplex */
	const char *events[PMC_CHECK_MAX_EVENTS];
	size_t nevents;
};

struct pmc_check_sample {
	int rc;                   /* 0: a report came back; otherwise err says why */
	char err[256];
	size_t n;
	struct pmc_check_count ev[PMC_CHECK_MAX_EVENTS];
	double expected_instructions, expected_branches; /* the kernel's declared counts at these iterations, 0 unknown */
	unsigned counter_width;   /* from the perf page, 0 unknown */
	bool in_process;          /* every hardware counter was read in process (RDPMC, the user-space read) */
	char read_method[256];    /* the report's words for how the counters were read */
};

struct pmc_check_ops {
	/* Run one measurement into *ret (which is zeroed by the caller). Returns 0; a failure goes into ret->rc/err. */
	int (*measure)(void *ctx, const struct pmc_check_req *req, struct pmc_check_sample *ret);
	void *ctx;
};

/* What the machine says before anything is measured (pmctool info's facts). */
struct pmc_check_env {
	struct pmc_verdict_result pmu;  /* info's verdict */
	int nmi_watchdog;               /* -1 unknown */
	unsigned gp_budget;             /* general-purpose counters usable, 0 unknown */
	bool can_count_kernel;
	bool x86;                       /* ref-cycles is a fixed counter there */
	bool has_slots;                 /* the core PMU offers the slots event (Intel Icelake and later) */
	size_t ncores;                  /* core types to run on (1 unless hybrid) */
	struct {
		char pmu[32];           /* "cpu", "cpu_core", "armv8_pmuv3_0" */
		int cpu;                /* a CPU of that type, -1: any */
	} core[PMC_CHECK_MAX_CORES];
	const char *user_read_name;     /* "RDPMC", "mrs PMEVCNTR<n>_EL0", NULL when the CPU has none */
	const char *emulator;           /* the path of valgrind when installed, else NULL */
	bool quick;                     /* stat --check: the short list (exactness and read paths) */
	struct pmc_bp_probe bp;         /* the breakpoint probe (perf/probe.h); zeroed: not probed, no item */
	bool bp_probed;
};

struct pmc_check_item {
	char name[32];                  /* stable id: "pmu", "exact:cpu", "read-paths", ... */
	char title[64];
	enum pmc_check_verdict verdict;
	char detail[PMC_CHECK_TEXT];    /* what was measured; why degraded or unavailable */
};

struct pmc_check_result {
	size_t n;
	struct pmc_check_item item[PMC_CHECK_MAX_ITEMS];
	enum pmc_check_verdict overall;
	char summary[PMC_CHECK_TEXT];
};

/* Iterations of the loop kernel for the exactness pair (a, b) and for the multiplexing run. */
#define PMC_CHECK_ITERS_A 20000u
#define PMC_CHECK_ITERS_B 60000u
/* 670M instructions: the launched child's start (kernel time, little user work, so scaled wrongly) stays a small
 * part of the time */
#define PMC_CHECK_ITERS_MUX 10000000u
/* A multiplexed (scaled) count within this fraction of the exact one is trustworthy. */
#define PMC_CHECK_MUX_TOL 0.02

/* Run every item (env->quick: the short list) and judge. Always fills *ret. */
void pmc_check_run(const struct pmc_check_env *env, const struct pmc_check_ops *ops, struct pmc_check_result *ret);

const char *pmc_check_verdict_name(enum pmc_check_verdict v); /* "trustworthy", "degraded", "unavailable" */

/* The exit status of a result: 0 trustworthy, 10 degraded, 11 unavailable (as pmctool info's). */
int pmc_check_exit_status(const struct pmc_check_result *r);

/* The machine's facts from an inventory (pmc_inventory_collect) and sysfs, and the breakpoint probe's result. */
void pmc_check_env_from(const struct pmc_inventory *inv, struct pmc_check_env *ret);

#endif
