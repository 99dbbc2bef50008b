/* SPDX-License-Identifier: MIT */
/* pmctool sweep PARAM=RANGE: one full stat measurement per value of a kernel parameter, a value substituted into
 * the command line, or an environment variable; rounds with the points shuffled; a table, plots, CSV, JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/opts.h"
#include "eventsets/eventset.h"
#include "metrics/expr.h"
#include "output/multi.h"
#include "output/plot.h"
#include "report/multi.h"
#include "util/range.h"

struct sweep_opts {
	const char *plot, *y, *per;
	bool no_plot, seed_given;
	uint64_t seed;
	char param[64];
	struct pmc_range range;
	struct stat_opts so;
	struct pmc_expr *per_expr;
	char **stat_argv;
	size_t stat_argc;
	struct multi_stat_words words; /* stat's options, for every measurement */
};

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "pmctool sweep: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\nRun 'pmctool sweep --help' for the options.\n");
	return PMC_EXIT_USAGE;
}

static int sweep_option(void *ctx, const struct pmc_opt *opt, const char *val)
{
	return pmc_opt_apply(opt, ctx, val);
}

static bool ident(const char *s, size_t n)
{
	if (!n || n >= 64 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_'))
			return false;
	return true;
}

static int apply_seed(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct sweep_opts *w = ctx;

	(void)opt;
	if (pmc_parse_dec_u64(val, 0, UINT64_MAX, &w->seed) < 0)
		return usage_error("--seed needs a decimal number%s%s", "", "");
	w->seed_given = true;
	return 0;
}

#define F(member) PMC_OPT_FIELD(struct sweep_opts, member)

/* sweep's own options; stat's table is parsed with them (pmc_opts_sweep's more, set at run time). */
static const struct pmc_opt sweep_table[] = {
	{ .kind = PMC_OPT_TEXT, .help = "Sweep options:" },
	{ .kind = PMC_OPT_TEXT, .help = "  -r N                rounds (default 3): N measurements per value, their spread shown" },
	{ .long_name = "y", .kind = PMC_OPT_VALUE, .metavar = "NAME", .field = F(y),
	  .help = "the event, metric, wall-time or EXPECTED_* value plotted and searched for steps\n"
		  "(default: the first event counted)" },
	{ .long_name = "per", .kind = PMC_OPT_VALUE, .metavar = "FORMULA", .field = F(per),
	  .help = "divide counts and times by FORMULA of PARAM ('N', 'N*4096'); kernels' values\n"
		  "are per iteration, and --per divides them further" },
	/* one wider than the column: one space before its help */
	{ .kind = PMC_OPT_TEXT, .help = "      --plot FILE.svg also draw the plot as a standalone SVG (axes, units, error bars, steps)" },
	{ .long_name = "plot", .kind = PMC_OPT_VALUE, .metavar = "FILE.svg", .field = F(plot) },
	{ .long_name = "no-plot", .kind = PMC_OPT_FLAG, .field = F(no_plot), .help = "no plot in the terminal" },
	{ .long_name = "seed", .kind = PMC_OPT_VALUE, .metavar = "N", .apply = apply_seed,
	  .help = "the shuffle's seed (default: from the clock; printed)" },
	{ .kind = PMC_OPT_END },
};

/* An option of sweep's without its value: today's text; anything else as stat's parser says it. */
static int sweep_bad_option(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)cmd;
	if (missing && missing >= sweep_table && missing < sweep_table + PMC_ARRAY_SIZE(sweep_table)) {
		if (missing->apply == apply_seed)
			return usage_error("--seed needs a decimal number%s%s", "", "");
		return usage_error("--%s needs a value%s", missing->long_name, "");
	}
	return pmc_opts_stat.bad_option(&pmc_opts_stat, arg, missing);
}

