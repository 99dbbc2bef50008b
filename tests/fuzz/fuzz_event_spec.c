/* SPDX-License-Identifier: MIT */
/* pmc_event_resolve, pmc_event_list_split / _walk (perf's groups) and pmc_event_perf_spelling on arbitrary bytes;
 * tracepoint names against the fixture tracefs when PMC_SOURCE_DIR is set. */
#include <stdint.h>
#include <stdio.h>
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

static int walk_cb(const struct pmc_spec_item *it, void *ctx)
{
	struct pmc_event ev;
	char why[200];

	(void)ctx;
	if (!pmc_event_resolve(it->spec, &ev, NULL) && it->group)
		pmc_event_group_mods(it->group_mods, &ev, why, sizeof(why));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned groups = 0;
	char err[300];
	static int inited;
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	if (!inited) {
		/* deterministic encodings wherever it runs */
		setenv("LIBPFM_FORCE_PMU", "hsw", 0);
		if (getenv("PMC_SOURCE_DIR")) {
			char root[4096];

			snprintf(root, sizeof(root), "%s/tests/pmu/tracefs", getenv("PMC_SOURCE_DIR"));
			setenv("PMCTOOL_TRACEFS", root, 0);
		}
		pmc_pmu_init(NULL, 0);
		inited = 1;
	}
	memcpy(s, data, size);
	s[size] = '\0';
	resolve_cb(s, NULL);
	pmc_event_list_split(s, resolve_cb, NULL);
	pmc_event_list_walk(s, &groups, walk_cb, NULL, err, sizeof(err));
	free(s);
	return 0;
}
