/* SPDX-License-Identifier: MIT */
/* pmctool stat --dry-run: the plan as a table, or with --json as one JSON document ("kind": "plan" in
 * schema/pmctool-report.schema.json). */
#include <stdio.h>
#include <string.h>

#include "cli/stat.h"

static void json_event_list(struct pmc_jw *w, const struct pmc_engine *se, const size_t *idx, size_t n)
{
	pmc_jw_array_begin(w);
	for (size_t i = 0; i < n; i++) {
		pmc_jw_object_begin(w);
		pmc_json_event_encoding(w, &se->evs[idx[i]]);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

void stat_plan_json(const struct pmc_engine *se, FILE *f)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_header(w, "plan");
	pmc_jw_kstr_or_null(w, "pmu", pmc_pmu_core_name());
	pmc_jw_kstr(w, "mode", se->popts.multiplex ? "multiplex" : "rerun");
	pmc_jw_kuint(w, "events", se->n);
	pmc_jw_kstr(w, "budget", se->budget_why);
	pmc_jw_key(w, "every_batch");
	json_event_list(w, se, se->plan.every, se->plan.nevery);
	pmc_jw_karray_begin(w, "batches");
	for (size_t b = 0; b < se->plan.nbatches; b++)
		json_event_list(w, se, se->plan.batches[b].events, se->plan.batches[b].n);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
	fputc('\n', f);
}

static void print_note(void *ctx, bool warn, const char *name, const char *msg)
{
	(void)name;
	fprintf(ctx, "  %s: %s\n", warn ? "warning" : "note", msg);
}

void stat_names_print_notes(const struct pmc_engine *se, FILE *f)
{
	pmc_eng_names_notes(se, print_note, f);
}

static void print_event_line(FILE *f, const struct pmc_event *ev)
{
	char perf[PMC_NAME_MAX * 2];

	if (pmc_event_perf_spelling(ev, perf, sizeof(perf)) < 0)
		snprintf(perf, sizeof(perf), "?");
	fprintf(f, "    %-28s %-12s %-7u 0x%-14llx %-44s %s%s%.0u%s%s\n", ev->name, pmc_output_class_name(ev->cls),
		ev->attr.type, (unsigned long long)ev->attr.config, perf, (ev->flags & PMC_EVF_ANCHOR) ? "(anchor) " : "",
		ev->group ? "(group " : "", ev->group, ev->group ? ") " : "",
		strcmp(ev->canonical, ev->name) ? ev->canonical : "");
}

void stat_events_print_plan(const struct pmc_engine *se, FILE *f)
{
	const char *core = pmc_pmu_core_name();
	char fixed[48] = "";

	if (se->popts.fixed_slots && pmc_pmu_cycle_counter())
		snprintf(fixed, sizeof(fixed), ", and the cycle counter (cycles only)");
	else if (se->popts.fixed_slots)
		snprintf(fixed, sizeof(fixed), ", %u fixed counters", se->popts.fixed_slots);
	fprintf(f, "Plan: %zu event%s in %zu batch%s (%s) on PMU %s; %s%s\n", se->n, se->n == 1 ? "" : "s",
		se->plan.nbatches,
		se->plan.nbatches == 1 ? "" : "es", se->popts.multiplex ? "multiplex" : "rerun", core ? core : "(none)",
		se->budget_why, fixed);
	fprintf(f, "    %-28s %-12s %-7s %-16s %-44s %s\n", "event", "class", "type", "config", "perf -e spelling",
		"libpfm4 / canonical name");
	if (se->plan.nevery) {
		fprintf(f, "  in every batch:\n");
		for (size_t i = 0; i < se->plan.nevery; i++)
			print_event_line(f, &se->evs[se->plan.every[i]]);
	}
	for (size_t b = 0; b < se->plan.nbatches; b++) {
		fprintf(f, "  batch %zu:%s%s\n", b + 1, se->plan.batches[b].n ? "" : " (only the events above)",
			se->plan.batches[b].fixed_own ? " (its own events take fixed counters: their every-batch users "
							"are left out)" : "");
		for (size_t k = 0; k < se->plan.batches[b].n; k++)
			print_event_line(f, &se->evs[se->plan.batches[b].events[k]]);
	}
	stat_names_print_notes(se, f);
}

