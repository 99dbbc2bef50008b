/* SPDX-License-Identifier: MIT */
/* pmctool list's PATTERN matcher: input = pattern, newline, text. Must not crash, hang or read out of bounds; a
 * pattern must always match itself when it has no wildcard. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "info/pattern.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *nl;
	const char *text;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	nl = strchr(buf, '\n');
	text = "";
	if (nl) {
		*nl = '\0';
		text = nl + 1;
	}
	(void)pmc_pattern_match(buf, text);
	if (!pmc_pattern_is_glob(buf) && !pmc_pattern_match(buf, buf))
		abort();
	free(buf);
	return 0;
}
