/* SPDX-License-Identifier: MIT */
/* A small JSON reader (RFC 8259) for pmctool's own reports: parse a document into a tree, look members up. Strict:
 * one value, no trailing commas or comments, UTF-8 passed through, \u escapes decoded (surrogate pairs included).
 * Bounded: nesting at most PMC_JSON_MAX_DEPTH, the caller bounds the text's size. */
#ifndef PMC_UTIL_JSON_READ_H
#define PMC_UTIL_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define PMC_JSON_MAX_DEPTH 64

enum pmc_jtype { PMC_J_NULL = 0, PMC_J_BOOL, PMC_J_NUMBER, PMC_J_STRING, PMC_J_ARRAY, PMC_J_OBJECT };

struct pmc_jvalue {
	enum pmc_jtype type;
	bool b;
	double num;
	char *str;                  /* PMC_J_STRING: NUL-terminated (a \u0000 ends it early) */
	size_t n;                   /* items of an array or members of an object */
	struct pmc_jvalue **items;
	char **keys;                /* PMC_J_OBJECT: the member names, parallel to items */
};

/* Parse len bytes of text. 0 and *ret (free with pmc_json_free), -EINVAL with "line L, column C: what" in err, or
 * -ENOMEM. *ret is not written on failure. */
int pmc_json_parse(const char *text, size_t len, struct pmc_jvalue **ret, char *err, size_t errlen);
void pmc_json_free(struct pmc_jvalue *v); /* accepts NULL */

/* An object's member (the last one when a name repeats), or NULL when v is not an object or has none. */
const struct pmc_jvalue *pmc_json_get(const struct pmc_jvalue *v, const char *key);
/* A member's number / string / bool, or the fallback when absent, null or another type. */
double pmc_json_get_num(const struct pmc_jvalue *v, const char *key, double fallback);
const char *pmc_json_get_str(const struct pmc_jvalue *v, const char *key, const char *fallback);
bool pmc_json_get_bool(const struct pmc_jvalue *v, const char *key, bool fallback);
/* An array's length (0 when v is not an array) and its item i (NULL out of range). */
size_t pmc_json_len(const struct pmc_jvalue *v);
const struct pmc_jvalue *pmc_json_at(const struct pmc_jvalue *v, size_t i);

#endif
