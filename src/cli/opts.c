/* SPDX-License-Identifier: MIT */
/* The option tables' machinery: getopt's tables, the help, the given-twice and one-of checks, completion words. */
#include "cli/opts.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "output/format.h"
#include "util/util.h"

enum { LONG_BASE = 1000 }; /* getopt_long's val for table entry i: LONG_BASE + i (above every short option) */

size_t pmc_opts_count(const struct pmc_opt *opts)
{
	size_t n = 0;

	while (opts[n].kind != PMC_OPT_END)
		n++;
	return n;
}

/* The length of cmd->opts, counted once per table (entry() is asked for every option of every table in loops:
 * counting each time was a tenth of pmctool's own instructions for `stat -e task-clock -- true`, issue 39). */
static size_t first_count(const struct pmc_opts_cmd *cmd)
{
	static const struct pmc_opt *counted;
	static size_t n;

	if (counted != cmd->opts) {
		n = pmc_opts_count(cmd->opts);
		counted = cmd->opts;
	}
	return n;
}

/* Entry i of the tables parsed together: cmd->opts, then cmd->more. */
static const struct pmc_opt *entry(const struct pmc_opts_cmd *cmd, size_t i)
{
	size_t n1 = first_count(cmd);

	return i < n1 ? &cmd->opts[i] : &cmd->more[i - n1];
}

static size_t entries(const struct pmc_opts_cmd *cmd)
{
	return first_count(cmd) + (cmd->more ? pmc_opts_count(cmd->more) : 0);
}

static bool is_option(const struct pmc_opt *o)
{
	return o->kind == PMC_OPT_FLAG || o->kind == PMC_OPT_VALUE || o->kind == PMC_OPT_LIST;
}

const char *pmc_opt_name(const struct pmc_opt *opt, char *buf, size_t len)
{
	if (opt->short_name)
		snprintf(buf, len, "-%c", opt->short_name);
	else
		snprintf(buf, len, "--%s", opt->long_name ? opt->long_name : "");
	return buf;
}

const char *pmc_opts_nearest(const struct pmc_opts_cmd *cmd, const char *arg)
{
	const char *best = NULL;
	char name[64];
	size_t len, ties = 0, n = entries(cmd);
	unsigned best_d = ~0u;

	if (strncmp(arg, "--", 2) || !arg[2])
		return NULL;
	len = strcspn(arg + 2, "="); /* the value is not part of the name */
	if (len >= sizeof(name))
		return NULL;
	memcpy(name, arg + 2, len);
	name[len] = '\0';
	for (size_t i = 0; i < n; i++) {
		const struct pmc_opt *o = entry(cmd, i);
		unsigned d;

		if (!is_option(o) || !o->long_name || (o->flags & PMC_OPT_HIDDEN))
			continue;
		d = pmc_edit_distance(name, o->long_name, 3); /* 3: farther than any typo taken below */
		if (d < best_d) {
			best_d = d;
			best = o->long_name;
			ties = 0;
		} else if (d == best_d) {
			ties++;
		}
	}
	/* Close enough to be a typo (one edit in a short name, two in a longer one) and not a tie between two. */
	if (!best || ties || best_d > (len <= 4 ? 1u : 2u) || best_d >= len)
		return NULL;
	return best;
}

void pmc_opts_suggest(const struct pmc_opts_cmd *cmd, const char *arg)
{
	const char *near = pmc_opts_nearest(cmd, arg);

	if (near)
		fprintf(stderr, "Did you mean '--%s'?\n", near);
}

int pmc_opts_bad_option_see_help(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	fprintf(stderr, "pmctool %s: %s '%s'\n", cmd->name, missing ? "option needs a value:" : "unknown option", arg);
	if (!missing)
		pmc_opts_suggest(cmd, arg);
	fprintf(stderr, "Run 'pmctool %s --help' for the options.\n", cmd->name);
	return PMC_EXIT_USAGE;
}

static int default_bad_option(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)missing;
	fprintf(stderr, "pmctool %s: unknown option '%s'; run 'pmctool %s --help'\n", cmd->name, arg, cmd->name);
	pmc_opts_suggest(cmd, arg);
	return PMC_EXIT_USAGE;
}

/* getopt's short string ("+:ab:") and long table from the table; NULL when out of memory. */
static char *short_string(const struct pmc_opts_cmd *cmd, size_t n)
{
	char *s = malloc(2 * n + 3), *p = s;

	if (!s)
		return NULL;
	if (cmd->stop_at_operand)
		*p++ = '+';
	if (!cmd->getopt_messages)
		*p++ = ':'; /* a missing value returns ':', not '?' */
	for (size_t i = 0; i < n; i++) {
		const struct pmc_opt *o = entry(cmd, i);

		if (!is_option(o) || !o->short_name)
			continue;
		*p++ = o->short_name;
		if (o->kind != PMC_OPT_FLAG)
			*p++ = ':';
	}
	*p = '\0';
	return s;
}

