/* SPDX-License-Identifier: MIT */
/* Sweep ranges: lists, a..b, a..b:step, a..b*factor. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/range.h"

/* A decimal number, whole text: optional '-', digits, at most one '.', digits on at least one side. */
static bool parse_num(const char *s, size_t len, double *ret)
{
	char buf[PMC_RANGE_TEXT];
	size_t i = 0, digits = 0, dots = 0;

	if (!len || len >= sizeof(buf))
		return false;
	if (s[0] == '-')
		i++;
	for (; i < len; i++) {
		if (s[i] == '.')
			dots++;
		else if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else
			return false;
	}
	if (!digits || dots > 1)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*ret = strtod(buf, NULL);
	return isfinite(*ret);
}

static bool is_word(const char *s, size_t len)
{
	if (!len || len >= PMC_RANGE_TEXT)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-./:", s[i]))
			return false;
	return true;
}

static int add(struct pmc_range *r, size_t *cap, const char *text, size_t len, double v, char *err, size_t errlen)
{
	if (r->n >= PMC_RANGE_MAX_POINTS) {
		snprintf(err, errlen, "more than %d values: give a larger step (a..b:step) or a factor (a..b*2)",
			 PMC_RANGE_MAX_POINTS);
		return -E2BIG;
	}
	for (size_t i = 0; i < r->n; i++) {
		if ((len == strlen(r->text[i]) && !memcmp(r->text[i], text, len)) || (!isnan(v) && r->val[i] == v)) {
			snprintf(err, errlen, "the value %s is given twice", r->text[i]);
			return -EINVAL;
		}
	}
	if (r->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		char (*t)[PMC_RANGE_TEXT] = realloc(r->text, nc * sizeof(*t));
		double *vv;
		if (!t)
			return -ENOMEM;
		r->text = t;
		vv = realloc(r->val, nc * sizeof(*vv));
		if (!vv)
			return -ENOMEM;
		r->val = vv;
		*cap = nc;
	}
	snprintf(r->text[r->n], PMC_RANGE_TEXT, "%.*s", (int)len, text);
	r->val[r->n++] = v;
	return 0;
}

static int add_num(struct pmc_range *r, size_t *cap, double v, char *err, size_t errlen)
{
	char buf[PMC_RANGE_TEXT];

	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		snprintf(buf, sizeof(buf), "%.10g", v);
	return add(r, cap, buf, strlen(buf), v, err, errlen);
}

/* One item: a..b, a..b:step, a..b*factor, a number or a word. */
static int parse_item(struct pmc_range *r, size_t *cap, const char *s, size_t len, char *err, size_t errlen)
{
	const char *dots = NULL, *tail;
	double a, b, by = 1;
	char op = 0;
	size_t alen;

	for (size_t i = 0; i + 1 < len; i++)
		if (s[i] == '.' && s[i + 1] == '.') {
			dots = s + i;
			break;
		}
	if (!dots) {
		if (parse_num(s, len, &a))
			return add(r, cap, s, len, a, err, errlen);
		if (is_word(s, len)) {
			r->numeric = false;
			return add(r, cap, s, len, NAN, err, errlen);
		}
		snprintf(err, errlen, "'%.*s' is not a number, a word or a range (a..b, a..b:step, a..b*factor)",
			 (int)(len > 40 ? 40 : len), s);
		return -EINVAL;
	}
	alen = (size_t)(dots - s);
	tail = dots + 2;
	len -= alen + 2;
	for (size_t i = 1; i < len; i++) /* ':' or '*' after b's first character (b may be negative) */
		if (tail[i] == ':' || tail[i] == '*') {
			op = tail[i];
			if (!parse_num(tail + i + 1, len - i - 1, &by))
				goto bad;
			len = i;
			break;
		}
	if (!parse_num(s, alen, &a) || !parse_num(tail, len, &b))
		goto bad;
	if (a > b) {
		snprintf(err, errlen, "in '%.*s' the first value is larger than the last", (int)(alen + 2 + len), s);
		return -EINVAL;
	}
	if (op == '*') {
		if (a <= 0 || by <= 1) {
			snprintf(err, errlen, "a geometric range a..b*f needs a > 0 and f > 1");
			return -EINVAL;
		}
		for (double v = a; v <= b * (1 + 1e-12); v *= by) {
			int rc = add_num(r, cap, v, err, errlen);
			if (rc)
				return rc;
		}
		return 0;
	}
	if (by <= 0) {
		snprintf(err, errlen, "a step must be larger than 0");
		return -EINVAL;
	}
	if ((b - a) / by >= PMC_RANGE_MAX_POINTS) {
		snprintf(err, errlen, "'%.*s' gives more than %d values: give a larger step (a..b:step) or a factor "
			 "(a..b*2)", (int)(alen + 2 + len), s, PMC_RANGE_MAX_POINTS);
		return -E2BIG;
	}
	for (size_t k = 0; a + (double)k * by <= b + by * 1e-9; k++) {
		int rc = add_num(r, cap, a + (double)k * by, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
bad:
	snprintf(err, errlen, "'%.*s' is not a range: a..b, a..b:step or a..b*factor with decimal numbers",
		 (int)(alen + 2 + len > 40 ? 40 : alen + 2 + len), s);
	return -EINVAL;
}

int pmc_range_parse(const char *s, struct pmc_range *ret, char *err, size_t errlen)
{
	struct pmc_range r = { .numeric = true };
	size_t cap = 0, len = strlen(s);
	int rc = 0;

	if (len > PMC_RANGE_MAX_LEN) {
		snprintf(err, errlen, "longer than %d characters", PMC_RANGE_MAX_LEN);
		return -E2BIG;
	}
	for (const char *p = s;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);

		if (!n) {
			snprintf(err, errlen, "an empty value (two commas, or one at an end)");
			rc = -EINVAL;
			break;
		}
		if ((rc = parse_item(&r, &cap, p, n, err, errlen)))
			break;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (rc) {
		pmc_range_fini(&r);
		return rc;
	}
	*ret = r;
	return 0;
}

void pmc_range_fini(struct pmc_range *r)
{
	if (!r)
		return;
	free(r->text);
	free(r->val);
	memset(r, 0, sizeof(*r));
}

static uint64_t next_rand(uint64_t *s)
{
	/* splitmix64: a fixed, portable sequence for a given seed */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void pmc_range_schedule(size_t n, unsigned rounds, uint64_t seed, unsigned *order)
{
	for (unsigned r = 0; r < rounds; r++) {
		unsigned *o = order + (size_t)r * n;
		for (size_t i = 0; i < n; i++)
			o[i] = (unsigned)i;
		for (size_t i = n; i > 1; i--) {
			size_t j = (size_t)(next_rand(&seed) % i);
			unsigned t = o[i - 1];
			o[i - 1] = o[j];
			o[j] = t;
		}
	}
}
