/* SPDX-License-Identifier: MIT */
/* JSON strings for every writer of JSON: pmctool's outputs and the region library's standalone report (libc only:
 * compiled into libpmctool too). */
#ifndef PMC_UTIL_JSON_WRITE_H
#define PMC_UTIL_JSON_WRITE_H

#include <stddef.h>
#include <stdio.h>

/* The "schema_version" of every JSON document (schema/pmctool-report.schema.json). */
#define PMC_JSON_SCHEMA_VERSION 1

/* The length of the valid UTF-8 sequence s starts with (1 to 4; 1 for ASCII and for the terminating NUL), or 0 when
 * s[0] does not start one (a stray continuation byte, a truncated, overlong or surrogate sequence, past U+10FFFF). */
size_t pmc_utf8_seq(const char *s);

/* s as a JSON string, quoted and escaped; NULL is "". A byte that is not part of valid UTF-8 (a command's argument
 * or a region's name may hold any bytes) becomes U+FFFD, written \ufffd, so the document is always valid UTF-8. */
void pmc_json_string(FILE *f, const char *s);
/* s as a JSON string, or null when s is NULL or empty. */
void pmc_json_string_or_null(FILE *f, const char *s);

#endif
