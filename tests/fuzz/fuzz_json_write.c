/* SPDX-License-Identifier: MIT */
/* The JSON writer's string escaper over any bytes (names from tables, saved reports and command lines reach it):
 * the input, split at NUL bytes, is written as an array of strings, one a key's value too; the document must be valid
 * UTF-8 without a raw control byte, parse back, and give each string back with every invalid byte as U+FFFD. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_read.h"
#include "util/json_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* s with each byte that is not UTF-8 replaced by U+FFFD's three bytes (what the reader decodes \ufffd to). */
static char *repaired(const char *s)
{
	char *out = malloc(strlen(s) * 3 + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		size_t n = pmc_utf8_seq(s);

		if (!n) {
			memcpy(o, "\xef\xbf\xbd", 3), o += 3, s++;
			continue;
		}
		memcpy(o, s, n), o += n, s += n;
	}
	*o = 0;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1), *doc = NULL, err[256];
	size_t len = 0, nstr = 0;
	struct pmc_jvalue *v;
	struct pmc_jw w;
	FILE *f;

	if (!in)
		return 0;
	memcpy(in, data, size);
	in[size] = 0;
	if (!(f = open_memstream(&doc, &len))) {
		free(in);
		return 0;
	}
	pmc_jw_init(&w, f, 0);
	pmc_jw_object_begin(&w);
	pmc_jw_kstr(&w, in, in); /* the first string as a key too */
	pmc_jw_karray_begin(&w, "s");
	for (size_t i = 0; i <= size; i += strlen(in + i) + 1, nstr++)
		pmc_jw_str(&w, in + i);
	pmc_jw_array_end(&w);
	pmc_jw_object_end(&w);
	fclose(f);
	if (w.err)
		abort();
	for (size_t i = 0; i < len;) {
		size_t n = pmc_utf8_seq(doc + i);

		if (!n || (unsigned char)doc[i] < 0x20 || doc[i] == 0x7f)
			abort(); /* invalid UTF-8 or a raw control byte in the document */
		i += n;
	}
	if (pmc_json_parse(doc, len, &v, err, sizeof(err)))
		abort();
	if (pmc_json_len(pmc_json_get(v, "s")) != nstr)
		abort();
	for (size_t i = 0, k = 0; i <= size; i += strlen(in + i) + 1, k++) {
		char *want = repaired(in + i);

		if (want && strcmp(pmc_json_at(pmc_json_get(v, "s"), k)->str, want))
			abort();
		free(want);
	}
	pmc_json_free(v);
	free(doc);
	free(in);
	return 0;
}
