/* SPDX-License-Identifier: MIT */
/* pmctool report FILE.json: a saved stat report (schema 1) evaluated again from its counts: the default metrics and
 * --metric, the checks and the top-down tree, printed as stat prints them. The tree's inputs are found by their
 * encoding (perf type, config, config1) for the report's CPU model, then by name, so that a report written by
 * another tool or by hand feeds the formulas whatever it calls its events (doc/topdown.md, pmctool-report(1)). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "arch/arch.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "metrics/checks.h"
#include "metrics/metrics.h"
#include "metrics/topdown.h"
#include "metrics/tm_replay.h"
#include "metrics/topdown_report.h"
#include "output/format.h"
#include "output/output.h"
#include "pmu/event.h"
#include "report/replay.h"
#include "sys/pmu_format.h"

#define MAX_METRICS 64

struct report_cli {
	struct pmc_output_opts out;
	const char *path, *def;
	const char *tables;            /* --tables DIR */
	int level;                     /* --topdown[=LEVEL]; 0 when not given */
	bool topdown;                  /* --topdown given */
	struct pmc_metric_def metrics[MAX_METRICS];
	size_t nmetrics;
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

/* ---- the top-down tree from the report's counts ---- */

/* A libpfm4 PMU that encodes a tree's events when neither the report nor LIBPFM_FORCE_PMU names the CPU. */
static const struct {
	const char *prefix, *pmu;
} tree_pmu[] = {
	{ "intel-snb", "snb" }, { "intel-skl", "skl" }, { "intel-icl", "icl" }, { "intel-spr", "spr" },
	{ "intel-atom-grt", "adl_grt" }, { "amd-zen4", "amd64_fam19h_zen4" }, { "arm-neoverse-n2", "arm_n2" },
	{ "arm-neoverse", "arm_n1" },
};

