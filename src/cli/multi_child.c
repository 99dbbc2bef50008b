/* SPDX-License-Identifier: MIT */
/* Children of sweep and compare: one 'pmctool stat --json' per measurement. A child is a whole stat run, so every
 * stat option behaves as it does alone; its report comes back through a file in a private directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/opts.h"
#include "util/file_write.h"
#include "util/fork.h"
#include "util/util.h"

volatile sig_atomic_t multi_interrupted;
static volatile pid_t running_child;

void child_args_push(struct child_args *a, const char *s)
{
	if (a->n >= MULTI_MAX_ARGS) {
		a->overflow = true;
		return;
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

const char *child_args_fmt(struct child_args *a, const char *fmt, ...)
{
	va_list ap;
	char *slot;

	if (a->nstore >= PMC_ARRAY_SIZE(a->store)) {
		a->overflow = true;
		return "";
	}
	slot = a->store[a->nstore++];
	va_start(ap, fmt);
	vsnprintf(slot, sizeof(a->store[0]), fmt, ap);
	va_end(ap);
	return slot;
}

/* The stat options sweep and compare answer themselves, for their own report: the rounds or runs per side, where
 * and in which format the report goes, the comparison. Every other stat option given goes to every measurement. */
const char *const multi_own_options[] = { "repeat", "output", "csv", "json", "compare", "fail-if", NULL };

static bool own_option(const struct pmc_opt *opt)
{
	for (size_t i = 0; opt->long_name && multi_own_options[i]; i++)
		if (!strcmp(opt->long_name, multi_own_options[i]))
			return true;
	return false;
}

static bool stat_option(const struct pmc_opt *opt)
{
	const struct pmc_opt *t = pmc_opts_stat.opts;

	return opt >= t && opt < t + pmc_opts_count(t);
}

static int keep_word(void *arg, const struct pmc_opt *opt, const char *val)
{
	struct multi_stat_words *sw = arg;
	char *w[2];
	size_t n;

	if (!stat_option(opt))
		return sw->other ? sw->other(sw->other_ctx, opt, val) : 0;
	n = pmc_opt_words(opt, val, w);
	if (!n || (n == 2 && !(w[1] = strdup(w[1])))) {
		if (n)
			free(w[0]);
		fprintf(stderr, "pmctool: out of memory\n");
		return PMC_EXIT_INTERNAL;
	}
	if (sw->nall + n > sw->cap) { /* one word of argv may bundle many flags: "-vvv" */
		size_t cap = 2 * sw->cap + n;
		char **all = realloc(sw->all, cap * sizeof(char *)), **mine = all ? realloc(sw->w, cap * sizeof(char *)) : NULL;

		sw->all = all ? all : sw->all;
		sw->w = mine ? mine : sw->w;
		if (!mine) {
			for (size_t i = 0; i < n; i++)
				free(w[i]);
			fprintf(stderr, "pmctool: out of memory\n");
			return PMC_EXIT_INTERNAL;
		}
		sw->cap = cap;
	}
	for (size_t i = 0; i < n; i++) {
		sw->all[sw->nall++] = w[i];
		if (!own_option(opt))
			sw->w[sw->n++] = w[i];
	}
	sw->verbose |= opt->short_name == 'v';
	return 0;
}

int multi_stat_words(struct multi_stat_words *sw, const struct pmc_opts_cmd *cmd, int argc, char **argv, int *operand,
		     pmc_opt_apply_fn other, void *other_ctx)
{
	memset(sw, 0, sizeof(*sw));
	sw->other = other;
	sw->other_ctx = other_ctx;
	return pmc_opts_walk(cmd, argc, argv, keep_word, sw, operand);
}

void multi_stat_words_fini(struct multi_stat_words *sw)
{
	for (size_t i = 0; sw->all && i < sw->nall; i++)
		free(sw->all[i]);
	free(sw->all);
	free(sw->w);
	memset(sw, 0, sizeof(*sw));
}