const struct pmc_opts_cmd pmc_opts_sweep = {
	.name = "sweep",
	.opts = sweep_table,
	.usage = "Usage: pmctool sweep PARAM=RANGE [SWEEP OPTIONS] [STAT OPTIONS] -k KERNEL\n"
		 "       pmctool sweep PARAM=RANGE [SWEEP OPTIONS] [STAT OPTIONS] -- COMMAND [ARGS...]\n"
		 "\n"
		 "Measure once per value of PARAM, each a full 'pmctool stat' (batches, metrics, checks), in rounds: every\n"
		 "round measures every value once, in a fresh random order, so that a drift over time does not pose as an\n"
		 "effect of PARAM. PARAM is\n"
		 "  with -k        a parameter of the kernel ('pmctool kernels'), or iters for --iters\n"
		 "  with COMMAND   substituted where the command line says {PARAM}: sweep N=1..8 -- ./prog {N}\n"
		 "                 else an environment variable of the command: sweep OMP_NUM_THREADS=1,2,4 -- ./prog\n"
		 "RANGE: values and ranges separated by commas: 16 | a..b | a..b:step | a..b*factor (geometric) | words\n"
		 "       (at most 1000 values): 16..64:8, 1..4096*2, 1,3,10..20:5, static,dynamic\n"
		 "\n",
	.epilogue = "Output (stdout unless -o): a table, a terminal plot and the steps; --csv or --json (schema kind 'sweep').\n"
		    "Every other stat option (-e, -g, --metric, --batch, -k, --param, -a, -C, -D, -v...) applies to every\n"
		    "measurement, except those that attach, split the rows, stream intervals, time out or take commands, and\n"
		    "regions, a dry run and other outputs (refused; see pmctool-sweep(1)). Options end at the command's first\n"
		    "word (or at '--').\n"
		    "The command's own output is discarded; a failing measurement's message is shown.\n"
		    "\n"
		    "Exit status: 0 every measurement succeeded; 1 some failed (the rest is reported); 2 bad usage (nothing ran,\n"
		    "or the first measurement refused its options); 3 nothing could be measured; 4 the output could not be\n"
		    "written; 5 internal error; 130 / 143 interrupted (the rounds so far are reported, marked partial).\n"
		    "See pmctool-sweep(1).\n",
	.col = 22,
	.long_indent = "    ",
	.stop_at_operand = true,
	.bad_option = sweep_bad_option,
};

/* sweep's options and stat's, one parse (options end at the first operand, as stat's do): sweep's take effect here,
 * stat's are parsed by stat's parser and kept, as their table spells them, for every measurement. */
