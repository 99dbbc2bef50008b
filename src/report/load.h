/* SPDX-License-Identifier: MIT */
/* A stat report read back from its JSON (schema_version 1, kind "stat"): what sweep, compare and merge work on.
 * Each event, metric and the wall time become a series: the summary and the values of the runs the statistics are
 * over (an event's scaled count in a run, averaged over the batches that ran it). */
#ifndef PMC_REPORT_LOAD_H
#define PMC_REPORT_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "report/env.h"

#define PMC_LOAD_MAX_BYTES (64u << 20)

/* REGION: a region's calls (name "calls") or its count of an event (name the event) in a report with regions (stat
 * --regions, the region library's standalone reports): merge summarizes them; sweep and compare leave them out. */
enum pmc_series_kind { PMC_SERIES_EVENT = 0, PMC_SERIES_METRIC, PMC_SERIES_TIME, PMC_SERIES_DECLARED, PMC_SERIES_REGION };

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
	struct pmc_series *s;
	size_t n;
};

/* Read a stat report from JSON text. 0 and *ret (pmc_loaded_fini), -EINVAL with the reason in err (not JSON, another
 * kind or schema version, a field missing or of the wrong type), -ENOMEM. */
int pmc_loaded_parse(const char *text, size_t len, struct pmc_loaded *ret, char *err, size_t errlen);
/* The same from a file (at most PMC_LOAD_MAX_BYTES): also -errno of open/read, -EFBIG. */
int pmc_loaded_read_file(const char *path, struct pmc_loaded *ret, char *err, size_t errlen);
void pmc_loaded_fini(struct pmc_loaded *l);

/* Append src's per-run values to dst's series of the same name and kind (new series are added; region series are
 * left out), then recompute the summaries: pooling rounds of one point of a sweep. 0 or -ENOMEM. */
int pmc_loaded_pool(struct pmc_loaded *dst, const struct pmc_loaded *src);

/* The series named name (case-insensitive; events as written or their canonical name were both stored), or NULL.
 * Region series are not looked up by name. */
const struct pmc_series *pmc_loaded_find(const struct pmc_loaded *l, const char *name);

/* Whether a and b are the same series (kind, region and name), in two reports. */
bool pmc_series_same(const struct pmc_series *a, const struct pmc_series *b);

/* mean, sd, min, max of s's runs. */
void pmc_series_summarize(struct pmc_series *s);

#endif
