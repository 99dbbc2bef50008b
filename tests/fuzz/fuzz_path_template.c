/* SPDX-License-Identifier: MIT */
/* -o templates (%h %p %r %j %%): the expansion never writes past its buffer and ends with a NUL. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/path_template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc_origin o = { .host = "node-01.example/x", .pid = 123456, .rank = 17, .job = "job/42" };
	char *buf = malloc(size + 1), out[64], err[256];

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (pmc_path_template(buf, &o, out, sizeof(out), err, sizeof(err)) == 0 && strlen(out) >= sizeof(out))
		abort();
	o.rank = -1;
	o.job[0] = '\0';
	(void)pmc_path_template(buf, &o, out, sizeof(out), err, sizeof(err));
	free(buf);
	return 0;
}
