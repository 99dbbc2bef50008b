/* SPDX-License-Identifier: MIT */
/* The measurements of sweep, compare, stat --compare and check: each one the engine's flow (prepare, check, measure,
 * status) in this process, on a request copied from the one the command line was parsed into, its report read as
 * typed fields. No pmctool is started, no report is written and read back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/opts.h"
#include "info/check.h"
#include "run/launch.h"
#include "util/file_write.h"
#include "util/util.h"

volatile sig_atomic_t multi_interrupted;
static volatile sig_atomic_t multi_stop;          /* the engine's stop flag (the signal's number) */
static struct pmc_engine_ctx *volatile measuring; /* the measurement running now: its command, for the handler */

/* The stat options of a command line, walked with cmd's table: each one's words as stat's table spells them
 * (pmc_opt_words), for the one stat parse of the command line; cmd's own options go to other. An option refused by
 * the command (its bit in the option's refused_by, cli/opts.h) ends the walk with the command's message. */
static bool stat_option(const struct pmc_opt *opt)
{
	const struct pmc_opt *t = pmc_opts_stat.opts;

	return opt >= t && opt < t + pmc_opts_count(t);
}

static int keep_word(void *arg, const struct pmc_opt *opt, const char *val)
{
	struct multi_stat_words *sw = arg;
	char *w[2], name[64];
	size_t n;

	if (!stat_option(opt))
		return sw->other ? sw->other(sw->other_ctx, opt, val) : 0;
	if (opt->refused_by & sw->refuse) {
		fprintf(stderr, "pmctool %s: %s is a stat option that %s does not take%s\n", sw->cmd,
			pmc_opt_name(opt, name, sizeof(name)), sw->cmd,
			opt->refused_by & PMC_OPT_NOT_SWEEP_TOTAL
				? ": each point measures its command or kernel, one total per event" : "");
		return PMC_EXIT_USAGE;
	}
	n = pmc_opt_words(opt, val, w);
	if (!n || (n == 2 && !(w[1] = strdup(w[1])))) {
		if (n)
			free(w[0]);
		fprintf(stderr, "pmctool: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	if (sw->nall + n > sw->cap) { /* one word of argv may bundle many flags: "-vvv" */
		size_t cap = 2 * sw->cap + n;
		char **all = realloc(sw->all, cap * sizeof(char *));

		if (!all) {
			for (size_t i = 0; i < n; i++)
				free(w[i]);
			fprintf(stderr, "pmctool: out of memory\n");
			return PMC_EXIT_INTERNAL;
		}
		sw->all = all;
		sw->cap = cap;
	}
	for (size_t i = 0; i < n; i++)
		sw->all[sw->nall++] = w[i];
	return 0;
}

int multi_stat_words(struct multi_stat_words *sw, const struct pmc_opts_cmd *cmd, unsigned refuse, int argc,
		     char **argv, int *operand, pmc_opt_apply_fn other, void *other_ctx)
{
	memset(sw, 0, sizeof(*sw));
	sw->cmd = cmd->name;
	sw->refuse = refuse;
	sw->other = other;
	sw->other_ctx = other_ctx;
	return pmc_opts_walk(cmd, argc, argv, keep_word, sw, operand);
}

void multi_stat_words_fini(struct multi_stat_words *sw)
{
	for (size_t i = 0; sw->all && i < sw->nall; i++)
		free(sw->all[i]);
	free(sw->all);
	memset(sw, 0, sizeof(*sw));
}

/* SIGINT / SIGTERM: the measurement under way stops with the counts so far (its command's process group is
 * signalled, as stat does: a second signal kills it at once), and no further one starts. */
static void on_signal(int sig)
{
	struct pmc_engine_ctx *c = measuring;

	if (!multi_interrupted)
		multi_interrupted = sig;
	if (!multi_stop)
		multi_stop = sig;
	pmc_launch_signal(sig, c ? c->child : 0);
}

void multi_catch_stop_signals(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void multi_install_signals(void)
{
	multi_catch_stop_signals(on_signal);
}

/* The measurement's messages: its first error (else its first note but the batch count) is why it failed; with -v
 * every message and trace goes to stderr as stat writes them. */
struct why_sink {
	bool verbose;
	char error[256], note[256];
};

static void first_line(char *buf, size_t len, const char *msg)
{
	snprintf(buf, len, "pmctool: %.*s", (int)strcspn(msg, "\n"), msg);
}

static void collect(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	struct why_sink *w = ctx;

	if (w->verbose)
		pmc_diag_stderr(NULL, kind, msg);
	if (kind == PMC_DIAG_ERROR && !w->error[0])
		first_line(w->error, sizeof(w->error), msg);
	else if (kind == PMC_DIAG_NOTE && !w->note[0] && !strstr(msg, "batches"))
		first_line(w->note, sizeof(w->note), msg);
}

/* The command's output is not part of the result: fd goes to /dev/null while it runs (*saved: the original). */
static void hide(int fd, int *saved)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	fflush(fd == STDOUT_FILENO ? stdout : stderr);
	*saved = null >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
	if (*saved >= 0)
		dup2(null, fd);
	if (null >= 0)
		close(null);
}

static void unhide(int fd, int saved)
{
	if (saved < 0)
		return;
	fflush(fd == STDOUT_FILENO ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
}

/* --check on a measurement: pmctool check's quick part first, its verdict a note of the report. */
static int trust_first(struct pmc_report *rep)
{
	static struct pmc_check_result res;
	int rc = pmc_check_measure_here(true, &res);

	if (!rc)
		stat_trust_note(&res, rep);
	return rc;
}

/* so's text parsed into e (stat_resolve), its messages collected as the engine's are. */
static int resolve(const struct stat_opts *so, struct pmc_engine_opts *e, struct why_sink *w,
		   struct pmc_metric_def **parsed)
{
	struct pmc_diag_sink prev = pmc_diag_exchange((struct pmc_diag_sink){ collect, w });
	int rc = stat_resolve(so, e, parsed);

	pmc_diag_exchange(prev);
	return rc;
}

int multi_measure_report(const struct stat_opts *so, const struct pmc_engine_opts *req, struct pmc_report *rep,
			 int *status, char *why, size_t whylen)
{
	struct why_sink w = { .verbose = so && so->verbose };
	struct pmc_engine_ctx ctx = { .diag = collect, .diag_ctx = &w, .stop = &multi_stop };
	struct pmc_engine_opts e = *req; /* the engine resolves into its request: each measurement gets a fresh copy */
	struct pmc_metric_def *metrics = NULL, *parsed = NULL;
	struct pmc_engine se;
	int rc, out, err = -1;
	bool have = false;

	memset(rep, 0, sizeof(*rep));
	if (w.verbose)
		ctx.observer = pmc_eng_trace_open;
	e.env_lean = false;      /* compare compares the environments */
	e.perf_defaults = false; /* measured as stat --json measures: pmctool's default events, not perf's list */
	if (!multi_interrupted)
		pmc_launch_reset_ending();
	pmc_engine_init(&se, &ctx);
	hide(STDOUT_FILENO, &out);
	if (!w.verbose)
		hide(STDERR_FILENO, &err);
	rc = so ? resolve(so, &e, &w, &parsed) : 0; /* check's request (no so) is typed already */
	if (!rc)
		rc = pmc_engine_prepare(&se, &e, &metrics);
	if (!rc)
		rc = pmc_engine_check(&se, &e);
	if (!rc && so && so->check_first)
		rc = trust_first(rep);
	if (!rc) {
		pmc_origin_get(&rep->origin);
		rep->has_origin = true;
		measuring = &ctx;
		rc = pmc_engine_measure(&se, &e, metrics, rep);
		measuring = NULL;
		if (so)
			stat_metrics_split_check(so, &se, rep);
		have = !rc || rep->nruns;
		if (!rc)
			rc = pmc_engine_status(&se, rep);
	}
	unhide(STDERR_FILENO, err);
	unhide(STDOUT_FILENO, out);
	free(metrics);
	free(parsed);
	pmc_engine_fini(&se);
	*status = rc;
	if (have)
		return 0;
	snprintf(why, whylen, "%s", w.error[0] ? w.error : w.note[0] ? w.note : "");
	if (!why[0])
		snprintf(why, whylen, "stat exited %d without a report", rc);
	pmc_report_fini(rep);
	return -1;
}

int multi_measure(const struct stat_opts *so, const struct pmc_engine_opts *req, struct pmc_loaded *ret, int *status,
		  char *why, size_t whylen)
{
	struct pmc_report rep;
	int rc;

	if (multi_measure_report(so, req, &rep, status, why, whylen))
		return -1;
	rc = pmc_loaded_from_report(&rep, ret);
	pmc_report_fini(&rep);
	if (rc) {
		snprintf(why, whylen, "out of memory");
		*status = PMC_EXIT_INTERNAL;
		return -1;
	}
	return 0;
}

int multi_emit(const char *cmd, const char *path, const char *buf, size_t len, bool to_stderr)
{
	int r = pmc_output_write_path(path ? path : to_stderr ? "/dev/stderr" : "-", buf, len);

	if (!r)
		return 0;
	if (r != -EPIPE || (path && pmc_output_path_fd(path) < 0))
		fprintf(stderr, "pmctool %s: cannot write to '%s': %s\n", cmd,
			!path ? (to_stderr ? "stderr" : "stdout") : strcmp(path, "-") ? path : "stdout",
			pmc_output_strerror(path, r));
	if (path && pmc_output_path_fd(path) < 0) { /* what was measured is never lost: it goes to stderr */
		fprintf(stderr, "pmctool %s: the output follows on stderr instead\n", cmd);
		fflush(stderr);
		if (pmc_write_all(STDERR_FILENO, buf, len)) {
			/* stderr is gone too: nothing more to try */
		}
	}
	return PMC_EXIT_OUTPUT;
}

int multi_split_words(char *buf, char **words, size_t max, size_t *ret_n)
{
	char *r = buf, *w = buf;
	size_t n = 0;

	for (;;) {
		char q = 0;

		while (*r == ' ' || *r == '\t' || *r == '\n')
			r++;
		if (!*r)
			break;
		if (n >= max)
			return -E2BIG;
		words[n++] = w;
		for (; *r && (q || (*r != ' ' && *r != '\t' && *r != '\n')); r++) {
			if (!q && (*r == '\'' || *r == '"'))
				q = *r;
			else if (q && *r == q)
				q = 0;
			else if (*r == '\\' && q != '\'' && r[1])
				*w++ = *++r;
			else
				*w++ = *r;
		}
		if (q)
			return -EINVAL;
		if (*r)
			r++;
		*w++ = '\0';
	}
	*ret_n = n;
	return 0;
}
