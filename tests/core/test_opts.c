/* SPDX-License-Identifier: MIT */
/* cli/opts: the option tables' machinery (getopt tables, checks, help layout) on test tables, and every command's
 * real table (its words in its help, which completion reads; no spelling used twice). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "output/format.h"
#include "util/util.h"

struct ctx {
	bool flag;
	const char *value;
	const char *list[8];
	int nlist, applied;
	const char *bad_arg;
	bool bad_missing;
};

static int push(void *c, const struct pmc_opt *opt, const char *val)
{
	struct ctx *x = c;

	(void)opt;
	x->list[x->nlist++ % 8] = val;
	return 0;
}

static int fail_on_bad(void *c, const struct pmc_opt *opt, const char *val)
{
	(void)c, (void)opt;
	return strcmp(val, "bad") ? 0 : 7; /* the apply's own exit status passes through */
}

static int record_bad(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing);

enum { G_FMT = 1, G_ROWS = 2 };

static const struct pmc_opt test_opts[] = {
	{ .kind = PMC_OPT_TEXT, .help = "Section:" },
	{ .short_name = 'f', .long_name = "flag", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct ctx, flag),
	  .help = "a flag" },
	{ .short_name = 'v', .long_name = "value", .kind = PMC_OPT_VALUE, .metavar = "V", .flags = PMC_OPT_SINGLE,
	  .field = PMC_OPT_FIELD(struct ctx, value), .help = "one value,\nsecond line" },
	{ .long_name = "list", .kind = PMC_OPT_LIST, .metavar = "=ITEM", .apply = push, .help = "repeatable" },
	{ .long_name = "a-very-long-option-name", .kind = PMC_OPT_FLAG, .conflict = G_FMT, .help = "too wide" },
	{ .short_name = 'x', .kind = PMC_OPT_VALUE, .metavar = "SEP", .conflict = G_FMT, .apply = fail_on_bad,
	  .help = "short only" },
	{ .long_name = "hidden", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HIDDEN, .conflict = G_ROWS, .help = "unseen" },
	{ .long_name = "also", .kind = PMC_OPT_FLAG, .conflict = G_ROWS, .left = "    --also, --hidden",
	  .help = "two on a line" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group test_groups[] = {
	{ G_FMT, "%s and %s both choose the format: give one", false },
	{ G_ROWS, "%s chooses the rows again", true },
	{ 0, NULL, false },
};

static struct ctx *bad_sink;

static int record_bad(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	(void)cmd;
	bad_sink->bad_arg = arg;
	bad_sink->bad_missing = missing != NULL;
	return PMC_EXIT_USAGE;
}

static const struct pmc_opts_cmd test_cmd = {
	.name = "test",
	.opts = test_opts,
	.groups = test_groups,
	.usage = "Usage: test\n",
	.epilogue = "End.\n",
	.col = 20,
	.long_indent = "    ",
	.bad_option = record_bad,
};

static void test_help_aligns_wraps_and_keeps_text_lines_in_table_order(void **s)
{
	static const char want[] = "Usage: test\n"
				   "Section:\n"
				   "  -f, --flag        a flag\n"
				   "  -v, --value V     one value,\n"
				   "                    second line\n"
				   "      --list=ITEM   repeatable\n"
				   "      --a-very-long-option-name  too wide\n"
				   "  -x SEP            short only\n"
				   "      --also, --hidden  two on a line\n"
				   "  -h, --help        this text\n"
				   "End.\n";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)s;
	assert_non_null(f);
	pmc_opts_help(&test_cmd, f);
	fclose(f);
	assert_string_equal(buf, want);
	free(buf);
}

static int parse(struct ctx *c, int *first, ...)
{
	char *argv[16] = { "test" };
	int argc = 1;
	va_list ap;

	va_start(ap, first);
	for (char *a; (a = va_arg(ap, char *)) && argc < 15;)
		argv[argc++] = a;
	va_end(ap);
	memset(c, 0, sizeof(*c));
	bad_sink = c;
	return pmc_opts_parse(&test_cmd, argc, argv, c, first);
}

