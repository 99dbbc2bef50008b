/* SPDX-License-Identifier: MIT */
/* pmctool tables: which vendor event tables (doc/tables.md) were looked for, which matched this CPU and from where,
 * what they hold, and why a file or a location was passed over: pmc_tables_report, printed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "tables/tables.h"
#include "util/json_write.h"
#include "util/util.h"

struct tables_cli {
	const char *dir;
	bool json;
};

static const struct pmc_opt tables_opts[] = {
	{ .long_name = "tables", .kind = PMC_OPT_VALUE, .metavar = "DIR", .field = PMC_OPT_FIELD(struct tables_cli, dir),
	  .help = "look in DIR first (a perf pmu-events tree, an Intel perfmon checkout, Arm Neoverse files)" },
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct tables_cli, json),
	  .help = "one JSON object instead of text" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this help" },
	{ .kind = PMC_OPT_END },
};

const struct pmc_opts_cmd pmc_opts_tables_cmd = {
	.name = "tables",
	.opts = tables_opts,
	.usage = "Usage: pmctool tables [--tables DIR] [--json]\n\n"
		 "Show the vendor event tables (JSON event lists: Linux perf's pmu-events tree, Intel perfmon, Arm's\n"
		 "Neoverse files) that pmctool reads at run time: the locations searched (--tables DIR, $PMCTOOL_TABLES,\n"
		 "$XDG_DATA_HOME/pmctool/tables, ~/.local/share/pmctool/tables, /usr/local/share/pmctool/tables,\n"
		 "/usr/share/pmctool/tables) and why each was passed over, the CPUID matched and where it came from\n"
		 "($PMCTOOL_CPUID overrides it), the mapfile row, the events and metrics read, and every file skipped\n"
		 "with the reason.\n\n"
		 "Options:\n",
	.epilogue = "\nExit status: 0 tables found for this CPU, 1 none found (the report says where it looked), 2 a bad\n"
		    "option, 5 out of memory. See pmctool-tables(1) and doc/tables.md.\n",
	.col = 16,
};

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

static void print_text(FILE *f, const struct pmc_tables_report *r)
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
		return;
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
static void print_json(FILE *f, const struct pmc_tables_report *r)
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
}

int pmc_cmd_tables(int argc, char **argv)
{
	struct tables_cli o = { 0 };
	const struct pmc_tables_report *rep;
	struct pmc_tables *t = NULL;
	const char *from;
	char cpuid[64];
	int first, rc = pmc_opts_parse(&pmc_opts_tables_cmd, argc, argv, &o, &first);

	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	if (first < argc) {
		fprintf(stderr, "pmctool tables: unexpected argument '%s'; run 'pmctool tables --help'\n", argv[first]);
		return PMC_EXIT_USAGE;
	}
	if (pmc_arch_tables_cpuid(cpuid, sizeof(cpuid), &from))
		cpuid[0] = '\0';
	rc = pmc_tables_load(o.dir, cpuid[0] ? cpuid : NULL, &t);
	if (rc == -ENOMEM) {
		fprintf(stderr, "pmctool tables: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	pmc_tables_report(t, &rep);
	/* The report says "caller" for the CPUID the arch hook gave: name the hook's source instead. */
	struct pmc_tables_report shown = *rep;
	if (shown.cpuid && strcmp(shown.cpuid_from, "caller") == 0 && from)
		shown.cpuid_from = from;
	/* written whole through the one stdout writer: paths and names from the tables escaped as every output's are */
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int w;

	if (!mem) {
		pmc_tables_free(t);
		fprintf(stderr, "pmctool tables: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	if (o.json)
		print_json(mem, &shown);
	else
		print_text(mem, &shown);
	/* a mapfile row whose model folder is missing or empty found no tables, whatever the row said */
	bool empty = rc == 0 && !shown.nevents && !shown.nmetrics;
	char cpu[128];
	snprintf(cpu, sizeof(cpu), "%s", shown.cpuid ? shown.cpuid : "this CPU"); /* the tables own shown's strings */
	pmc_tables_free(t);
	w = fclose(mem) ? PMC_EXIT_INTERNAL : pmc_cli_write_stdout("tables", "report", buf, len);
	free(buf);
	if (w)
		return w;
	if (empty)
		fprintf(stderr, "pmctool tables: the mapfile's row for %s names tables, but no events or metrics were read "
			"from them (the files above say why): no tables for this CPU\n", cpu);
	return rc == 0 && !empty ? PMC_EXIT_OK : 1; /* 1: no tables for this CPU */
}
