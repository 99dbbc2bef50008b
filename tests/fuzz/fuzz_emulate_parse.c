/* SPDX-License-Identifier: MIT */
/* A valgrind log (what --emulate reads back from lackey), on arbitrary bytes: the parser returns 0
 * -ENODATA or -EINVAL, never reads past the text, and its cmd is always NUL-terminated within its buffer. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/emulate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), cmd[40];
	uint64_t v = 0;
	int r;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	r = pmc_emulate_parse(text, &v, cmd, sizeof(cmd));
	if (r != 0 && r != -EINVAL && r != -ENODATA)
		abort();
	if (strnlen(cmd, sizeof(cmd)) >= sizeof(cmd))
		abort();
	free(text);
	return 0;
}
