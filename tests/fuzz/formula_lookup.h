/* SPDX-License-Identifier: MIT */
/* The formula fuzz targets' lookup (fuzz_formula.c, fuzz_formula_perf.c). */
#ifndef PMC_TESTS_FORMULA_LOOKUP_H
#define PMC_TESTS_FORMULA_LOOKUP_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Every name has a value derived from its length; names starting with 'z' are zero, with 'n' not available. */
static int lookup(const char *name, void *ctx, double *ret, char *reason, size_t len)
{
	(void)ctx;
	if (name[0] == 'n') {
		snprintf(reason, len, "event '%s' was not counted", name);
		return -ENOENT;
	}
	*ret = name[0] == 'z' ? 0 : (double)strlen(name) * 1e6;
	return 0;
}

#endif
