/* SPDX-License-Identifier: MIT */
/* pmctool serve: count continuously (CPU-wide) and export the counts to Prometheus: GET /metrics in the OpenMetrics
 * text format (or Prometheus' 0.0.4), and/or a file for node_exporter's textfile collector.
 *
 * Two threads. The engine runs the measurement of 'pmctool stat -a -I MS' (engine/scope.c) in its own thread, with
 * an interval sink that adds each interval's total into a snapshot of cumulative counts under a mutex, and wakes the
 * main thread through a pipe at each interval's end. The main thread serves HTTP (cli/serve_http.c): a scrape copies
 * the snapshot under the mutex (a few dozen bytes an event) and formats it, so no scrape, slow client or crowd of
 * clients ever runs on the counting thread or delays its reads. SIGINT and SIGTERM go to the main thread (the engine
 * thread blocks them), which sets the engine's stop flag and wakes the engine's wait with SIGUSR2. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
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

/* One event's counts since counting started (the engine thread adds, a scrape copies). */
struct serve_count {
	double value;              /* the intervals' counts, each scaled to its time enabled */
	uint64_t enabled, running; /* summed over the intervals */
	enum pmc_count_status status; /* OK once it counted; NOT_RUN before its first interval */
	int err;
};

struct serve {
	struct pmc_engine se;
	struct pmc_engine_opts e;
	struct pmc_metric_def *metrics; /* pmc_engine_prepare's (none asked for) */
	pthread_mutex_t mu;
	struct serve_count *counts; /* se.n, under mu */
	unsigned long intervals;    /* under mu */
	unsigned long written;      /* --textfile: the interval last written */
	const char *textfile;
	bool textfile_failed;       /* said once */
	int engine_rc;
	atomic_bool engine_done;    /* the engine thread ended (set there, read here) */
};

static volatile sig_atomic_t serve_stop;
static int wake_r = -1, wake_w = -1; /* the wake pipe: the signal handler and the engine thread write */

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

static void on_nudge(int sig)
{
	(void)sig; /* only interrupts the engine thread's wait, which then sees the stop flag */
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
	  .help = "read the counters every MS milliseconds (default 1000, 100 to 3600000): a\n"
		  "scrape sees the counts of the last interval that ended" },
	{ .long_name = "textfile", .kind = PMC_OPT_VALUE, .metavar = "DIR",
	  .field = PMC_OPT_FIELD(struct serve_cli, textfile),
	  .help = "also write DIR/" TEXTFILE_NAME " every interval (replaced atomically), for\n"
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

/* The engine thread's interval sink: each interval's total adds into the snapshot. */
static void sink_record(void *ctx, const struct pmc_interval_record *r)
{
	struct serve *s = ctx;
	struct serve_count *c;
	const struct pmc_count *d = &r->count;
	size_t i;

	if (r->scope || r->ev < s->se.evs || r->ev >= s->se.evs + s->se.n)
		return; /* rows are not kept: the total only */
	i = (size_t)(r->ev - s->se.evs);
	c = &s->counts[i];
	pthread_mutex_lock(&s->mu);
	if (d->status == PMC_COUNT_OK) {
		c->value += pmc_count_scaled(d);
		c->enabled += d->enabled;
		c->running += d->running;
		c->status = PMC_COUNT_OK;
	} else if (d->status == PMC_COUNT_NOT_COUNTED) {
		c->enabled += d->enabled; /* enabled, never on a counter: the ratio goes down */
		if (c->status != PMC_COUNT_OK)
			c->status = PMC_COUNT_NOT_COUNTED;
	} else if (d->status == PMC_COUNT_NOT_SUPPORTED && c->status != PMC_COUNT_OK) {
		c->status = PMC_COUNT_NOT_SUPPORTED;
		c->err = d->err;
	}
	pthread_mutex_unlock(&s->mu);
}

static void sink_end(void *ctx)
{
	struct serve *s = ctx;

	pthread_mutex_lock(&s->mu);
	s->intervals++;
	pthread_mutex_unlock(&s->mu);
	wake();
}

static void sink_begin(void *ctx, bool per_row)
{
	(void)ctx;
	(void)per_row;
}

static void *engine_main(void *arg)
{
	struct serve *s = arg;
	struct pmc_report rep;

	memset(&rep, 0, sizeof(rep));
	s->engine_rc = pmc_engine_measure(&s->se, &s->e, s->metrics, &rep);
	if (!s->engine_rc)
		s->engine_rc = pmc_engine_status(&s->se, &rep);
	pmc_report_fini(&rep);
	atomic_store(&s->engine_done, true);
	wake();
	return NULL;
}

static bool counts_seconds(const struct pmc_event *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_TASK_CLOCK || ev->attr.config == PERF_COUNT_SW_CPU_CLOCK);
}

