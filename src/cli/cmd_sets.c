/* SPDX-License-Identifier: MIT */
/* pmctool sets: list the event sets, or show one. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "output/sets.h"
#include "pmu/event.h"
#include "util/util.h"

struct sets_cli {
	bool all, names, json;
	const char *pmu;
};

enum { SETS_OUTPUT = 1 }; /* the one-of group of --names and --json */

static const struct pmc_opt sets_opts[] = {
	{ .short_name = 'a', .long_name = "all", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct sets_cli, all),
	  .help = "list every set, also those with no variant for this PMU" },
	{ .short_name = 'n', .long_name = "names", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct sets_cli, names),
	  .conflict = SETS_OUTPUT, .help = "print only the names, one a line" },
	{ .short_name = 'j', .long_name = "json", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct sets_cli, json),
	  .conflict = SETS_OUTPUT,
	  .help = "one JSON document (schema/pmctool-report.schema.json, kind \"sets\" or \"set\")" },
	{ .short_name = 'p', .long_name = "pmu", .kind = PMC_OPT_VALUE, .metavar = "NAME",
	  .field = PMC_OPT_FIELD(struct sets_cli, pmu),
	  .help = "choose variants for libpfm4 PMU NAME (hsw, skl, icx, amd64_fam19h_zen3...) instead of\n"
		  "the detected one (LIBPFM_FORCE_PMU=NAME also forces it)" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group sets_groups[] = {
	{ SETS_OUTPUT, "--names and --json both choose the output: give one", false },
	{ 0, NULL, false },
};

static int sets_bad_option(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)missing; /* getopt said which */
	pmc_opts_suggest(cmd, arg);
	fprintf(stderr, "pmctool sets: see 'pmctool sets --help'\n");
	return PMC_EXIT_USAGE;
}

const struct pmc_opts_cmd pmc_opts_sets = {
	.name = "sets",
	.opts = sets_opts,
	.groups = sets_groups,
	.usage = "Usage: pmctool sets [--all] [--names | --json] [--pmu NAME]\n"
		 "       pmctool sets [--pmu NAME] [--json] SET\n\n"
		 "List the event sets (events/*.set) that apply to this CPU's PMU, or show one set: its events, metrics,\n"
		 "checks, cautions and provenance, for the variant that applies. Use a set with 'pmctool stat -g SET'.\n\n"
		 "Options:\n",
	.epilogue = "\nSets are searched in $PMCTOOL_EVENTS_DIR, then the installed directory, then the source tree.\n"
		    "See pmctool-sets(1) and, for the file format, pmctool-events(5).\n",
	.col = 19,
	.stop_at_operand = true,
	.getopt_messages = true,
	.bad_option = sets_bad_option,
};

/* libpfm4's default core PMU: the first present PMU of core type (what LIBPFM_FORCE_PMU forces). */
/* The core PMU stat would select a variant for: the detected one, or LIBPFM_FORCE_PMU's, else the one the arch seam
 * knows this CPU to be (Zen 5 by its CPUID family where libpfm4 has no table for it). */
static const char *detect_pmu(void)
{
	return pmc_pmu_init(NULL, 0) == 0 ? pmc_pmu_core_model() : NULL;
}

static int list_sets(bool all, bool names, bool json, const char *pmu)
{
	struct pmc_sets_listing l = { .all = all, .names = names, .pmu = pmu };
	char err[1024];
	int shown, rc = pmc_eventset_list(&l.sets, &l.n, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "pmctool sets: %s\n", err);
		return PMC_EXIT_USAGE;
	}
	shown = pmc_sets_write(stdout, &l, json ? PMC_OUTPUT_JSON : PMC_OUTPUT_TABLE);
	if (!shown && !names)
		fprintf(stderr, "pmctool sets: no set applies to PMU %s%s\n", pmu ? pmu : "(none detected)",
			l.n ? "; --all lists every set" : "; no set files were found");
	pmc_eventset_list_free(l.sets, l.n);
	return PMC_EXIT_OK;
}

int pmc_cmd_sets(int argc, char **argv)
{
	struct sets_cli o = { 0 };
	const char *pmu = NULL;
	int first, rc;

	rc = pmc_opts_parse(&pmc_opts_sets, argc, argv, &o, &first);
	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	if (argc - first > 1) {
		fprintf(stderr, "pmctool sets: one SET at most (got '%s' and '%s')\n", argv[first], argv[first + 1]);
		return PMC_EXIT_USAGE;
	}
	pmu = o.pmu ? o.pmu : detect_pmu();
	if (first < argc) {
		struct pmc_eventset *s;
		char err[1024];

		rc = pmc_eventset_find(argv[first], &s, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pmctool sets: %s\n", err);
			rc = PMC_EXIT_USAGE;
		} else {
			pmc_set_write(stdout, s, pmu, o.json ? PMC_OUTPUT_JSON : PMC_OUTPUT_TABLE);
			pmc_eventset_free(s);
		}
	} else {
		rc = list_sets(o.all, o.names, o.json, pmu);
	}
	pmc_pmu_fini();
	return rc;
}
