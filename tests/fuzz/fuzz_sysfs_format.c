/* SPDX-License-Identifier: MIT */
/* The sysfs format and event-alias parsers on arbitrary bytes: "config:0-7,32-35", "event=0x3c,umask=1". */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sys/pmu_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int term_cb(const char *name, const char *value, void *ctx)
{
	size_t *n = ctx;

	*n += strlen(name) + (value ? strlen(value) : 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc_sysfs_format f;
	uint64_t cfg[3] = { 0, 0, 0 };
	char *s = malloc(size + 1);
	size_t n = 0;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (!pmc_sysfs_format_parse(s, &f)) {
		pmc_sysfs_format_apply(&f, 1, cfg);
		pmc_sysfs_format_apply(&f, UINT64_MAX, cfg);
		pmc_sysfs_format_apply(&f, size, cfg);
	}
	pmc_sysfs_terms_parse(s, term_cb, &n);
	free(s);
	return 0;
}
