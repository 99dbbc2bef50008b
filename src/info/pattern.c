/* SPDX-License-Identifier: MIT */
#include "info/pattern.h"

#include <ctype.h>
#include <string.h>

bool pmc_pattern_is_glob(const char *pattern)
{
	return strpbrk(pattern, "*?") != NULL;
}

static bool same(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Greedy with one resume point: after a '*' fails further on, retry it one character later. */
static bool glob(const char *p, const char *t)
{
	const char *star = NULL, *resume = NULL;

	while (*t) {
		if (*p == '*') {
			star = ++p;
			resume = t;
		} else if (*p && (*p == '?' || same(*p, *t))) {
			p++;
			t++;
		} else if (star) {
			p = star;
			t = ++resume;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

static bool substring(const char *p, const char *t)
{
	size_t lp = strlen(p);

	for (; *t; t++)
		if (!strncasecmp(t, p, lp))
			return true;
	return lp == 0;
}

bool pmc_pattern_match(const char *pattern, const char *text)
{
	if (!text)
		return false;
	return pmc_pattern_is_glob(pattern) ? glob(pattern, text) : substring(pattern, text);
}
