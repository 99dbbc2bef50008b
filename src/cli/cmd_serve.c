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
#include "cli/stat.h"
#include "engine/engine.h"
#include "output/openmetrics.h"
#include "report/topdown.h"
#include "util/file_write.h"
#include "util/util.h"

#define SERVE_DEFAULT_EVENTS "task-clock,context-switches,cpu-migrations,page-faults"
#define SERVE_DEFAULT_LISTEN "127.0.0.1:9464"
#define TEXTFILE_NAME "pmctool.prom"

struct serve_cli {
	struct stat_opts st; /* first: stat's option effects (stat_apply_*) take the parse context as theirs */
	const char *listen, *interval, *textfile;
	bool all;
};

struct serve {
	struct pmc_engine se;
	struct stat_opts *st;           /* the request (st->e), as the options made it */
	struct pmc_metric_def *metrics; /* pmc_engine_prepare's (--metric's; none) */
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
	struct stat_opts *o = ctx;

	(void)opt;
	if (o->e.nlists == PMC_ARRAY_SIZE(o->e.event_lists)) {
		fprintf(stderr, "pmctool serve: too many -e options (at most %zu): join the lists with commas\n",
			PMC_ARRAY_SIZE(o->e.event_lists));
		return PMC_EXIT_USAGE;
	}
	o->e.event_lists[o->e.nlists++] = val;
	return 0;
}

static int set_rows(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)val;
	o->e.aggr = (enum pmc_aggr)opt->id;
	return 0;
}

static int set_topdown(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)opt;
	if (val && strcmp(val, "1") && strcmp(val, "2")) {
		fprintf(stderr, "pmctool serve: --topdown=%s: expected the level, 1 or 2\n", val);
		return PMC_EXIT_USAGE;
	}
	o->e.topdown_level = val ? atoi(val) : 1;
	return 0;
}

enum { SERVE_SCOPE = 1, SERVE_ROWS = 2, SERVE_WHAT = 4 };

#define SF(member) PMC_OPT_FIELD(struct serve_cli, member)

