/* SPDX-License-Identifier: MIT */
/* pmctool check's verdicts (info/check.h's pmc_check_result): each item's verdict, title and detail, then the
 * overall verdict, as text or one JSON document (kind "check"). The format is chosen through the format table
 * (format.h: each format's check entry). */
#ifndef PMC_OUTPUT_CHECK_H
#define PMC_OUTPUT_CHECK_H

#include <stdio.h>

#include "info/check.h"
#include "output/output.h"

/* res in fmt (the table's text for a format without its own). 0, or -EIO when f's error flag is set. */
int pmc_check_write(FILE *f, const struct pmc_check_result *res, enum pmc_output_format fmt);

/* The formats' writers (the format table's entries). */
int pmc_check_table(FILE *f, const struct pmc_check_result *res);
int pmc_check_json(FILE *f, const struct pmc_check_result *res);

#endif
