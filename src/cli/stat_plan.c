/* SPDX-License-Identifier: MIT */
/* pmctool stat --dry-run --json: the plan as one JSON document ("kind": "plan" in schema/pmctool-report.schema.json). */
#include <stdio.h>

#include "cli/stat.h"

static void json_event_list(FILE *f, const struct stat_events *se, const size_t *idx, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",{" : "{", f);
		pmc_json_event_encoding(f, &se->evs[idx[i]]);
		fputc('}', f);
	}
	fputc(']', f);
}

void stat_plan_json(const struct stat_events *se, FILE *f)
{
	pmc_json_header(f, "plan");
	fputs(",\"pmu\":", f);
	pmc_json_string_or_null(f, pmc_pmu_core_name());
	fprintf(f, ",\"mode\":\"%s\",\"events\":%zu,\"budget\":", se->popts.multiplex ? "multiplex" : "rerun", se->n);
	pmc_json_string(f, se->budget_why);
	fputs(",\"every_batch\":", f);
	json_event_list(f, se, se->plan.every, se->plan.nevery);
	fputs(",\"batches\":[", f);
	for (size_t b = 0; b < se->plan.nbatches; b++) {
		if (b)
			fputc(',', f);
		json_event_list(f, se, se->plan.batches[b].events, se->plan.batches[b].n);
	}
	fputs("]}\n", f);
}