static int parse(int argc, char **argv, struct sweep_opts *w)
{
	struct pmc_opts_cmd cmd = pmc_opts_sweep;
	const char *eq;
	char err[256];
	int rc, operand;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		pmc_opts_help(&pmc_opts_sweep, argc < 2 ? stderr : stdout);
		return argc < 2 ? PMC_EXIT_USAGE : -1;
	}
	eq = strchr(argv[1], '=');
	if (!eq || !ident(argv[1], (size_t)(eq - argv[1])))
		return usage_error("the first argument must be PARAM=RANGE (a name, '=', values), not '%.80s'%s", argv[1], "");
	snprintf(w->param, sizeof(w->param), "%.*s", (int)(eq - argv[1]), argv[1]);
	if (pmc_range_parse(eq + 1, &w->range, err, sizeof(err)) < 0)
		return usage_error("bad range for %s: %s", w->param, err);
	cmd.more = pmc_opts_stat.opts;
	/* argv + 1: PARAM=RANGE stands where getopt expects the command's name */
	if ((rc = multi_stat_words(&w->words, &cmd, PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_SWEEP_TOTAL, argc - 1, argv + 1,
				   &operand, sweep_option, w)))
		return rc;
	w->stat_argv = calloc(w->words.nall + (size_t)argc + 3, sizeof(char *));
	if (!w->stat_argv)
		return PMC_EXIT_INTERNAL;
	w->stat_argv[w->stat_argc++] = "stat";
	for (size_t i = 0; i < w->words.nall; i++)
		w->stat_argv[w->stat_argc++] = w->words.all[i];
	w->stat_argv[w->stat_argc++] = "--";
	for (int i = 1 + operand; i < argc; i++)
		w->stat_argv[w->stat_argc++] = argv[i];
	rc = stat_parse_opts((int)w->stat_argc, w->stat_argv, &w->so);
	if (rc)
		return rc;
	/* -a, -C and -D measure each point's command as stat does (counted on the CPUs while it runs; from MS after
	 * it starts). What has no single total per event, no command per point or no place in sweep's report is refused
	 * by the options' refused_by (stat_opts.c); a -g set that is a top-down tree is known by its value only. */
	if (pmc_eventset_topdown_level(w->so.e.set_name))
		return usage_error("--topdown is a stat option that sweep does not take%s%s", "", "");
	if (!w->so.kernel_name && !w->so.e.argv)
		return usage_error("no command to measure: give -k KERNEL or '-- COMMAND [ARGS...]'%s%s", "", "");
	if (!w->so.e.runs_given)
		w->so.e.runs = 3;
	if (w->per) {
		if (pmc_expr_parse(w->per, &w->per_expr, err, sizeof(err)) < 0)
			return usage_error("bad --per '%.80s': %s", w->per, err);
		for (size_t i = 0; i < pmc_expr_name_count(w->per_expr); i++) {
			const char *n = pmc_expr_name(w->per_expr, i);
			if (strcmp(n, w->param) && strcmp(n, "ITERATIONS"))
				return usage_error("--per may use %s and ITERATIONS, not '%.80s'", w->param, n);
		}
		if (!w->range.numeric)
			return usage_error("--per needs numeric values of %s%s", w->param, "");
	}
	return 0;
}

struct per_ctx {
	const char *param;
	double x, iters;
};

static int per_lookup(const char *name, void *ctx, double *ret, char *reason, size_t len)
{
	const struct per_ctx *c = ctx;

	if (!strcmp(name, c->param)) {
		*ret = c->x;
		return 0;
	}
	if (!strcmp(name, "ITERATIONS") && c->iters > 0) {
		*ret = c->iters;
		return 0;
	}
	snprintf(reason, len, "%s is not known here", name);
	return -ENODATA;
}

/* How the value reaches the measurement, decided once. */
enum how { HOW_PARAM, HOW_ITERS, HOW_SUBST, HOW_ENV };

static enum how decide(struct sweep_opts *w, struct pmc_sweep *sw)
{
	char pat[80];

	snprintf(pat, sizeof(pat), "{%s}", w->param);
	if (w->so.kernel_name) {
		bool iters = !strcmp(w->param, "iters");
		sw->how = iters ? "--iters" : "kernel parameter";
		snprintf(sw->workload, sizeof(sw->workload), "kernel %s", w->so.kernel_name);
		return iters ? HOW_ITERS : HOW_PARAM;
	}
	sw->workload[0] = '\0';
	for (char **a = w->so.e.argv; a && *a; a++) {
		size_t off = strlen(sw->workload);
		snprintf(sw->workload + off, sizeof(sw->workload) - off, "%s%s", off ? " " : "", *a);
	}
	for (char **a = w->so.e.argv; a && *a; a++)
		if (strstr(*a, pat)) {
			sw->how = "command line";
			return HOW_SUBST;
		}
	sw->how = "environment variable";
	return HOW_ENV;
}

/* arg with every {PARAM} replaced by value, into big (NULL when it does not fit). */
static const char *substitute(const char *arg, const char *pat, const char *value, char *big, size_t biglen)
{
	size_t o = 0, pl = strlen(pat);

	for (const char *p = arg; *p;) {
		if (!strncmp(p, pat, pl)) {
			o += (size_t)snprintf(big + o, o < biglen ? biglen - o : 0, "%s", value);
			p += pl;
		} else {
			if (o + 1 < biglen)
				big[o] = *p;
			o++;
			p++;
		}
		if (o >= biglen)
			return NULL;
	}
	big[o] = '\0';
	return big;
}