struct td_ctx {
	const struct pmc_td_tree *tree;
	const char *why;
	const char *model;             /* the libpfm4 PMU whose encodings are looked for, or NULL */
	struct pmc_td_value v[PMC_TD_MAX_INPUTS];
	char reason[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	bool scaled;
};

/* "event=0x1a0,umask=0x01" in the core PMU's builtin layout (pmc_arch_core_format) of model. */
struct term_ctx {
	const struct pmc_arch_format *fmt;
	uint64_t cfg[3];
};

static int put_term(const char *name, const char *value, void *vctx)
{
	struct term_ctx *c = vctx;
	struct pmc_sysfs_format f;
	char *end;
	unsigned long long v = value ? strtoull(value, &end, 0) : 1;

	if (value && *end)
		return -EINVAL;
	for (size_t i = 0; i < c->fmt->nterms; i++)
		if (!strcmp(c->fmt->terms[i].term, name))
			return pmc_sysfs_format_parse(c->fmt->terms[i].format, &f) ?: pmc_sysfs_format_apply(&f, v, c->cfg);
	return -ENOENT;
}

/* The encodings input in can have for model: its libpfm4 spelling's, its raw terms'. The number found. */
static size_t encodings(const struct pmc_td_input *in, const char *model, struct pmc_encoding *enc)
{
	size_t n = 0;

	if (in->pfm && model) {
		char spec[PMC_NAME_MAX + 64];
		struct pmc_event ev;
		struct pmc_resolve_error err;

		snprintf(spec, sizeof(spec), "%s::%s", model, in->pfm);
		if (pmc_event_resolve(spec, &ev, &err) == 0 && ev.attr.type != PERF_TYPE_HARDWARE)
			enc[n++] = (struct pmc_encoding){ ev.attr.type, ev.attr.config, ev.attr.config1, ev.attr.config1 != 0 };
	}
	if (in->raw && strchr(in->raw, '=')) {
		struct term_ctx c = { .fmt = pmc_arch_core_format(model) };

		if (c.fmt && pmc_sysfs_terms_parse(in->raw, put_term, &c) == 0)
			enc[n++] = (struct pmc_encoding){ PERF_TYPE_RAW, c.cfg[0], c.cfg[1], c.cfg[1] != 0 };
	}
	return n;
}

/* The report's event for input i: by encoding, else by one of its names. */
static const struct pmc_report_event *find_input(const struct pmc_report *rep, struct td_ctx *td, size_t i)
{
	const struct pmc_td_input *in = &td->tree->inputs[i];
	bool x86 = !strncmp(td->tree->name, "intel-", 6) || !strncmp(td->tree->name, "amd-", 4);
	const char *names[] = { in->perf, in->pfm, in->id };
	struct pmc_encoding enc[2];
	size_t n = encodings(in, td->model, enc);
	const struct pmc_report_event *e;

	for (size_t k = 0; k < n; k++)
		if ((e = pmc_report_find_encoding(rep, &enc[k], x86)))
			return e;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (names[k] && (e = pmc_report_find_event(rep, names[k])) && e->scope.kind == PMC_ROW_ALL)
			return e;
	if (n)
		snprintf(td->reason[i], sizeof(td->reason[i]), "no event of the report has its encoding (type %u, config "
			 "0x%llx) or its name (%s)", enc[0].type, (unsigned long long)enc[0].config,
			 in->perf ? in->perf : in->pfm ? in->pfm : in->id);
	else
		snprintf(td->reason[i], sizeof(td->reason[i]), "no event of the report has its name (%s)%s",
			 in->perf ? in->perf : in->pfm ? in->pfm : in->id,
			 td->model ? "" : "; the report names no CPU, so its encoding is unknown (LIBPFM_FORCE_PMU=MODEL)");
	return NULL;
}

static void input_values(const struct pmc_report *rep, struct td_ctx *td)
{
	for (size_t i = 0; i < td->tree->ninputs; i++) {
		const struct pmc_td_input *in = &td->tree->inputs[i];
		const struct pmc_report_event *e;
		double c;

		td->v[i] = (struct pmc_td_value){ .counted = false, .reason = td->reason[i] };
		if (in->kind == PMC_TD_ABSENT) {
			snprintf(td->reason[i], sizeof(td->reason[i]), "%s", in->source);
		} else if (in->kind == PMC_TD_PROPERTY) {
			if (pmc_report_get_const(rep, in->id, &c) == 0 && c > 0)
				td->v[i] = (struct pmc_td_value){ .counted = true, .value = c };
			else
				snprintf(td->reason[i], sizeof(td->reason[i]), "the report has no constant %s (%s)", in->id,
					 in->source);
		} else if ((e = find_input(rep, td, i))) {
			if (e->status == PMC_COUNT_OK) {
				td->v[i] = (struct pmc_td_value){ .counted = true, .value = e->mean };
				td->scaled |= e->running_pct < 100.0;
			} else {
				snprintf(td->reason[i], sizeof(td->reason[i]), "the report has %.40s %s: %.120s", e->ev.name,
					 e->status == PMC_COUNT_NOT_SUPPORTED ? "not supported"
					 : e->status == PMC_COUNT_NOT_RUN     ? "not run"
									      : "not counted",
					 e->reason[0] ? e->reason : "no reason recorded");
			}
		}
	}
}

/* The deepest level whose inputs are all there (at least 1). */
static int deepest_counted(const struct td_ctx *td)
{
	int best = 1;

	for (int level = 2; level <= td->tree->max_level; level++) {
		bool needed[PMC_TD_MAX_INPUTS];
		bool all = pmc_td_level_inputs(td->tree, level, needed) > 0;

		for (size_t i = 0; all && i < td->tree->ninputs; i++)
			all = !needed[i] || td->v[i].counted || td->tree->inputs[i].kind == PMC_TD_ABSENT;
		if (all)
			best = level;
	}
	return best;
}

/* The tree: --topdown-def, the report's, or the chooser's for the report's CPU. 0 (td->tree may stay NULL: none
 * applies, td->why says why) or PMC_EXIT_USAGE after the message. */
static int choose_tree(const struct report_cli *o, const struct pmc_loaded *l, struct td_ctx *td)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	const char *name = o->def ? o->def : l->td_tree[0] ? l->td_tree : NULL;

