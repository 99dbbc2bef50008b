/* SPDX-License-Identifier: MIT */
/* The JSON writer (json_write.h). */
#include "util/json_write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t pmc_utf8_seq(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp, min;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0; /* a continuation byte alone, an overlong lead (0xc0, 0xc1), or past U+10FFFF */
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* the terminating NUL stops here too */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0; /* overlong, out of range, or a UTF-16 surrogate */
	return n;
}

/* The writer is the one user of its stream while it writes: stdio's unlocked calls (GNU), no lock per call. */
static void put(FILE *f, const char *p, size_t n)
{
	fwrite_unlocked(p, 1, n, f);
}

static void puts_(FILE *f, const char *p)
{
	put(f, p, strlen(p));
}

/* Whether byte c is written as it is (printable ASCII but the quote and the backslash). */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void pmc_json_string(FILE *f, const char *s)
{
	fputc_unlocked('"', f);
	while (s && *s) {
		unsigned char c = (unsigned char)*s;
		size_t n;

		if (plain(c)) { /* a run of plain bytes in one write: the common case, names and labels */
			const char *run = s;

			while (plain((unsigned char)*s))
				s++;
			put(f, run, (size_t)(s - run));
			continue;
		}
		if (!(n = pmc_utf8_seq(s))) {
			put(f, "\\ufffd", 6); /* a byte that is not UTF-8: the replacement character, one per byte */
			s++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			put(f, "\\n", 2);
		else if (c == '\t')
			put(f, "\\t", 2);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			put(f, s, n);
		s += n;
	}
	fputc_unlocked('"', f);
}

static void string_or_null(FILE *f, const char *s)
{
	if (s && *s)
		pmc_json_string(f, s);
	else
		put(f, "null", 4);
}

void pmc_json_shortest(double v, char *buf, size_t len)
{
	/* whole numbers that a double holds exactly are written whole (no libm: the region library links libc only) */
	if ((v < 0 ? -v : v) < 9.007199254740992e15 && v == (double)(long long)v) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* ---- the writer ---- */

void pmc_jw_init(struct pmc_jw *w, FILE *f, unsigned flags)
{
	*w = (struct pmc_jw){ .f = f, .flags = flags };
}

void pmc_jw_break(struct pmc_jw *w, const char *text)
{
	w->brk = text;
}

static void indent(struct pmc_jw *w)
{
	fputc_unlocked('\n', w->f);
	for (unsigned i = 0; i < w->depth; i++)
		put(w->f, "  ", 2);
}

/* Before a key, or a value that is not a key's: the comma after the container's previous member. */
static void next_member(struct pmc_jw *w)
{
	uint32_t bit;

	if (!w->depth)
		return;
	bit = UINT32_C(1) << (w->depth - 1);
	if (w->filled & bit)
		puts_(w->f, w->brk || !(w->flags & (PMC_JW_PERF | PMC_JW_SPACED)) ? "," : ", ");
	if (w->brk)
		puts_(w->f, w->brk), w->brk = NULL;
	w->filled |= bit;
	if (w->flags & PMC_JW_PRETTY)
		indent(w);
}

/* Before any value: a key's value follows it directly; any other is an item. */
static void value(struct pmc_jw *w)
{
	if (w->keyed)
		w->keyed = false;
	else
		next_member(w);
}

void pmc_jw_key(struct pmc_jw *w, const char *key)
{
	char buf[80];
	size_t n = 0;

	/* the common case in one write: a plain short key, compact, no break or pretty layout pending */
	if (w->depth && !(w->array & (UINT32_C(1) << (w->depth - 1))) && !w->brk &&
	    !(w->flags & (PMC_JW_PRETTY | PMC_JW_PERF | PMC_JW_SPACED))) {
		uint32_t bit = UINT32_C(1) << (w->depth - 1);
		const char *k = key ? key : "";

		if (w->filled & bit)
			buf[n++] = ',';
		buf[n++] = '"';
		while (*k && plain((unsigned char)*k) && n < sizeof(buf) - 2)
			buf[n++] = *k++;
		if (!*k) {
			buf[n++] = '"';
			buf[n++] = ':';
			w->filled |= bit;
			put(w->f, buf, n);
			w->keyed = true;
			return;
		}
	}
	if (!w->depth || (w->array & (UINT32_C(1) << (w->depth - 1))))
		w->err = true; /* written anyway: the document shows where the caller went wrong */
	next_member(w);
	pmc_json_string(w->f, key);
	puts_(w->f, w->flags & PMC_JW_PERF ? " : " : w->flags & (PMC_JW_PRETTY | PMC_JW_SPACED) ? ": " : ":");
	w->keyed = true;
}

static void begin(struct pmc_jw *w, char open, bool array)
{
	uint32_t bit;

	if (w->depth >= PMC_JW_MAX_DEPTH) {
		w->err = true;
		return;
	}
	value(w);
	fputc_unlocked(open, w->f);
	bit = UINT32_C(1) << w->depth++;
	w->filled &= ~bit;
	w->array = array ? w->array | bit : w->array & ~bit;
}

static void end(struct pmc_jw *w, char close, bool array)
{
	uint32_t bit;

	if (!w->depth) {
		w->err = true;
		return;
	}
	bit = UINT32_C(1) << (w->depth - 1);
	if (!!(w->array & bit) != array)
		w->err = true;
	w->depth--;
	if (w->brk)
		puts_(w->f, w->brk), w->brk = NULL;
	else if ((w->flags & PMC_JW_PRETTY) && (w->filled & bit))
		indent(w);
	fputc_unlocked(close, w->f);
}

void pmc_jw_object_begin(struct pmc_jw *w)
{
	begin(w, '{', false);
}

void pmc_jw_object_end(struct pmc_jw *w)
{
	end(w, '}', false);
}

void pmc_jw_array_begin(struct pmc_jw *w)
{
	begin(w, '[', true);
}

void pmc_jw_array_end(struct pmc_jw *w)
{
	end(w, ']', true);
}

void pmc_jw_str(struct pmc_jw *w, const char *s)
{
	value(w);
	pmc_json_string(w->f, s);
}

void pmc_jw_str_or_null(struct pmc_jw *w, const char *s)
{
	value(w);
	string_or_null(w->f, s);
}

void pmc_jw_raw(struct pmc_jw *w, const char *text)
{
	value(w);
	puts_(w->f, text);
}

void pmc_jw_null(struct pmc_jw *w)
{
	pmc_jw_raw(w, "null");
}

void pmc_jw_bool(struct pmc_jw *w, bool b)
{
	pmc_jw_raw(w, b ? "true" : "false");
}

/* v's decimal digits ending at end (no NUL); the first digit's address. printf's %llu without its cost: -I writes
 * several integers a record. */
static char *digits(char *end, unsigned long long v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

void pmc_jw_int(struct pmc_jw *w, long long v)
{
	char buf[24], *end = buf + sizeof(buf), *p = digits(end, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);

	if (v < 0)
		*--p = '-';
	value(w);
	put(w->f, p, (size_t)(end - p));
}

void pmc_jw_uint(struct pmc_jw *w, unsigned long long v)
{
	char buf[24], *end = buf + sizeof(buf), *p = digits(end, v);

	value(w);
	put(w->f, p, (size_t)(end - p));
}

void pmc_jw_num(struct pmc_jw *w, double v)
{
	char buf[40];

	if (!isfinite(v)) {
		pmc_jw_null(w);
		return;
	}
	pmc_json_shortest(v, buf, sizeof(buf));
	pmc_jw_raw(w, buf);
}

void pmc_jw_fixed(struct pmc_jw *w, int decimals, double v)
{
	if (!isfinite(v)) {
		pmc_jw_null(w);
		return;
	}
	value(w);
	fprintf(w->f, "%.*f", decimals, v);
}

void pmc_jw_prec(struct pmc_jw *w, int digits, double v)
{
	if (!isfinite(v)) {
		pmc_jw_null(w);
		return;
	}
	value(w);
	fprintf(w->f, "%.*g", digits, v);
}

void pmc_jw_kstr(struct pmc_jw *w, const char *key, const char *s)
{
	pmc_jw_key(w, key);
	pmc_jw_str(w, s);
}

void pmc_jw_kstr_or_null(struct pmc_jw *w, const char *key, const char *s)
{
	pmc_jw_key(w, key);
	pmc_jw_str_or_null(w, s);
}

void pmc_jw_knull(struct pmc_jw *w, const char *key)
{
	pmc_jw_key(w, key);
	pmc_jw_null(w);
}

void pmc_jw_kbool(struct pmc_jw *w, const char *key, bool b)
{
	pmc_jw_key(w, key);
	pmc_jw_bool(w, b);
}

void pmc_jw_kint(struct pmc_jw *w, const char *key, long long v)
{
	pmc_jw_key(w, key);
	pmc_jw_int(w, v);
}

void pmc_jw_kuint(struct pmc_jw *w, const char *key, unsigned long long v)
{
	pmc_jw_key(w, key);
	pmc_jw_uint(w, v);
}

void pmc_jw_knum(struct pmc_jw *w, const char *key, double v)
{
	pmc_jw_key(w, key);
	pmc_jw_num(w, v);
}

void pmc_jw_kfixed(struct pmc_jw *w, const char *key, int decimals, double v)
{
	pmc_jw_key(w, key);
	pmc_jw_fixed(w, decimals, v);
}

void pmc_jw_kprec(struct pmc_jw *w, const char *key, int digits, double v)
{
	pmc_jw_key(w, key);
	pmc_jw_prec(w, digits, v);
}

void pmc_jw_kint_if(struct pmc_jw *w, const char *key, bool have, long long v)
{
	pmc_jw_key(w, key);
	if (have)
		pmc_jw_int(w, v);
	else
		pmc_jw_null(w);
}

void pmc_jw_kuint_if(struct pmc_jw *w, const char *key, bool have, unsigned long long v)
{
	pmc_jw_key(w, key);
	if (have)
		pmc_jw_uint(w, v);
	else
		pmc_jw_null(w);
}

void pmc_jw_knum_if(struct pmc_jw *w, const char *key, bool have, double v)
{
	pmc_jw_key(w, key);
	pmc_jw_num(w, have ? v : NAN);
}

void pmc_jw_kobject_begin(struct pmc_jw *w, const char *key)
{
	pmc_jw_key(w, key);
	pmc_jw_object_begin(w);
}

void pmc_jw_karray_begin(struct pmc_jw *w, const char *key)
{
	pmc_jw_key(w, key);
	pmc_jw_array_begin(w);
}