static const struct pmc_opt serve_opts[] = {
	{ .long_name = "listen", .kind = PMC_OPT_VALUE, .metavar = "ADDR:PORT", .field = SF(listen),
	  .help = "serve GET /metrics there (default " SERVE_DEFAULT_LISTEN ", loopback only;\n"
		  "[::1]:PORT for IPv6, port 0 for any free port, 'none' for no HTTP)" },
	{ .short_name = 'a', .long_name = "all-cpus", .kind = PMC_OPT_FLAG, .conflict = SERVE_SCOPE, .field = SF(all),
	  .help = "count on every online CPU (the default)" },
	{ .short_name = 'C', .long_name = "cpu", .kind = PMC_OPT_VALUE, .metavar = "LIST", .conflict = SERVE_SCOPE,
	  .flags = PMC_OPT_SINGLE, .apply = stat_apply_cpus, .help = "count on these CPUs only (0,2-3)" },
	{ .short_name = 'p', .long_name = "pid", .kind = PMC_OPT_VALUE, .metavar = "PIDS", .conflict = SERVE_SCOPE,
	  .flags = PMC_OPT_SINGLE, .apply = stat_apply_tasks,
	  .help = "count these running processes (1234,5678: all their threads, and those\n"
		  "they start) instead of CPUs" },
	{ .id = STAT_CGROUP_EACH, .short_name = 'G', .long_name = "cgroup", .kind = PMC_OPT_VALUE, .metavar = "CGROUPS",
	  .flags = PMC_OPT_SINGLE, .conflict = SERVE_ROWS, .apply = stat_apply_cgroups,
	  .help = "count only the tasks of these cgroups (a,b/c: paths under the cgroup file\n"
		  "system), on the CPUs: every series once per cgroup, labelled cgroup=\"/a\"" },
	{ .id = PMC_AGGR_CPU, .short_name = 'A', .long_name = "per-cpu", .kind = PMC_OPT_FLAG, .conflict = SERVE_ROWS,
	  .apply = set_rows, .help = "a series per CPU, labelled cpu=\"3\" (no total series: sum() them)" },
	{ .id = PMC_AGGR_SOCKET, .long_name = "per-socket", .kind = PMC_OPT_FLAG, .conflict = SERVE_ROWS,
	  .apply = set_rows, .help = "a series per socket, labelled socket=\"0\"" },
	{ .short_name = 'e', .long_name = "event", .kind = PMC_OPT_LIST, .metavar = "LIST", .apply = add_events,
	  .help = "the events to count, comma-separated, repeatable (default\n" SERVE_DEFAULT_EVENTS ")" },
	{ .short_name = 'g', .long_name = "group", .kind = PMC_OPT_VALUE, .metavar = "SET", .flags = PMC_OPT_SINGLE,
	  .conflict = SERVE_WHAT, .field = SF(st.e.set_name),
	  .help = "an event set ('pmctool sets'): its events, and its metrics as gauges" },
	{ .short_name = 'M', .long_name = "metrics", .kind = PMC_OPT_VALUE, .metavar = "NAME,...", .flags = PMC_OPT_SINGLE,
	  .conflict = SERVE_WHAT, .apply = stat_apply_metric_group,
	  .help = "metrics and metric groups as stat -M takes them (the vendor tables' too):\n"
		  "their events, and the metrics as gauges (pmctool_metric)" },
	{ .long_name = "topdown", .kind = PMC_OPT_VALUE, .metavar = "[=LEVEL]", .flags = PMC_OPT_SINGLE | PMC_OPT_OPTIONAL,
	  .apply = set_topdown,
	  .help = "the top-down tree's nodes of levels 1..LEVEL (1 or 2, default 1) as gauges\n"
		  "(pmctool_topdown_fraction)" },
	{ .short_name = 'I', .long_name = "interval", .kind = PMC_OPT_VALUE, .metavar = "MS", .field = SF(interval),
	  .help = "with --textfile: rewrite the file every MS milliseconds (default 1000, 100\n"
		  "to 3600000); a scrape reads the counters when it comes" },
	{ .long_name = "textfile", .kind = PMC_OPT_VALUE, .metavar = "DIR", .field = SF(textfile),
	  .help = "also write DIR/" TEXTFILE_NAME " every -I MS (replaced atomically), for\n"
		  "node_exporter's textfile collector" },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group serve_groups[] = {
	{ SERVE_SCOPE, "-a, -C and -p choose what is counted: give one", false },
	{ SERVE_ROWS, "-A, --per-socket and -G each choose the series' rows: give one", false },
	{ SERVE_WHAT, "-g and -M both name metrics: give one", false },
	{ 0, NULL, false },
};

const struct pmc_opts_cmd pmc_opts_serve = {
	.name = "serve",
	.opts = serve_opts,
	.groups = serve_groups,
	.usage = "Usage: pmctool serve [--listen ADDR:PORT] [-a | -C LIST | -p PIDS] [-A | --per-socket | -G CGROUPS]\n"
		 "                     [-e EVENTS] [-g SET | -M METRICS] [--topdown[=LEVEL]] [--textfile DIR [-I MS]]\n\n"
		 "Count continuously on the CPUs and export the counts to Prometheus: GET /metrics answers in the\n"
		 "OpenMetrics text format (Prometheus' 0.0.4 text format when the Accept header does not ask for\n"
		 "OpenMetrics). Each counted event is a counter family with its unit and _total\n"
		 "(pmctool_task_clock_seconds_total); pmctool_event_running_ratio says how much of the time it was on a\n"
		 "counter; an event that is not counted is absent from the counters and pmctool_event_up says why.\n"
		 "Metrics and top-down nodes are gauges, absent with their reason when they have no value.\n"
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

/* A row's label: cpu="3", socket="0", cgroup="/a" (the name as given, with its leading '/'); none for the total. */
static struct pmc_om_label row_label(const struct pmc_row_scope *sc, char *buf, size_t len)
{
	switch (sc->kind) {
	case PMC_ROW_CPU:
		snprintf(buf, len, "%d", sc->cpu);
		return (struct pmc_om_label){ "cpu", buf };
	case PMC_ROW_SOCKET:
		snprintf(buf, len, "%d", sc->socket);
		return (struct pmc_om_label){ "socket", buf };
	case PMC_ROW_CGROUP:
		snprintf(buf, len, "%s%s", sc->label[0] == '/' ? "" : "/", sc->label);
		return (struct pmc_om_label){ "cgroup", buf };
	default:
		return (struct pmc_om_label){ NULL, NULL };
	}
}

/* The row whose label is label ("" the total: NULL). */
static const struct pmc_row_scope *row_named(const struct pmc_report *rep, const char *label)
{
	if (!*label)
		return NULL;
	for (size_t i = 0; i < rep->nevents; i++)
		if (!strcmp(rep->events[i].scope.label, label))
			return &rep->events[i].scope;
	return NULL;
}

/* The series of one exposition and the storage of their labels. */
struct expo {
	struct pmc_om_event *ev;
	struct pmc_om_gauge *g;
	char (*lab)[64];
	size_t nev, ng, nlab, nmetrics_end; /* g: the metrics, then from nmetrics_end the top-down nodes */
	struct pmc_om_label env[PMC_ENV_FIELDS];
	char envbuf[PMC_ENV_FIELDS][256];
};

static struct pmc_om_label expo_row(struct expo *x, const struct pmc_row_scope *sc)
{
	static const struct pmc_row_scope all = { .kind = PMC_ROW_ALL };

	return row_label(sc ? sc : &all, x->lab[x->nlab++], sizeof(x->lab[0]));
}

/* The gauges of one kind whose scope is a row when rows were asked for (else the totals'), from the report. */
static void expo_metrics(struct expo *x, const struct pmc_report *rep, bool rows)
{
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];
		const struct pmc_row_scope *sc = row_named(rep, m->scope);

		if ((sc != NULL) != rows || (m->scope[0] && !sc))
			continue;
		x->g[x->ng++] = (struct pmc_om_gauge){ .name = m->name, .unit = m->unit, .row = expo_row(x, sc),
						       .valid = m->valid, .value = m->value, .reason = m->reason };
	}
}

