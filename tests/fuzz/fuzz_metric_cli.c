/* SPDX-License-Identifier: MIT */
/* --metric NAME=FORMULA (pmc_metric_def_parse_cli) on arbitrary bytes: it parses into a named, terminated definition
 * or fails saying why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/metrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), err[256] = "";
	struct pmc_metric_def def;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	memset(&def, 0x5a, sizeof(def)); /* unterminated garbage: a success must leave terminated fields */
	if (pmc_metric_def_parse_cli(s, &def, err, sizeof(err)) == 0) {
		if (!def.name[0] || !memchr(def.name, 0, sizeof(def.name)) ||
		    !memchr(def.formula, 0, sizeof(def.formula)) || !def.formula[0])
			abort();
	} else if (!err[0]) {
		abort(); /* every failure says why */
	}
	free(s);
	return 0;
}
