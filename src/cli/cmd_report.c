/* SPDX-License-Identifier: MIT */
/* pmctool report FILE.json: a saved stat report (schema 1) evaluated again from its counts by the engine
 * (engine/replay.h: the default metrics and --metric, the table metrics, the checks and the top-down tree), printed
 * as stat prints them (doc/topdown.md, pmctool-report(1)). Here: the options, the file, the output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "engine/replay.h"
#include "metrics/metrics.h"
#include "output/format.h"
#include "output/output.h"
#include "report/load.h"
#include "util/diag.h"

#define MAX_METRICS 64

struct report_cli {
	struct pmc_output_opts out;
	const char *path, *def;
	const char *tables;            /* --tables DIR */
	int level;                     /* --topdown[=LEVEL]; 0 when not given */
	bool topdown;                  /* --topdown given */
	struct pmc_metric_def metrics[MAX_METRICS];
	size_t nmetrics;
	struct pmc_replay_keep keep;   /* what the report points into, until it is written */
};

enum { REPORT_FORMAT = 1 };

static int apply_sep(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct report_cli *o = ctx;

	(void)opt;
	if (!*val || strlen(val) >= sizeof(o->out.sep)) {
		fprintf(stderr, "pmctool report: -x '%s': expected a separator of 1 to 15 characters\n", val);
		return PMC_EXIT_USAGE;
	}
	snprintf(o->out.sep, sizeof(o->out.sep), "%s", val);
	o->out.format = PMC_OUTPUT_SEP;
	return 0;
}

static int apply_topdown(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct report_cli *o = ctx;

	(void)opt;
	o->topdown = true;
	if (!val)
		return 0;
	if (strlen(val) != 1 || val[0] < '1' || val[0] > '9') {
		fprintf(stderr, "pmctool report: --topdown=%s: expected a level, 1 or 2\n", val);
		return PMC_EXIT_USAGE;
	}
	o->level = val[0] - '0';
	return 0;
}

static int apply_metric(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct report_cli *o = ctx;
	char err[256];

	(void)opt;
	if (o->nmetrics >= MAX_METRICS) {
		fprintf(stderr, "pmctool report: at most %d --metric\n", MAX_METRICS);
		return PMC_EXIT_USAGE;
	}
	if (pmc_metric_def_parse_cli(val, &o->metrics[o->nmetrics], err, sizeof(err)) < 0) {
		fprintf(stderr, "pmctool report: bad --metric '%s': %s\n", val, err);
		return PMC_EXIT_USAGE;
	}
	o->nmetrics++;
	return 0;
}

static int apply_tables(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct report_cli *o = ctx;
	struct stat st;

	(void)opt;
	if (stat(val, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "pmctool report: --tables '%s': not a directory (a vendor table directory: see "
			"pmctool-tables(1))\n", val);
		return PMC_EXIT_USAGE;
	}
	o->tables = val;
	return 0;
}

#define F(m) PMC_OPT_FIELD(struct report_cli, m)

