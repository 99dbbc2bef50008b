/* SPDX-License-Identifier: MIT */
/* Parsers for the text of sysfs PMU files: format/<term> ("config:0-7,32-35") and events/<alias>
 * ("event=0x3c,umask=1").
 * Pure functions (no I/O), exposed for tests and the fuzz target. */
#ifndef PMC_SYS_PMU_FORMAT_H
#define PMC_SYS_PMU_FORMAT_H

#include <stdint.h>

#define PMC_SYSFS_MAX_RANGES 8

/* Where a format term's value goes: field 0 = config, 1 = config1, 2 = config2; bit ranges low part first. */
struct pmc_sysfs_format {
	int field;
	unsigned nranges;
	struct {
		uint8_t lo, hi;
	} range[PMC_SYSFS_MAX_RANGES];
};

/* Parse a format file's text ("config:0-7", "config1:0-63", "config:0-7,32-35", "config:21"), trailing newline allowed.
 * 0, or -EINVAL when malformed. Never writes *ret on failure. */
int pmc_sysfs_format_parse(const char *text, struct pmc_sysfs_format *ret);

/* Deposit val into cfg[field] through the ranges. -ERANGE when val has bits the ranges cannot hold. */
int pmc_sysfs_format_apply(const struct pmc_sysfs_format *fmt, uint64_t val, uint64_t cfg[3]);

/* The inverse of apply: the term's value held in field_value (the attr field the term names), and in *ret_mask (may
 * be NULL) the bits of that field the term covers. */
uint64_t pmc_sysfs_format_extract(const struct pmc_sysfs_format *fmt, uint64_t field_value, uint64_t *ret_mask);

/* The term's width in bits (1 for a flag such as inv, edge, long). */
unsigned pmc_sysfs_format_width(const struct pmc_sysfs_format *fmt);

/* Split a term list ("event=0x3c,umask=0x01,inv") calling cb(name, value_or_NULL, ctx) for each term; a bare term has
 * value NULL. Whitespace (and a trailing newline) is trimmed. Stops at the first non-zero cb return and returns it;
 * -EINVAL for an empty term or name, -E2BIG for a term longer than 255 bytes. */
int pmc_sysfs_terms_parse(const char *text, int (*cb)(const char *name, const char *value, void *ctx), void *ctx);

#endif
