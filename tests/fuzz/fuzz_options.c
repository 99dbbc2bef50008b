/* SPDX-License-Identifier: MIT */
/* Command-line option values: the number parser behind -r, --counters, --iters, --cpu, and the edit distance
 * behind event-name suggestions, on arbitrary bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	uint64_t v;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (pmc_parse_u64(s, 1, 100000, &v) == 0 && (v < 1 || v > 100000))
		abort();
	pmc_parse_u64(s, 0, UINT64_MAX, &v);
	(void)pmc_edit_distance(s, "instructions", 8);
	free(s);
	return 0;
}
