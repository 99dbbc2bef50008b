/* SPDX-License-Identifier: MIT */
/* pmctool compare A.json B.json, and pmctool stat --compare CMD_A -- CMD_B (both measured, interleaved): per event
 * and metric A, B, the difference, the ratio and a significance test over the per-run samples; --fail-if for CI. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/opts.h"
#include "output/multi.h"
#include "report/multi.h"

static int parse_conds(const char *const *texts, size_t n, struct pmc_fail_cond *conds)
{
	char err[256];

	for (size_t i = 0; i < n; i++)
		if (pmc_fail_cond_parse(texts[i], &conds[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "pmctool compare: bad --fail-if '%.100s': %s\n", texts[i], err);
			return PMC_EXIT_USAGE;
		}
	return 0;
}

/* Build, judge and write the comparison. The exit status. */
static int finish(const struct pmc_loaded *a, const struct pmc_loaded *b, enum pmc_test test, double alpha,
		  struct pmc_fail_cond *conds, size_t nconds, enum pmc_output_format fmt, const char *path, bool to_stderr)
{
	struct pmc_compare c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	char why[1024];
	int rc = 0, holds = 0, unjudged = 0;

	if (pmc_compare_build(a, b, test, alpha, &c) < 0)
		return PMC_EXIT_INTERNAL;
	for (size_t i = 0; i < nconds; i++) {
		pmc_fail_cond_eval(&c, &conds[i]);
		holds += conds[i].state > 0;
		unjudged += conds[i].state < 0;
	}
	f = open_memstream(&buf, &len);
	if (!f || (pmc_compare_write(f, &c, conds, nconds, fmt), fclose(f)))
		rc = PMC_EXIT_INTERNAL;
	if (!rc)
		rc = multi_emit("compare", path, buf, len, to_stderr);
	/* Loud: two machines, kernels or backends can differ by more than a change of the program does. */
	if (c.env_same == 0)
		fprintf(stderr, "pmctool compare: WARNING: A and B were measured in different environments: %s; a "
			"difference may be the machine's, not the program's\n", pmc_output_safe(c.env_diff, why, sizeof(why)));
	for (size_t i = 0; i < nconds; i++)
		if (conds[i].state < 0)
			fprintf(stderr, "pmctool compare: --fail-if '%s' cannot be judged: %s\n", conds[i].text,
				pmc_output_safe(conds[i].why, why, sizeof(why)));
	if (!rc)
		rc = holds ? 1 : unjudged ? PMC_EXIT_NOCOUNT : 0;
	free(buf);
	pmc_compare_fini(&c);
	return rc;
}

