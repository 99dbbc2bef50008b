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

static void json_strings(struct pmc_jw *w, const char *key, char *const *items, size_t n)
{
	pmc_jw_karray_begin(w, key);
	for (size_t i = 0; i < n; i++)
		pmc_jw_str(w, items[i]);
	pmc_jw_array_end(w);
}

static void json_variant(struct pmc_jw *w, const struct pmc_eventset_variant *v)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", v->name);
	json_strings(w, "pmus", v->pmus, v->npmus);
	json_strings(w, "cautions", v->notes, v->nnotes);
	pmc_jw_karray_begin(w, "events");
	for (size_t i = 0; i < v->nevents; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "spelling", v->events[i].spelling);
		pmc_jw_kuint(w, "batch", v->events[i].batch);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "metrics");
	for (size_t i = 0; i < v->nmetrics; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", v->metrics[i].name);
		pmc_jw_kstr_or_null(w, "unit", v->metrics[i].unit);
		pmc_jw_kstr(w, "formula", v->metrics[i].formula);
		pmc_jw_kstr_or_null(w, "description", v->metrics[i].desc);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "checks");
	for (size_t i = 0; i < v->nchecks; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", v->checks[i].name);
		pmc_jw_kstr(w, "when", v->checks[i].cond);
		pmc_jw_kstr(w, "message", v->checks[i].msg);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

/* sets --json SET: the set, and the variant for this PMU in full (null when none applies). */
static void show_set_json(const struct pmc_eventset *s, const char *pmu)
{
	const struct pmc_eventset_variant *v = pmc_eventset_select(s, pmu);
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, stdout, 0);
	pmc_json_header(w, "set");
	pmc_jw_kstr(w, "name", s->name);
	pmc_jw_kstr(w, "path", s->path);
	pmc_jw_kstr(w, "description", s->description);
	json_strings(w, "provenance", s->provenance, s->nprovenance);
	json_strings(w, "cautions", s->notes, s->nnotes);
	pmc_jw_karray_begin(w, "variants");
	for (size_t i = 0; i < s->nvariants; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", s->variants[i].name);
		json_strings(w, "pmus", s->variants[i].pmus, s->variants[i].npmus);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_kstr_or_null(w, "pmu", pmu);
	if (v) {
		pmc_jw_key(w, "variant");
		json_variant(w, v);
	} else {
		pmc_jw_knull(w, "variant");
	}
	pmc_jw_object_end(w);
	putchar('\n');
}

static int list_sets(bool all, bool names, bool json, const char *pmu)
{
	struct pmc_eventset **sets;
	size_t n, shown = 0;
	char err[1024];
	int rc = pmc_eventset_list(&sets, &n, err, sizeof(err));
	struct pmc_jw w;

	if (rc) {
		fprintf(stderr, "pmctool sets: %s\n", err);
		return PMC_EXIT_USAGE;
	}
	pmc_jw_init(&w, stdout, 0);
	if (json) {
		pmc_json_header(&w, "sets");
		pmc_jw_kstr_or_null(&w, "pmu", pmu);
		pmc_jw_karray_begin(&w, "sets");
	} else if (!names) {
		printf("%-14s %-18s %s (PMU %s)\n", "SET", "VARIANT", "DESCRIPTION", pmu ? pmu : "none detected");
	}
	for (size_t i = 0; i < n; i++) {
		const struct pmc_eventset_variant *v = pmc_eventset_select(sets[i], pmu);

		if (!v && !all)
			continue;
		if (json) {
			pmc_jw_object_begin(&w);
			pmc_jw_kstr(&w, "name", sets[i]->name);
			pmc_jw_kstr_or_null(&w, "variant", v ? v->name : NULL);
			pmc_jw_kstr(&w, "description", sets[i]->description);
			pmc_jw_kstr(&w, "path", sets[i]->path);
			pmc_jw_object_end(&w);
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
	if (json) {
		pmc_jw_array_end(&w);
		pmc_jw_object_end(&w);
		putchar('\n');
	}
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
