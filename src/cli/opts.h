/* SPDX-License-Identifier: MIT */
/* One declarative option table per command (the shape of git's parse-options): each option is written once, with its
 * spelling, kind, help text, checks and effect; getopt's short string and long-option table, the help text, the
 * given-twice and one-of checks and the words completion offers all come from the table. */
#ifndef PMC_CLI_OPTS_H
#define PMC_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum pmc_opt_kind {
	PMC_OPT_END,   /* ends a table */
	PMC_OPT_FLAG,  /* no value */
	PMC_OPT_VALUE, /* one value (the last one given wins, unless PMC_OPT_SINGLE) */
	PMC_OPT_LIST,  /* a value, repeatable: each one is applied */
	PMC_OPT_TEXT,  /* not an option: a line of the help text (a heading, a note) printed where it stands */
};

enum {
	PMC_OPT_SINGLE = 1u << 0, /* given again with another value: "X given twice ('a' and 'b'): give it once" */
	PMC_OPT_HELP = 1u << 1,	  /* prints the help to stdout; the parse ends (pmc_opts_parse returns PMC_OPTS_HELP) */
	PMC_OPT_HIDDEN = 1u << 2, /* not in the help (nor offered to completion) */
	PMC_OPT_KERNEL_ONLY = 1u << 3, /* means something only with -k: for the command's own check */
	PMC_OPT_SCOPE = 1u << 4,       /* chooses what is counted (-p, -t, -a, -C...): for the command's own check */
	PMC_OPT_OPTIONAL = 1u << 5,    /* a VALUE whose value may be left out (--topdown[=LEVEL]): apply gets NULL then;
					  the value is only taken as --opt=VALUE, and metavar is written "[=LEVEL]" */
};

struct pmc_opt;

/* The effect of an option: val is NULL for a flag. Returns 0, or the exit status after printing why. */
typedef int (*pmc_opt_apply_fn)(void *ctx, const struct pmc_opt *opt, const char *val);

struct pmc_opt {
	int id;			/* the command's own number for the option (free for it to use in apply) */
	char short_name;	/* 0: none */
	const char *long_name;	/* NULL: none */
	enum pmc_opt_kind kind;
	const char *metavar;	/* shown after the option in the help: "NAME" (" NAME") or "=MODE" (as written) */
	const char *help;	/* lines after the first are indented to the help column; TEXT: the line itself;
				   NULL: the option has no line of its own (another's left column names it) */
	unsigned flags;
	unsigned conflict;	/* bits of one-of groups (struct pmc_opts_cmd's groups) */
	const char *left;	/* the help's left column as written, in place of the generated one */
	size_t field;		/* offsetof(ctx's struct, member) + 1 (0: none): a flag sets a bool there, a value
				   stores its const char * there; apply, when set, is called instead */
	pmc_opt_apply_fn apply;
	unsigned refused_by;	/* the commands measuring with this table's options that do not take this one
				   (PMC_OPT_NOT_SWEEP...): an accepts-mask, inverted so that an option added
				   to stat's table reaches every measurement unless it says otherwise */
};

/* refused_by's bits: the commands that measure with stat's options (cli/multi.h). sweep refuses what its report has
 * no place for (NOT_SWEEP) and what has no single total per event or no command per point (NOT_SWEEP_TOTAL: the
 * message says so); stat --compare the output options its comparison has no use for (NOT_COMPARE; what needs a
 * second look at the values, a scope or a kernel, is stat_opts.c's check_combinations). */
enum { PMC_OPT_NOT_SWEEP = 1u << 0, PMC_OPT_NOT_SWEEP_TOTAL = 1u << 1, PMC_OPT_NOT_COMPARE = 1u << 2 };

/* A one-of group: two different options of it are an error; fmt gets the earlier and the later option as written
 * in the help (short name if it has one), or only the later one with later_only. */
struct pmc_opt_group {
	unsigned bit;
	const char *fmt;
	bool later_only;
};