static int check_kernel_param(const struct sweep_opts *w)
{
	size_t l = strlen(w->param);

	if (!strcmp(w->param, "iters") && w->so.e.iters)
		return usage_error("iters is swept: do not give --iters as well%s%s", "", "");
	for (size_t i = 0; i < w->so.nparams; i++)
		if (!strncmp(w->so.params[i], w->param, l) && w->so.params[i][l] == '=')
			return usage_error("%s is swept: do not give --param %s=... as well", w->param, w->param);
	return 0;
}

static int cmp_point(const void *x, const void *y)
{
	const struct pmc_sweep_point *a = x, *b = y;

	return (a->x > b->x) - (a->x < b->x);
}

/* The default y: the first event counted anywhere, else a declared count, else the wall time. */
static void pick_y(struct pmc_sweep *sw, const char *want)
{
	const struct pmc_series **cols;
	size_t n = pmc_sweep_series(sw, &cols);

	if (want) {
		snprintf(sw->y, sizeof(sw->y), "%s", want);
		free(cols);
		return;
	}
	snprintf(sw->y, sizeof(sw->y), "wall-time");
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (cols[i]->kind == (pass ? PMC_SERIES_DECLARED : PMC_SERIES_EVENT)) {
				for (size_t p = 0; p < sw->npoints; p++) {
					const struct pmc_series *s = pmc_loaded_find(&sw->pts[p].data, cols[i]->name);
					if (s && s->ok) {
						snprintf(sw->y, sizeof(sw->y), "%s", cols[i]->name);
						free(cols);
						return;
					}
				}
			}
	free(cols);
}

static bool y_known(const struct pmc_sweep *sw)
{
	for (size_t p = 0; p < sw->npoints; p++)
		if (pmc_loaded_find(&sw->pts[p].data, sw->y))
			return true;
	return false;
}

static void list_names(const struct pmc_sweep *sw)
{
	const struct pmc_series **cols;
	size_t n = pmc_sweep_series(sw, &cols);

	fprintf(stderr, "pmctool sweep: --y '%s' is none of the measured names:", sw->y);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "", cols[i]->name);
	fputc('\n', stderr);
	free(cols);
}

/* Point p's request: the command line's, with the value where it goes (--param, --iters, {PARAM} in the command's
 * words; an environment variable is set around the measurement by the caller). 0, or an exit status after the
 * message. argv and param are the caller's storage. */
static int point_request(const struct sweep_opts *w, enum how how, const char *value, struct stat_opts *so,
			 struct pmc_engine_opts *e, char **argv, char *big, size_t nargs, char *param, size_t paramlen)
{
	char pat[80];
	int rc;

	*so = w->so; /* its --param text: the swept one added */
	*e = w->so.e;
	e->runs = 1; /* each measurement is one run: sweep's -r is its rounds */
	e->runs_given = false;
	snprintf(pat, sizeof(pat), "{%s}", w->param);
	if (how == HOW_PARAM) {
		if (so->nparams >= PMC_ARRAY_SIZE(so->params))
			return usage_error("too many --param options (at most 32 with the swept one)%s%s", "", "");
		snprintf(param, paramlen, "%s=%s", w->param, value);
		so->params[so->nparams++] = param;
	} else if (how == HOW_ITERS && (rc = stat_parse_uint("--iters", value, 1, (uint64_t)1 << 40, &e->iters))) {
		return rc;
	}
	if (how != HOW_SUBST)
		return 0;
	for (size_t i = 0; i < nargs; i++) {
		argv[i] = (char *)substitute(w->so.e.argv[i], pat, value, big + i * 4096, 4096);
		if (!argv[i])
			return usage_error("an argument is longer than 4095 bytes after {%s} was replaced%s", w->param,
					   "");
	}
	argv[nargs] = NULL;
	e->argv = argv;
	return 0;
}

