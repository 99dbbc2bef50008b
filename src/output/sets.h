/* SPDX-License-Identifier: MIT */
/* pmctool sets' output: one set in full (kind "set": its provenance, variants and the variant for a PMU with its
 * events, metrics and checks) or the list of sets (kind "sets"), as text or one JSON document. The format is chosen
 * through the format table (format.h: each format's set and sets entries). */
#ifndef PMC_OUTPUT_SETS_H
#define PMC_OUTPUT_SETS_H

#include <stdbool.h>
#include <stdio.h>

#include "eventsets/eventset.h"
#include "output/output.h"

struct pmc_sets_listing {
	struct pmc_eventset **sets;
	size_t n;
	bool all;        /* also the sets with no variant for pmu */
	bool names;      /* the table's --names: the names alone, no header */
	const char *pmu; /* the PMU variants are chosen for (NULL: none detected) */
};

/* s, with the variant for pmu in full, in fmt (the table's text for a format without its own). 0, or -EIO. */
int pmc_set_write(FILE *f, const struct pmc_eventset *s, const char *pmu, enum pmc_output_format fmt);
/* The list in fmt: the number of sets shown, or -EIO. */
int pmc_sets_write(FILE *f, const struct pmc_sets_listing *l, enum pmc_output_format fmt);

/* The formats' writers (the format table's entries). */
int pmc_set_table(FILE *f, const struct pmc_eventset *s, const char *pmu);
int pmc_set_json(FILE *f, const struct pmc_eventset *s, const char *pmu);
int pmc_sets_table(FILE *f, const struct pmc_sets_listing *l);
int pmc_sets_json(FILE *f, const struct pmc_sets_listing *l);

#endif
