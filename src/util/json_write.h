/* SPDX-License-Identifier: MIT */
/* The one JSON writer of pmctool's outputs and of the region library's standalone report (libc only: compiled into
 * libpmctool too). In the shape of git's json-writer: the caller says begin/end of objects and arrays, keys and
 * values; the writer keeps the nesting, writes the commas and escapes every string (invalid UTF-8 repaired to
 * U+FFFD, control characters escaped), so no command writes a brace, comma or key by hand. It writes straight to a
 * FILE* (a file or an open_memstream buffer) and allocates nothing: cheap enough for -I's per-interval lines. */
#ifndef PMC_UTIL_JSON_WRITE_H
#define PMC_UTIL_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The "schema_version" of every JSON document (schema/pmctool-report.schema.json). */
#define PMC_JSON_SCHEMA_VERSION 1

/* The deepest nesting a writer follows; a begin past it sets err and writes nothing more. */
#define PMC_JW_MAX_DEPTH 32

enum {
	PMC_JW_PERF = 1 << 0,   /* perf stat -j's spacing: "key" : value, members joined by ", " */
	PMC_JW_PRETTY = 1 << 1, /* one member or item a line, indented two spaces a level */
	PMC_JW_SPACED = 1 << 2, /* "key": value, members joined by ", " (roofline's layout, with pmc_jw_break) */
};

struct pmc_jw {
	FILE *f;
	unsigned flags;
	unsigned depth;  /* open objects and arrays */
	uint32_t filled; /* bit d: the container at depth d has a member (the next one needs a comma) */
	bool keyed;      /* a key was written: the next value is its value, not an item */
	const char *brk; /* pmc_jw_break's text, written before the next member, item or closing bracket */
	bool err;        /* nesting past PMC_JW_MAX_DEPTH, an end without its begin, or a key outside an object */
	uint32_t array;  /* bit d: the container at depth d is an array */
};

/* A writer to f (flags: PMC_JW_*), at the top level: each top-level value stands alone (-I's JSON lines write one
 * object a line with the same writer). */
void pmc_jw_init(struct pmc_jw *w, FILE *f, unsigned flags);

void pmc_jw_object_begin(struct pmc_jw *w);
void pmc_jw_object_end(struct pmc_jw *w);
void pmc_jw_array_begin(struct pmc_jw *w);
void pmc_jw_array_end(struct pmc_jw *w);
/* A member's name, inside an object; the next call writes its value. */
void pmc_jw_key(struct pmc_jw *w, const char *key);

/* text (a line break and indent) before the next member, item or closing bracket, in place of the separator's
 * space: the hand-laid layouts of roofline, encode and check ("[\n  {...},\n  {...}\n]") kept byte for byte. */
void pmc_jw_break(struct pmc_jw *w, const char *text);

/* Values: an array's next item, a key's value, or a top-level value. */
void pmc_jw_str(struct pmc_jw *w, const char *s);         /* NULL is "" */
void pmc_jw_str_or_null(struct pmc_jw *w, const char *s); /* null for NULL and "" */
void pmc_jw_null(struct pmc_jw *w);
void pmc_jw_bool(struct pmc_jw *w, bool b);
void pmc_jw_int(struct pmc_jw *w, long long v);
void pmc_jw_uint(struct pmc_jw *w, unsigned long long v);
/* v shortest-round-trip (pmc_json_shortest); null when not finite. */
void pmc_jw_num(struct pmc_jw *w, double v);
/* v with decimals digits after the point ("%.*f", perf's spellings); null when not finite. */
void pmc_jw_fixed(struct pmc_jw *w, int decimals, double v);
/* v in digits significant digits ("%.*g"); null when not finite. */
void pmc_jw_prec(struct pmc_jw *w, int digits, double v);
/* text as it is: a value the caller already spelled as JSON. */
void pmc_jw_raw(struct pmc_jw *w, const char *text);

/* Members: key and value in one call. */
void pmc_jw_kstr(struct pmc_jw *w, const char *key, const char *s);
void pmc_jw_kstr_or_null(struct pmc_jw *w, const char *key, const char *s);
void pmc_jw_knull(struct pmc_jw *w, const char *key);
void pmc_jw_kbool(struct pmc_jw *w, const char *key, bool b);
void pmc_jw_kint(struct pmc_jw *w, const char *key, long long v);
void pmc_jw_kuint(struct pmc_jw *w, const char *key, unsigned long long v);
void pmc_jw_knum(struct pmc_jw *w, const char *key, double v);
void pmc_jw_kfixed(struct pmc_jw *w, const char *key, int decimals, double v);
void pmc_jw_kprec(struct pmc_jw *w, const char *key, int digits, double v);
/* v when have, else null (the schema's "not measured"). */
void pmc_jw_kint_if(struct pmc_jw *w, const char *key, bool have, long long v);
void pmc_jw_kuint_if(struct pmc_jw *w, const char *key, bool have, unsigned long long v);
void pmc_jw_knum_if(struct pmc_jw *w, const char *key, bool have, double v);
void pmc_jw_kobject_begin(struct pmc_jw *w, const char *key);
void pmc_jw_karray_begin(struct pmc_jw *w, const char *key);

/* The length of the valid UTF-8 sequence s starts with (1 to 4; 1 for ASCII and for the terminating NUL), or 0 when
 * s[0] does not start one (a stray continuation byte, a truncated, overlong or surrogate sequence, past U+10FFFF). */
size_t pmc_utf8_seq(const char *s);

/* s as a JSON string, quoted and escaped; NULL is "". A byte that is not part of valid UTF-8 (a command's argument
 * or a region's name may hold any bytes) becomes U+FFFD, written \ufffd, so the document is always valid UTF-8.
 * The writer's escaper (pmc_jw_str), for the few texts that are not a writer's values. */
void pmc_json_string(FILE *f, const char *s);

/* v in the fewest %g digits that read back as v (integers below 2^53 whole, "%.0f"), into buf. */
void pmc_json_shortest(double v, char *buf, size_t len);

#endif
