/* SPDX-License-Identifier: MIT */
/* pmctool sets: list the event sets, or show one. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "output/output.h"
#include "eventsets/eventset.h"
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

static void print_list(char *const *items, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++)
		printf("%s%s\n", prefix, items[i]);
}

static void show_set(const struct pmc_eventset *s, const char *pmu)
{
	const struct pmc_eventset_variant *v = pmc_eventset_select(s, pmu);

	printf("set %s (%s)\n%s\n", s->name, s->path, s->description);
	if (s->topdown_level) /* its events are the tree's: stat --topdown's plan */
		printf("\nthis set is stat --topdown=%d: its events, groups and formulas are this CPU's top-down tree's "
		       "(pmctool-topdown(7))\n", s->topdown_level);
	printf("\nprovenance:\n");
	print_list(s->provenance, s->nprovenance, "  ");
	if (s->nnotes) {
		printf("\ncautions:\n");
		print_list(s->notes, s->nnotes, "  ");
	}
	printf("\nvariants:");
	for (size_t i = 0; i < s->nvariants; i++) {
		printf("%s %s [", i ? ";" : "", s->variants[i].name);
		for (size_t k = 0; k < s->variants[i].npmus; k++)
			printf("%s%s", k ? " " : "", s->variants[i].pmus[k]);
		printf("]");
	}
	printf("\n");
	if (!v) {
		printf("\nno variant applies to PMU %s: this set cannot be measured here\n", pmu ? pmu : "(none)");
		return;
	}
	printf("\nvariant %s, for PMU %s\n", v->name, pmu ? pmu : "(none)");
	if (v->nnotes) {
		printf("\ncautions for this variant:\n");
		print_list(v->notes, v->nnotes, "  ");
	}
	printf("\nevents (%zu):\n", v->nevents);
	for (size_t i = 0; i < v->nevents; i++)
		printf("  %-40s batch %u\n", v->events[i].spelling, v->events[i].batch);
	printf("\nmetrics (%zu):\n", v->nmetrics);
	for (size_t i = 0; i < v->nmetrics; i++)
		printf("  %-24s %-7s = %s\n  %-32s %s\n", v->metrics[i].name, v->metrics[i].unit, v->metrics[i].formula,
		       "", v->metrics[i].desc);
	printf("\nchecks (%zu):\n", v->nchecks);
	for (size_t i = 0; i < v->nchecks; i++)
		printf("  %-24s when %s\n  %-24s %s\n", v->checks[i].name, v->checks[i].cond, "", v->checks[i].msg);
}

static void json_strings(char *const *items, size_t n)
{
	fputc('[', stdout);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', stdout);
		pmc_json_string(stdout, items[i]);
	}
	fputc(']', stdout);
}

static void json_variant(const struct pmc_eventset_variant *v)
{
	fputs("{\"name\":", stdout);
	pmc_json_string(stdout, v->name);
	fputs(",\"pmus\":", stdout);
	json_strings(v->pmus, v->npmus);
	fputs(",\"cautions\":", stdout);
	json_strings(v->notes, v->nnotes);
	fputs(",\"events\":[", stdout);
	for (size_t i = 0; i < v->nevents; i++) {
		fputs(i ? ",{\"spelling\":" : "{\"spelling\":", stdout);
		pmc_json_string(stdout, v->events[i].spelling);
		printf(",\"batch\":%u}", v->events[i].batch);
	}
	fputs("],\"metrics\":[", stdout);
	for (size_t i = 0; i < v->nmetrics; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
		pmc_json_string(stdout, v->metrics[i].name);
		fputs(",\"unit\":", stdout);
		pmc_json_string_or_null(stdout, v->metrics[i].unit);
		fputs(",\"formula\":", stdout);
		pmc_json_string(stdout, v->metrics[i].formula);
		fputs(",\"description\":", stdout);
		pmc_json_string_or_null(stdout, v->metrics[i].desc);
		fputc('}', stdout);
	}
	fputs("],\"checks\":[", stdout);
	for (size_t i = 0; i < v->nchecks; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
		pmc_json_string(stdout, v->checks[i].name);
		fputs(",\"when\":", stdout);
		pmc_json_string(stdout, v->checks[i].cond);
		fputs(",\"message\":", stdout);
		pmc_json_string(stdout, v->checks[i].msg);
		fputc('}', stdout);
	}
	fputs("]}", stdout);
}

