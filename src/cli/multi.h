/* SPDX-License-Identifier: MIT */
/* What sweep, compare and stat --compare share: running 'pmctool stat --json -o FILE' as a child for each
 * measurement (a whole stat run, batches, metrics and checks included) and reading its report back. */
#ifndef PMC_CLI_MULTI_H
#define PMC_CLI_MULTI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/opts.h"
#include "cli/stat.h"
#include "report/load.h"

#define MULTI_MAX_ARGS 1024

struct child_args {
	const char *v[MULTI_MAX_ARGS + 1];
	size_t n;
	char store[64][48]; /* numbers formatted for the child's options */
	size_t nstore;
	bool overflow;
	bool relay_stderr; /* -v: the child's stderr is copied to stderr after it */
};

/* The stat options of a command line as each measurement is given them: every stat option given, in the order given,
 * spelled as stat's table spells it (pmc_opt_words), except those sweep and compare answer themselves for their own
 * report (multi_own_options: -r, -o, --csv, --json, --compare, --fail-if). Nothing is rebuilt by hand: an option
 * added to stat's table reaches the measurements without a line here. */
struct multi_stat_words {
	char **w;      /* the measurements' words (pointing into all) */
	size_t n;
	char **all;    /* every stat option's words, the ones sweep and compare answer included (allocated) */
	size_t nall, cap;
	bool verbose;  /* -v given: each measurement's stderr (its traces) is copied to stderr */
	pmc_opt_apply_fn other; /* the options of cmd that are not stat's (sweep's own), and its ctx */
	void *other_ctx;
};
extern const char *const multi_own_options[]; /* long names in stat's table; NULL ends it */

/* Walk argv with cmd's table (stat's, or sweep's with stat's as cmd->more) and keep the words of stat's options;
 * the others go to other (NULL: ignored) with other_ctx. 0 with *operand the first operand's index, or the exit
 * status after the message. multi_stat_words_fini frees. */
int multi_stat_words(struct multi_stat_words *sw, const struct pmc_opts_cmd *cmd, int argc, char **argv, int *operand,
		     pmc_opt_apply_fn other, void *other_ctx);
void multi_stat_words_fini(struct multi_stat_words *sw);

/* pmctool stat --json -o JSONPATH and the words; not the command. */
void child_args_from_stat(struct child_args *a, const struct multi_stat_words *sw, const char *jsonpath);
void child_args_push(struct child_args *a, const char *s);
const char *child_args_fmt(struct child_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One measurement: run the child with env NAME=VALUE added (name may be NULL), its stdout to /dev/null (the
 * command's output is not part of a sweep), its stderr into errpath. Then read jsonpath. 0 and *ret when a report
 * came back; otherwise -1 with why filled (the child's first error line, or its exit status). *status is the
 * child's exit status. */
/* The child alone: run it as child_measure does and leave jsonpath (removed first) to the caller. 0 with *status
 * its exit status, or -1 with why filled when it could not be started. */
int child_run(struct child_args *a, const char *name, const char *value, const char *errpath, const char *jsonpath,
	      int *status, char *why, size_t whylen);
/* The child's first error line in errpath into why (left as it is when there is none). */
void child_first_error(const char *errpath, char *why, size_t whylen);
int child_measure(struct child_args *a, const char *name, const char *value, const char *errpath, const char *jsonpath,
		  struct pmc_loaded *ret, int *status, char *why, size_t whylen);

/* SIGINT / SIGTERM: set multi_interrupted and let the running child finish its report (a signal sent to pmctool
 * alone is forwarded to the child). */
void multi_install_signals(void);
extern volatile sig_atomic_t multi_interrupted;

/* A private directory for the children's reports; removed with its files by multi_tmpdir_remove. 0 or exit status. */
int multi_tmpdir(char *buf, size_t len);
void multi_tmpdir_remove(const char *dir);

/* Write buf to path ("-" stdout; NULL: stdout or stderr as to_stderr says); 0 or an exit status after the message. */
int multi_emit(const char *cmd, const char *path, const char *buf, size_t len, bool to_stderr);

/* Split a command given as one string into words: spaces separate, '...' and "..." quote, backslash escapes; no
 * expansion of any kind. 0, or -EINVAL (an open quote) / -E2BIG. The words point into buf, which is overwritten. */
int multi_split_words(char *buf, char **words, size_t max, size_t *ret_n);

#endif
