/* SPDX-License-Identifier: MIT */
/* pmctool serve: count continuously (CPU-wide) and export the counts to Prometheus: GET /metrics in the OpenMetrics
 * text format (or Prometheus' 0.0.4), and/or a file for node_exporter's textfile collector.
 *
 * One thread, no sampling: the engine's live counter set (engine/live.c) is opened once and left counting, and each
 * scrape reads it at the scrape (one read() per open counter), turns the report into the exposition and answers it
 * (cli/serve_http.c). A read never stops, resets or reopens a counter, so no scrape, slow client or crowd of clients
 * disturbs the counting; the HTTP limits bound what each client costs. SIGINT and SIGTERM end the loop through the
 * wake pipe. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/serve_http.h"
#include "engine/engine.h"
#include "output/openmetrics.h"
#include "sys/lists.h"
#include "util/file_write.h"
#include "util/util.h"

#define SERVE_DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults"
#define SERVE_DEFAULT_LISTEN "127.0.0.1:9464"
#define TEXTFILE_NAME "pmctool.prom"

struct serve_cli {
	const char *listen, *interval, *textfile;
	bool all;
	const char *events[PMC_MAX_EVENTS];
	size_t nevents;
	int *cpus;
	size_t ncpus, capcpus;
};

struct serve {
	struct pmc_engine se;
	struct pmc_engine_opts e;
	struct pmc_metric_def *metrics; /* pmc_engine_prepare's (none asked for) */
	struct pmc_eng_live *live;      /* the counters, open and counting */
	const char *textfile;
	bool textfile_failed;       /* said once */
	bool read_failed;           /* said once */
};

static volatile sig_atomic_t serve_stop;
static int wake_r = -1, wake_w = -1; /* the wake pipe: the signal handler writes */

static void wake(void)
{
	char b = 1;

	if (write(wake_w, &b, 1) < 0) {
		/* full: the reader wakes anyway */
	}
}

static void on_signal(int sig)
{
	int e = errno;

	if (!serve_stop)
		serve_stop = sig;
	wake();
	errno = e;
}

/* Options. */
static int add_events(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct serve_cli *c = ctx;

	(void)opt;
	if (c->nevents == PMC_MAX_EVENTS) {
		fprintf(stderr, "pmctool serve: too many -e options (at most %d): join the lists with commas\n",
			PMC_MAX_EVENTS);
		return PMC_EXIT_USAGE;
	}
	c->events[c->nevents++] = val;
	return 0;
}

static int take_cpu(long cpu, void *ctx)
{
	struct serve_cli *c = ctx;

	if (pmc_grow((void **)&c->cpus, &c->capcpus, c->ncpus, sizeof(*c->cpus)))
		return -ENOMEM;
	c->cpus[c->ncpus++] = (int)cpu;
	return cpu > PMC_TARGET_MAX_CPU ? 1 : 0; /* the engine says that one is not online; the list ends there */
}

