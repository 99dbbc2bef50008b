/* SPDX-License-Identifier: MIT */
/* pmctool's reader of a program's region results (the memfd a marked program appends to) on arbitrary bytes: what is
 * malformed is counted as cut and left out, never trusted; the checks and outputs run over whatever was kept, and
 * every region's calls are the sum of its executions' calls. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "engine/rg_collect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t map[3] = { 0, 1, 2 };
	struct pmc_report rep;
	FILE *f;

	memset(&rep, 0, sizeof(rep));
	rep.events = calloc(3, sizeof(*rep.events));
	if (!rep.events)
		return 0;
	rep.nevents = 3;
	for (size_t i = 0; i < 3; i++)
		snprintf(rep.events[i].ev.name, sizeof(rep.events[i].ev.name), "ev%zu", i);
	/* Twice: a second execution merges into the first. ppid 1 stands for pmctool. */
	if (pmc_regions_collect(&rep, (const char *)data, size, map, 3, 1) == 0 &&
	    pmc_regions_collect(&rep, (const char *)data, size, map, 3, 1) == 0) {
		if (rep.regions->execs != 2)
			abort();
		/* each region's calls are its executions' calls, summed in the same order: a count the reader could not
		 * hold exactly (an out-of-range float conversion made it 0) shows as a difference */
		for (size_t r = 0; r < rep.regions->n; r++) {
			const struct pmc_report_region *rg = &rep.regions->r[r];
			double sum = 0;

			for (size_t k = 0; k < rg->nexec_calls; k++)
				sum += (double)rg->exec_calls[k];
			if (sum != rg->all.calls)
				abort();
		}
		pmc_regions_checks(&rep);
		f = fopen("/dev/null", "w");
		if (f) {
			pmc_output_regions_table(f, &rep);
			struct pmc_jw w;

			pmc_jw_init(&w, f, 0);
			pmc_jw_object_begin(&w);
			pmc_output_regions_json(&w, &rep);
			pmc_jw_object_end(&w);
			if (w.err)
				abort();
			fclose(f);
		}
	}
	pmc_report_fini(&rep);
	return 0;
}