	td->model = l->cpu_pmu[0] ? l->cpu_pmu : forced && *forced ? forced : NULL;
	if (name) {
		td->tree = pmc_td_tree_find(name);
		td->why = o->def ? "chosen with --topdown-def" : "the tree the report was made with";
		if (!td->tree) {
			fprintf(stderr, "pmctool report: %s '%s': no such top-down tree; the trees are:", o->def ?
				"--topdown-def" : "the report's top-down tree", name);
			for (size_t i = 0; i < pmc_td_tree_count(); i++)
				fprintf(stderr, "%s %s", i ? "," : "", pmc_td_tree_at(i)->name);
			fputc('\n', stderr);
			return PMC_EXIT_USAGE;
		}
	} else {
		struct pmc_td_cpu cpu = { .vendor = l->cpu_vendor[0] ? l->cpu_vendor : NULL, .pmu = td->model,
					  .smt_on = l->cpu_smt == 1 };
		static char whybuf[200]; /* the report keeps pointing at it: one report per process */
		struct pmc_td_choice ch;

		pmc_td_choose(&cpu, &ch);
		td->tree = ch.tree;
		snprintf(whybuf, sizeof(whybuf), "%s (CPU %s, from %s)", ch.reason, td->model ? td->model : "unknown",
			 l->cpu_pmu[0] ? "the report" : td->model ? "LIBPFM_FORCE_PMU" : "nowhere");
		td->why = whybuf;
	}
	for (size_t i = 0; td->tree && !td->model && i < sizeof(tree_pmu) / sizeof(tree_pmu[0]); i++)
		if (!strncmp(td->tree->name, tree_pmu[i].prefix, strlen(tree_pmu[i].prefix)))
			td->model = tree_pmu[i].pmu; /* stands in for the unnamed CPU: its events' encodings */
	return 0;
}

/* The model's encodings need libpfm4 forced to it before libpfm4 starts (it reads the variable once per process). */
static void force_model(const struct pmc_loaded *l, const char *model)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");

	if (forced && !strcmp(forced, model))
		return;
	if (forced && *forced && l->cpu_pmu[0])
		fprintf(stderr, "pmctool report: the report is from CPU %s; LIBPFM_FORCE_PMU=%s is not used\n", model,
			forced);
	setenv("LIBPFM_FORCE_PMU", model, 1);
}

static int topdown(const struct report_cli *o, const struct pmc_loaded *l, struct pmc_report *rep)
{
	struct td_ctx *td = calloc(1, sizeof(*td));
	struct pmc_td_result *res = calloc(1, sizeof(*res));
	int rc = PMC_EXIT_INTERNAL, level;

	if (!td || !res)
		goto out;
	if ((rc = choose_tree(o, l, td)))
		goto out;
	if (!td->tree) {
		rc = 0;
		if (o->topdown) {
			fprintf(stderr, "pmctool report: no top-down tree for this report: %s; --topdown-def NAME picks one\n",
				td->why);
			rc = PMC_EXIT_USAGE;
		}
		goto out;
	}
	if (td->model) { /* libpfm4 may not know the model (Zen 5): its raw encodings are still known */
		force_model(l, td->model);
		pmc_pmu_init(NULL, 0);
	}
	input_values(rep, td);
	level = o->level ? o->level : l->td_level && !o->def ? l->td_level : deepest_counted(td);
	if (level > td->tree->max_level) {
		fprintf(stderr, "pmctool report: --topdown=%d: the tree %s has %d level%s\n", level, td->tree->name,
			td->tree->max_level, td->tree->max_level == 1 ? "" : "s");
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	rc = PMC_EXIT_INTERNAL;
	if (pmc_td_eval(td->tree, td->v, res) || pmc_td_report_fill(rep, td->tree, level, td->why, res))
		goto out;
	if (td->scaled)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "topdown-multiplexed",
				     "the top-down tree is built from scaled estimates: its events were multiplexed");
	rc = 0;
out:
	free(td);
	free(res);
	return rc;
}

/* ---- metrics and checks ---- */