static struct option *long_table(const struct pmc_opts_cmd *cmd, size_t n)
{
	struct option *l = calloc(n + 1, sizeof(*l));
	size_t k = 0;

	if (!l)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct pmc_opt *o = entry(cmd, i);

		if (!is_option(o) || !o->long_name)
			continue;
		l[k++] = (struct option){ o->long_name,
					  o->kind == PMC_OPT_FLAG		? no_argument
					  : (o->flags & PMC_OPT_OPTIONAL) ? optional_argument
									  : required_argument,
					  NULL, LONG_BASE + (int)i };
	}
	return l;
}

static long entry_of(const struct pmc_opts_cmd *cmd, size_t n, int c)
{
	if (c >= LONG_BASE && (size_t)(c - LONG_BASE) < n)
		return c - LONG_BASE;
	for (size_t i = 0; i < n; i++)
		if (is_option(entry(cmd, i)) && entry(cmd, i)->short_name == c)
			return (long)i;
	return -1;
}

static size_t group_count(const struct pmc_opts_cmd *cmd)
{
	size_t n = 0;

	while (cmd->groups && cmd->groups[n].bit)
		n++;
	return n;
}

int pmc_opt_apply(const struct pmc_opt *o, void *ctx, const char *val)
{
	if (o->apply)
		return o->apply(ctx, o, val);
	if (o->field && o->kind == PMC_OPT_FLAG)
		*(bool *)((char *)ctx + o->field - 1) = true;
	else if (o->field)
		*(const char **)((char *)ctx + o->field - 1) = val;
	return 0;
}

/* The checks every option gets, then its effect. seen[i]: the value entry i was first given with ("" for a flag);
 * chosen[g]: 1 + the entry that took group g. */
static int take(const struct pmc_opts_cmd *cmd, size_t i, const char *val, const char **seen, size_t *chosen,
		void *ctx)
{
	const struct pmc_opt *o = entry(cmd, i);
	char a[64], b[64];

	if ((o->flags & PMC_OPT_SINGLE) && seen[i] && val && strcmp(seen[i], val)) {
		fprintf(stderr, "pmctool %s: %s given twice ('%.80s' and '%.80s'): give it once\n", cmd->name,
			pmc_opt_name(o, a, sizeof(a)), seen[i], val);
		return PMC_EXIT_USAGE;
	}
	if (!seen[i])
		seen[i] = val ? val : "";
	for (size_t g = 0; g < group_count(cmd); g++) {
		if (!(o->conflict & cmd->groups[g].bit))
			continue;
		if (chosen[g] && chosen[g] != i + 1) {
			pmc_opt_name(entry(cmd, chosen[g] - 1), a, sizeof(a));
			pmc_opt_name(o, b, sizeof(b));
			fprintf(stderr, "pmctool %s: ", cmd->name);
			if (cmd->groups[g].later_only)
				fprintf(stderr, cmd->groups[g].fmt, b);
			else
				fprintf(stderr, cmd->groups[g].fmt, a, b);
			fputc('\n', stderr);
			return PMC_EXIT_USAGE;
		}
		chosen[g] = i + 1;
	}
	if (o->flags & PMC_OPT_HELP) {
		pmc_opts_help(cmd, stdout);
		return PMC_OPTS_HELP;
	}
	return pmc_opt_apply(o, ctx, val);
}

/* getopt over argv with cmd's tables: each option found goes to take() (fn NULL) or to fn (a walk, no effect). */
static int parse_loop(const struct pmc_opts_cmd *cmd, int argc, char **argv, void *ctx, int *operand,
		      int (*fn)(void *arg, const struct pmc_opt *opt, const char *val))
{
	size_t n = entries(cmd), ng = group_count(cmd);
	char *shorts = short_string(cmd, n);
	struct option *longs = long_table(cmd, n);
	const char **seen = calloc(n + 1, sizeof(*seen)); /* sized from the table */
	size_t *chosen = calloc(ng + 1, sizeof(*chosen));
	int c, r = 0;

	if (!shorts || !longs || !seen || !chosen) {
		fprintf(stderr, "pmctool %s: out of memory\n", cmd->name);
		r = PMC_EXIT_INTERNAL;
		goto out;
	}
	optind = 0; /* glibc: a full restart, no state left from an earlier parse */
	opterr = cmd->getopt_messages;
	while (!r && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		long i = c == '?' || c == ':' ? -1 : entry_of(cmd, n, c), m = c == ':' ? entry_of(cmd, n, optopt) : -1;

		if (i < 0)
			r = (cmd->bad_option ? cmd->bad_option : default_bad_option)(cmd, argv[optind - 1],
										  m < 0 ? NULL : entry(cmd, (size_t)m));
		else if (fn)
			r = fn(ctx, entry(cmd, (size_t)i), optarg);
		else
			r = take(cmd, (size_t)i, optarg, seen, chosen, ctx);
	}
	*operand = optind;
out:
	free(shorts);
	free(longs);
	free(seen);
	free(chosen);
	return r;
}