static const struct pmc_opt report_opts[] = {
	{ .long_name = "topdown", .kind = PMC_OPT_VALUE, .metavar = "[=LEVEL]", .flags = PMC_OPT_SINGLE | PMC_OPT_OPTIONAL,
	  .apply = apply_topdown,
	  .help = "the top-down tree of levels 1..LEVEL (default: the report's level, else the\n"
		  "deepest level whose inputs the report has); an error when no tree applies" },
	{ .long_name = "topdown-def", .kind = PMC_OPT_VALUE, .metavar = "NAME", .flags = PMC_OPT_SINGLE, .field = F(def),
	  .help = "the tree to evaluate, in place of the report's or its CPU's (pmctool-topdown(7))" },
	{ .long_name = "metric", .kind = PMC_OPT_LIST, .metavar = "NAME=FORMULA", .apply = apply_metric,
	  .help = "a derived metric to evaluate on the report's counts (pmctool-events(5))" },
	{ .long_name = "tables", .kind = PMC_OPT_VALUE, .metavar = "DIR", .flags = PMC_OPT_SINGLE, .apply = apply_tables,
	  .help = "the vendor tables that evaluate the report's table metrics (-M) again, in place\n"
		  "of the report's own (pmctool-tables(1))" },
	{ .short_name = 'x', .long_name = "field-separator", .kind = PMC_OPT_VALUE, .metavar = "SEP",
	  .flags = PMC_OPT_SINGLE, .conflict = REPORT_FORMAT, .apply = apply_sep,
	  .help = "perf stat's separated layout, as stat -x" },
	{ .long_name = "csv", .kind = PMC_OPT_FLAG, .conflict = REPORT_FORMAT, .field = F(out.format),
	  .apply = pmc_opt_set_format, .help = "CSV, as stat --csv" },
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .conflict = REPORT_FORMAT, .field = F(out.format),
	  .apply = pmc_opt_set_format, .help = "one JSON document, as stat --json (schema 1, kind 'stat')" },
	{ .short_name = 'o', .long_name = "output", .kind = PMC_OPT_VALUE, .metavar = "FILE", .field = F(path),
	  .help = "write there ('-' for stdout; the default)" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group report_groups[] = {
	{ REPORT_FORMAT, "%s and %s both choose the format: give one", false },
	{ 0, NULL, false },
};

const struct pmc_opts_cmd pmc_opts_report = {
	.name = "report",
	.opts = report_opts,
	.groups = report_groups,
	.usage = "Usage: pmctool report [OPTIONS] FILE.json\n"
		 "\n"
		 "Evaluate a saved stat report (pmctool stat --json -o FILE.json, schema 1; or one written by another\n"
		 "tool or by hand) again from its counts: the default metrics and --metric, the checks, and the top-down\n"
		 "tree, printed as stat prints them. The tree's inputs are found by their encoding (type and config) for\n"
		 "the report's CPU (its \"cpu\" member, else LIBPFM_FORCE_PMU), then by name; a missing input is n/a with\n"
		 "the reason. Vendor-table metrics (stat -M) are evaluated again with the report's tables (or --tables)\n"
		 "and its SMT state and scope; one that cannot be is the report's value, saying why.\n"
		 "\n",
	.epilogue = "\n"
		    "Exit status: 0 done; 2 bad usage, an unreadable or malformed report (not JSON, another schema,\n"
		    "truncated), an unknown tree, or no tree for the CPU with --topdown; 4 the output could not be written;\n"
		    "5 out of memory.\n"
		    "See pmctool-report(1).\n",
	.col = 30,
	.long_indent = "    ",
	.bad_option = pmc_opts_bad_option_see_help,
};

/* The engine's messages as this command's: "pmctool report: MESSAGE". */
static void report_sink(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	(void)ctx;
	if (kind == PMC_DIAG_TRACE)
		fprintf(stderr, "%s\n", msg);
	else
		fprintf(stderr, "pmctool report: %s\n", msg);
}

int pmc_cmd_report(int argc, char **argv)
{
	struct report_cli *o = calloc(1, sizeof(*o));
	struct pmc_loaded l;
	struct pmc_report rep;
	char err[256];
	int first, rc;

	memset(&l, 0, sizeof(l));
	memset(&rep, 0, sizeof(rep));
	if (!o)
		return PMC_EXIT_INTERNAL;
	rc = pmc_opts_parse(&pmc_opts_report, argc, argv, o, &first);
	if (rc) {
		free(o);
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	}
	if (first != argc - 1) {
		fprintf(stderr, "pmctool report: give one saved report: pmctool report FILE.json\n");
		free(o);
		return PMC_EXIT_USAGE;
	}
	if (o->path && (rc = pmc_output_check_path(o->path)) < 0) {
		fprintf(stderr, "pmctool report: cannot write '%s': %s\n", o->path, pmc_output_strerror(o->path, rc));
		free(o);
		return PMC_EXIT_OUTPUT;
	}
	if ((rc = pmc_loaded_read_file(argv[first], &l, err, sizeof(err))) < 0) {
		fprintf(stderr, "pmctool report: cannot read '%s': %s\n", argv[first], err);
		free(o);
		return rc == -ENOMEM ? PMC_EXIT_INTERNAL : PMC_EXIT_USAGE;
	}
	{
		const struct pmc_replay_req rq = { .topdown_def = o->def, .topdown_level = o->level, .topdown = o->topdown,
						   .metrics = o->metrics, .nmetrics = o->nmetrics, .tables = o->tables };
		struct pmc_diag_sink prev = pmc_diag_exchange((struct pmc_diag_sink){ report_sink, NULL });

		rc = pmc_engine_replay(&l, &rq, &o->keep, &rep);
		pmc_diag_exchange(prev);
	}
	if (!rc && (rc = pmc_output_emit(&rep, &o->out, o->path ? o->path : "-")) < 0) {
		if (rc != -EPIPE)
			fprintf(stderr, "pmctool report: cannot write '%s': %s\n", o->path ? o->path : "stdout",
				pmc_output_strerror(o->path ? o->path : "-", rc));
		rc = rc == -EPIPE ? 0 : PMC_EXIT_OUTPUT;
	}
	pmc_report_fini(&rep);
	pmc_loaded_fini(&l);
	free(o);
	return rc;
}