static int set_cpus(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct serve_cli *c = ctx;
	int r;

	(void)opt;
	c->ncpus = 0;
	r = pmc_parse_cpu_list(val, take_cpu, c);
	if (r == -ENOMEM)
		return PMC_EXIT_INTERNAL;
	if (r < 0 || !c->ncpus) {
		fprintf(stderr, "pmctool serve: -C '%s': expected a CPU list such as 0,2-3\n", val);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

enum { SERVE_SCOPE = 1 };

static const struct pmc_opt serve_opts[] = {
	{ .long_name = "listen", .kind = PMC_OPT_VALUE, .metavar = "ADDR:PORT",
	  .field = PMC_OPT_FIELD(struct serve_cli, listen),
	  .help = "serve GET /metrics there (default " SERVE_DEFAULT_LISTEN ", loopback only;\n"
		  "[::1]:PORT for IPv6, port 0 for any free port, 'none' for no HTTP)" },
	{ .short_name = 'a', .long_name = "all-cpus", .kind = PMC_OPT_FLAG, .conflict = SERVE_SCOPE,
	  .field = PMC_OPT_FIELD(struct serve_cli, all), .help = "count on every online CPU (the default)" },
	{ .short_name = 'C', .long_name = "cpu", .kind = PMC_OPT_VALUE, .metavar = "LIST", .conflict = SERVE_SCOPE,
	  .apply = set_cpus, .help = "count on these CPUs only (0,2-3)" },
	{ .short_name = 'e', .long_name = "event", .kind = PMC_OPT_LIST, .metavar = "LIST", .apply = add_events,
	  .help = "the events to count, comma-separated, repeatable (default\n" SERVE_DEFAULT_EVENTS ")" },
	{ .short_name = 'I', .long_name = "interval", .kind = PMC_OPT_VALUE, .metavar = "MS",
	  .field = PMC_OPT_FIELD(struct serve_cli, interval),
	  .help = "with --textfile: rewrite the file every MS milliseconds (default 1000, 100\n"
		  "to 3600000); a scrape reads the counters when it comes" },
	{ .long_name = "textfile", .kind = PMC_OPT_VALUE, .metavar = "DIR",
	  .field = PMC_OPT_FIELD(struct serve_cli, textfile),
	  .help = "also write DIR/" TEXTFILE_NAME " every -I MS (replaced atomically), for\n"
		  "node_exporter's textfile collector" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group serve_groups[] = {
	{ SERVE_SCOPE, "-a and -C both choose the CPUs: give one", false },
	{ 0, NULL, false },
};

const struct pmc_opts_cmd pmc_opts_serve = {
	.name = "serve",
	.opts = serve_opts,
	.groups = serve_groups,
	.usage = "Usage: pmctool serve [--listen ADDR:PORT] [-a | -C LIST] [-e EVENTS] [-I MS] [--textfile DIR]\n\n"
		 "Count continuously on the CPUs and export the counts to Prometheus: GET /metrics answers in the\n"
		 "OpenMetrics text format (Prometheus' 0.0.4 text format when the Accept header does not ask for\n"
		 "OpenMetrics). Each counted event is a counter family with its unit and _total\n"
		 "(pmctool_task_clock_seconds_total); pmctool_event_running_ratio says how much of the time it was on a\n"
		 "counter; an event that is not counted is absent from the counters and pmctool_event_up says why.\n"
		 "Runs until SIGINT or SIGTERM (exit 0).\n\n"
		 "Options:\n",
	.epilogue = "\nCounting CPU-wide needs CAP_PERFMON or kernel.perf_event_paranoid <= 0: see pmctool-serve(1) for\n"
		    "a systemd unit that runs it as an unprivileged user with that capability.\n"
		    "Example: pmctool serve -e task-clock,page-faults --listen 127.0.0.1:9464\n",
	.col = 26,
	.long_indent = "    ",
};

static bool counts_seconds(const struct pmc_event *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK || ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The exposition of the counters as they are now (read at this call), in a malloc'd buffer. 0 or -errno. */
static int exposition(struct serve *s, enum pmc_om_format fmt, char **ret, size_t *ret_len)
{
	struct pmc_report rep;
	struct pmc_om_event *om = NULL;
	char *buf = NULL;
	size_t len = 0, n = 0;
	FILE *f;
	int r;

	memset(&rep, 0, sizeof(rep));
	r = pmc_engine_live_read(&s->se, &s->e, s->live, s->metrics, &rep);
	if (r) {
		if (!s->read_failed)
			fprintf(stderr, "pmctool serve: reading the counters failed (exit status %d; said once)\n", r);
		s->read_failed = true;
		pmc_report_fini(&rep);
		return -EIO;
	}
	if (!(om = calloc(rep.nevents ? rep.nevents : 1, sizeof(*om)))) {
		pmc_report_fini(&rep);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rep.nevents; i++) {
		const struct pmc_report_event *e = &rep.events[i];

		if (e->scope.kind != PMC_ROW_ALL)
			continue;
		om[n].name = e->ev.name;
		om[n].seconds = counts_seconds(&e->ev);
		om[n].counted = e->status == PMC_COUNT_OK;
		om[n].value = e->mean;
		om[n].running_ratio = e->running_pct / 100;
		om[n].reason = e->reason[0] ? e->reason : "not counted";
		n++;
	}
	f = open_memstream(&buf, &len);
	r = f ? pmc_om_write(f, fmt, om, n, PMC_VERSION) : -errno;
	if (f && fclose(f) && !r)
		r = -(errno ? errno : EIO);
	free(om);
	pmc_report_fini(&rep);
	if (r) {
		free(buf);
		return r;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

static int http_body(void *ctx, const char *accept, char **body, size_t *len, const char **ctype)
{
	enum pmc_om_format fmt = pmc_om_negotiate(accept);

	*ctype = pmc_om_content_type(fmt);
	return exposition(ctx, fmt, body, len);
}

/* --textfile: DIR/pmctool.prom replaced whole (a temporary file in DIR, then rename), in Prometheus' text format,
 * which node_exporter's textfile collector reads. A failure is said once; counting and serving go on. */
static void write_textfile(struct serve *s)
{
	char path[4096], tmp[4200];
	char *buf = NULL;
	size_t len = 0;
	int fd = -1, r;

	snprintf(path, sizeof(path), "%s/%s", s->textfile, TEXTFILE_NAME);
	snprintf(tmp, sizeof(tmp), "%s/.%s.%ld.tmp", s->textfile, TEXTFILE_NAME, (long)getpid());
	r = exposition(s, PMC_OM_PROMETHEUS, &buf, &len);
	if (!r && (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
		r = -errno;
	if (!r && pmc_write_all(fd, buf, len) < 0)
		r = -errno;
	if (fd >= 0 && close(fd) && !r)
		r = -errno;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r && fd >= 0)
		unlink(tmp);
	free(buf);
	if (r && !s->textfile_failed)
		fprintf(stderr, "pmctool serve: cannot write '%s': %s (serving goes on; said once)\n", path, strerror(-r));
	s->textfile_failed = s->textfile_failed || r;
}

/* The wake pipe (a signal) or the tick (--textfile's period). */
static int on_wake(void *ctx)
{
	struct serve *s = ctx;
	char buf[64];

	while (read(wake_r, buf, sizeof(buf)) > 0) {
	}
	if (serve_stop)
		return 1;
	if (s->textfile)
		write_textfile(s);
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int parse_interval(const char *val, uint64_t *ms)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = val ? strtoull(val, &end, 10) : 1000;
	if (val && (errno || end == val || *end || v < 100 || v > 3600000 || val[0] == '-')) {
		fprintf(stderr, "pmctool serve: -I '%s': expected milliseconds from 100 to 3600000\n", val);
		return PMC_EXIT_USAGE;
	}
	*ms = v;
	return 0;
}

static int check_textfile_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK)) {
		int e = errno ? errno : ENOTDIR;
		fprintf(stderr, "pmctool serve: --textfile '%s': %s: give a directory this user can write (node_exporter's "
			"--collector.textfile.directory)\n", dir, !S_ISDIR(st.st_mode) && !e ? "not a directory" : strerror(e));
		return PMC_EXIT_USAGE;
	}
	return 0;
}

int pmc_cmd_serve(int argc, char **argv)
{
	struct serve_cli cli;
	struct serve *s = calloc(1, sizeof(*s));
	struct pmc_engine_ctx ectx = { .stop = &serve_stop };
	char bound[160], err[256];
	int listen_fd = -1, pipefd[2] = { -1, -1 }, operand, rc;
	uint64_t tick_ms = 0;

	memset(&cli, 0, sizeof(cli));
	if (!s)
		return PMC_EXIT_INTERNAL;
	pmc_engine_init(&s->se, &ectx);
	rc = pmc_opts_parse(&pmc_opts_serve, argc, argv, &cli, &operand);
	if (rc) {
		rc = rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
		goto out;
	}
	if (operand < argc) {
		fprintf(stderr, "pmctool serve: unexpected argument '%s': serve counts the CPUs, not a command (see "
			"'pmctool serve --help')\n", argv[operand]);
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	if (!cli.listen)
		cli.listen = SERVE_DEFAULT_LISTEN;
	if (!strcmp(cli.listen, "none") && !cli.textfile) {
		fprintf(stderr, "pmctool serve: --listen none and no --textfile: nothing would be exported\n");
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	if (cli.interval && !cli.textfile) {
		fprintf(stderr, "pmctool serve: -I '%s' sets how often --textfile rewrites its file, and no --textfile is "
			"given: a scrape reads the counters when it comes (drop -I)\n", cli.interval);
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	pmc_engine_opts_init(&s->e);
	if ((rc = parse_interval(cli.interval, &tick_ms)))
		goto out;
	if (cli.textfile && (rc = check_textfile_dir(cli.textfile)))
		goto out;
	for (size_t i = 0; i < cli.nevents; i++)
		s->e.event_lists[s->e.nlists++] = cli.events[i];
	if (!cli.nevents)
		s->e.event_lists[s->e.nlists++] = SERVE_DEFAULT_EVENTS;
	s->e.targets.system_wide = !cli.ncpus;
	s->e.targets.cpus = cli.cpus;
	s->e.targets.ncpus = cli.ncpus;
	s->e.env_lean = true;
	s->textfile = cli.textfile;
	if ((rc = pmc_eng_scope_check(&s->e)) || (rc = pmc_engine_prepare(&s->se, &s->e, &s->metrics)) ||
	    (rc = pmc_engine_check(&s->se, &s->e)))
		goto out;
	if (strcmp(cli.listen, "none") && pmc_http_listen(cli.listen, &listen_fd, bound, sizeof(bound), err, sizeof(err))) {
		fprintf(stderr, "pmctool serve: cannot listen on '%s': %s\n", cli.listen, err);
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	if (pipe2(pipefd, O_NONBLOCK | O_CLOEXEC)) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	wake_r = pipefd[0];
	wake_w = pipefd[1];
	install_signals();
	if ((rc = pmc_engine_live_open(&s->se, &s->e, &s->live)))
		goto out;
	if (listen_fd >= 0)
		fprintf(stderr, "pmctool serve: counting %zu event%s on %s (%zu counters, read at each scrape); serving "
			"http://%s/metrics\n", s->se.n, s->se.n == 1 ? "" : "s", cli.ncpus ? "the CPUs of -C" : "every CPU",
			pmc_eng_live_counters(s->live), bound);
	if (s->textfile) {
		fprintf(stderr, "pmctool serve: writing %s/%s every %llu ms\n", s->textfile, TEXTFILE_NAME,
			(unsigned long long)tick_ms);
		write_textfile(s);
	}
	rc = pmc_http_serve(&(struct pmc_http_opts){ .listen_fd = listen_fd, .path = "/metrics", .body = http_body,
						       .wake_fd = wake_r, .wake = on_wake, .ctx = s,
						       .tick_ms = s->textfile ? (unsigned)tick_ms : 0 });
	if (rc < 0) {
		fprintf(stderr, "pmctool serve: the server's wait failed: %s\n", strerror(-rc));
		rc = PMC_EXIT_INTERNAL;
	} else
		rc = PMC_EXIT_OK; /* stopped as asked: SIGINT or SIGTERM */
out:
	pmc_eng_live_close(s->live);
	if (listen_fd >= 0)
		close(listen_fd);
	if (pipefd[0] >= 0) {
		close(pipefd[0]);
		close(pipefd[1]);
	}
	pmc_engine_fini(&s->se);
	free(s->metrics);
	free(s);
	free(cli.cpus);
	return rc;
}
