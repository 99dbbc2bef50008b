/* SPDX-License-Identifier: MIT */
#include "report/regions.h"

#include <math.h>
#include <stdlib.h>

double pmc_region_value(const struct pmc_region_values *v, size_t i)
{
	return v->n && v->n[i] ? v->sum[i] / v->n[i] : NAN;
}

double pmc_region_calls(const struct pmc_region_values *v)
{
	return v->ncalls ? v->calls / v->ncalls : 0;
}

const char *pmc_regions_read_method(const struct pmc_report_regions *rr)
{
	if (rr->reads_inproc && rr->reads_syscall)
		return "in process and read(2)";
	if (rr->reads_inproc)
		return "in process";
	if (rr->reads_syscall)
		return "read(2)";
	return "none";
}

static void values_free(struct pmc_region_values *v)
{
	free(v->sum);
	free(v->n);
}

void pmc_report_regions_free(struct pmc_report_regions *rr)
{
	if (!rr)
		return;
	for (size_t i = 0; i < rr->n; i++) {
		struct pmc_report_region *r = &rr->r[i];

		values_free(&r->all);
		for (size_t t = 0; t < r->nthreads; t++)
			values_free(&r->threads[t].val);
		free(r->threads);
		free(r->exec_calls);
		free(r->metrics);
	}
	free(rr->r);
	free(rr->cost);
	free(rr->top_sum);
	free(rr->top_n);
	free(rr);
}