/* The environment variable of a HOW_ENV sweep, set while its measurement runs and then put back. */
static char *env_set(const char *name, const char *value)
{
	const char *old = getenv(name);
	char *saved = old ? strdup(old) : NULL;

	setenv(name, value, 1);
	return saved;
}

static void env_restore(const char *name, char *saved)
{
	if (saved)
		setenv(name, saved, 1);
	else
		unsetenv(name);
	free(saved);
}

/* One measurement of point p; pooled into it. Returns 0, or an exit status that stops the sweep. */
static int measure_point(struct sweep_opts *w, struct pmc_sweep *sw, enum how how, size_t p, bool first)
{
	struct pmc_sweep_point *pt = &sw->pts[p];
	struct pmc_engine_opts e;
	static struct stat_opts so; /* the point's: a copy of sweep's with the swept --param (large: not on the stack) */
	size_t nargs = 0;
	char why[256], param[160], *big = NULL, **argv = NULL, *saved = NULL;
	struct pmc_loaded l;
	int status, rc = 0;

	for (char **x = w->so.e.argv; x && *x; x++)
		nargs++;
	if (how == HOW_SUBST && (!(big = malloc(nargs * 4096 + 1)) || !(argv = calloc(nargs + 1, sizeof(char *))))) {
		free(big);
		return PMC_EXIT_INTERNAL;
	}
	rc = point_request(w, how, pt->value, &so, &e, argv, big, nargs, param, sizeof(param));
	if (rc) {
		/* A value the measurement refuses (--iters 0): as the first measurement refusing its options did. */
		if (rc == PMC_EXIT_USAGE && !first) {
			pt->rounds_failed++;
			snprintf(pt->failure, sizeof(pt->failure), "its value is refused");
			rc = 0;
		}
		free(big);
		free(argv);
		return rc;
	}
	if (how == HOW_ENV)
		saved = env_set(w->param, pt->value);
	rc = multi_measure(&so, &e, &l, &status, why, sizeof(why));
	if (how == HOW_ENV)
		env_restore(w->param, saved);
	if (rc) {
		rc = 0;
		pt->rounds_failed++;
		snprintf(pt->failure, sizeof(pt->failure), "%s", why);
		/* The first measurement refusing its options (or its command): nothing else would go better. */
		if (first && !multi_interrupted && (status == PMC_EXIT_USAGE || status == 126 || status == 127)) {
			fprintf(stderr, "pmctool sweep: the first measurement (%s=%s) failed: %s\n", w->param, pt->value, why);
			rc = status;
		}
	} else {
		bool good = !l.exit_status && l.runs_used && !l.partial;

		if (!good) {
			pt->rounds_failed++;
			snprintf(pt->failure, sizeof(pt->failure), "%s", l.partial ? "interrupted"
					: "the command failed (exit status in the report)");
			if (l.exit_status && !l.partial) /* an interrupted report's status is pmctool's 128 + signal */
				snprintf(pt->failure, sizeof(pt->failure), "the command exited with status %d", l.exit_status);
		} else {
			pt->rounds_ok++;
		}
		/* As stat does with runs: failed and interrupted rounds are in the statistics only while no round
		 * succeeded, and then marked by rounds_ok 0. */
		if (good && pt->data_from_failed) {
			pmc_loaded_fini(&pt->data);
			memset(&pt->data, 0, sizeof(pt->data));
			pt->data_from_failed = false;
		}
		if (l.runs_used && (good || !pt->rounds_ok)) {
			pt->data_from_failed |= !good;
			if (pmc_loaded_pool(&pt->data, &l) < 0)
				rc = PMC_EXIT_INTERNAL;
		}
		pmc_loaded_fini(&l);
	}
	free(big);
	free(argv);
	return rc;
}

