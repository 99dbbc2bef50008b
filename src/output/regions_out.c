/* SPDX-License-Identifier: MIT */
/* stat --regions in the human table and in JSON: one block per region (calls, counts, metrics; merged, then per
 * thread), after the whole program's counts. CSV's region rows are in csv.c (its row builder). */
#include <math.h>
#include <string.h>

#include "output/output.h"
#include "report/regions.h"

static void table_values(FILE *f, const struct pmc_report *rep, const struct pmc_region_values *v, bool cost)
{
	const struct pmc_report_regions *rr = rep->regions;

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		double x = pmc_region_value(v, i), calls = pmc_region_calls(v);
		char num[64];

		if (e->nparts)
			continue;
		if (isnan(x))
			snprintf(num, sizeof(num), "<not counted>");
		else if (e->ev.flags & PMC_EVF_TIME_NS)
			pmc_output_group_fixed(x / 1e6, 2, num, sizeof(num));
		else
			pmc_output_group_digits(x, num, sizeof(num));
		fprintf(f, "  %20s %-5s %s", num, !isnan(x) && (e->ev.flags & PMC_EVF_TIME_NS) ? "msec" : "", e->ev.name);
		if (cost && !isnan(x) && x > 0 && !isnan(rr->cost[i]) && calls > 0)
			fprintf(f, "   (markers: %.2g%%)", 100.0 * calls * rr->cost[i] / x);
		fputc('\n', f);
	}
}

void pmc_output_regions_table(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_report_regions *rr = rep->regions;

	if (!rr)
		return;
	fprintf(f, "\n Regions (counts per execution; counters read %s in the program; %u execution%s", 
		pmc_regions_read_method(rr), rr->execs, rr->execs == 1 ? "" : "s");
	fprintf(f, "):\n");
	if (!rr->n)
		fprintf(f, "  no region was entered and left\n");
	for (size_t r = 0; r < rr->n; r++) {
		const struct pmc_report_region *rg = &rr->r[r];

		fprintf(f, "\n  region %s: %.6g call%s", rg->name, pmc_region_calls(&rg->all),
			pmc_region_calls(&rg->all) == 1 ? "" : "s");
		if (rg->nthreads > 1)
			fprintf(f, " in %zu threads", rg->nthreads);
		fprintf(f, "%s\n", rg->not_left ? " (entered and not left: see the checks)" : "");
		table_values(f, rep, &rg->all, true);
		for (size_t m = 0; m < rg->nmetrics; m++) {
			const struct pmc_metric_value *mv = &rg->metrics[m];

			if (mv->valid)
				fprintf(f, "  %20.4g %-5s %s\n", mv->value, mv->unit, mv->name);
			else
				fprintf(f, "  %20s %-5s %s (%s)\n", "n/a", "", mv->name, mv->reason);
		}
		for (size_t t = 0; rg->nthreads > 1 && t < rg->nthreads; t++) {
			fprintf(f, "   thread %s: %.6g call%s\n", rg->threads[t].label, pmc_region_calls(&rg->threads[t].val),
				pmc_region_calls(&rg->threads[t].val) == 1 ? "" : "s");
			table_values(f, rep, &rg->threads[t].val, false);
		}
	}
	fprintf(f, "\n  an empty enter/leave pair in a region's own counts:");
	for (size_t i = 0, k = 0; i < rep->nevents; i++) {
		if (isnan(rr->cost[i]))
			continue;
		fprintf(f, "%s %.0f %s", k++ ? "," : "", rr->cost[i], rep->events[i].ev.name);
	}
	fputc('\n', f);
}

static void json_counts(struct pmc_jw *w, const struct pmc_report *rep, const struct pmc_region_values *v,
			bool overhead)
{
	const struct pmc_report_regions *rr = rep->regions;

	pmc_jw_karray_begin(w, "counts");
	for (size_t i = 0; i < rep->nevents; i++) {
		double x = pmc_region_value(v, i), calls = pmc_region_calls(v);
		bool have_oh = overhead && !isnan(x) && x > 0 && !isnan(rr->cost[i]) && calls > 0;

		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "event", rep->events[i].ev.name);
		pmc_jw_knum(w, "value", x);
		pmc_jw_kuint(w, "executions", v->n ? v->n[i] : 0);
		if (overhead)
			pmc_jw_knum_if(w, "overhead_pct", have_oh, have_oh ? 100.0 * calls * rr->cost[i] / x : 0);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

/* One value per event: {"event":NAME,"value":V}. */
static void json_per_event(struct pmc_jw *w, const char *key, const struct pmc_report *rep, const double *sum,
			   const unsigned *n)
{
	pmc_jw_karray_begin(w, key);
	for (size_t i = 0; i < rep->nevents; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "event", rep->events[i].ev.name);
		pmc_jw_knum(w, "value", !n ? sum[i] : n[i] ? sum[i] / n[i] : NAN);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

static void json_region(struct pmc_jw *w, const struct pmc_report *rep, const struct pmc_report_region *rg)
{
	const struct pmc_report_regions *rr = rep->regions;

	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", rg->name);
	pmc_jw_knum(w, "calls", pmc_region_calls(&rg->all));
	pmc_jw_karray_begin(w, "calls_per_execution");
	for (size_t k = 0; k < rg->nexec_calls && k < rr->execs; k++)
		pmc_jw_uint(w, rg->exec_calls[k]);
	pmc_jw_array_end(w);
	pmc_jw_kuint(w, "not_left", rg->not_left);
	json_counts(w, rep, &rg->all, true);
	pmc_jw_karray_begin(w, "metrics");
	for (size_t m = 0; m < rg->nmetrics; m++) {
		pmc_json_metric_fields(w, &rg->metrics[m]);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "threads");
	for (size_t t = 0; t < rg->nthreads; t++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "thread", rg->threads[t].label);
		pmc_jw_knum(w, "calls", pmc_region_calls(&rg->threads[t].val));
		json_counts(w, rep, &rg->threads[t].val, false);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

void pmc_output_regions_json(struct pmc_jw *w, const struct pmc_report *rep)
{
	const struct pmc_report_regions *rr = rep->regions;

	if (!rr) {
		pmc_jw_knull(w, "regions");
		return;
	}
	pmc_jw_kobject_begin(w, "regions");
	pmc_jw_kstr(w, "read", pmc_regions_read_method(rr));
	pmc_jw_kuint(w, "executions", rr->execs);
	pmc_jw_kuint(w, "silent_executions", rr->execs_silent);
	pmc_jw_kuint(w, "cut_blocks", rr->blocks_cut);
	pmc_jw_kuint(w, "processes_max", rr->procs_max);
	pmc_jw_kobject_begin(w, "misuse");
	pmc_jw_kuint(w, "unmatched_leaves", rr->unmatched);
	pmc_jw_kuint(w, "invalid_handles", rr->invalid);
	pmc_jw_kuint(w, "too_deep", rr->too_deep);
	pmc_jw_kuint(w, "refused_names", rr->bad_names);
	pmc_jw_kuint(w, "refused_calls", rr->refused);
	pmc_jw_object_end(w);
	json_per_event(w, "pair_cost", rep, rr->cost, NULL);
	json_per_event(w, "top_level", rep, rr->top_sum, rr->top_n);
	pmc_jw_karray_begin(w, "list");
	for (size_t r = 0; r < rr->n; r++)
		json_region(w, rep, &rr->r[r]);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}
