/* SPDX-License-Identifier: MIT */
/* pmctool stat: the flow argv -> events -> plan -> runs -> report -> output. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "info/check.h"
#include "cli/stat.h"
#include "run/launch.h"
#include "util/path_template.h"

/* -k: a kernel runs inside pmctool; the first signal stops it where it is (the kernel runner's handler takes the
 * counts so far) and says so, a second one quits. */
static bool kernel_mode;
/* The signal that stops the measurement (the engine context's stop flag). */
static volatile sig_atomic_t stat_stop;
/* The measurement's context: its child is the command running now. */
static struct pmc_engine_ctx *stat_ctx;

static void on_signal(int sig)
{
	static const char note[] = "\npmctool: interrupted: the kernel stops; the counts so far follow "
				   "(interrupt again to quit at once, without them)\n";
	pid_t child = stat_ctx ? stat_ctx->child : 0;

	if (kernel_mode && stat_stop) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	/* The first signal is the interruption's (the exit status, the report's); a second one ends the workload with
	 * SIGKILL and pmctool at once with what it has (pmc_launch_signal). */
	if (!stat_stop)
		stat_stop = sig;
	pmc_launch_signal(sig, child); /* the command's whole process group, when one runs */
	if (kernel_mode && child <= 0 && pmc_launch_group <= 0 && write(STDERR_FILENO, note, sizeof(note) - 1) < 0) {
		/* stderr is gone: the report will say the same */
	}
}

static void install_signals(void)
{
	multi_catch_stop_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);
}

/* -q: errors and -v's trace lines reach stderr, notes do not. */
static void quiet_sink(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	if (kind != PMC_DIAG_NOTE)
		pmc_diag_stderr(ctx, kind, msg);
}

/* Where the report goes, as a path for pmc_output_write_path (NULL: stderr), and how to name it in a message. */
static const char *report_dest(const struct stat_opts *o, char *buf, size_t len)
{
	if (o->quiet && o->log_fd < 0 && !o->outpath)
		return "/dev/null"; /* -q: the report (and -I's records) go nowhere */
	if (o->log_fd >= 0) {
		snprintf(buf, len, "/dev/fd/%d", o->log_fd);
		return buf;
	}
	return o->outpath;
}

static int output_error(const struct stat_opts *o, const char *dest, int err)
{
	if (err == -EPIPE && (!dest || pmc_output_path_fd(dest) >= 0))
		return PMC_EXIT_OUTPUT; /* the reader of a pipe pmctool was given went away: quiet */
	if (o->log_fd >= 0)
		fprintf(stderr, "pmctool: cannot write the report to --log-fd %d: %s\n", o->log_fd,
			pmc_output_strerror(dest, err));
	else
		fprintf(stderr, "pmctool: cannot write the report to '%s': %s\n",
			!dest ? "stderr" : strcmp(dest, "-") ? dest : "stdout", pmc_output_strerror(dest, err));
	return PMC_EXIT_OUTPUT;
}

/* The report measured could not go where it was asked to: it goes to stderr instead, never lost. */
static int report_undelivered(const struct stat_opts *o, const char *dest, int err, const struct pmc_report *rep)
{
	int rc = output_error(o, dest, err);
	int fd = dest ? pmc_output_path_fd(dest) : STDERR_FILENO;

	if (fd != STDERR_FILENO && !(err == -EPIPE && fd >= 0)) { /* a pipe's reader that left wanted no more */
		fprintf(stderr, "pmctool: the report follows on stderr instead\n");
		pmc_output_emit(rep, &o->out, NULL);
	}
	return rc;
}

/* --dry-run: the plan as text, or JSON with --json, to stdout or where -o / --log-fd say. */
static int emit_plan(const struct pmc_engine *se, const struct stat_opts *o, const char *dest)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int r;

	if (!mem)
		return PMC_EXIT_INTERNAL;
	if (o->out.format == PMC_OUTPUT_JSON)
		stat_plan_json(se, mem);
	else
		stat_events_print_plan(se, mem);
	if (fclose(mem)) {
		free(buf);
		return PMC_EXIT_INTERNAL;
	}
	r = pmc_output_write_path(dest ? dest : "-", buf, len);
	free(buf);
	return r ? output_error(o, dest ? dest : "-", r) : PMC_EXIT_OK;
}

/* -o with %h %p %r %j: the path this process writes (one report per rank under mpirun or srun). */
static int expand_outpath(struct stat_opts *o, const struct pmc_origin *origin)
{
	char err[256];

	if (!pmc_path_is_template(o->outpath))
		return 0;
	if (pmc_path_template(o->outpath, origin, o->outpath_buf, sizeof(o->outpath_buf), err, sizeof(err)) < 0) {
		fprintf(stderr, "pmctool stat: -o '%.200s': %s\n", o->outpath, err);
		return PMC_EXIT_USAGE;
	}
	o->outpath = o->outpath_buf;
	return 0;
}

