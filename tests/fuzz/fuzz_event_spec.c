/* SPDX-License-Identifier: MIT */
/* pmc_event_resolve, pmc_event_list_split and pmc_event_perf_spelling on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/event.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int resolve_cb(const char *spec, void *ctx)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;
	char buf[512];

	(void)ctx;
	if (!pmc_event_resolve(spec, &ev, &err))
		pmc_event_perf_spelling(&ev, buf, sizeof(buf));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	if (!inited) {
		/* deterministic encodings wherever it runs */
		setenv("LIBPFM_FORCE_PMU", "hsw", 0);
		pmc_pmu_init(NULL, 0);
		inited = 1;
	}
	memcpy(s, data, size);
	s[size] = '\0';
	resolve_cb(s, NULL);
	pmc_event_list_split(s, resolve_cb, NULL);
	free(s);
	return 0;
}