static void test_parse_applies_flags_values_and_lists_in_order_and_finds_the_operands(void **s)
{
	struct ctx c;
	int first = 0;

	(void)s;
	assert_int_equal(parse(&c, &first, "-f", "--value", "a", "--list=1", "op", "--list", "2", "-v", "a", NULL), 0);
	assert_true(c.flag);
	assert_string_equal(c.value, "a");
	assert_int_equal(c.nlist, 2);
	assert_string_equal(c.list[0], "1");
	assert_string_equal(c.list[1], "2");
	assert_int_equal(first, 9); /* getopt moved the operand behind the options */
	/* a second parse in the same process starts afresh */
	assert_int_equal(parse(&c, &first, "--fl", NULL), 0);
	assert_true(c.flag);
	assert_int_equal(first, 2);
}

static void test_parse_rejects_what_the_table_forbids_with_exit_status_2(void **s)
{
	static const struct {
		int line;
		const char *a, *b, *c;
		int rc;
		const char *bad_arg;
		bool missing;
	} rows[] = {
		{ __LINE__, "-v", "a", "--value=b", PMC_EXIT_USAGE, NULL, false }, /* SINGLE, another value */
		{ __LINE__, "-v", "a", "--value=a", 0, NULL, false },		   /* SINGLE, the same value */
		{ __LINE__, "--a-very", "-x", ",", PMC_EXIT_USAGE, NULL, false },  /* one of a group */
		{ __LINE__, "-x", ",", "-x,", 0, NULL, false },			   /* the same one twice */
		{ __LINE__, "--hidden", "--also", NULL, PMC_EXIT_USAGE, NULL, false },
		{ __LINE__, "-x", "bad", NULL, 7, NULL, false },		   /* the apply's status */
		{ __LINE__, "--bogus", NULL, NULL, PMC_EXIT_USAGE, "--bogus", false },
		{ __LINE__, "-q", NULL, NULL, PMC_EXIT_USAGE, "-q", false },
		{ __LINE__, "-f", "--value", NULL, PMC_EXIT_USAGE, "--value", true },
		{ __LINE__, "-x", NULL, NULL, PMC_EXIT_USAGE, "-x", true },
		{ __LINE__, "--help", "--bogus", NULL, PMC_OPTS_HELP, NULL, false },
	};
	FILE *saved = stdout;

	(void)s;
	stdout = fopen("/dev/null", "w"); /* --help prints */
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct ctx c;
		int first;
		int rc = parse(&c, &first, rows[i].a, rows[i].b, rows[i].c, NULL);

		if (rc != rows[i].rc)
			fail_msg("line %d: rc %d, expected %d", rows[i].line, rc, rows[i].rc);
		if (rows[i].bad_arg && (!c.bad_arg || strcmp(c.bad_arg, rows[i].bad_arg) || c.bad_missing != rows[i].missing))
			fail_msg("line %d: bad_option got '%s' missing %d", rows[i].line, c.bad_arg ? c.bad_arg : "(null)",
				 c.bad_missing);
	}
	fclose(stdout);
	stdout = saved;
}

/* The given-twice check's memory is sized from the table: 40 single-value options, each given twice. */
static void test_single_check_covers_every_option_of_a_large_table(void **s)
{
	enum { N = 40 };
	static struct pmc_opt big[N + 1];
	static char names[N][8];
	struct pmc_opts_cmd cmd = { .name = "big", .opts = big, .usage = "", .epilogue = "", .col = 10 };
	struct ctx c;

	(void)s;
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "o%d", i);
		big[i] = (struct pmc_opt){ .long_name = names[i], .kind = PMC_OPT_VALUE, .flags = PMC_OPT_SINGLE,
					   .field = PMC_OPT_FIELD(struct ctx, value) };
	}
	big[N].kind = PMC_OPT_END;
	for (int i = 0; i < N; i++) {
		char a[16], b[16];
		char *argv[] = { "big", a, b, NULL };
		int first;

		snprintf(a, sizeof(a), "--o%d=1", i);
		snprintf(b, sizeof(b), "--o%d=2", i);
		if (pmc_opts_parse(&cmd, 3, argv, &c, &first) != PMC_EXIT_USAGE)
			fail_msg("--o%d given twice with two values was accepted", i);
		snprintf(b, sizeof(b), "--o%d=1", i);
		if (pmc_opts_parse(&cmd, 3, argv, &c, &first) != 0)
			fail_msg("--o%d given twice with one value was refused", i);
	}
}

