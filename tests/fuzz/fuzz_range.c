/* SPDX-License-Identifier: MIT */
/* pmctool sweep's RANGE parser: must not crash, hang or exceed its limits; an accepted range has 1..1000 values, none
 * twice, and the schedule of its points is a permutation in every round. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/range.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), err[256];
	struct pmc_range r;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (pmc_range_parse(buf, &r, err, sizeof(err)) == 0) {
		unsigned *order = malloc(2 * r.n * sizeof(*order)), *seen = calloc(r.n, sizeof(*seen));
		if (r.n < 1 || r.n > PMC_RANGE_MAX_POINTS)
			abort();
		for (size_t i = 0; i < r.n; i++)
			for (size_t k = i + 1; k < r.n; k++)
				if (!strcmp(r.text[i], r.text[k]))
					abort();
		if (order && seen) {
			pmc_range_schedule(r.n, 2, size, order);
			for (size_t i = 0; i < 2 * r.n; i++)
				if (order[i] >= r.n || ++seen[order[i]] > 2)
					abort();
		}
		free(order);
		free(seen);
		pmc_range_fini(&r);
	}
	free(buf);
	return 0;
}
