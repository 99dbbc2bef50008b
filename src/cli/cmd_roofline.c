/* SPDX-License-Identifier: MIT */
/* pmctool roofline: the machine's ceilings (measured with the built-in kernels, cached per machine) and a program's
 * point(s) under them: FLOPs from the vendor's FP events, bytes from the memory controllers (uncore), seconds. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/roofline_point.h"
#include "engine/engine.h"
#include "output/output.h"
#include "output/roofline.h"
#include "roofline/roofline.h"
#include "run/launch.h"
#include "util/util.h"

struct roofline_cli {
	bool refresh, regions, all_cores, sp, csv, json;
	const char *repeats;
	const char *plot;
	const char *interval;
};

static const struct pmc_opt roofline_opts[] = {
	{ .long_name = "refresh", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct roofline_cli, refresh),
	  .help = "measure the ceilings again (else the ones cached for this machine)" },
	{ .long_name = "repeats", .kind = PMC_OPT_VALUE, .metavar = "N",
	  .field = PMC_OPT_FIELD(struct roofline_cli, repeats),
	  .help = "measurements per ceiling (1-100, default 5): the best is the roof,\nthe median and min..max its spread" },
	{ .long_name = "all-cores", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct roofline_cli, all_cores),
	  .help = "place the points under the all-core ceilings (default: one core)" },
	{ .long_name = "sp", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct roofline_cli, sp),
	  .help = "single precision: the SP peak is the compute roof (default DP)" },
	{ .long_name = "regions", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct roofline_cli, regions),
	  .help = "a point per region the program marks with libpmctool" },
	{ .short_name = 'I', .long_name = "interval-print", .kind = PMC_OPT_VALUE, .metavar = "MS",
	  .field = PMC_OPT_FIELD(struct roofline_cli, interval),
	  .help = "a point for every MS-millisecond interval of the command (10..3600000),\nthen the whole program's" },
	{ .long_name = "plot", .kind = PMC_OPT_VALUE, .metavar = "FILE.svg",
	  .field = PMC_OPT_FIELD(struct roofline_cli, plot), .help = "draw the log-log roofline into FILE.svg" },
	{ .short_name = 'x', .long_name = "csv", .kind = PMC_OPT_FLAG, .field = PMC_OPT_FIELD(struct roofline_cli, csv),
	  .help = "CSV instead of the table", .conflict = 1 },
	{ .short_name = 'j', .long_name = "json", .kind = PMC_OPT_FLAG,
	  .field = PMC_OPT_FIELD(struct roofline_cli, json), .help = "JSON instead of the table", .conflict = 1 },
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group roofline_groups[] = {
	{ 1, "%s and %s choose two output formats: give one", false },
	{ 0, NULL, false },
};

const struct pmc_opts_cmd pmc_opts_roofline = {
	.name = "roofline",
	.opts = roofline_opts,
	.groups = roofline_groups,
	.usage = "Usage: pmctool roofline [OPTIONS] [-- COMMAND [ARGS...]]\n\n"
		 "The roofline of this machine: peak FLOP rates and bandwidths at L1, L2, L3 and memory, measured with\n"
		 "the built-in kernels (their FLOPs and bytes are exact, so no PMU is needed) on one core and on all\n"
		 "cores, with their spread over repeats; cached per machine. With a COMMAND, its points: FLOPs from the\n"
		 "vendor's FP events, bytes per level (L2 and L3 from the core's cache fill events, memory from the\n"
		 "memory controllers or the last level's misses), each level's operational intensity, the ceiling it is\n"
		 "bound by and its distance to it. Where an input cannot be counted here the point says why (n/a).\n\n"
		 "Options:\n",
	.epilogue = "\nExamples:\n"
		    "  pmctool roofline                               the ceilings (measured once, then cached)\n"
		    "  pmctool roofline --plot roof.svg -- ./prog     the program's point, drawn\n"
		    "  pmctool roofline --regions --json -- ./prog    a point per libpmctool region, as JSON\n"
		    "  pmctool roofline -I 500 --csv -- ./prog        a point per half second, as CSV\n"
		    "See pmctool-roofline(1).\n",
	.col = 24,
	.stop_at_operand = true,
};

static volatile sig_atomic_t rf_stop;
static struct pmc_engine_ctx *rf_ctx;

static void on_signal(int sig)
{
	rf_stop = sig;
	if (rf_ctx && rf_ctx->child > 0)
		pmc_launch_signal(sig, rf_ctx->child);
}

/* The ceilings: cached for this machine unless refresh, else measured (and cached). */
static int ceilings(const struct roofline_cli *o, unsigned repeats, struct pmc_rf_ceilings *c, bool *ret_cached)
{
	struct pmc_rf_measure_opts mo = { .repeats = repeats, .target_s = 0.1, .stop = (volatile int *)&rf_stop };
	char err[512], env[512];
	int rc;

	pmc_roofline_env_text(env, sizeof(env));
	pmc_rf_fingerprint(env, c);
	*ret_cached = false;
	if (!o->refresh) {
		rc = pmc_rf_cache_load(c, err, sizeof(err));
		if (rc == 0) {
			*ret_cached = true;
			return 0;
		}
		if (rc != -ENOENT)
			fprintf(stderr, "pmctool roofline: %s: measuring again\n", err);
	}
	fprintf(stderr, "pmctool roofline: measuring the ceilings of this machine (%u repeats each; cached after)\n",
		repeats);
	if ((rc = pmc_rf_measure(&mo, c, err, sizeof(err))) < 0) {
		fprintf(stderr, "pmctool roofline: %s\n", err);
		return PMC_EXIT_INTERNAL;
	}
	if (rf_stop) {
		fprintf(stderr, "pmctool roofline: interrupted: the ceilings measured so far follow, not cached\n");
		return 0;
	}
	if (pmc_rf_cache_store(c, err, sizeof(err)) < 0)
		fprintf(stderr, "pmctool roofline: the ceilings are not cached: %s\n", err);
	return 0;
}

