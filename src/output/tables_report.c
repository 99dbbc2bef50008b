/* SPDX-License-Identifier: MIT */
/* pmctool tables' report (output/tables_report.h): the text and the JSON document. */
#include <stdio.h>
#include <string.h>

#include "output/tables_report.h"

static const char *format_name(enum pmc_table_format f)
{
	switch (f) {
	case PMC_TABLE_PERFMON:
		return "Intel perfmon";
	case PMC_TABLE_PERF:
		return "Linux perf pmu-events";
	case PMC_TABLE_ARM:
		return "Arm Neoverse";
	default:
		return NULL;
	}
}

static void print_note_text(FILE *f, const struct pmc_table_note *n)
{
	fprintf(f, "  %s: ", n->path);
	if (n->skipped) {
		fprintf(f, "skipped: %s\n", n->why);
		return;
	}
	fprintf(f, "%zu events, %zu metrics", n->events, n->metrics);
	if (n->uncore)
		fprintf(f, ", %zu uncore events left out", n->uncore);
	if (n->bad)
		fprintf(f, ", %zu left out (%s)", n->bad, n->why);
	fprintf(f, "\n");
}

int pmc_tables_table(FILE *f, const struct pmc_tables_report *r)
{
	fprintf(f, "CPUID: %s (%s)\n", r->cpuid ? r->cpuid : "none known", r->cpuid ? r->cpuid_from : "set PMCTOOL_CPUID");
	fprintf(f, "Locations:\n");
	for (size_t i = 0; i < r->nlocations; i++) {
		const struct pmc_table_note *n = &r->locations[i];
		if (r->dir && strcmp(n->path, r->dir) == 0 && !n->why[0])
			fprintf(f, "  %s: used\n", n->path);
		else
			fprintf(f, "  %s: %s\n", n->path, n->why[0] ? n->why : "passed over");
	}
	if (!r->dir) {
		fprintf(f, "No tables for this CPU.\n");
		return 0;
	}
	fprintf(f, "Tables: %s (%s, from %s)\n", r->dir, format_name(r->format), r->dir_from);
	if (r->mapfile)
		fprintf(f, "Mapfile: %s, row '%s' -> %s\n", r->mapfile, r->matched, r->model);
	else
		fprintf(f, "Matched: %s -> %s\n", r->matched, r->model);
	fprintf(f, "Events: %zu (%zu deprecated), metrics: %zu\n", r->nevents, r->ndeprecated, r->nmetrics);
	if (r->nconflicts)
		fprintf(f, "Conflicts: %zu event name(s) defined twice with different codes, the first read is used: %s%s\n",
		       r->nconflicts, r->conflict, r->nconflicts > 1 ? ", ..." : "");
	fprintf(f, "Files:\n");
	for (size_t i = 0; i < r->nfiles; i++)
		print_note_text(f, &r->files[i]);
	return 0;
}

static void json_note(struct pmc_jw *w, const struct pmc_table_note *n, bool file)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "path", n->path);
	if (file) {
		pmc_jw_kbool(w, "skipped", n->skipped);
		pmc_jw_kuint(w, "events", n->events);
		pmc_jw_kuint(w, "metrics", n->metrics);
		pmc_jw_kuint(w, "bad", n->bad);
		pmc_jw_kuint(w, "uncore", n->uncore);
	}
	pmc_jw_kstr_or_null(w, "why", n->why);
	pmc_jw_object_end(w);
}

/* tables' document has no "kind" (it predates the shared header): schema_version alone. */
int pmc_tables_json(FILE *f, const struct pmc_tables_report *r)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_jw_object_begin(w);
	pmc_jw_kint(w, "schema_version", PMC_JSON_SCHEMA_VERSION);
	pmc_jw_kstr_or_null(w, "cpuid", r->cpuid);
	pmc_jw_kstr_or_null(w, "cpuid_from", r->cpuid ? r->cpuid_from : NULL);
	pmc_jw_kstr_or_null(w, "dir", r->dir);
	pmc_jw_kstr_or_null(w, "dir_from", r->dir ? r->dir_from : NULL);
	pmc_jw_kstr_or_null(w, "format", format_name(r->format));
	pmc_jw_kstr_or_null(w, "mapfile", r->mapfile);
	pmc_jw_kstr_or_null(w, "matched", r->matched);
	pmc_jw_kstr_or_null(w, "model", r->model);
	pmc_jw_kuint(w, "events", r->nevents);
	pmc_jw_kuint(w, "deprecated", r->ndeprecated);
	pmc_jw_kuint(w, "metrics", r->nmetrics);
	pmc_jw_karray_begin(w, "locations");
	for (size_t i = 0; i < r->nlocations; i++)
		json_note(w, &r->locations[i], false);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "files");
	for (size_t i = 0; i < r->nfiles; i++)
		json_note(w, &r->files[i], true);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
	fputc('\n', f);
	return 0;
}
