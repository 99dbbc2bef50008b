/* SPDX-License-Identifier: MIT */
/* A stat report read back from its JSON (schema_version 1, kind "stat"): what sweep, compare and merge work on.
 * Each event, metric and the wall time become a series: the summary and the values of the runs the statistics are
 * over (an event's scaled count in a run, averaged over the batches that ran it). */
#ifndef PMC_REPORT_LOAD_H
#define PMC_REPORT_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/env.h"

#define PMC_LOAD_MAX_BYTES (64u << 20)

/* REGION: a region's calls (name "calls") or its count of an event (name the event) in a report with regions (stat
 * --regions, the region library's standalone reports): merge summarizes them; sweep and compare leave them out. */
enum pmc_series_kind { PMC_SERIES_EVENT = 0, PMC_SERIES_METRIC, PMC_SERIES_TIME, PMC_SERIES_DECLARED, PMC_SERIES_REGION };

/* One sample of an event as the report holds it (pmctool report replays them). */
struct pmc_loaded_sample {
	unsigned run, batch;        /* 1-based */
	bool ok;                    /* status "ok" */
	double value, enabled_ns, running_ns;
	int err;                    /* errno of a not-supported sample, 0 otherwise */
};

/* An event's encoding and bookkeeping as written ("type", "config", "config1": numbers or "0x.." strings). */
struct pmc_loaded_event {
	bool has_type, has_config, has_config1;
	unsigned type;
	uint64_t config, config1;
	char canonical[160];
	char cls[16];               /* "programmable", "fixed", ... ("" when absent) */
	int fixed_index;            /* -1 when none */
	bool anchor, every_batch;
	int batch;                  /* 1-based, 0 when none */
	bool total;                 /* the totals row (scope kind "all", or no scope) */
	bool time_ns;               /* unit "ns" */
	char status[24];            /* as written; "ok" when absent and the summary has a mean */
	struct pmc_loaded_sample *samples;
	size_t nsamples;
};

/* One execution (run x batch) as the report holds it. */
struct pmc_loaded_exec {
	unsigned run, batch;        /* 1-based */
	bool used, interrupted;
	int exit_status, signal;
	double wall_ns, user_ns, sys_ns; /* NAN when null */
};

/* A check note as written. */
struct pmc_loaded_check {
	char name[48];
	char severity[8];           /* "info", "warn", "bad" */
	char msg[1024];             /* as pmc_check_note's */
};

struct pmc_series {
	char name[160];
	char region[64];            /* the region of a REGION series; "" otherwise */
	char unit[16];              /* "ns", "GHz", "" */
	enum pmc_series_kind kind;
	bool ok;                    /* counted (an event) or computed (a metric) in at least one run */
	char reason[192];           /* why not, when !ok */
	double *runs;               /* per-run values of the runs in the statistics */
	size_t nruns;
	double mean, sd, min, max;  /* over runs (sd NAN when nruns < 2); from the document when it has no runs */
	struct pmc_loaded_event *ev; /* an EVENT series: what pmctool report replays (NULL for the other kinds) */
};

struct pmc_loaded {
	char workload[512];
	bool partial;
	int exit_status;
	unsigned runs, runs_used, runs_failed, runs_partial;
	bool has_origin;
	char host[64];
	long pid, rank;             /* rank -1 when none */
	char job[64];
	double iterations;          /* the ITERATIONS constant (kernels), 0 when none */
	struct pmc_env env;         /* where it was measured; env.present false when the report does not say */
	/* For pmctool report: the CPU the counts are from ("cpu": {"pmu", "vendor", "smt"}, "" / -1 when absent), the
	 * top-down tree and level stat chose ("topdown": {"tree", "level"}), the schedule, constants, executions, checks. */
	char cpu_pmu[48], cpu_vendor[48];
	int cpu_smt;
	char target_kind[16];       /* "target": {"kind"} ("command", "system-wide", "cpus", ...), "" when absent */
	char td_tree[48];
	int td_level;
	char mode[16];
	unsigned batches;
	double tsc_hz;              /* NAN when null */
	char tsc_source[32];
	struct { char name[48]; double value; } consts[32];
	size_t nconsts;
	struct pmc_loaded_exec *execs;
	size_t nexecs;
	struct pmc_loaded_check *checks;
	size_t nchecks;
	struct pmc_series *s;
	size_t n;
};

/* Read a stat report from JSON text. 0 and *ret (pmc_loaded_fini), -EINVAL with the reason in err (not JSON, another
 * kind or schema version, a field missing or of the wrong type), -ENOMEM. */
int pmc_loaded_parse(const char *text, size_t len, struct pmc_loaded *ret, char *err, size_t errlen);
/* The same from a file (at most PMC_LOAD_MAX_BYTES): also -errno of open/read, -EFBIG. */
int pmc_loaded_read_file(const char *path, struct pmc_loaded *ret, char *err, size_t errlen);
void pmc_loaded_fini(struct pmc_loaded *l);

/* The same from a report measured in this process (report/report.h), read from its typed fields (from_report.c):
 * what sweep, compare and stat --compare pool, with no document written and read back. Region series are left out
 * (sweep and compare leave them out). 0 and *ret (pmc_loaded_fini), or -ENOMEM. */
struct pmc_report;
int pmc_loaded_from_report(const struct pmc_report *rep, struct pmc_loaded *ret);

/* Append src's per-run values to dst's series of the same name and kind (new series are added; region series are
 * left out), then recompute the summaries: pooling rounds of one point of a sweep. 0 or -ENOMEM. */
int pmc_loaded_pool(struct pmc_loaded *dst, const struct pmc_loaded *src);

/* The series named name (case-insensitive; events as written or their canonical name were both stored), or NULL.
 * Region series are not looked up by name. */
const struct pmc_series *pmc_loaded_find(const struct pmc_loaded *l, const char *name);

/* Whether a and b are the same series (kind, region and name), in two reports. */
bool pmc_series_same(const struct pmc_series *a, const struct pmc_series *b);

/* A new series of l (no runs, summaries NAN), or NULL when out of memory; one more run value of s (0 or -ENOMEM). */
struct pmc_series *pmc_loaded_add_series(struct pmc_loaded *l, const char *name, enum pmc_series_kind kind);
int pmc_series_push(struct pmc_series *s, double v);

/* mean, sd, min, max of s's runs. */
void pmc_series_summarize(struct pmc_series *s);

#endif