/* The divisor of each point: --per, or ITERATIONS for kernels. */
static void set_divisors(struct sweep_opts *w, struct pmc_sweep *sw)
{
	for (size_t p = 0; p < sw->npoints; p++) {
		struct pmc_sweep_point *pt = &sw->pts[p];
		struct per_ctx c = { w->param, pt->x, pt->data.iterations };
		char reason[128];
		double v;

		pt->per = w->so.kernel_name && pt->data.iterations > 0 ? pt->data.iterations : 1;
		if (w->per_expr) {
			if (pmc_expr_eval(w->per_expr, per_lookup, &c, &v, reason, sizeof(reason)) == 0 && v != 0)
				pt->per *= v;
			else
				pt->per = NAN;
		}
	}
	if (w->per_expr)
		snprintf(sw->per_buf, sizeof(sw->per_buf), "per %s(%.200s)", w->so.kernel_name ? "iteration and per " : "",
			 w->per);
	else if (w->so.kernel_name)
		snprintf(sw->per_buf, sizeof(sw->per_buf), "per iteration");
	sw->per_text = sw->per_buf[0] ? sw->per_buf : NULL;
}

static int render(struct sweep_opts *w, struct pmc_sweep *sw, char **ret, size_t *retlen, char **svg, size_t *svglen)
{
	struct pmc_plot pl;
	double *x = calloc(sw->npoints + 1, sizeof(double)), *y = calloc(sw->npoints + 1, sizeof(double));
	double *e = calloc(sw->npoints + 1, sizeof(double));
	const char **xt = calloc(sw->npoints + 1, sizeof(char *));
	char title[700], ylabel[300], u[32] = "";
	const struct pmc_series *ys = NULL;
	FILE *f;
	int rc = 0;

	if (!x || !y || !e || !xt) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	for (size_t p = 0; p < sw->npoints && !ys; p++)
		ys = pmc_loaded_find(&sw->pts[p].data, sw->y);
	if (ys && ys->unit[0])
		snprintf(u, sizeof(u), " (%s)", ys->unit);
	for (size_t p = 0; p < sw->npoints; p++) {
		x[p] = sw->pts[p].x;
		xt[p] = sw->pts[p].value;
		pmc_sweep_value(sw, p, sw->y, &y[p], &e[p]);
	}
	snprintf(title, sizeof(title), "%s against %s: %.200s", sw->y, sw->param, sw->workload);
	snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", sw->y, u, sw->per_text ? " " : "", sw->per_text ? sw->per_text : "");
	memset(&pl, 0, sizeof(pl));
	pl.title = title;
	pl.xlabel = w->param;
	pl.ylabel = ylabel;
	pl.n = sw->npoints;
	pl.x = w->range.numeric ? x : NULL;
	pl.y = y;
	pl.err = e;
	pl.xtext = xt;
	pl.steps = sw->steps;
	pl.step_score = sw->step_score;
	pl.nsteps = sw->nsteps;
	f = open_memstream(ret, retlen);
	if (!f) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	pmc_sweep_write(f, sw, w->so.out.format);
	if (w->so.out.format == PMC_OUTPUT_TABLE && !w->no_plot) {
		fputc('\n', f);
		pmc_plot_term(f, &pl, 80, 16);
	}
	if (fclose(f))
		rc = PMC_EXIT_INTERNAL;
	if (!rc && w->plot) {
		f = open_memstream(svg, svglen);
		if (!f || (pmc_plot_svg(f, &pl), fclose(f)))
			rc = PMC_EXIT_INTERNAL;
	}
out:
	free(x);
	free(y);
	free(e);
	free(xt);
	return rc;
}

