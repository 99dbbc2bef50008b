/* SPDX-License-Identifier: MIT */
/* The output formats, one registry entry per format file (table.c: the table; csv.c: --csv and perf's -x SEP;
 * json.c: --json): what each is called, the option that chooses it, how it writes a report and -I records, and the
 * per-format facts the writers share. Every command picks its writer here (pmc_format_get), not in a switch. */
#ifndef PMC_OUTPUT_FORMAT_H
#define PMC_OUTPUT_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "output/output.h"

struct pmc_sweep;
struct pmc_compare;
struct pmc_fail_cond;
struct pmc_merge;
struct pmc_inventory;
struct pmc_tables_report;
struct pmc_eventset;
struct pmc_sets_listing;
struct pmc_check_result;
struct pmc_list_out;
struct pmc_list_event;
struct pmc_encode_out;
struct pmc_event;

struct pmc_format {
	enum pmc_output_format id;
	const char *name; /* "table", "sep", "csv", "json" */
	const char *flag; /* the option that chooses it: "-x", "--csv", "--json"; "" for the table (the default) */
	/* stat's report; 0 or what the writer returned (pmc_output_write turns f's error flag into -EIO) */
	int (*report)(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o);
	/* -I: before the first record (rows: a scope column), and one record */
	void (*interval_begin)(FILE *f, const struct pmc_output_opts *o, bool rows);
	void (*interval)(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r);
	/* -I, where a record's line needs the interval's other counts (perf's metric beside it): all of one
	 * interval's records at once, when it ends, in place of interval(); NULL: interval() each as it comes */
	void (*interval_group)(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r, size_t n);
	/* The checks this format prints in a place of its own (the table's Runs line, CSV's runs comment), so not again
	 * in its list of checks; ends with NULL. */
	const char *const *own_checks;
	/* -I --topdown: one interval's tree (output/topdown.c); NULL: the format has no place for it */
	void (*topdown_interval)(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td);
	/* sweep, compare and merge results (output/multi.h); NULL: the table's (-x and -j have none of their own) */
	int (*sweep)(FILE *f, const struct pmc_sweep *sw);
	int (*compare)(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds);
	int (*merge)(FILE *f, const struct pmc_merge *m);
	/* the other commands' documents, NULL: the table's (output/info.h: pmctool info) */
	int (*info)(FILE *f, const struct pmc_inventory *inv, int status);
	int (*tables)(FILE *f, const struct pmc_tables_report *r); /* output/tables_report.h: pmctool tables */
	int (*set)(FILE *f, const struct pmc_eventset *s, const char *pmu); /* output/sets.h: pmctool sets */
	int (*sets)(FILE *f, const struct pmc_sets_listing *l);
	int (*check)(FILE *f, const struct pmc_check_result *res); /* output/check.h: pmctool check */
	/* output/list.h: pmctool list, an event at a time (begin and end may be NULL) */
	void (*list_begin)(struct pmc_list_out *o);
	void (*list_event)(struct pmc_list_out *o, const struct pmc_list_event *ev);
	void (*list_end)(struct pmc_list_out *o);
	/* output/encode.h: pmctool encode, an event at a time (begin and end may be NULL) */
	void (*encode_begin)(struct pmc_encode_out *o);
	void (*encode_event)(struct pmc_encode_out *o, const struct pmc_event *ev, const struct pmc_event *libpfm);
	void (*encode_end)(struct pmc_encode_out *o);
};

extern const struct pmc_format pmc_format_table, pmc_format_sep, pmc_format_csv, pmc_format_json, pmc_format_perf_json,
	pmc_format_perf_std;

/* The one place a format is chosen: the entry for id (the table for an id no entry has). */
const struct pmc_format *pmc_format_get(enum pmc_output_format id);
/* The entry chosen by an option ("-x", "--csv", "--json"), or NULL. */
const struct pmc_format *pmc_format_by_flag(const char *flag);
/* Whether check name is one fmt prints in a place of its own (see own_checks). */
bool pmc_format_own_check(const struct pmc_format *fmt, const char *name);

#endif
