/* SPDX-License-Identifier: MIT */
/* The JSON reader and the stat-report loader on top of it (compare and merge read files users give): must not crash,
 * leak or read out of bounds, whatever the bytes; the input is not NUL-terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/load.h"
#include "util/json_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), err[256];
	struct pmc_jvalue *v;
	struct pmc_loaded l;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (pmc_json_parse(buf, size, &v, err, sizeof(err)) == 0) {
		(void)pmc_json_get_num(v, "schema_version", 0);
		(void)pmc_json_len(pmc_json_get(v, "events"));
		pmc_json_free(v);
	}
	if (pmc_loaded_parse(buf, size, &l, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < l.n; i++)
			if (l.s[i].nruns && !(l.s[i].min <= l.s[i].max))
				abort();
		pmc_loaded_fini(&l);
	}
	free(buf);
	return 0;
}