/* The exposition of the snapshot as it is now, in a malloc'd buffer. 0 or -errno. */
static int exposition(struct serve *s, enum pmc_om_format fmt, char **ret, size_t *ret_len)
{
	size_t n = s->se.n;
	struct pmc_om_event *om = calloc(n ? n : 1, sizeof(*om));
	struct serve_count *snap = calloc(n ? n : 1, sizeof(*snap));
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if (!om || !snap) {
		free(om);
		free(snap);
		return -ENOMEM;
	}
	pthread_mutex_lock(&s->mu);
	memcpy(snap, s->counts, n * sizeof(*snap));
	pthread_mutex_unlock(&s->mu);
	for (size_t i = 0; i < n; i++) {
		const struct pmc_event *ev = &s->se.evs[i];

		om[i].name = ev->name;
		om[i].seconds = counts_seconds(ev);
		om[i].counted = snap[i].status == PMC_COUNT_OK;
		om[i].value = snap[i].value;
		om[i].running_ratio = snap[i].enabled ? (double)snap[i].running / (double)snap[i].enabled : 1.0;
		om[i].reason = snap[i].status == PMC_COUNT_NOT_RUN ? "not counted yet: the first interval has not ended"
			: snap[i].status == PMC_COUNT_NOT_COUNTED ? "not counted: enabled but never on a counter"
			: pmc_perf_event_reason(snap[i].err, &ev->attr, !!(ev->flags & PMC_EVF_HARDWARE));
	}
	f = open_memstream(&buf, &len);
	r = f ? pmc_om_write(f, fmt, om, n, PMC_VERSION) : -errno;
	if (f && fclose(f) && !r)
		r = -(errno ? errno : EIO);
	free(om);
	free(snap);
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

static int on_wake(void *ctx)
{
	struct serve *s = ctx;
	char buf[64];
	unsigned long n;

	while (read(wake_r, buf, sizeof(buf)) > 0) {
	}
	if (serve_stop || atomic_load(&s->engine_done))
		return 1;
	pthread_mutex_lock(&s->mu);
	n = s->intervals;
	pthread_mutex_unlock(&s->mu);
	if (s->textfile && n != s->written) {
		write_textfile(s);
		s->written = n;
	}
	return 0;
}

/* The engine thread ends at the stop flag: its wait is woken (SIGUSR2, EINTR) until it has. */
static void stop_engine(pthread_t t, struct serve *s)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	if (!serve_stop)
		serve_stop = SIGTERM;
	while (!atomic_load(&s->engine_done)) {
		pthread_kill(t, SIGUSR2);
		nanosleep(&ts, NULL);
	}
	pthread_join(t, NULL);
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_nudge; /* no SA_RESTART: the engine's poll returns */
	sigaction(SIGUSR2, &sa, NULL);
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
	bool mutex = false, asked;
	pthread_t thr;
	sigset_t block, old;

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
	pmc_engine_opts_init(&s->e);
	if ((rc = parse_interval(cli.interval, &s->e.interval_ms)))
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
	s->e.intervals = (struct pmc_interval_sink){ sink_begin, sink_record, sink_end, s, NULL };
	s->textfile = cli.textfile;
	if ((rc = pmc_engine_prepare(&s->se, &s->e, &s->metrics)) || (rc = pmc_engine_check(&s->se, &s->e)))
		goto out;
	if (!(s->counts = calloc(s->se.n ? s->se.n : 1, sizeof(*s->counts)))) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	for (size_t i = 0; i < s->se.n; i++)
		s->counts[i].status = PMC_COUNT_NOT_RUN;
	if (strcmp(cli.listen, "none") && pmc_http_listen(cli.listen, &listen_fd, bound, sizeof(bound), err, sizeof(err))) {
		fprintf(stderr, "pmctool serve: cannot listen on '%s': %s\n", cli.listen, err);
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	if (pipe2(pipefd, O_NONBLOCK | O_CLOEXEC) || pthread_mutex_init(&s->mu, NULL)) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	mutex = true;
	wake_r = pipefd[0];
	wake_w = pipefd[1];
	install_signals();
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old); /* the engine thread inherits this: the signals come here */
	rc = pthread_create(&thr, NULL, engine_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		fprintf(stderr, "pmctool serve: cannot start the counting thread: %s\n", strerror(rc));
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	if (listen_fd >= 0)
		fprintf(stderr, "pmctool serve: counting %zu event%s on %s every %llu ms; serving http://%s/metrics\n",
			s->se.n, s->se.n == 1 ? "" : "s", cli.ncpus ? "the CPUs of -C" : "every CPU",
			(unsigned long long)s->e.interval_ms, bound);
	if (s->textfile)
		fprintf(stderr, "pmctool serve: writing %s/%s every interval\n", s->textfile, TEXTFILE_NAME);
	rc = pmc_http_serve(&(struct pmc_http_opts){ .listen_fd = listen_fd, .path = "/metrics", .body = http_body,
						       .wake_fd = wake_r, .wake = on_wake, .ctx = s });
	asked = serve_stop != 0; /* a signal, not the counting's own end */
	stop_engine(thr, s);
	if (rc < 0) {
		fprintf(stderr, "pmctool serve: the server's wait failed: %s\n", strerror(-rc));
		rc = PMC_EXIT_INTERNAL;
	} else if (asked)
		rc = PMC_EXIT_OK; /* stopped as asked: SIGINT or SIGTERM */
	else
		rc = s->engine_rc ? s->engine_rc : PMC_EXIT_NOCOUNT; /* the counting ended by itself */
out:
	if (listen_fd >= 0)
		close(listen_fd);
	if (pipefd[0] >= 0) {
		close(pipefd[0]);
		close(pipefd[1]);
	}
	if (mutex)
		pthread_mutex_destroy(&s->mu);
	pmc_engine_fini(&s->se);
	free(s->counts);
	free(s->metrics);
	free(s);
	free(cli.cpus);
	return rc;
}
