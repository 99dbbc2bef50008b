/* SPDX-License-Identifier: MIT */
/* pmctool tables' report: which vendor tables were looked for, which matched and what they hold
 * (tables/tables.h's pmc_tables_report), as text or one JSON document. The format is chosen through the format table
 * (format.h: each format's tables entry). */
#ifndef PMC_OUTPUT_TABLES_REPORT_H
#define PMC_OUTPUT_TABLES_REPORT_H

#include <stdio.h>

#include "output/output.h"
#include "tables/tables.h"

/* r in fmt (the table's text for a format without its own). 0, or -EIO when f's error flag is set. */
int pmc_tables_write(FILE *f, const struct pmc_tables_report *r, enum pmc_output_format fmt);

/* The formats' writers (the format table's entries). */
int pmc_tables_table(FILE *f, const struct pmc_tables_report *r);
int pmc_tables_json(FILE *f, const struct pmc_tables_report *r);

#endif