static void expo_nodes(struct expo *x, const struct pmc_report *rep, bool rows)
{
	for (const struct pmc_report_topdown *td = rep->topdown; td; td = td->next) {
		const struct pmc_row_scope *sc = row_named(rep, td->scope);

		if ((sc != NULL) != rows || (td->scope[0] && !sc))
			continue;
		for (size_t k = 0; k < td->nnodes; k++) {
			const struct pmc_report_td_node *nd = &td->node[k];

			x->g[x->ng++] = (struct pmc_om_gauge){ .name = nd->name, .level = nd->level, .row = expo_row(x, sc),
							       .valid = nd->ok, .value = nd->value, .reason = nd->reason };
		}
	}
}

static bool any_row_tree(const struct pmc_report *rep)
{
	for (const struct pmc_report_topdown *td = rep->topdown; td; td = td->next)
		if (row_named(rep, td->scope))
			return true;
	return false;
}

static bool any_row_metric(const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nmetrics; i++)
		if (row_named(rep, rep->metrics[i].scope))
			return true;
	return false;
}

/* The report as OpenMetrics series: with rows (-A, --per-socket, -G) each series is a row's, labelled, and the totals
 * are left out (a family holding both would count everything twice in a sum()); the gauges are the rows' where the
 * rows have them. 0 or -ENOMEM. */
static int expo_build(struct expo *x, const struct pmc_report *rep, const struct pmc_env *env)
{
	size_t ntd = 0, nlab;
	bool rows = false;

	for (const struct pmc_report_topdown *td = rep->topdown; td; td = td->next)
		ntd += td->nnodes;
	for (size_t i = 0; i < rep->nevents; i++)
		rows |= rep->events[i].scope.kind != PMC_ROW_ALL;
	nlab = rep->nevents + rep->nmetrics + ntd + 1;
	x->ev = calloc(rep->nevents + 1, sizeof(*x->ev));
	x->g = calloc(rep->nmetrics + ntd + 1, sizeof(*x->g));
	x->lab = calloc(nlab, sizeof(*x->lab));
	if (!x->ev || !x->g || !x->lab)
		return -ENOMEM;
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		if ((e->scope.kind != PMC_ROW_ALL) != rows)
			continue;
		x->ev[x->nev++] = (struct pmc_om_event){
			.name = e->ev.name, .row = expo_row(x, &e->scope), .seconds = counts_seconds(&e->ev),
			.counted = e->status == PMC_COUNT_OK, .value = e->mean, .running_ratio = e->running_pct / 100,
			.reason = e->reason[0] ? e->reason : "not counted" };
	}
	expo_metrics(x, rep, rows && any_row_metric(rep));
	x->nmetrics_end = x->ng;
	expo_nodes(x, rep, rows && any_row_tree(rep));
	for (size_t i = 0; i < PMC_ENV_FIELDS; i++) {
		const char *name;

		pmc_env_field(env, i, &name, x->envbuf[i], sizeof(x->envbuf[i]));
		x->env[i] = (struct pmc_om_label){ name, x->envbuf[i] };
	}
	return 0;
}