/* --check: pmctool check's quick part, its verdict on stderr (unless -q) before anything is measured. */
static int check_first(const struct stat_opts *o, struct pmc_check_result *res)
{
	int rc = pmc_check_measure_here(true, res);

	if (rc || o->quiet)
		return rc;
	fprintf(stderr, "pmctool: check: %s: %s\n", pmc_check_verdict_name(res->overall), res->summary);
	for (size_t i = 0; i < res->n; i++)
		if (res->item[i].verdict != PMC_CHECK_TRUSTWORTHY)
			fprintf(stderr, "pmctool: check: %s %s: %s\n", res->item[i].title,
				pmc_check_verdict_name(res->item[i].verdict), res->item[i].detail);
	return 0;
}

void stat_trust_note(const struct pmc_check_result *res, struct pmc_report *rep)
{
	pmc_report_add_check(rep, res->overall == PMC_CHECK_TRUSTWORTHY ? PMC_CHECK_INFO : PMC_CHECK_WARN, "trust",
			     "pmctool check --quick before measuring: %s: %s", pmc_check_verdict_name(res->overall),
			     res->summary);
}

/* -x, -j and --perf-layout: perf's formats, read by perf's scripts (often under set -e). */
static bool perf_format(const struct pmc_output_opts *out)
{
	return out->format == PMC_OUTPUT_SEP || out->format == PMC_OUTPUT_PERF_JSON || out->format == PMC_OUTPUT_PERF_STD;
}

/* Every event <not supported>: the machine has no counter for any of them (not a count that failed). */
static bool all_unsupported(const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nevents; i++)
		if (rep->events[i].status != PMC_COUNT_NOT_SUPPORTED)
			return false;
	return rep->nevents > 0;
}

int pmc_cmd_stat(int argc, char **argv)
{
	struct stat_opts o;
	struct pmc_engine_ctx ctx = { .stop = &stat_stop }; /* messages: the thread's sink, stderr */
	struct pmc_engine se;
	struct pmc_report rep;
	struct pmc_metric_def *metrics = NULL;
	struct stat_stream stream = { 0 }; /* -I: the records and then the report go here as they happen */
	static struct pmc_check_result trust; /* --check's */
	char fdpath[32];
	const char *dest;
	bool streamed;
	int rc, r;

	memset(&o, 0, sizeof(o));
	pmc_engine_init(&se, &ctx);
	memset(&rep, 0, sizeof(rep));
	rc = stat_parse_opts(argc, argv, &o); /* on failure nothing is left allocated */
	if (rc)
		return rc < 0 ? PMC_EXIT_OK : rc;
	if (o.verbose)
		ctx.observer = pmc_eng_trace_open;
	if (o.quiet)
		ctx.diag = quiet_sink;
	pmc_origin_get(&rep.origin);
	rep.has_origin = true;
	if (o.outpath && (rc = expand_outpath(&o, &rep.origin)))
		goto out;
	if (o.compare) {
		rc = stat_compare_run(&o);
		goto out;
	}
	/* The report's destination is checked first: a missing directory must not cost the whole run. */
	dest = report_dest(&o, fdpath, sizeof(fdpath));
	if (dest && (r = pmc_output_check_path(dest)) < 0) {
		rc = output_error(&o, dest, r == -EPIPE ? -EIO : r);
		goto out;
	}
	if (o.outpath)
		o.out.started = time(NULL); /* perf's -o header: when counting starts */
	rc = stat_resolve(&o, &o.e, &o.metric_buf);
	if (!rc)
		rc = pmc_engine_prepare(&se, &o.e, &metrics);
	if (rc)
		goto out;
	if (o.e.plan_only) {
		stat_metrics_split_check(&o, &se, NULL);
		rc = emit_plan(&se, &o, dest);
		goto out;
	}
	rc = pmc_engine_check(&se, &o.e);
	if (!rc && o.e.interval_ms && pmc_eng_scope_wanted(&o.e))
		rc = stat_stream_open(dest, &o.out, &stream, &o.e.intervals);
	if (rc)
		goto out;
	if (o.check_first && (rc = check_first(&o, &trust)))
		goto out;
	/* Only JSON shows the environment, and --compare compares it: elsewhere its core PMU's libpfm4 name is left out
	 * rather than starting libpfm4 for it alone. */
	o.e.env_lean = o.out.format != PMC_OUTPUT_JSON && !o.compare;
	kernel_mode = o.e.k != NULL;
	stat_ctx = &ctx;
	install_signals();
	rc = pmc_engine_measure(&se, &o.e, metrics, &rep);
	stat_metrics_split_check(&o, &se, &rep);
	if (rc && !rep.nruns)
		goto out;
	if (o.check_first)
		stat_trust_note(&trust, &rep);
	streamed = stream.f != NULL;
	r = streamed ? stat_stream_finish(&stream, &rep) : pmc_output_emit(&rep, &o.out, dest);
	if (r) {
		rc = streamed ? (stream.said ? PMC_EXIT_OUTPUT : output_error(&o, dest, r))
			      : report_undelivered(&o, dest, r, &rep);
		goto out;
	}
	if (!rc)
		rc = pmc_engine_status(&se, &rep);
	if (rc == PMC_EXIT_NOCOUNT && perf_format(&o.out) && all_unsupported(&rep))
		rc = PMC_EXIT_OK; /* perf's formats: no counter for any event is perf's exit 0, the rows say why */
out:
	stat_ctx = NULL;
	stat_stream_finish(&stream, NULL);
	free(metrics);
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
	stat_opts_fini(&o);
	return rc;
}