/* sweep and compare parse stat's table with their own (more): both are applied, only their own are in the help. */
static void test_more_table_is_parsed_with_the_commands_own_but_not_shown(void **s)
{
	static const struct pmc_opt own[] = {
		{ .long_name = "own", .kind = PMC_OPT_VALUE, .metavar = "X", .flags = PMC_OPT_SINGLE,
		  .field = PMC_OPT_FIELD(struct ctx, value), .help = "its own" },
		{ .kind = PMC_OPT_END },
	};
	struct pmc_opts_cmd cmd = { .name = "sub", .opts = own, .more = test_opts, .groups = test_groups,
				    .usage = "U\n", .epilogue = "", .col = 12, .bad_option = record_bad };
	char *argv[] = { "sub", "--own=a", "-f", "--list", "1", "-x", NULL, NULL };
	char *help = NULL;
	size_t len = 0;
	struct ctx c = { 0 };
	int first;
	FILE *f = open_memstream(&help, &len);

	(void)s;
	bad_sink = &c;
	assert_int_equal(pmc_opts_parse(&cmd, 6, argv, &c, &first), PMC_EXIT_USAGE);
	assert_true(c.bad_missing); /* -x of the stat-like table, without its value */
	memset(&c, 0, sizeof(c));
	assert_int_equal(pmc_opts_parse(&cmd, 5, argv, &c, &first), 0);
	assert_string_equal(c.value, "a");
	assert_true(c.flag);
	assert_int_equal(c.nlist, 1);
	assert_non_null(f);
	pmc_opts_help(&cmd, f);
	fclose(f);
	assert_string_equal(help, "U\n  --own X   its own\n");
	free(help);
}

/* Completion offers the words of 'pmctool CMD --help': every option of every table must be in its help, and no
 * spelling may be taken twice in one table (getopt would silently pick the first). */