void child_args_from_stat(struct child_args *a, const struct multi_stat_words *sw, const char *jsonpath)
{
	memset(a, 0, sizeof(*a));
	child_args_push(a, "pmctool");
	child_args_push(a, "stat");
	child_args_push(a, "--json");
	child_args_push(a, "-o");
	child_args_push(a, jsonpath);
	for (size_t i = 0; i < sw->n; i++)
		child_args_push(a, sw->w[i]);
	a->relay_stderr = sw->verbose;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	pid_t c = running_child;

	(void)uc;
	multi_interrupted = sig;
	/* From the terminal the whole process group has it already; sent to pmctool alone, pass it on. */
	if (c > 0 && si && si->si_code == SI_USER && si->si_pid != c)
		kill(c, sig);
}

void multi_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The first line of the child's stderr that says something, without the "pmctool: " prefix. */
void child_first_error(const char *errpath, char *why, size_t whylen)
{
	FILE *f = fopen(errpath, "re");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "pmctool", 7) && strstr(line, "error") == NULL && strstr(line, "batches"))
			continue; /* the batch-count notice is not an error */
		if (!strncmp(line, "perf_event_open(", 16))
			continue; /* -v's traces are not errors */
		if (line[0]) {
			snprintf(why, whylen, "%s", line);
			break;
		}
	}
	fclose(f);
}

/* -v: the measurement's stderr (its perf_event_open traces, its notices) as it wrote it. */
static void relay(const char *errpath)
{
	int fd = open(errpath, O_RDONLY | O_CLOEXEC);
	char buf[8192];
	ssize_t n;

	fflush(stderr);
	while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
		if (pmc_write_all(STDERR_FILENO, buf, (size_t)n))
			break;
	if (fd >= 0)
		close(fd);
}

int child_run(struct child_args *a, const char *name, const char *value, const char *errpath, const char *jsonpath,
	      int *status, char *why, size_t whylen)
{
	pid_t pid, parent = getpid();
	int st = 0;
	char self[4096];
	ssize_t n;
	sigset_t old;

	*status = -1;
	snprintf(why, whylen, "no report came back");
	if (a->overflow) {
		snprintf(why, whylen, "too many arguments for one measurement");
		return -1;
	}
	unlink(jsonpath);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	pid = pmc_fork_blocked(&old);
	if (pid < 0) {
		pmc_fork_unblock(&old);
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR | O_CLOEXEC), errfd;

		pmc_fork_die_with_parent(parent, PMC_EXIT_INTERNAL);
		errfd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		if (errfd >= 0)
			dup2(errfd, STDERR_FILENO);
		pmc_fork_unblock(&old); /* pmctool's handlers are gone (pmc_fork_blocked) */
		if (name && setenv(name, value, 1) < 0)
			_exit(PMC_EXIT_INTERNAL);
		/* The path /proc/self/exe names first (under valgrind it names pmctool, not the tool), then the link. */
		if (self[0])
			execv(self, (char *const *)a->v);
		execv("/proc/self/exe", (char *const *)a->v);
		fprintf(stderr, "pmctool: cannot run /proc/self/exe: %s\n", strerror(errno));
		_exit(PMC_EXIT_INTERNAL);
	}
	running_child = pid;
	pmc_fork_unblock(&old);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	running_child = 0;
	if (a->relay_stderr)
		relay(errpath);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

int child_measure(struct child_args *a, const char *name, const char *value, const char *errpath, const char *jsonpath,
		  struct pmc_loaded *ret, int *status, char *why, size_t whylen)
{
	char err[256];
	int rc;

	if (child_run(a, name, value, errpath, jsonpath, status, why, whylen))
		return -1;
	rc = pmc_loaded_read_file(jsonpath, ret, err, sizeof(err));
	unlink(jsonpath);
	if (rc == 0)
		return 0;
	if (rc != -ENOENT)
		snprintf(why, whylen, "its report could not be read: %s", err);
	else
		snprintf(why, whylen, "stat exited %d without a report", *status);
	child_first_error(errpath, why, whylen);
	return -1;
}

int multi_tmpdir(char *buf, size_t len)
{
	const char *base = getenv("TMPDIR");

	snprintf(buf, len, "%s/pmctool.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(buf)) {
		fprintf(stderr, "pmctool: cannot make a directory for the reports under %s: %s (set TMPDIR)\n",
			base && *base ? base : "/tmp", strerror(errno));
		return PMC_EXIT_INTERNAL;
	}
	return 0;
}

void multi_tmpdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.')
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
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
