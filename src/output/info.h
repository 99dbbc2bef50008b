/* SPDX-License-Identifier: MIT */
/* pmctool info's report: the text for people and one JSON document (kind "info"), from the inventory
 * (info/inventory.h). The format is chosen through the format table (format.h: each format's info entry). */
#ifndef PMC_OUTPUT_INFO_H
#define PMC_OUTPUT_INFO_H

#include <stdio.h>

#include "info/inventory.h"
#include "output/output.h"

/* inv in fmt (the table's text for a format without its own); status: the exit status info gives, which the JSON
 * carries. 0, or -EIO when f's error flag is set. */
int pmc_info_write(FILE *f, const struct pmc_inventory *inv, int status, enum pmc_output_format fmt);

/* The formats' writers (the format table's entries). */
int pmc_info_table(FILE *f, const struct pmc_inventory *inv, int status);
int pmc_info_json(FILE *f, const struct pmc_inventory *inv, int status);

#endif
