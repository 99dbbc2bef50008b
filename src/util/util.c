/* SPDX-License-Identifier: MIT */
#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned pmc_edit_distance(const char *a, const char *b, unsigned cap)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned rows[3][PMC_NAME_MAX + 1], *prev2 = rows[0], *prev = rows[1], *row = rows[2], prev_best = 0;

	if (la > PMC_NAME_MAX || lb > PMC_NAME_MAX)
		return cap;
	if ((la > lb ? la - lb : lb - la) >= cap)
		return cap;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned best = (unsigned)i, *t;

		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			unsigned v = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			/* two neighbours swapped ("jsno" for "json") are one typo, not two */
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			row[j] = v;
			if (v < best)
				best = v;
		}
		/* a swap reaches back two rows: only when both are at cap is every later cell */
		if (best >= cap && prev_best >= cap)
			return cap;
		prev_best = best;
		t = prev2;
		prev2 = prev;
		prev = row;
		row = t;
	}
	return prev[lb] < cap ? prev[lb] : cap;
}

int pmc_grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? *cap * 2 : 16;
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

int pmc_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int pmc_parse_dec_u64(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

uint64_t pmc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