static void expo_fini(struct expo *x)
{
	free(x->ev);
	free(x->g);
	free(x->lab);
}

/* The exposition of the counters as they are now (read at this call), in a malloc'd buffer. 0 or -errno. */
static int exposition(struct serve *s, enum pmc_om_format fmt, char **ret, size_t *ret_len)
{
	struct pmc_report rep;
	struct expo x;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	memset(&rep, 0, sizeof(rep));
	memset(&x, 0, sizeof(x));
	r = pmc_engine_live_read(&s->se, &s->st->e, s->live, s->metrics, &rep);
	if (r) {
		if (!s->read_failed)
			fprintf(stderr, "pmctool serve: reading the counters failed (exit status %d; said once)\n", r);
		s->read_failed = true;
		pmc_report_fini(&rep);
		return -EIO;
	}
	r = expo_build(&x, &rep, pmc_eng_live_env(s->live));
	if (!r) {
		const struct pmc_om_doc d = { .ev = x.ev, .nev = x.nev, .metrics = x.g, .nmetrics = x.nmetrics_end,
					      .nodes = x.g + x.nmetrics_end, .nnodes = x.ng - x.nmetrics_end,
					      .version = PMC_VERSION, .env = x.env, .nenv = PMC_ENV_FIELDS };

		f = open_memstream(&buf, &len);
		r = f ? pmc_om_write_doc(f, fmt, &d) : -errno;
		if (f && fclose(f) && !r)
			r = -(errno ? errno : EIO);
	}
	expo_fini(&x);
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
	struct pmc_engine_opts *e;

	memset(&cli, 0, sizeof(cli));
	if (!s)
		return PMC_EXIT_INTERNAL;
	pmc_engine_opts_init(&cli.st.e);
	cli.st.log_fd = -1;
	pmc_engine_init(&s->se, &ectx);
	stat_opts_command("serve");
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
	if ((rc = stat_apply_metrics_resolve(&cli.st)))
		goto out;
	if (cli.interval && !cli.textfile) {
		fprintf(stderr, "pmctool serve: -I '%s' sets how often --textfile rewrites its file, and no --textfile is "
			"given: a scrape reads the counters when it comes (drop -I)\n", cli.interval);
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	if ((rc = parse_interval(cli.interval, &tick_ms)))
		goto out;
	if (cli.textfile && (rc = check_textfile_dir(cli.textfile)))
		goto out;
	e = &cli.st.e;
	if (!e->nlists && !e->set_name && !cli.st.metrics_arg && !e->topdown_level)
		e->event_lists[e->nlists++] = SERVE_DEFAULT_EVENTS;
	e->targets.system_wide = !e->targets.ncpus && !e->targets.npids;
	e->env_lean = true;
	s->st = &cli.st;
	s->textfile = cli.textfile;
	if ((rc = pmc_eng_scope_check(e)) || (rc = stat_resolve(&cli.st, e, &cli.st.metric_buf)) ||
	    (rc = pmc_engine_prepare(&s->se, e, &s->metrics)) ||
	    (rc = pmc_engine_check(&s->se, e)))
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
	if ((rc = pmc_engine_live_open(&s->se, e, &s->live)))
		goto out;
	if (listen_fd >= 0)
		fprintf(stderr, "pmctool serve: counting %zu event%s on %s (%zu counters, read at each scrape); serving "
			"http://%s/metrics\n", s->se.n, s->se.n == 1 ? "" : "s",
			e->targets.npids ? "the processes of -p" : e->targets.ncpus ? "the CPUs of -C" : "every CPU",
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
	stat_opts_fini(&cli.st);
	return rc;
}