static int write_plot(const char *path, const struct pmc_rf_ceilings *c, bool all, bool dp,
		      const struct pmc_rf_point *pts, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	rc = pmc_rf_plot_svg(m, c, all, dp, pts, n);
	if (fclose(m) && !rc)
		rc = -EIO;
	if (!rc)
		rc = pmc_output_write_path(path, buf, len);
	free(buf);
	return rc;
}

int pmc_cmd_roofline(int argc, char **argv)
{
	struct roofline_cli o = { .repeats = NULL };
	struct pmc_engine_ctx ctx = { .stop = &rf_stop };
	static struct pmc_rf_ceilings c;
	struct pmc_rf_point *pts = NULL;
	size_t npts = 0;
	unsigned long repeats = 5;
	unsigned long long interval_ms = 0;
	bool cached;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int first, rc;

	rc = pmc_opts_parse(&pmc_opts_roofline, argc, argv, &o, &first);
	if (rc)
		return rc == PMC_OPTS_HELP ? PMC_EXIT_OK : rc;
	if (o.repeats) {
		char *end;

		errno = 0;
		repeats = strtoul(o.repeats, &end, 10);
		if (errno || *end || end == o.repeats || repeats < 1 || repeats > PMC_RF_MAX_REPEATS) {
			fprintf(stderr, "pmctool roofline: --repeats '%s': give a whole number from 1 to %d\n", o.repeats,
				PMC_RF_MAX_REPEATS);
			return PMC_EXIT_USAGE;
		}
	}
	if (o.interval) {
		char *end;

		errno = 0;
		interval_ms = strtoull(o.interval, &end, 10);
		if (errno || *end || end == o.interval || o.interval[0] == '-' || interval_ms < 10 ||
		    interval_ms > 3600000) {
			fprintf(stderr, "pmctool roofline: -I '%s': give the interval in milliseconds, 10 to 3600000\n",
				o.interval);
			return PMC_EXIT_USAGE;
		}
	}
	if (first < argc && !strcmp(argv[first], "--"))
		first++;
	if (o.interval && (o.regions || first >= argc)) {
		fprintf(stderr, "pmctool roofline: -I %s\n", o.regions ? "and --regions: give one (a point per interval or "
			"per region)" : "needs a COMMAND (pmctool roofline -I 500 -- ./prog)");
		return PMC_EXIT_USAGE;
	}
	if (o.regions && first >= argc) {
		fprintf(stderr, "pmctool roofline: --regions needs a COMMAND (pmctool roofline --regions -- ./prog)\n");
		return PMC_EXIT_USAGE;
	}
	if (o.plot && (rc = pmc_output_check_path(o.plot)) < 0) {
		fprintf(stderr, "pmctool roofline: --plot '%s': %s\n", o.plot, pmc_output_strerror(o.plot, rc));
		return PMC_EXIT_OUTPUT;
	}
	rf_ctx = &ctx;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rc = ceilings(&o, (unsigned)repeats, &c, &cached);
	if (rc)
		goto out;
	if (first < argc && !rf_stop) {
		rc = pmc_roofline_points(&ctx, argv + first, o.regions, interval_ms, !o.sp, &pts, &npts);
		if (rc && !npts)
			goto out;
	}
	for (size_t i = 0; i < npts; i++)
		pmc_rf_point_place(&pts[i], &c, o.all_cores, !o.sp);
	m = open_memstream(&buf, &len);
	if (!m) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	pmc_rf_write(m, o.csv ? PMC_RF_CSV : o.json ? PMC_RF_JSON : PMC_RF_TABLE, &c, cached, pts, npts);
	fclose(m);
	if (o.plot) {
		int r = write_plot(o.plot, &c, o.all_cores, !o.sp, pts, npts);

		if (r < 0) {
			fprintf(stderr, "pmctool roofline: cannot write the plot '%s': %s\n", o.plot,
				pmc_output_strerror(o.plot, r));
			rc = PMC_EXIT_OUTPUT;
		}
	}
	{
		int r = pmc_cli_write_stdout("roofline", "roofline", buf, len);
		if (!rc)
			rc = r;
	}
	if (!rc && rf_stop)
		rc = 128 + rf_stop;
out:
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	rf_ctx = NULL;
	free(buf);
	free(pts);
	return rc;
}
