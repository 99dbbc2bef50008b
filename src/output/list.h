/* SPDX-License-Identifier: MIT */
/* pmctool list's listing, written an event at a time as info/evlist.h finds them: the text (grouped by PMU, with
 * umasks and modifiers when long), CSV (a header line, a record per event), one JSON document (kind "list"), or
 * --names' one name a line. The format is chosen through the format table (format.h: each format's list_begin,
 * list_event and list_end entries). */
#ifndef PMC_OUTPUT_LIST_H
#define PMC_OUTPUT_LIST_H

#include <stdbool.h>
#include <stdio.h>

#include "info/evlist.h"
#include "output/output.h"

enum {
	PMC_LIST_LONG = 1 << 0,  /* the text's umasks and modifiers (--long) */
	PMC_LIST_NAMES = 1 << 1, /* the names -e takes, one a line (--names), whatever the format */
};

struct pmc_list_out {
	FILE *f;
	const struct pmc_format *fmt;
	unsigned flags;    /* PMC_LIST_* */
	unsigned count;    /* events written */
	struct pmc_jw w;   /* the JSON writer on f */
	bool have_pmu;     /* the text: a PMU's heading written, last_pmu its name */
	char last_pmu[64];
};

/* Begin a listing to f in fmt (the table's text for a format without its own), then each event, then its end. */
void pmc_list_write_begin(struct pmc_list_out *o, FILE *f, unsigned flags, enum pmc_output_format fmt);
void pmc_list_write_event(struct pmc_list_out *o, const struct pmc_list_event *ev);
void pmc_list_write_end(struct pmc_list_out *o);

/* The formats' writers (the format table's entries). */
void pmc_list_table_event(struct pmc_list_out *o, const struct pmc_list_event *ev);
void pmc_list_csv_begin(struct pmc_list_out *o);
void pmc_list_csv_event(struct pmc_list_out *o, const struct pmc_list_event *ev);
void pmc_list_json_begin(struct pmc_list_out *o);
void pmc_list_json_event(struct pmc_list_out *o, const struct pmc_list_event *ev);
void pmc_list_json_end(struct pmc_list_out *o);

#endif
