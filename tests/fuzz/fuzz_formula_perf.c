/* SPDX-License-Identifier: MIT */
/* Fuzz perf's metric language (pmc_expr_parse_perf), the evaluator and pmc_expr_render: any input parses or fails
 * cleanly; evaluation never crashes. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "formula_lookup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Only '#' literals are known (as when -M plans): what pmc_expr_prune may fold. */
static int literal(const char *name, void *ctx, double *ret, char *reason, size_t len)
{
	(void)ctx, (void)reason, (void)len;
	if (name[0] != '#')
		return -ENOENT;
	*ret = (double)(strlen(name) % 2);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *src = malloc(size + 1), err[256], reason[256], text[8192];
	struct pmc_expr *e, *back;
	double v;

	if (!src)
		return 0;
	memcpy(src, data, size);
	src[size] = '\0';
	if (pmc_expr_parse_perf(src, &e, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < pmc_expr_name_count(e); i++)
			if (!pmc_expr_name(e, i)[0])
				abort(); /* names are never empty */
		if (pmc_expr_eval(e, lookup, NULL, &v, reason, sizeof(reason)) == 0 && v != v)
			abort(); /* never NaN */
		if (pmc_expr_prune(e, literal, NULL) == 0) {
			for (size_t i = 0; i < pmc_expr_name_count(e); i++)
				if (!pmc_expr_name(e, i)[0])
					abort();
			if (pmc_expr_eval(e, lookup, NULL, &v, reason, sizeof(reason)) == 0 && v != v)
				abort();
		}
		/* written back as pmctool's formula, it parses (when it fits pmctool's limits) */
		if (strlen(src) < 1000 && pmc_expr_render(e, NULL, NULL, text, sizeof(text)) == 0 &&
		    pmc_expr_name_count(e) && pmc_expr_parse(text, &back, err, sizeof(err)) == 0)
			pmc_expr_free(back);
		pmc_expr_free(e);
	} else if (!err[0]) {
		abort(); /* every failure says why */
	}
	free(src);
	return 0;
}