struct pmc_opts_cmd {
	const char *name;		/* "sets": messages say "pmctool sets: ..." */
	const struct pmc_opt *opts;	/* ends with kind PMC_OPT_END */
	const struct pmc_opt_group *groups; /* ends with bit 0; NULL: none */
	const char *usage;		/* the help before the option lines */
	const char *epilogue;		/* the help after them */
	int col;			/* the help column: where the help strings start */
	const char *long_indent;	/* before a long-only option ("    " under a column of short ones) */
	bool stop_at_operand;		/* options end at the first operand (getopt's '+') */
	bool getopt_messages;		/* let getopt print its own message (opterr) before bad_option's */
	/* An unknown option (missing NULL) or one without its value (missing: that option): print the message. NULL:
	 * "pmctool CMD: unknown option 'ARG'; run 'pmctool CMD --help'". Returns the exit status. */
	int (*bad_option)(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing);
	/* More options parsed with these but shown in another command's help (sweep and compare take stat's table):
	 * ends with PMC_OPT_END; NULL: none. Their one-of groups are cmd's groups. */
	const struct pmc_opt *more;
};

enum { PMC_OPTS_HELP = -1 };

/* The long option of cmd's table an unknown "--NAME[=V]" most likely meant (a typo: one or two letters wrong, missing,
 * extra or swapped), or NULL when none is that close or two are equally close. */
const char *pmc_opts_nearest(const struct pmc_opts_cmd *cmd, const char *arg);
/* "Did you mean '--event'?" on stderr when pmc_opts_nearest has an answer. */
void pmc_opts_suggest(const struct pmc_opts_cmd *cmd, const char *arg);

/* Parses argv's options (argv[0] is the command's name) against cmd's table, applying each to ctx in the order given.
 * Returns 0 with *operand the index of the first operand, PMC_OPTS_HELP when the help was printed, or the exit status
 * after a message on stderr (unknown option, missing value, given twice, two of a group, an apply's error). */
int pmc_opts_parse(const struct pmc_opts_cmd *cmd, int argc, char **argv, void *ctx, int *operand);

/* The help: usage, a line per option (left column, then the help from cmd->col), epilogue. */
void pmc_opts_help(const struct pmc_opts_cmd *cmd, FILE *f);

/* How the help and the messages name an option: "-x" when it has a short name, else "--long". */
const char *pmc_opt_name(const struct pmc_opt *opt, char *buf, size_t len);

/* The words completion offers for cmd: every option's -s and --long that the help shows, one a line. */
void pmc_opts_words(const struct pmc_opts_cmd *cmd, FILE *f);

/* An apply for the options that choose an output format (--csv, --json; field: an enum pmc_output_format): the
 * format registry's entry for the option's flag (output/format.h) goes into the field. */
int pmc_opt_set_format(void *ctx, const struct pmc_opt *opt, const char *val);
/* A bad_option for the report commands (compare, merge): "pmctool CMD: unknown option 'ARG'" or "option needs a
 * value: 'ARG'", then where the options are. PMC_EXIT_USAGE. */
int pmc_opts_bad_option_see_help(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing);

/* The number of entries of a table (up to its PMC_OPT_END). */
size_t pmc_opts_count(const struct pmc_opt *opts);

/* Each option of argv as pmc_opts_parse would take it, without its checks or effects: fn gets the option's table entry
 * (of cmd->opts or cmd->more) and its value (NULL for a flag), in the order given; a non-zero return ends the walk
 * and is returned. Unknown options and missing values: cmd->bad_option, as pmc_opts_parse. *operand as there. Sweep
 * parses the stat options it was given this way (cli/multi_measure.c). */
int pmc_opts_walk(const struct pmc_opts_cmd *cmd, int argc, char **argv,
		  int (*fn)(void *arg, const struct pmc_opt *opt, const char *val), void *arg, int *operand);

/* An option's effect on ctx, as pmc_opts_parse applies it (its apply, or its field), without the checks. */
int pmc_opt_apply(const struct pmc_opt *opt, void *ctx, const char *val);

/* The words that give opt with val again as the table spells it: "--long=VALUE" (one word, so that a value starting
 * with '-' stays a value), "--long" for a flag, or "-s" and VALUE for an option without a long name. Returns the
 * number of words (1 or 2); words[0] is allocated (the caller frees it), words[1] is val. 0: out of memory. */
size_t pmc_opt_words(const struct pmc_opt *opt, const char *val, char *words[2]);

#define PMC_OPT_FIELD(type, member) (offsetof(type, member) + 1)

#endif