int pmc_opts_parse(const struct pmc_opts_cmd *cmd, int argc, char **argv, void *ctx, int *operand)
{
	return parse_loop(cmd, argc, argv, ctx, operand, NULL);
}

/* The left column of an option's help line, after the two spaces every line starts with. */
static void left_column(const struct pmc_opts_cmd *cmd, const struct pmc_opt *o, char *buf, size_t len)
{
	const char *mv = o->metavar, *indent = cmd->long_indent ? cmd->long_indent : "";
	char s[8] = "";

	if (o->left) {
		snprintf(buf, len, "%s", o->left);
		return;
	}
	if (o->short_name)
		snprintf(s, sizeof(s), "-%c%s", o->short_name, o->long_name ? ", " : "");
	snprintf(buf, len, "%s%s%s%s%s%s", o->short_name ? s : indent, o->long_name ? "--" : "",
		 o->long_name ? o->long_name : "", mv && mv[0] != '=' && mv[0] != '[' ? " " : "", mv ? mv : "", "");
}

void pmc_opts_help(const struct pmc_opts_cmd *cmd, FILE *f)
{
	char left[128];

	fputs(cmd->usage, f);
	for (const struct pmc_opt *o = cmd->opts; o->kind != PMC_OPT_END; o++) {
		if (o->kind == PMC_OPT_TEXT) {
			fprintf(f, "%s\n", o->help);
			continue;
		}
		if (!o->help || (o->flags & PMC_OPT_HIDDEN))
			continue;
		left_column(cmd, o, left, sizeof(left));
		int w = 2 + (int)strlen(left);
		fprintf(f, "  %s%*s", left, w + 2 <= cmd->col ? cmd->col - w : 2, "");
		for (const char *h = o->help, *nl; *h; h = nl + 1) {
			nl = strchr(h, '\n');
			if (!nl) {
				fprintf(f, "%s", h);
				break;
			}
			fprintf(f, "%.*s\n%*s", (int)(nl - h), h, cmd->col, "");
		}
		fputc('\n', f);
	}
	fputs(cmd->epilogue, f);
}

void pmc_opts_words(const struct pmc_opts_cmd *cmd, FILE *f)
{
	for (const struct pmc_opt *o = cmd->opts; o->kind != PMC_OPT_END; o++) {
		if (!is_option(o) || (o->flags & PMC_OPT_HIDDEN))
			continue;
		if (o->short_name)
			fprintf(f, "-%c\n", o->short_name);
		if (o->long_name)
			fprintf(f, "--%s\n", o->long_name);
	}
}

int pmc_opt_set_format(void *ctx, const struct pmc_opt *opt, const char *val)
{
	char flag[64];
	const struct pmc_format *fmt = pmc_format_by_flag(pmc_opt_name(opt, flag, sizeof(flag)));

	(void)val;
	if (!fmt || !opt->field)
		return PMC_EXIT_INTERNAL; /* a table error: the unit tests try every table's format options */
	*(enum pmc_output_format *)((char *)ctx + opt->field - 1) = fmt->id;
	return 0;
}

int pmc_opts_walk(const struct pmc_opts_cmd *cmd, int argc, char **argv,
		  int (*fn)(void *arg, const struct pmc_opt *opt, const char *val), void *arg, int *operand)
{
	return parse_loop(cmd, argc, argv, arg, operand, fn);
}

size_t pmc_opt_words(const struct pmc_opt *opt, const char *val, char *words[2])
{
	int r;

	if (opt->kind == PMC_OPT_FLAG || !val)
		r = opt->long_name ? asprintf(&words[0], "--%s", opt->long_name) : asprintf(&words[0], "-%c", opt->short_name);
	else if (opt->long_name)
		r = asprintf(&words[0], "--%s=%s", opt->long_name, val); /* one word: a value may start with '-' */
	else
		r = asprintf(&words[0], "-%c", opt->short_name);
	if (r < 0)
		return 0;
	if (opt->kind == PMC_OPT_FLAG || !val || opt->long_name)
		return 1;
	words[1] = (char *)val; /* "-C" "VALUE": getopt takes the next word as the value whatever it starts with */
	return 2;
}
