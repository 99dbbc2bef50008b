/* SPDX-License-Identifier: MIT */
/* Fuzz the formula parser and evaluator: any input parses or fails cleanly; evaluation never crashes. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "formula_lookup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = malloc(size + 1), err[256], reason[256];
	struct pmc_expr *e;
	double v;

	if (!src)
		return 0;
	memcpy(src, data, size);
	src[size] = '\0';
	if (pmc_expr_parse(src, &e, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < pmc_expr_name_count(e); i++)
			if (!pmc_expr_name(e, i)[0])
				abort(); /* names are never empty */
		if (pmc_expr_eval(e, lookup, NULL, &v, reason, sizeof(reason)) == 0 && v != v)
			abort(); /* never NaN */
		pmc_expr_free(e);
	} else if (!err[0]) {
		abort(); /* every failure says why */
	}
	free(src);
	return 0;
}
