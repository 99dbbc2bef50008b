/* SPDX-License-Identifier: MIT */
/* libpmctool's PMCTOOL_REGIONS_EVENTS parser (a person's list in standalone mode, pmctool's encoded attrs) on
 * arbitrary bytes: it accepts at most 16 events with names that fit, or fails with a message, never overruns. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "regions/lib/rg_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), why[256] = "";

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	memset(&pmc_rg, 0, sizeof(pmc_rg));
	if (pmc_rg_parse_events(s, why, sizeof(why)) == 0) {
		if (pmc_rg.nev < 0 || pmc_rg.nev > PMCTOOL_REGION_EVENTS_MAX)
			abort();
		for (int i = 0; i < pmc_rg.nev; i++)
			if (strlen(pmc_rg.evname[i]) > PMC_RG_NAME_MAX || !pmc_rg.evname[i][0])
				abort();
	} else if (!why[0]) {
		abort();
	}
	free(s);
	return 0;
}
