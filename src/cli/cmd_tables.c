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
#include "output/tables_report.h"
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
	pmc_tables_write(mem, &shown, o.json ? PMC_OUTPUT_JSON : PMC_OUTPUT_TABLE);
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
