/* SPDX-License-Identifier: MIT */
/* JSON strings for every writer of JSON: pmctool's outputs and the region library's standalone report (libc only:
 * compiled into libpmctool too). */
#ifndef PMC_UTIL_JSON_WRITE_H
#define PMC_UTIL_JSON_WRITE_H

#include <stdio.h>

/* The "schema_version" of every JSON document (schema/pmctool-report.schema.json). */
#define PMC_JSON_SCHEMA_VERSION 1

/* s as a JSON string, quoted and escaped; NULL is "". */
void pmc_json_string(FILE *f, const char *s);
/* s as a JSON string, or null when s is NULL or empty. */
void pmc_json_string_or_null(FILE *f, const char *s);

#endif
