/* SPDX-License-Identifier: MIT */
/* pmctool list: the events pmctool can name, with descriptions, umasks and modifiers. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "info/evlist.h"
#include "pmu/event.h"
#include "util/util.h"
#include "output/list.h"

struct out {
	struct pmc_list_out out; /* the listing being written (output/list.h) */
	enum pmc_output_format fmt; /* the table is the text listing */
	bool names, lng;
	const char *pmu; /* --pmu */
	const char *tables; /* --tables DIR */
};

static int set_pmu(void *ctx, const struct pmc_opt *opt, const char *val)
{
	(void)opt;
	if (!*val) {
		fprintf(stderr, "pmctool list: --pmu needs a PMU name (e.g. --pmu hsw)\n");
		return PMC_EXIT_USAGE;
	}
	((struct out *)ctx)->pmu = val;
	return 0;
}

static int list_bad_option(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	if (missing) {
		fprintf(stderr, "pmctool list: --pmu needs a PMU name (e.g. --pmu hsw)\n");
	} else {
		fprintf(stderr, "pmctool list: unknown option '%s'; run 'pmctool list --help'\n", arg);
		pmc_opts_suggest(cmd, arg);
	}
	return PMC_EXIT_USAGE;
}

enum { LIST_FORMAT = 1 }; /* the one-of group of --csv, --json and --names */

static const struct pmc_opt list_opts[] = {
	{ .kind = PMC_OPT_TEXT, .help = "  PATTERN     case-insensitive substring of a name, umask name or description; with * or ? a glob" },
	{ .kind = PMC_OPT_TEXT, .help = "              over the whole name (or description)" },
	{ .long_name = "pmu", .kind = PMC_OPT_VALUE, .metavar = "NAME", .apply = set_pmu,
	  .help = "list one PMU: any libpfm4 PMU (hsw, skl, icx, amd64_fam19h_zen3...), 'hardware',\n"
		  "'software', or a kernel PMU (msr, breakpoint...)" },
	{ .long_name = "tables", .kind = PMC_OPT_VALUE, .metavar = "DIR", .field = PMC_OPT_FIELD(struct out, tables),
	  .help = "read the vendor tables of DIR first (pmctool-tables(1)); --pmu tables lists\n"
		  "their events and metrics alone" },
	{ .long_name = "long", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct out, lng),
	  .help = "add each event's umasks (default marked) and modifiers" },
	{ .long_name = "csv", .kind = PMC_OPT_FLAG, .conflict = LIST_FORMAT, .apply = pmc_opt_set_format,
	  .field = PMC_OPT_FIELD(struct out, fmt),
	  .help = "RFC 4180 CSV with a header line" },
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .conflict = LIST_FORMAT, .apply = pmc_opt_set_format,
	  .field = PMC_OPT_FIELD(struct out, fmt),
	  .help = "one JSON document" },
	{ .long_name = "names", .kind = PMC_OPT_FLAG, .conflict = LIST_FORMAT, .field = PMC_OPT_FIELD(struct out, names),
	  .help = "one name per line: EVENT and EVENT:UMASK forms, as -e takes them (for completion)" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this help" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group list_groups[] = {
	{ LIST_FORMAT, "%s conflicts with an earlier --csv/--json/--names; choose one", true },
	{ 0, NULL, false },
};

const struct pmc_opts_cmd pmc_opts_list = {
	.name = "list",
	.opts = list_opts,
	.groups = list_groups,
	.usage = "Usage: pmctool list [PATTERN] [--pmu NAME] [--tables DIR] [--long] [--csv | --json | --names]\n\n"
		 "List events: the detected core PMU(s) from libpfm4 (LIBPFM_FORCE_PMU=NAME forces one), the events\n"
		 "and metrics of the vendor tables that match this CPU (pmctool-tables(1)), the kernel's generic\n"
		 "events (cycles, instructions, task-clock, page-faults...) and the events of sysfs PMUs (msr/tsc/,\n"
		 "mem:ADDR breakpoints...).\n\n",
	.epilogue = "\nExit status: 0 listed (an empty match is not an error), 2 bad option or unknown PMU,\n"
		    "4 output could not be written (a closed pipe ends the listing quietly with 0).\n",
	.col = 14,
	.bad_option = list_bad_option,
};

static int on_event(const struct pmc_list_event *ev, void *ctx)
{
	struct out *o = ctx;

	pmc_list_write_event(&o->out, ev);
	return 0;
}

static int parse_args(int argc, char **argv, struct pmc_list_query *q, struct out *o)
{
	int first, rc = pmc_opts_parse(&pmc_opts_list, argc, argv, o, &first);

	if (rc)
		return rc == PMC_OPTS_HELP ? 1 : -1;
	q->pmu = o->pmu;
	if (o->tables)
		pmc_pmu_tables_dir(o->tables);
	if (argc - first > 1) {
		fprintf(stderr, "pmctool list: one PATTERN only ('%s' and '%s' given)\n", argv[first], argv[first + 1]);
		return -1;
	}
	if (first < argc && strlen(argv[first]) > PMC_MAX_SPEC_LEN) {
		fprintf(stderr, "pmctool list: PATTERN longer than %d characters\n", PMC_MAX_SPEC_LEN);
		return -1;
	}
	q->pattern = first < argc ? argv[first] : NULL;
	return 0;
}

int pmc_cmd_list(int argc, char **argv)
{
	struct pmc_list_query q = { 0 };
	struct out o = { .fmt = PMC_OUTPUT_TABLE };
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	rc = parse_args(argc, argv, &q, &o);
	if (rc)
		return rc > 0 ? PMC_EXIT_OK : PMC_EXIT_USAGE;
	f = open_memstream(&buf, &len);
	if (!f) {
		fprintf(stderr, "pmctool list: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	pmc_list_write_begin(&o.out, f, o.names ? PMC_LIST_NAMES : o.lng ? PMC_LIST_LONG : 0, o.fmt);
	rc = pmc_list_events(&q, on_event, &o, err, sizeof(err));
	pmc_list_write_end(&o.out);
	if (fclose(f) || rc) {
		free(buf);
		if (!rc)
			rc = -ENOMEM;
		fprintf(stderr, "pmctool list: %s\n", rc == -ENOMEM ? "out of memory" : err);
		return rc == -ENOENT ? PMC_EXIT_USAGE : PMC_EXIT_INTERNAL;
	}
	/* Tracepoints unreadable to this user are not "no such event": say why they are missing. */
	if ((!q.pattern || strchr(q.pattern, ':')) && pmc_tracefs_unreadable())
		fprintf(stderr, "pmctool list: note: %s is not readable by this user (tracefs' mode): its tracepoints are "
			"not listed; run as root, or ask for the directory's group\n", pmc_tracefs_unreadable());
	if (!o.out.count && !o.names && o.fmt == PMC_OUTPUT_TABLE)
		fprintf(stderr, "pmctool list: no event matches '%s'%s\n", q.pattern ? q.pattern : "",
			q.pmu ? " on this PMU" : "; --pmu NAME lists another PMU");
	rc = pmc_cli_write_stdout("list", "listing", buf, len);
	free(buf);
	return rc;
}