static void test_every_command_table_shows_each_option_in_its_help_and_spells_each_once(void **s)
{
	(void)s;
	for (const struct pmc_opts_cmd *const *t = pmc_opts_tables; *t; t++) {
		char *help = NULL, *words = NULL;
		size_t hl = 0, wl = 0;
		FILE *h = open_memstream(&help, &hl), *w = open_memstream(&words, &wl);

		assert_non_null(h);
		assert_non_null(w);
		pmc_opts_help(*t, h);
		pmc_opts_words(*t, w);
		fclose(h);
		fclose(w);
		for (char *save, *word = strtok_r(words, "\n", &save); word; word = strtok_r(NULL, "\n", &save)) {
			size_t n = strlen(word);
			bool found = false;

			for (const char *p = strstr(help, word); p && !found; p = strstr(p + 1, word))
				found = !(p[n] == '-' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9'));
			if (!found)
				fail_msg("%s: option %s is not in its --help", (*t)->name, word);
		}
		for (const struct pmc_opt *a = (*t)->opts; a->kind != PMC_OPT_END; a++)
			for (const struct pmc_opt *b = a + 1; b->kind != PMC_OPT_END; b++) {
				if (a->kind == PMC_OPT_TEXT || b->kind == PMC_OPT_TEXT)
					continue;
				if ((a->short_name && a->short_name == b->short_name) ||
				    (a->long_name && b->long_name && !strcmp(a->long_name, b->long_name)))
					fail_msg("%s: two options spelled alike", (*t)->name);
			}
		for (const struct pmc_opt *a = (*t)->opts; a->kind != PMC_OPT_END; a++)
			if (a->kind != PMC_OPT_TEXT && !a->apply && !a->field && !(a->flags & PMC_OPT_HELP))
				fail_msg("%s: an option without an effect", (*t)->name);
			else if (a->apply == pmc_opt_set_format) {
				char name[64];

				pmc_opt_name(a, name, sizeof(name));
				if (!a->field || !pmc_format_by_flag(name))
					fail_msg("%s: %s is no format of the registry", (*t)->name, name);
			}
		free(help);
		free(words);
	}
}

static int collect(void *arg, const struct pmc_opt *opt, const char *val)
{
	struct ctx *x = arg;
	char *w[2];
	size_t n = pmc_opt_words(opt, val, w);

	assert_true(n >= 1);
	x->list[x->nlist++ % 8] = w[0]; /* freed by the test */
	if (n == 2)
		x->list[x->nlist++ % 8] = w[1];
	return 0;
}

/* The walk yields what the parse takes (both tables, in order, without effects); the words give each option again as
 * the table spells it, so that a second parse of them takes the same options with the same values. */
static void test_walk_yields_each_option_and_its_words_parse_back_to_the_same(void **s)
{
	char *argv[] = { "test", "-fv-a", "--list", "--x", "-x", "-y", "--also", "op", NULL };
	char *again[10] = { "test" };
	struct ctx w = { 0 }, c1 = { 0 }, c2 = { 0 };
	int first = 0, first2 = 0;

	(void)s;
	bad_sink = &c1;
	assert_int_equal(pmc_opts_walk(&test_cmd, 8, argv, collect, &w, &first), 0);
	assert_int_equal(first, 7); /* the operand "op": options end there */
	assert_int_equal(w.nlist, 6);
	assert_string_equal(w.list[0], "--flag");
	assert_string_equal(w.list[1], "--value=-a"); /* one word: the value starting with '-' stays a value */
	assert_string_equal(w.list[2], "--list=--x");
	assert_string_equal(w.list[3], "-x"); /* no long name: the value as the next word */
	assert_string_equal(w.list[4], "-y");
	assert_string_equal(w.list[5], "--also");
	assert_false(c1.flag); /* a walk has no effect */
	for (int i = 0; i < 6; i++)
		again[i + 1] = (char *)w.list[i];
	assert_int_equal(pmc_opts_parse(&test_cmd, 7, again, &c2, &first2), 0);
	assert_int_equal(pmc_opts_parse(&test_cmd, 8, argv, &c1, &first), 0);
	assert_int_equal(first2, 7);
	assert_true(c1.flag && c2.flag);
	assert_string_equal(c1.value, c2.value);
	assert_int_equal(c1.nlist, c2.nlist);
	assert_string_equal(c1.list[0], c2.list[0]);
	for (int i = 0; i < 6; i++)
		if (i != 4) /* -x's value is argv's own word */
			free((char *)w.list[i]);
	/* an unknown option ends the walk with bad_option's status */
	assert_int_equal(pmc_opts_walk(&test_cmd, 2, (char *[]){ "test", "--nosuch", NULL }, collect, &w, &first),
			 PMC_EXIT_USAGE);
}

/* perf's habit: an unknown long option suggests the nearest known one of that command's table, when it is a typo
 * (one edit in a name of four letters or fewer, two in a longer one) and no other option is as near. */
static void test_unknown_long_option_suggests_the_nearest_of_its_own_table(void **s)
{
	static const struct {
		const struct pmc_opts_cmd *cmd;
		const char *typed, *want; /* want NULL: no suggestion */
	} rows[] = {
		{ &pmc_opts_stat, "--evnt", "event" },          /* a letter missing */
		{ &pmc_opts_stat, "--repet=3", "repeat" },      /* the value is not part of the name */
		{ &pmc_opts_stat, "--jsno", "json" },           /* two letters swapped: one edit */
		{ &pmc_opts_stat, "--metirc", "metric" },
		{ &pmc_opts_stat, "--timeuot", "timeout" },
		{ &pmc_opts_stat, "--per-scoket", "per-socket" },
		{ &pmc_opts_stat, "--xyz", NULL },              /* nothing near */
		{ &pmc_opts_stat, "--frobnicate", NULL },
		{ &pmc_opts_stat, "-q", NULL },                 /* short options: not guessed */
		{ &pmc_opts_stat, "--", NULL },
		{ &pmc_opts_list, "--lng", "long" },
		{ &pmc_opts_list, "--jsno", "json" },
		{ &pmc_opts_list, "--event", NULL },            /* stat's option, far from every one of list's */
	};

	(void)s;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got = pmc_opts_nearest(rows[i].cmd, rows[i].typed);

		if ((got == NULL) != (rows[i].want == NULL) || (got && strcmp(got, rows[i].want)))
			fail_msg("%s %s: got %s, want %s", rows[i].cmd->name, rows[i].typed, got ? got : "none",
				 rows[i].want ? rows[i].want : "none");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_aligns_wraps_and_keeps_text_lines_in_table_order),
		cmocka_unit_test(test_parse_applies_flags_values_and_lists_in_order_and_finds_the_operands),
		cmocka_unit_test(test_parse_rejects_what_the_table_forbids_with_exit_status_2),
		cmocka_unit_test(test_single_check_covers_every_option_of_a_large_table),
		cmocka_unit_test(test_more_table_is_parsed_with_the_commands_own_but_not_shown),
		cmocka_unit_test(test_every_command_table_shows_each_option_in_its_help_and_spells_each_once),
		cmocka_unit_test(test_walk_yields_each_option_and_its_words_parse_back_to_the_same),
		cmocka_unit_test(test_unknown_long_option_suggests_the_nearest_of_its_own_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
