/* SPDX-License-Identifier: MIT */
/* What `pmctool stat --regions` measured inside the program: per region, per thread and merged, beside the
 * whole-program counts of the report. Plain data, filled execution by execution (src/engine/rg_collect.c). */
#ifndef PMC_REPORT_REGIONS_H
#define PMC_REPORT_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/report.h"

#define PMC_REGION_NAME_MAX 63

/* Counts of one region (one thread, or merged): per report event, the sum over the executions that counted the
 * event and how many those were (value = sum / n; n == 0: not measured). calls: summed over every execution. */
struct pmc_region_values {
	double calls;
	unsigned ncalls;   /* executions summed into calls */
	double *sum;       /* rep->nevents */
	unsigned *n;
};

struct pmc_report_region_thread {
	char label[24];    /* "0" (the program's first thread to enter a region), "1"...; "p1.0" in a forked child */
	struct pmc_region_values val;
};

struct pmc_report_region {
	char name[PMC_REGION_NAME_MAX + 1];
	struct pmc_region_values all;        /* merged over threads and processes */
	struct pmc_report_region_thread *threads;
	size_t nthreads;
	uint64_t *exec_calls;                /* calls in each execution (0 where the region did not appear) */
	size_t nexec_calls;
	unsigned not_left;                   /* entries never left (thread or program ended inside), all executions */
	struct pmc_metric_value *metrics;    /* the report's metrics over this region's counts */
	size_t nmetrics;
};

struct pmc_report_regions {
	size_t nevents;                      /* == the report's nevents */
	struct pmc_report_region *r;
	size_t n;
	double *cost;                        /* per event: an empty enter/leave pair as a region's own counts see it
					        (the least any thread saw), NAN unknown */
	double *top_sum;                     /* per event: the sum over regions entered at depth 0 (as values) */
	unsigned *top_n;
	unsigned execs;                      /* executions of the program */
	unsigned execs_silent;               /* executions that wrote no region block (not linked, or died) */
	unsigned procs_silent;               /* processes that counted regions and wrote no block (_exit, a signal) */
	unsigned blocks_cut;                 /* blocks cut short (a process died while writing) */
	unsigned procs_max;                  /* processes that wrote a block, most in one execution */
	uint64_t reads_inproc, reads_syscall;
	uint64_t unmatched, invalid, too_deep, bad_names;
	uint64_t refused;                    /* enters/leaves the library refused (a signal handler interrupting it) */
	int open_err;                        /* the first errno a program's open of an event returned, 0 */
	char open_err_event[PMC_NAME_MAX];
	size_t open_err_index;               /* that event's index in the report's events */
	bool user_only;                      /* some event was counted in user mode only (perf_event_paranoid) */
};

/* The value of region values v for event i: mean over the executions that counted it; NAN when none did. */
double pmc_region_value(const struct pmc_region_values *v, size_t i);
/* Mean calls per execution. */
double pmc_region_calls(const struct pmc_region_values *v);
/* How the program read its counters: "in process", "read(2)", "in process and read(2)", "none". */
const char *pmc_regions_read_method(const struct pmc_report_regions *rr);

/* Free everything (accepts NULL). */
void pmc_report_regions_free(struct pmc_report_regions *rr);

#endif