/* The checks evaluated again here; the report's others (what the measuring machine saw) are kept as written. */
static bool recomputed(const char *name)
{
	static const char *const names[] = { "multiplexed", "batch-drift", "utilization", "kernel-share",
					     "retired-vs-expected", "impossible-count", "zero-count", "descheduled",
					     "topdown-sum", "topdown-children", "topdown-range", "topdown-multiplexed" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static bool has_metric(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nmetrics; i++)
		if (!strcasecmp(rep->metrics[i].name, name))
			return true;
	return false;
}

/* The report's metric rows not evaluated yet: the vendor tables' evaluated again (metrics/tm_replay.c); *ret says
 * for each why it was not. 0 or PMC_EXIT_INTERNAL. */
static int table_metrics(const struct report_cli *o, const struct pmc_loaded *l, struct pmc_report *rep,
			 struct pmc_tm_replayed **ret, size_t *nret)
{
	const struct pmc_tm_replay_src src = { .tables_dir = o->tables, .env_tables = l->env.tables,
					       .cpuid = l->env.cpuid, .smt = l->cpu_smt, .target_kind = l->target_kind,
					       .tsc_hz = rep->tsc_hz };
	struct pmc_tm_replayed *rows = calloc(l->n + 1, sizeof(*rows));
	size_t n = 0;
	char info[1024];

	*ret = rows;
	*nret = 0;
	if (!rows)
		return PMC_EXIT_INTERNAL;
	for (size_t i = 0; i < l->n; i++)
		if (l->s[i].kind == PMC_SERIES_METRIC && !has_metric(rep, l->s[i].name))
			rows[n++].name = l->s[i].name;
	*nret = n;
	if (!n)
		return 0;
	if (pmc_tm_replay(rep, &src, rows, n, info, sizeof(info)))
		return PMC_EXIT_INTERNAL;
	if (info[0]) /* which tables and literals, or why none */
		pmc_report_add_check(rep, PMC_CHECK_INFO, "report-table-metrics", "%s", info);
	return 0;
}

static int metrics_and_checks(const struct report_cli *o, const struct pmc_loaded *l, struct pmc_report *rep,
			      size_t rows_left)
{
	size_t ndef = 0, kept = 0, nrows = 0;
	const struct pmc_metric_def *defs = pmc_metrics_default(&ndef);
	struct pmc_tm_replayed *rows = NULL;
	int rc;
	char names[256] = "";
	size_t off = 0;

	if (pmc_metrics_eval(rep, defs, ndef, PMC_METRICS_SKIP_ABSENT) ||
	    (o->nmetrics && pmc_metrics_eval(rep, o->metrics, o->nmetrics, 0)))
		return PMC_EXIT_INTERNAL;
	if ((rc = table_metrics(o, l, rep, &rows, &nrows))) {
		free(rows);
		return rc;
	}
	for (size_t i = 0; i < l->n; i++) { /* a metric whose formula pmctool does not know: as the report has it */
		const struct pmc_series *s = &l->s[i];
		struct pmc_metric_value m = { .valid = s->ok, .value = s->mean };
		const char *why = "its formula is not known here";

		if (s->kind != PMC_SERIES_METRIC || has_metric(rep, s->name))
			continue;
		for (size_t r = 0; r < nrows; r++)
			if (!strcmp(rows[r].name, s->name) && rows[r].why[0])
				why = rows[r].why;
		snprintf(m.name, sizeof(m.name), "%.63s", s->name);
		snprintf(m.unit, sizeof(m.unit), "%s", s->unit);
		snprintf(m.desc, sizeof(m.desc), "as the report gives it, not evaluated again: %.110s", why);
		snprintf(m.reason, sizeof(m.reason), "%.159s", s->reason[0] ? s->reason : "n/a in the report");
		if (pmc_report_add_metric(rep, &m)) {
			free(rows);
			return PMC_EXIT_INTERNAL;
		}
		if (off < sizeof(names))
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", kept ? ", " : "", s->name);
		kept++;
	}
	if (kept)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "report-metrics-kept",
				     "%zu metric%s copied from the report, not evaluated again (give --metric NAME=FORMULA, or "
				     "--tables DIR for table metrics): %s", kept, kept == 1 ? "" : "s", names);
	free(rows);
	pmc_checks_run(rep, NULL);
	for (size_t i = 0; i < l->nchecks; i++) {
		const struct pmc_loaded_check *c = &l->checks[i];

		if (recomputed(c->name))
			continue;
		pmc_report_add_check(rep, !strcmp(c->severity, "bad") ? PMC_CHECK_BAD :
				     !strcmp(c->severity, "warn") ? PMC_CHECK_WARN : PMC_CHECK_INFO, c->name, "%s", c->msg);
	}
	if (rows_left)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "report-rows-left",
				     "the report's %zu row%s (-A, --per-*, --per-thread) %s left out: pmctool report "
				     "evaluates the totals", rows_left, rows_left == 1 ? "" : "s",
				     rows_left == 1 ? "is" : "are");
	return 0;
}

int pmc_cmd_report(int argc, char **argv)
{
	struct report_cli *o = calloc(1, sizeof(*o));
	struct pmc_loaded l;
	struct pmc_report rep;
	size_t rows = 0;
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
	rc = pmc_report_from_loaded(&l, &rep, &rows) ? PMC_EXIT_INTERNAL : 0;
	if (!rc)
		rc = topdown(o, &l, &rep);
	if (!rc)
		rc = metrics_and_checks(o, &l, &rep, rows);
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
