/* SPDX-License-Identifier: MIT */
/* What sweep, compare, stat --compare and check share: each measurement is the engine's flow run in this process
 * (a whole stat measurement: batches, metrics and checks included) on a copy of the request the command line was
 * parsed into, its result read from the report's typed fields (report/load.h's series for sweep and compare). */
#ifndef PMC_CLI_MULTI_H
#define PMC_CLI_MULTI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli/opts.h"
#include "cli/stat.h"
#include "report/load.h"

/* The stat options of a command line, as the command's one stat parse is given them: every stat option given, in
 * the order given, spelled as stat's table spells it (pmc_opt_words). An option whose refused_by (cli/opts.h) has a
 * bit of refuse is refused with "pmctool CMD: OPT is a stat option that CMD does not take" (exit 2). */
struct multi_stat_words {
	char **all;    /* the words (allocated) */
	size_t nall, cap;
	const char *cmd;
	unsigned refuse;
	pmc_opt_apply_fn other; /* the options of cmd that are not stat's (sweep's own), and its ctx */
	void *other_ctx;
};

/* Walk argv with cmd's table (stat's, or sweep's with stat's as cmd->more) and keep the words of stat's options;
 * the others go to other (NULL: ignored) with other_ctx. 0 with *operand the first operand's index, or the exit
 * status after the message. multi_stat_words_fini frees. */
int multi_stat_words(struct multi_stat_words *sw, const struct pmc_opts_cmd *cmd, unsigned refuse, int argc,
		     char **argv, int *operand, pmc_opt_apply_fn other, void *other_ctx);
void multi_stat_words_fini(struct multi_stat_words *sw);

/* One measurement of req (copied: the caller's request is left as it was) in this process, as 'pmctool stat' would
 * measure it (so: its -v, --check and -M notes; NULL for none): the command's stdout (and stderr, unless -v) go to
 * /dev/null while it runs. 0 with *rep (pmc_report_fini) when a report came back, else -1 with why (the first
 * error message). *status is the exit status stat would have ended with. */
int multi_measure_report(const struct stat_opts *so, const struct pmc_engine_opts *req, struct pmc_report *rep,
			 int *status, char *why, size_t whylen);
/* The same, read into the series sweep and compare pool (pmc_loaded_from_report). */
int multi_measure(const struct stat_opts *so, const struct pmc_engine_opts *req, struct pmc_loaded *ret, int *status,
		  char *why, size_t whylen);

/* SIGINT / SIGTERM: set multi_interrupted; the measurement under way stops with its counts so far (partial), its
 * command's process group signalled; no further measurement should start. */
void multi_install_signals(void);
/* fn for SIGINT and SIGTERM (no flags, nothing blocked): the handler stat and the measurements above install. */
void multi_catch_stop_signals(void (*fn)(int));
extern volatile sig_atomic_t multi_interrupted;

/* Write buf to path ("-" stdout; NULL: stdout or stderr as to_stderr says); 0 or an exit status after the message. */
int multi_emit(const char *cmd, const char *path, const char *buf, size_t len, bool to_stderr);

/* Split a command given as one string into words: spaces separate, '...' and "..." quote, backslash escapes; no
 * expansion of any kind. 0, or -EINVAL (an open quote) / -E2BIG. The words point into buf, which is overwritten. */
int multi_split_words(char *buf, char **words, size_t max, size_t *ret_n);

#endif
