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
#include "output/output.h"

struct out {
	FILE *f;
	struct pmc_jw w; /* --json's writer on f */
	enum pmc_output_format fmt; /* the table is the text listing */
	bool names, lng;
	unsigned count;
	const char *last_pmu;
	char last_pmu_buf[64];
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

static void text_event(struct out *o, const struct pmc_list_event *ev)
{
	struct pmc_list_attr a;
	bool mods = false;

	if (!o->last_pmu || strcmp(o->last_pmu, ev->pmu)) {
		fprintf(o->f, "%s%s (%s%s%s):\n", o->last_pmu ? "\n" : "", ev->pmu, ev->source,
			ev->cpus ? "; hybrid core PMU of CPUs " : "", ev->cpus ? ev->cpus : "");
		snprintf(o->last_pmu_buf, sizeof(o->last_pmu_buf), "%s", ev->pmu);
		o->last_pmu = o->last_pmu_buf;
	}
	fprintf(o->f, "  %-40s %s\n", ev->spelling, ev->desc);
	if (!o->lng)
		return;
	if (ev->file)
		fprintf(o->f, "      %s %s (%s)\n", ev->metric ? "formula" : "encoding", ev->encoding, ev->file);
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK)
			fprintf(o->f, "      :%-34s %s%s\n", a.name, a.is_dfl ? "[default] " : "", a.desc);
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type != PMC_LIST_UMASK) {
			fprintf(o->f, "%s%s%s", mods ? " " : "      modifiers: ", a.name,
				a.type == PMC_LIST_MOD_INTEGER ? "=N" : "");
			mods = true;
		}
	if (mods)
		fputc('\n', o->f);
}

static void csv_event(struct out *o, const struct pmc_list_event *ev)
{
	char umasks[4096] = "", dfl[256] = "", mods[512] = "";
	size_t ul = 0, ml = 0;
	struct pmc_list_attr a;

	for (unsigned i = 0; i < ev->nattrs; i++) {
		if (pmc_list_event_attr(ev, i, &a))
			continue;
		if (a.type == PMC_LIST_UMASK) {
			ul += (size_t)snprintf(umasks + ul, sizeof(umasks) - PMC_MIN(ul, sizeof(umasks)), "%s%s",
					       ul ? ";" : "", a.name);
			if (a.is_dfl && !dfl[0])
				snprintf(dfl, sizeof(dfl), "%s", a.name);
		} else {
			ml += (size_t)snprintf(mods + ml, sizeof(mods) - PMC_MIN(ml, sizeof(mods)), "%s%s",
					       ml ? ";" : "", a.name);
		}
		ul = PMC_MIN(ul, sizeof(umasks) - 1);
		ml = PMC_MIN(ml, sizeof(mods) - 1);
	}
	const char *fields[] = { ev->pmu, ev->source, ev->name, ev->spelling, ev->desc, umasks, dfl, mods };
	for (size_t i = 0; i < PMC_ARRAY_SIZE(fields); i++) {
		if (i)
			fputc(',', o->f);
		pmc_csv_field(o->f, fields[i]);
	}
	fputs("\r\n", o->f);
}

static void json_attr(struct pmc_jw *w, const struct pmc_list_attr *a)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", a->name);
	pmc_jw_kstr(w, "description", a->desc);
	if (a->type == PMC_LIST_UMASK) {
		pmc_jw_kbool(w, "default", a->is_dfl);
		pmc_jw_kuint(w, "code", a->code);
	} else {
		pmc_jw_kstr(w, "type", a->type == PMC_LIST_MOD_INTEGER ? "integer" : "bool");
	}
	pmc_jw_object_end(w);
}

static void json_event(struct out *o, const struct pmc_list_event *ev)
{
	struct pmc_jw *w = &o->w;
	struct pmc_list_attr a;

	pmc_jw_break(w, "\n");
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "pmu", ev->pmu);
	pmc_jw_kstr(w, "source", ev->source);
	pmc_jw_kstr(w, "name", ev->name);
	pmc_jw_kstr(w, "spelling", ev->spelling);
	pmc_jw_kstr(w, "description", ev->desc);
	pmc_jw_kstr_or_null(w, "encoding", ev->encoding);
	if (ev->file) {
		pmc_jw_kstr(w, "file", ev->file);
		pmc_jw_kbool(w, "metric", ev->metric);
	}
	pmc_jw_karray_begin(w, "umasks");
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK)
			json_attr(w, &a);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "modifiers");
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type != PMC_LIST_UMASK)
			json_attr(w, &a);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

static void names_event(struct out *o, const struct pmc_list_event *ev)
{
	struct pmc_list_attr a;

	/* Syntax templates (mem:ADDR...) and probe PMUs are not names -e takes as written, nor metrics. */
	if (ev->metric || strchr(ev->spelling, '[') || (!strcmp(ev->source, "sysfs") && !strchr(ev->spelling, '/')))
		return;
	/* The bare name only where -e takes it: an event without umasks, or one with a default umask (libpfm4 refuses
	 * an event whose umasks are all optional-but-required, such as Zen 3's L1_ITLB_FETCH_HIT). */
	bool umasks = false, dfl = false;

	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK) {
			umasks = true;
			dfl |= a.is_dfl;
		}
	if (!umasks || dfl)
		fprintf(o->f, "%s\n", ev->spelling);
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK)
			fprintf(o->f, "%s:%s\n", ev->spelling, a.name);
}

static int on_event(const struct pmc_list_event *ev, void *ctx)
{
	struct out *o = ctx;

	if (o->names)
		names_event(o, ev);
	else if (o->fmt == PMC_OUTPUT_CSV)
		csv_event(o, ev);
	else if (o->fmt == PMC_OUTPUT_JSON)
		json_event(o, ev);
	else
		text_event(o, ev);
	o->count++;
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
	int rc;

	rc = parse_args(argc, argv, &q, &o);
	if (rc)
		return rc > 0 ? PMC_EXIT_OK : PMC_EXIT_USAGE;
	o.f = open_memstream(&buf, &len);
	if (!o.f) {
		fprintf(stderr, "pmctool list: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	if (o.fmt == PMC_OUTPUT_CSV)
		fputs("pmu,source,name,spelling,description,umasks,default_umask,modifiers\r\n", o.f);
	pmc_jw_init(&o.w, o.f, 0);
	if (o.fmt == PMC_OUTPUT_JSON) {
		pmc_json_header(&o.w, "list");
		pmc_jw_karray_begin(&o.w, "events");
	}
	rc = pmc_list_events(&q, on_event, &o, err, sizeof(err));
	if (o.fmt == PMC_OUTPUT_JSON) {
		pmc_jw_break(&o.w, "\n");
		pmc_jw_array_end(&o.w);
		pmc_jw_object_end(&o.w);
		fputc('\n', o.f);
	}
	if (fclose(o.f) || rc) {
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
	if (!o.count && !o.names && o.fmt == PMC_OUTPUT_TABLE)
		fprintf(stderr, "pmctool list: no event matches '%s'%s\n", q.pattern ? q.pattern : "",
			q.pmu ? " on this PMU" : "; --pmu NAME lists another PMU");
	rc = pmc_cli_write_stdout("list", "listing", buf, len);
	free(buf);
	return rc;
}