/* sets --json SET: the set, and the variant for this PMU in full (null when none applies). */
static void show_set_json(const struct pmc_eventset *s, const char *pmu)
{
	const struct pmc_eventset_variant *v = pmc_eventset_select(s, pmu);

	pmc_json_header(stdout, "set");
	fputs(",\"name\":", stdout);
	pmc_json_string(stdout, s->name);
	fputs(",\"path\":", stdout);
	pmc_json_string(stdout, s->path);
	fputs(",\"description\":", stdout);
	pmc_json_string(stdout, s->description);
	fputs(",\"provenance\":", stdout);
	json_strings(s->provenance, s->nprovenance);
	fputs(",\"cautions\":", stdout);
	json_strings(s->notes, s->nnotes);
	fputs(",\"variants\":[", stdout);
	for (size_t i = 0; i < s->nvariants; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", stdout);
		pmc_json_string(stdout, s->variants[i].name);
		fputs(",\"pmus\":", stdout);
		json_strings(s->variants[i].pmus, s->variants[i].npmus);
		fputc('}', stdout);
	}
	fputs("],\"pmu\":", stdout);
	pmc_json_string_or_null(stdout, pmu);
	fputs(",\"variant\":", stdout);
	if (v)
		json_variant(v);
	else
		fputs("null", stdout);
	fputs("}\n", stdout);
}

static int list_sets(bool all, bool names, bool json, const char *pmu)
{
	struct pmc_eventset **sets;
	size_t n, shown = 0;
	char err[1024];
	int rc = pmc_eventset_list(&sets, &n, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "pmctool sets: %s\n", err);
		return PMC_EXIT_USAGE;
	}
	if (json) {
		pmc_json_header(stdout, "sets");
		fputs(",\"pmu\":", stdout);
		pmc_json_string_or_null(stdout, pmu);
		fputs(",\"sets\":[", stdout);
	} else if (!names) {
		printf("%-14s %-18s %s (PMU %s)\n", "SET", "VARIANT", "DESCRIPTION", pmu ? pmu : "none detected");
	}
	for (size_t i = 0; i < n; i++) {
		const struct pmc_eventset_variant *v = pmc_eventset_select(sets[i], pmu);

		if (!v && !all)
			continue;
		if (json) {
			fputs(shown ? ",{\"name\":" : "{\"name\":", stdout);
			pmc_json_string(stdout, sets[i]->name);
			fputs(",\"variant\":", stdout);
			pmc_json_string_or_null(stdout, v ? v->name : NULL);
			fputs(",\"description\":", stdout);
			pmc_json_string(stdout, sets[i]->description);
			fputs(",\"path\":", stdout);
			pmc_json_string(stdout, sets[i]->path);
			fputc('}', stdout);
		}
		shown++;
		if (json)
			continue;
		if (names)
			printf("%s\n", sets[i]->name);
		else
			printf("%-14s %-18s %.*s%s\n", sets[i]->name, v ? v->name : "(not for this PMU)", 72,
			       sets[i]->description, strlen(sets[i]->description) > 72 ? "..." : "");
	}
	if (json)
		fputs("]}\n", stdout);
	if (!shown && !names)
		fprintf(stderr, "pmctool sets: no set applies to PMU %s%s\n", pmu ? pmu : "(none detected)",
			n ? "; --all lists every set" : "; no set files were found");
	pmc_eventset_list_free(sets, n);
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
			if (o.json)
				show_set_json(s, pmu);
			else
				show_set(s, pmu);
			pmc_eventset_free(s);
		}
	} else {
		rc = list_sets(o.all, o.names, o.json, pmu);
	}
	pmc_pmu_fini();
	return rc;
}
