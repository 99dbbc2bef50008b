/* SPDX-License-Identifier: MIT */
/* Writing sweeps, comparisons and merges: a table for people, CSV (RFC 4180, one value per row) and one JSON document
 * (kinds "sweep", "compare", "merge" of schema/pmctool-report.schema.json). Each returns 0 or -EIO. The format is
 * chosen through the format table (format.h: each format's sweep, compare and merge entries). */
#ifndef PMC_OUTPUT_MULTI_H
#define PMC_OUTPUT_MULTI_H

#include <stdio.h>

#include "output/output.h"
#include "report/multi.h"

int pmc_sweep_write(FILE *f, const struct pmc_sweep *sw, enum pmc_output_format fmt);
/* conds may be NULL. */
int pmc_compare_write(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds,
		      enum pmc_output_format fmt);
int pmc_merge_write(FILE *f, const struct pmc_merge *m, enum pmc_output_format fmt);

/* "1.23G", "35", "0.0123": a value in at most 7 characters for tables. */
void pmc_multi_short(double v, char *buf, size_t len);
const char *pmc_series_kind_name(enum pmc_series_kind k); /* "event", "metric", "time", "declared" */
const char *pmc_cond_state_name(int st);                  /* a fail condition's: "holds", "does not hold", ... */

/* The formats' writers (the format table's entries; multi.c: table and CSV, multi_json.c: JSON). 0, or what the
 * writer returned; the caller turns f's error flag into -EIO. */
int pmc_sweep_table(FILE *f, const struct pmc_sweep *sw);
int pmc_sweep_csv(FILE *f, const struct pmc_sweep *sw);
int pmc_sweep_json(FILE *f, const struct pmc_sweep *sw);
int pmc_compare_table(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds);
int pmc_compare_csv(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds);
int pmc_compare_json(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds);
int pmc_merge_table(FILE *f, const struct pmc_merge *m);
int pmc_merge_csv(FILE *f, const struct pmc_merge *m);
int pmc_merge_json(FILE *f, const struct pmc_merge *m);

#endif
