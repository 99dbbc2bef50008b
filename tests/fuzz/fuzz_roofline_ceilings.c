/* SPDX-License-Identifier: MIT */
/* The roofline's ceilings cache file (read from the user's cache directory): whatever its bytes, the parser must not
 * crash, must fail with a message naming a line or yield ceilings that satisfy the file's own invariants, and those
 * must format and parse again to the same values. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "roofline/roofline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pmc_rf_ceilings c, d;
	static char out[65536];
	char err[256] = "", *text;

	if (size > 65536)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (pmc_rf_ceilings_parse(text, &c, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < c.n; i++)
			assert(!c.c[i].valid || (c.c[i].min <= c.c[i].median && c.c[i].median <= c.c[i].max));
		if (pmc_rf_ceilings_format(&c, out, sizeof(out)) == 0) {
			assert(pmc_rf_ceilings_parse(out, &d, err, sizeof(err)) == 0);
			assert(d.n == c.n && !strcmp(d.fingerprint, c.fingerprint));
			for (size_t i = 0; i < c.n; i++)
				assert(d.c[i].median == c.c[i].median && d.c[i].valid == c.c[i].valid);
		}
	} else {
		assert(strstr(err, "line "));
	}
	free(text);
	return 0;
}
