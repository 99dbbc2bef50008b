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

static void json_counts(FILE *f, const struct pmc_report *rep, const struct pmc_region_values *v, bool overhead)
{
	const struct pmc_report_regions *rr = rep->regions;

	fputs(",\"counts\":[", f);
	for (size_t i = 0, k = 0; i < rep->nevents; i++) {
		double x = pmc_region_value(v, i), calls = pmc_region_calls(v);
		bool have_oh = overhead && !isnan(x) && x > 0 && !isnan(rr->cost[i]) && calls > 0;

		fputs(k++ ? ",{\"event\":" : "{\"event\":", f);
		pmc_json_string(f, rep->events[i].ev.name);
		fputs(",\"value\":", f);
		pmc_json_number(f, x);
		fprintf(f, ",\"executions\":%u", v->n ? v->n[i] : 0);
		if (overhead) {
			fputs(",\"overhead_pct\":", f);
			pmc_json_number(f, have_oh ? 100.0 * calls * rr->cost[i] / x : NAN);
		}
		fputc('}', f);
	}
	fputc(']', f);
}

void pmc_output_regions_json(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_report_regions *rr = rep->regions;

	fputs(",\"regions\":", f);
	if (!rr) {
		fputs("null", f);
		return;
	}
	fputs("{\"read\":", f);
	pmc_json_string(f, pmc_regions_read_method(rr));
	fprintf(f, ",\"executions\":%u,\"silent_executions\":%u,\"cut_blocks\":%u,\"processes_max\":%u", rr->execs,
		rr->execs_silent, rr->blocks_cut, rr->procs_max);
	fprintf(f, ",\"misuse\":{\"unmatched_leaves\":%llu,\"invalid_handles\":%llu,\"too_deep\":%llu,"
		"\"refused_names\":%llu,\"refused_calls\":%llu}", (unsigned long long)rr->unmatched,
		(unsigned long long)rr->invalid, (unsigned long long)rr->too_deep, (unsigned long long)rr->bad_names,
		(unsigned long long)rr->refused);
	fputs(",\"pair_cost\":[", f);
	for (size_t i = 0; i < rep->nevents; i++) {
		fputs(i ? ",{\"event\":" : "{\"event\":", f);
		pmc_json_string(f, rep->events[i].ev.name);
		fputs(",\"value\":", f);
		pmc_json_number(f, rr->cost[i]);
		fputc('}', f);
	}
	fputs("],\"top_level\":[", f);
	for (size_t i = 0; i < rep->nevents; i++) {
		fputs(i ? ",{\"event\":" : "{\"event\":", f);
		pmc_json_string(f, rep->events[i].ev.name);
		fputs(",\"value\":", f);
		pmc_json_number(f, rr->top_n[i] ? rr->top_sum[i] / rr->top_n[i] : NAN);
		fputc('}', f);
	}
	fputs("],\"list\":[", f);
	for (size_t r = 0; r < rr->n; r++) {
		const struct pmc_report_region *rg = &rr->r[r];

		fputs(r ? ",{\"name\":" : "{\"name\":", f);
		pmc_json_string(f, rg->name);
		fputs(",\"calls\":", f);
		pmc_json_number(f, pmc_region_calls(&rg->all));
		fputs(",\"calls_per_execution\":[", f);
		for (size_t k = 0; k < rg->nexec_calls && k < rr->execs; k++)
			fprintf(f, "%s%llu", k ? "," : "", (unsigned long long)rg->exec_calls[k]);
		fprintf(f, "],\"not_left\":%u", rg->not_left);
		json_counts(f, rep, &rg->all, true);
		fputs(",\"metrics\":[", f);
		for (size_t m = 0; m < rg->nmetrics; m++) {
			fputs(m ? "," : "", f);
			pmc_json_metric_fields(f, &rg->metrics[m]);
			fputc('}', f);
		}
		fputs("],\"threads\":[", f);
		for (size_t t = 0; t < rg->nthreads; t++) {
			fputs(t ? ",{\"thread\":" : "{\"thread\":", f);
			pmc_json_string(f, rg->threads[t].label);
			fputs(",\"calls\":", f);
			pmc_json_number(f, pmc_region_calls(&rg->threads[t].val));
			json_counts(f, rep, &rg->threads[t].val, false);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("]}", f);
}
