/* SPDX-License-Identifier: MIT */
/* Fuzz the event-set parser: any input parses or fails with a file:line:column message; variants select safely. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eventsets/eventset.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc_eventset *s;
	char err[512];

	if (pmc_eventset_parse((const char *)data, size, "fuzz.set", &s, err, sizeof(err)) == 0) {
		static const char *const pmus[] = { "hsw", "skl", "icx", "amd64_fam19h_zen3", NULL };
		for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
			const struct pmc_eventset_variant *v = pmc_eventset_select(s, pmus[i]);
			if (v && (!v->npmus || (v->nevents && !v->events[0].spelling[0])))
				abort();
		}
		pmc_eventset_free(s);
	} else if (strncmp(err, "fuzz.set:", 9) && strcmp(err, "")) {
		abort(); /* parse errors name the file */
	}
	return 0;
}
