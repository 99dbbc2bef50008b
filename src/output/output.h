/* SPDX-License-Identifier: MIT */
/* Writing a report: a readable table, perf's -x separated layout, CSV (RFC 4180) or one JSON document. */
#ifndef PMC_OUTPUT_H
#define PMC_OUTPUT_H

#include <stdio.h>

#include "report/report.h"

enum pmc_output_format {
	PMC_OUTPUT_TABLE = 0,
	PMC_OUTPUT_SEP,  /* perf stat -x SEP */
	PMC_OUTPUT_CSV,
	PMC_OUTPUT_JSON,
};

struct pmc_output_opts {
	enum pmc_output_format format;
	char sep[16]; /* for PMC_OUTPUT_SEP */
};

/* Write rep to f in the chosen format. 0, or -EIO when a write failed (f's error flag is set). */
int pmc_output_write(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o);

/* Render to a string first, then write it whole: to path ("-" = stdout), or to stderr when path is NULL.
 * A file is written to a temporary name and renamed, so a failed run never leaves a half-written report.
 * 0, or -errno (EPIPE included: the caller exits quietly). */
int pmc_output_emit(const struct pmc_report *rep, const struct pmc_output_opts *o, const char *path);

/* Internal renderers, shared by pmc_output_write and the golden tests. */
int pmc_output_table(FILE *f, const struct pmc_report *rep);
int pmc_output_sep(FILE *f, const struct pmc_report *rep, const char *sep);
int pmc_output_csv(FILE *f, const struct pmc_report *rep);
int pmc_output_json(FILE *f, const struct pmc_report *rep);

/* Helpers the renderers and the other commands' machine-readable output share. */
/* s as a JSON string, quoted and escaped; NULL is "". */
void pmc_json_string(FILE *f, const char *s);
/* s as one RFC 4180 field: quoted when it holds a comma, quote, CR or LF, with quotes doubled. */
void pmc_csv_field(FILE *f, const char *s);
const char *pmc_output_status_name(enum pmc_count_status st); /* "ok", "not counted", ... */
const char *pmc_output_class_name(enum pmc_counter_class cls);
/* "1,234,567" style integer grouping of a non-negative value rounded to an integer. */
void pmc_output_group_digits(double v, char *buf, size_t len);

#endif