static int run_sweep(struct sweep_opts *w, struct pmc_sweep *sw)
{
	enum how how = decide(w, sw);
	unsigned *order;
	bool progress = isatty(STDERR_FILENO);
	int rc = 0;

	if ((how == HOW_PARAM || how == HOW_ITERS) && (rc = check_kernel_param(w)))
		return rc;
	if (how == HOW_ITERS && !w->range.numeric)
		return usage_error("iters takes whole numbers%s%s", "", "");
	order = calloc((size_t)w->so.e.runs * sw->npoints, sizeof(*order));
	if (!order)
		return PMC_EXIT_INTERNAL;
	pmc_range_schedule(sw->npoints, w->so.e.runs, sw->seed, order);
	for (size_t k = 0; k < (size_t)w->so.e.runs * sw->npoints && !rc && !multi_interrupted; k++) {
		if (progress)
			fprintf(stderr, "\rpmctool sweep: round %zu/%u, %s=%-12s (%zu of %zu)", k / sw->npoints + 1, w->so.e.runs,
				w->param, sw->pts[order[k]].value, k + 1, (size_t)w->so.e.runs * sw->npoints);
		rc = measure_point(w, sw, how, order[k], k == 0);
	}
	if (progress)
		fprintf(stderr, "\r%78s\r", "");
	free(order);
	return rc;
}

int pmc_cmd_sweep(int argc, char **argv)
{
	struct sweep_opts w;
	struct pmc_sweep sw;
	char *out = NULL, *svg = NULL;
	size_t outlen = 0, svglen = 0, failed = 0, ok = 0;
	int rc;

	memset(&w, 0, sizeof(w));
	memset(&sw, 0, sizeof(sw));
	rc = parse(argc, argv, &w);
	if (rc)
		goto out;
	if ((w.so.outpath && (rc = pmc_output_check_path(w.so.outpath)) < 0) ||
	    (w.plot && (rc = pmc_output_check_path(w.plot)) < 0)) {
		fprintf(stderr, "pmctool sweep: cannot write '%s': %s\n", w.so.outpath ? w.so.outpath : w.plot,
			pmc_output_strerror(w.so.outpath ? w.so.outpath : w.plot, rc));
		rc = PMC_EXIT_OUTPUT;
		goto out;
	}
	snprintf(sw.param, sizeof(sw.param), "%s", w.param);
	sw.rounds = w.so.e.runs;
	sw.seed = w.seed_given ? w.seed : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	sw.npoints = w.range.n;
	sw.pts = calloc(sw.npoints, sizeof(*sw.pts));
	if (!sw.pts) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	for (size_t p = 0; p < sw.npoints; p++) {
		snprintf(sw.pts[p].value, sizeof(sw.pts[p].value), "%s", w.range.text[p]);
		sw.pts[p].x = w.range.val[p];
		sw.pts[p].data.rank = -1;
	}
	multi_install_signals();
	rc = run_sweep(&w, &sw);
	if (rc)
		goto out;
	sw.partial = multi_interrupted != 0;
	if (w.range.numeric)
		qsort(sw.pts, sw.npoints, sizeof(*sw.pts), cmp_point);
	for (size_t p = 0; p < sw.npoints; p++) {
		ok += sw.pts[p].rounds_ok;
		failed += sw.pts[p].rounds_failed;
	}
	set_divisors(&w, &sw);
	pick_y(&sw, w.y);
	if (!y_known(&sw) && ok) {
		list_names(&sw);
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	pmc_sweep_find_steps(&sw);
	if ((rc = render(&w, &sw, &out, &outlen, &svg, &svglen)))
		goto out;
	rc = multi_emit("sweep", w.so.outpath, out, outlen, false);
	if (!rc && w.plot)
		rc = multi_emit("sweep", w.plot, svg, svglen, false);
	if (!rc)
		rc = multi_interrupted ? 128 + multi_interrupted : !ok ? PMC_EXIT_NOCOUNT : failed ? 1 : 0;
out:
	for (size_t p = 0; p < sw.npoints; p++)
		pmc_loaded_fini(&sw.pts[p].data);
	free(sw.pts);
	free(out);
	free(svg);
	free(w.stat_argv);
	stat_opts_fini(&w.so); /* the -C list parsed */
	multi_stat_words_fini(&w.words);
	pmc_expr_free(w.per_expr);
	pmc_range_fini(&w.range);
	return rc < 0 ? PMC_EXIT_OK : rc;
}
