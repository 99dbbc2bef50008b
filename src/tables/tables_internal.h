/* SPDX-License-Identifier: MIT */
/* Private to src/tables/: the table object the loader (tables.c) and the JSON conversion (convert.c) share. */
#ifndef PMC_TABLES_INTERNAL_H
#define PMC_TABLES_INTERNAL_H

#include "tables/tables.h"

#define PMC_TABLES_MAX_FILE (64u << 20) /* one table file; perf's largest are a few MB */

struct pmc_tables {
	struct pmc_table_event *ev;
	size_t nev, capev;
	struct pmc_table_metric *met;
	size_t nmet, capmet;
	char **sources;             /* file names the entries point at */
	size_t nsrc;
	enum pmc_table_enc enc;
	struct pmc_tables *std;     /* arm64 architecture-standard events (perf's ArchStdEvent), or NULL */
	struct pmc_tables_report rep;
};

int pmc_tables_add_source(struct pmc_tables *t, const char *path, const char **ret);
int pmc_tables_sort(struct pmc_tables *t); /* by name, stable; -ENOMEM */
/* Add to the report's list (files or locations): the new note, or NULL for -ENOMEM. */
struct pmc_table_note *pmc_tables_note(struct pmc_tables *t, bool location, const char *path);

/* Parse one document into t; note gets the counts, skipped and why (the parse error, or the first bad item). */
int pmc_tables_parse_note(struct pmc_tables *t, const char *text, size_t len, const char *source,
                          struct pmc_table_note *note);

#endif