static int parse_test(const char *s, enum pmc_test *ret)
{
	if (!strcmp(s, "welch"))
		*ret = PMC_TEST_WELCH;
	else if (!strcmp(s, "mann-whitney"))
		*ret = PMC_TEST_MANN_WHITNEY;
	else {
		fprintf(stderr, "pmctool compare: --test '%.40s': expected welch or mann-whitney\n", s);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

/* compare's options (cli/opts.h): ctx is struct compare_cli. */
struct compare_cli {
	enum pmc_test test;
	double alpha;
	const char *texts[16]; /* --fail-if, parsed after the options */
	size_t nconds;
	enum pmc_output_format fmt;
	const char *out;
};

enum { COMPARE_FORMAT = 1 }; /* the one-of group of --csv and --json */

static int apply_test(void *ctx, const struct pmc_opt *opt, const char *val)
{
	(void)opt;
	return parse_test(val, &((struct compare_cli *)ctx)->test);
}

static int apply_alpha(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct compare_cli *c = ctx;
	char *end;

	(void)opt;
	c->alpha = strtod(val, &end);
	if (*end || !(c->alpha > 0 && c->alpha < 1) || strspn(val, "0123456789.") != strlen(val)) {
		fprintf(stderr, "pmctool compare: --alpha '%.40s': expected a decimal number between 0 and 1\n", val);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

static int apply_fail_if(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct compare_cli *c = ctx;

	(void)opt;
	if (c->nconds >= PMC_ARRAY_SIZE(c->texts)) {
		fprintf(stderr, "pmctool compare: too many --fail-if (at most 16)\n");
		return PMC_EXIT_USAGE;
	}
	c->texts[c->nconds++] = val;
	return 0;
}

static const struct pmc_opt compare_table[] = {
	{ .short_name = 't', .long_name = "test", .kind = PMC_OPT_VALUE, .metavar = "TEST", .apply = apply_test,
	  .help = "welch (Welch's t-test, the default) or mann-whitney (Mann-Whitney U, needs 4 runs\n"
		  "a side)" },
	{ .long_name = "alpha", .kind = PMC_OPT_VALUE, .metavar = "P", .apply = apply_alpha,
	  .help = "significant when p < P (default 0.05; 0 < P < 1)" },
	{ .long_name = "fail-if", .kind = PMC_OPT_LIST, .metavar = "COND", .apply = apply_fail_if,
	  .help = "exit 1 when COND holds: NAME>+N% (B more than N% above A), NAME<-N% (below),\n"
		  "NAME>+N (an absolute change); a change the test calls not significant does not\n"
		  "hold. NAME>+Ksd: more than K standard deviations of the runs (any change of an\n"
		  "exact count, none of noise). Repeatable" },
	{ .long_name = "csv", .kind = PMC_OPT_FLAG, .conflict = COMPARE_FORMAT, .left = "    --csv, --json",
	  .field = PMC_OPT_FIELD(struct compare_cli, fmt), .apply = pmc_opt_set_format,
	  .help = "CSV (one row per event or metric) or one JSON document (schema kind 'compare')" },
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .conflict = COMPARE_FORMAT,
	  .field = PMC_OPT_FIELD(struct compare_cli, fmt), .apply = pmc_opt_set_format },
	{ .short_name = 'o', .long_name = "output", .kind = PMC_OPT_VALUE, .metavar = "FILE",
	  .field = PMC_OPT_FIELD(struct compare_cli, out), .help = "write there ('-' for stdout; the default)" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group compare_groups[] = {
	{ COMPARE_FORMAT, "--csv and --json both choose the format: give one", true },
	{ 0, NULL, false },
};

const struct pmc_opts_cmd pmc_opts_compare = {
	.name = "compare",
	.opts = compare_table,
	.groups = compare_groups,
	.usage = "Usage: pmctool compare [OPTIONS] A.json B.json\n"
		 "       pmctool stat --compare 'CMD_A' [STAT OPTIONS] [--fail-if COND]... -- CMD_B [ARGS...]\n"
		 "\n"
		 "Compare two stat reports (written with 'pmctool stat --json -o FILE'), per event, metric and the wall time:\n"
		 "A, B, B - A, B / A and whether the difference is significant, by a two-sided test over the per-run\n"
		 "samples (run both with -r 5 or more); 'not enough runs' when a side has too few.\n"
		 "\n",
	.epilogue = "\n"
		    "Exit status: 0 compared (no --fail-if condition holds); 1 a --fail-if condition holds; 2 bad usage or a\n"
		    "report that cannot be read; 3 a --fail-if condition cannot be judged (its event was not measured in both);\n"
		    "4 the output could not be written. stat --compare also: 130 / 143 interrupted.\n"
		    "See pmctool-compare(1).\n",
	.col = 23,
	.long_indent = "    ",
	.stop_at_operand = true,
	.bad_option = pmc_opts_bad_option_see_help,
};

int pmc_cmd_compare(int argc, char **argv)
{
	struct compare_cli cli = { .test = PMC_TEST_WELCH, .alpha = 0.05, .fmt = PMC_OUTPUT_TABLE };
	struct pmc_fail_cond conds[16];
	struct pmc_loaded l[2];
	char err[256];
	int operand = argc, rc;

	memset(l, 0, sizeof(l));
	rc = pmc_opts_parse(&pmc_opts_compare, argc, argv, &cli, &operand);
	if (rc)
		return rc == PMC_OPTS_HELP ? 0 : rc;
	if (argc - operand != 2) {
		fprintf(stderr, "pmctool compare: give two reports, A.json B.json (got %d)\n", argc - operand);
		return PMC_EXIT_USAGE;
	}
	if ((rc = parse_conds(cli.texts, cli.nconds, conds)))
		return rc;
	for (int i = 0; i < 2 && !rc; i++)
		if (pmc_loaded_read_file(argv[operand + i], &l[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "pmctool compare: cannot read '%s': %s\n", argv[operand + i], err);
			rc = PMC_EXIT_USAGE;
		}
	if (!rc)
		rc = finish(&l[0], &l[1], cli.test, cli.alpha, conds, cli.nconds, cli.fmt, cli.out, false);
	pmc_loaded_fini(&l[0]);
	pmc_loaded_fini(&l[1]);
	return rc;
}

/* stat --compare: A and B alternate (A B, then B A, ...) so that a drift falls on both alike. Each is one run of
 * the request the command line was parsed into, with its command. */
int stat_compare_run(const struct stat_opts *o)
{
	struct pmc_fail_cond conds[16];
	struct pmc_loaded side[2], one;
	struct pmc_engine_opts e[2];
	char why[256], *abuf = NULL, *words[256];
	size_t nwords = 0;
	unsigned runs = o->e.runs_given ? o->e.runs : 5;
	int rc, status;

	memset(side, 0, sizeof(side));
	if ((rc = parse_conds(o->fail_if, o->nfail_if, conds)))
		return rc;
	abuf = strdup(o->compare);
	if (!abuf)
		return PMC_EXIT_INTERNAL;
	if ((rc = multi_split_words(abuf, words, 255, &nwords)) < 0 || !nwords) {
		fprintf(stderr, "pmctool stat: --compare '%.100s': %s\n", o->compare,
			rc == -EINVAL ? "a quote is not closed" : rc ? "more than 255 words" : "no command");
		free(abuf);
		return PMC_EXIT_USAGE;
	}
	words[nwords] = NULL;
	if (o->outpath && (rc = pmc_output_check_path(o->outpath)) < 0) {
		fprintf(stderr, "pmctool: cannot write the report to '%s': %s\n", o->outpath, pmc_output_strerror(o->outpath, rc));
		free(abuf);
		return PMC_EXIT_OUTPUT;
	}
	for (int s = 0; s < 2; s++) {
		e[s] = o->e;
		e[s].runs = 1; /* -r is the runs of each side, one measurement each */
		e[s].runs_given = false;
	}
	e[0].argv = words;
	rc = 0;
	multi_install_signals();
	for (unsigned k = 0; k < 2 * runs && !rc && !multi_interrupted; k++) {
		unsigned s = (k % 2) ^ ((k / 2) % 2); /* A B B A A B ... */

		if (multi_measure(o, &e[s], &one, &status, why, sizeof(why))) {
			fprintf(stderr, "pmctool stat: --compare: measuring %s failed: %s\n", s ? "B" : "A", why);
			rc = status == PMC_EXIT_USAGE || status == 126 || status == 127 ? status : PMC_EXIT_NOCOUNT;
			break;
		}
		if (one.exit_status && one.partial) /* its report carries pmctool's 130/143 since issue 22 item 7 */
			fprintf(stderr, "pmctool stat: --compare: %s was interrupted (that run is left out)\n",
				s ? "B" : "A");
		else if (one.exit_status)
			fprintf(stderr, "pmctool stat: --compare: %s exited with status %d (that run is left out)\n",
				s ? "B" : "A", one.exit_status);
		if (!one.exit_status && pmc_loaded_pool(&side[s], &one) < 0)
			rc = PMC_EXIT_INTERNAL;
		pmc_loaded_fini(&one);
	}
	if (!rc) {
		snprintf(side[0].workload, sizeof(side[0].workload), "%s", o->compare);
		side[1].workload[0] = '\0';
		for (char **x = o->e.argv; *x; x++) {
			size_t off = strlen(side[1].workload);
			snprintf(side[1].workload + off, sizeof(side[1].workload) - off, "%s%s", off ? " " : "", *x);
		}
		rc = finish(&side[0], &side[1], PMC_TEST_WELCH, 0.05, conds, o->nfail_if, o->out.format, o->outpath, true);
		if (multi_interrupted && rc != PMC_EXIT_OUTPUT)
			rc = 128 + multi_interrupted;
	}
	pmc_loaded_fini(&side[0]);
	pmc_loaded_fini(&side[1]);
	free(abuf);
	return rc;
}
