/* SPDX-License-Identifier: MIT */
/* pmctool stat: options, help and the flow argv -> events -> plan -> runs -> report -> output. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/stat.h"
#include "info/inventory.h"
#include "run/launch.h"

static const char stat_help[] =
	"Usage: pmctool stat [OPTIONS] [--] COMMAND [ARGS...]\n"
	"       pmctool stat [OPTIONS] -k KERNEL [--iters N] [--param K=V]...\n"
	"\n"
	"Count events while COMMAND runs (its children and threads included; pmctool's own start-up is not\n"
	"counted), or while a built-in kernel runs inside pmctool ('pmctool kernels' lists them).\n"
	"\n"
	"Events:\n"
	"  -e, --event LIST        comma-separated events, repeatable, case-insensitive. Spellings:\n"
	"                            libpfm4   UOPS_ISSUED:ANY:c=1, perf::INSTRUCTIONS, INST_RETIRED:ANY_P:u\n"
	"                            perf      cycles, instructions, ref-cycles, branches, task-clock, page-faults...\n"
	"                            sysfs     msr/tsc/, cpu/event=0x0e,umask=0x01,cmask=1,inv/\n"
	"                            raw       r53010e\n"
	"                            bench     uops_issued.any>=2 (cmask), uops_issued.any<1 (cmask+inv),\n"
	"                                      *EVENT (edge), br_inst_exec.0x81 (numeric umask)\n"
	"                            breakpoint mem:0x401000:x (executions of an address)\n"
	"                          modifiers :u (user mode only) and :k (kernel mode only)\n"
	"                          Without -e and -g: task-clock, context-switches, cpu-migrations, page-faults,\n"
	"                          cycles, instructions, ref-cycles, branches, branch-misses and msr/tsc/.\n"
	"  -g, --group SET         an event set from events/ ('pmctool sets' lists them)\n"
	"      --metric NAME=FORMULA  add a derived metric (see pmctool-events(5) for the formula language)\n"
	"\n"
	"Batches:\n"
	"      --batch=MODE        rerun: run the workload once per batch of events that fits the counters, with\n"
	"                          instructions, cycles, ref-cycles and msr/tsc/ in every batch (the default when one\n"
	"                          batch is not enough); multiplex: one run, the kernel time-slices the counters and\n"
	"                          counts are scaled by enabled/running time\n"
	"      --counters N        programmable counters per batch (default: detected; 1..64)\n"
	"      --no-anchors        do not add the anchor events to every batch\n"
	"      --dry-run           print the plan (batches, encodings) and exit without running anything\n"
	"  -r, --repeat N          run N times; report mean, median, stddev, min and max (1..100000)\n"
	"\n"
	"Built-in kernels:\n"
	"  -k, --kernel NAME       run a built-in kernel in-process, reading counters with RDPMC\n"
	"      --iters N           iterations of the kernel's loop\n"
	"      --param K=V         a kernel parameter (repeatable)\n"
	"      --cpu N             pin to CPU N (default: the current CPU)\n"
	"      --warmup SECONDS    run the kernel this long before measuring (0..60, default 0.2)\n"
	"      --subtract-overhead subtract the measured cost of an empty measured region\n"
	"\n"
	"Output (to stderr unless -o):\n"
	"  -x, --field-separator SEP  perf stat's separated layout\n"
	"      --csv               CSV (RFC 4180): a header, one row per event, run and batch, then metrics, checks\n"
	"      --json              one JSON document\n"
	"  -o, --output FILE       write the report to FILE ('-' for stdout); written whole or not at all\n"
	"  -v, --verbose           print every perf_event_open (its attr, pid, cpu, group fd, flags and the\n"
	"                          kernel's answer) to stderr, as perf -vv does\n"
	"  -h, --help              this text\n"
	"\n"
	"Exit status: the command's; 128+N when it died of signal N; 126 cannot execute; 127 not found;\n"
	"2 bad usage or event; 3 nothing could be counted; 4 the report could not be written; 5 internal error;\n"
	"130 / 143 interrupted by SIGINT / SIGTERM (the counts so far are printed, marked partial).\n"
	"See pmctool-stat(1).\n";

enum {
	OPT_BATCH = 256, OPT_COUNTERS, OPT_DRY_RUN, OPT_CSV, OPT_JSON, OPT_METRIC, OPT_ITERS, OPT_PARAM, OPT_CPU,
	OPT_WARMUP, OPT_SUBTRACT, OPT_NO_ANCHORS,
};

static const struct option stat_longopts[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "group", required_argument, NULL, 'g' },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "counters", required_argument, NULL, OPT_COUNTERS },
	{ "no-anchors", no_argument, NULL, OPT_NO_ANCHORS },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "repeat", required_argument, NULL, 'r' },
	{ "kernel", required_argument, NULL, 'k' },
	{ "iters", required_argument, NULL, OPT_ITERS },
	{ "param", required_argument, NULL, OPT_PARAM },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "subtract-overhead", no_argument, NULL, OPT_SUBTRACT },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, 'o' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int bad_value(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, "pmctool stat: invalid value '%.80s%s' for %s: %s\n", val, strlen(val) > 80 ? "..." : "", opt, what);
	return PMC_EXIT_USAGE;
}

static int parse_uint_opt(const char *opt, const char *val, uint64_t min, uint64_t max, uint64_t *ret)
{
	char what[96];

	if (pmc_parse_u64(val, min, max, ret) == 0)
		return 0;
	snprintf(what, sizeof(what), "expected a whole number from %llu to %llu", (unsigned long long)min,
		 (unsigned long long)max);
	return bad_value(opt, val, what);
}

static int parse_double_opt(const char *opt, const char *val, double min, double max, double *ret)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (!*val || *end || errno || !(v >= min && v <= max)) {
		char what[96];
		snprintf(what, sizeof(what), "expected a number from %g to %g", min, max);
		return bad_value(opt, val, what);
	}
	*ret = v;
	return 0;
}

static int push_arg(const char **arr, size_t *n, size_t cap, const char *opt, const char *val)
{
	if (*n >= cap) {
		fprintf(stderr, "pmctool stat: too many %s options (at most %zu)\n", opt, cap);
		return PMC_EXIT_USAGE;
	}
	arr[(*n)++] = val;
	return 0;
}

int stat_parse_opts(int argc, char **argv, struct stat_opts *o)
{
	uint64_t u;
	int c, r = 0;

	o->runs = 1;
	o->cpu = -1;
	o->warmup_s = 0.2;
	optind = 0; /* glibc: a full restart, no state left from an earlier parse (the fuzz target parses many) */
	opterr = 0;
	while (!r && (c = getopt_long(argc, argv, "+e:g:r:k:x:o:vh", stat_longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			r = push_arg(o->event_lists, &o->nlists, PMC_ARRAY_SIZE(o->event_lists), "-e", optarg);
			break;
		case 'g':
			o->set_name = optarg;
			break;
		case OPT_METRIC:
			r = push_arg(o->metric_args, &o->nmetric_args, PMC_ARRAY_SIZE(o->metric_args), "--metric", optarg);
			break;
		case OPT_BATCH:
			if (!strcmp(optarg, "rerun"))
				o->batch = STAT_BATCH_RERUN;
			else if (!strcmp(optarg, "multiplex"))
				o->batch = STAT_BATCH_MULTIPLEX;
			else
				r = bad_value("--batch", optarg, "expected 'rerun' or 'multiplex'");
			break;
		case OPT_COUNTERS:
			if (!(r = parse_uint_opt("--counters", optarg, 1, 64, &u)))
				o->counters = (unsigned)u;
			break;
		case OPT_NO_ANCHORS:
			o->no_anchors = true;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case 'r':
			if (!(r = parse_uint_opt("-r", optarg, 1, PMC_MAX_RUNS, &u)))
				o->runs = (unsigned)u;
			break;
		case 'k':
			o->kernel = optarg;
			break;
		case OPT_ITERS:
			r = parse_uint_opt("--iters", optarg, 1, (uint64_t)1 << 40, &o->iters);
			break;
		case OPT_PARAM:
			r = push_arg(o->params, &o->nparams, PMC_ARRAY_SIZE(o->params), "--param", optarg);
			break;
		case OPT_CPU:
			if (!(r = parse_uint_opt("--cpu", optarg, 0, 8191, &u)))
				o->cpu = (int)u;
			break;
		case OPT_WARMUP:
			r = parse_double_opt("--warmup", optarg, 0, 60, &o->warmup_s);
			break;
		case OPT_SUBTRACT:
			o->subtract_overhead = true;
			break;
		case 'x':
			if (!*optarg || strlen(optarg) >= sizeof(o->out.sep))
				r = bad_value("-x", optarg, "expected a separator of 1 to 15 characters");
			o->out.format = PMC_OUTPUT_SEP;
			snprintf(o->out.sep, sizeof(o->out.sep), "%s", optarg);
			break;
		case OPT_CSV:
			o->out.format = PMC_OUTPUT_CSV;
			break;
		case OPT_JSON:
			o->out.format = PMC_OUTPUT_JSON;
			break;
		case 'o':
			o->outpath = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(stat_help, stdout);
			return -1;
		case '?':
		default:
			if (optopt && strchr("egrkxo", optopt))
				fprintf(stderr, "pmctool stat: option -%c needs a value\n", optopt);
			else
				fprintf(stderr, "pmctool stat: unknown option '%s'\n", argv[optind - 1]);
			fprintf(stderr, "Run 'pmctool stat --help' for the options.\n");
			return PMC_EXIT_USAGE;
		}
	}
	if (r)
		return r;
	if (optind < argc)
		o->argv = argv + optind;
	if (o->kernel && o->argv) {
		fprintf(stderr, "pmctool stat: give either -k KERNEL or a command, not both\n");
		return PMC_EXIT_USAGE;
	}
	if (!o->kernel && !o->argv && !o->dry_run) {
		fprintf(stderr, "pmctool stat: no command to measure: 'pmctool stat [OPTIONS] -- COMMAND [ARGS...]' "
				"or '-k KERNEL'\n");
		return PMC_EXIT_USAGE;
	}
	return 0;
}

/* -k: a kernel runs inside pmctool and cannot be stopped mid-loop; the first signal says so, a second one quits. */
static bool kernel_mode;

static void on_signal(int sig)
{
	static const char note[] = "\npmctool: interrupted: the kernel finishes its loop, then the counts so far are "
				   "printed (interrupt again to quit at once, without them)\n";
	pid_t child = pmc_launch_child;

	if (kernel_mode && stat_interrupted) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stat_interrupted = sig;
	if (child > 0)
		kill(child, sig);
	else if (kernel_mode && write(STDERR_FILENO, note, sizeof(note) - 1) < 0) {
		/* stderr is gone: the report will say the same */
	}
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void describe_workload(const struct stat_opts *o, struct pmc_report *rep)
{
	size_t off = 0;

	rep->workload[0] = '\0';
	for (char **a = o->argv; a && *a && off < sizeof(rep->workload) - 1; a++)
		off += (size_t)snprintf(rep->workload + off, sizeof(rep->workload) - off, "%s%s", a == o->argv ? "" : " ",
					*a);
}

/* Whole-report notes that only stat can see: nothing counted at all, hardware counting missing, user-only. */
static void add_stat_checks(struct pmc_report *rep)
{
	size_t hw_enoent = 0, user_only = 0;

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		if (e->status == PMC_COUNT_NOT_SUPPORTED && e->err == ENOENT && (e->ev.flags & PMC_EVF_HARDWARE))
			hw_enoent++;
		for (size_t s = 0; s < e->nsamples; s++)
			if (e->samples[s].count.flags & PMC_COUNT_USER_ONLY) {
				user_only++;
				break;
			}
	}
	if (rep->partial)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "partial",
				     "interrupted by %s: the counts are those measured before it; events whose batch "
				     "never ran are <not run>", stat_interrupted == SIGTERM ? "SIGTERM" : "SIGINT");
	/* Decided from the kernel (no core PMU in sysfs), never from one event's ENOENT: a working PMU may lack an event,
	 * and that event's reason says so. */
	if (hw_enoent && !pmc_inventory_has_core_pmu())
		pmc_report_add_check(rep, PMC_CHECK_WARN, "no-hardware-pmu",
				     "%zu hardware event%s not supported: the kernel has no PMU driver for this CPU (a VM "
				     "without a virtual PMU?); software events, msr/tsc/ and breakpoints were counted. "
				     "'pmctool info' explains",
				     hw_enoent, hw_enoent == 1 ? " is" : "s are");
	if (user_only)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "user-only",
				     "%zu event%s counted in user mode only: kernel.perf_event_paranoid forbids kernel "
				     "counting without CAP_PERFMON",
				     user_only, user_only == 1 ? "" : "s");
}

/* Measured beside declared: for each counted event a kernel declares a count for, the ratio (seed 003's
 * "instructions retired / instructions expected"); n/a with the event's reason when it was not counted. */
static void add_measured_vs_declared(struct pmc_report *rep)
{
	static const struct {
		const char *event, *expected, *metric;
	} pairs[] = {
		{ "instructions", "EXPECTED_INSTRUCTIONS", "instructions retired / expected" },
		{ "branches", "EXPECTED_BRANCHES", "branches retired / expected" },
	};

	for (size_t i = 0; i < PMC_ARRAY_SIZE(pairs); i++) {
		const struct pmc_report_event *e = pmc_report_find_event(rep, pairs[i].event);
		struct pmc_metric_value m;
		double want;

		if (!e || pmc_report_get_const(rep, pairs[i].expected, &want) < 0 || want <= 0)
			continue;
		memset(&m, 0, sizeof(m));
		snprintf(m.name, sizeof(m.name), "%s", pairs[i].metric);
		m.valid = e->status == PMC_COUNT_OK;
		m.value = m.valid ? e->mean / want : 0;
		snprintf(m.desc, sizeof(m.desc), "measured %.0f, declared %.0f", m.valid ? e->mean : 0.0, want);
		if (!m.valid)
			snprintf(m.reason, sizeof(m.reason), "%s not counted: %.100s (declared %.0f)", pairs[i].event, e->reason,
				 want);
		pmc_report_add_metric(rep, &m);
	}
}

/* Rates from a kernel's declared work over the measured time: these need no counter at all. */
static void add_declared_rates(struct pmc_report *rep)
{
	double secs = rep->wall_ns_mean / 1e9, v, ld = 0, st = 0;
	struct pmc_metric_value m;

	if (secs <= 0)
		return;
	memset(&m, 0, sizeof(m));
	m.valid = true;
	if (pmc_report_get_const(rep, "EXPECTED_FLOPS", &v) == 0 && v > 0) {
		snprintf(m.name, sizeof(m.name), "GFLOP/s (declared work)");
		snprintf(m.desc, sizeof(m.desc), "EXPECTED_FLOPS / SECONDS: the kernel's declared FLOPs over the region time");
		m.value = v / secs / 1e9;
		pmc_report_add_metric(rep, &m);
	}
	pmc_report_get_const(rep, "EXPECTED_BYTES_LOADED", &ld);
	pmc_report_get_const(rep, "EXPECTED_BYTES_STORED", &st);
	if (ld + st > 0) {
		snprintf(m.name, sizeof(m.name), "GB/s (declared work)");
		snprintf(m.desc, sizeof(m.desc), "(bytes loaded + stored) / SECONDS, from the kernel's declared traffic");
		m.value = (ld + st) / secs / 1e9;
		pmc_report_add_metric(rep, &m);
	}
}

static bool counted_anything(const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nevents; i++)
		if (rep->events[i].status == PMC_COUNT_OK)
			return true;
	return false;
}

int pmc_cmd_stat(int argc, char **argv)
{
	struct stat_opts o;
	struct stat_events se;
	struct pmc_report rep;
	struct pmc_metric_def *cli_metrics = NULL;
	char err[256];
	int rc, r;

	memset(&o, 0, sizeof(o));
	memset(&se, 0, sizeof(se));
	memset(&rep, 0, sizeof(rep));
	rc = stat_parse_opts(argc, argv, &o);
	if (rc)
		return rc < 0 ? PMC_EXIT_OK : rc;
	/* libpfm4 starts only when an event needs it (its start-up costs milliseconds in a VM); a failure to start
	 * is told when an event could not be resolved. */
	rc = stat_metrics_parse(&o, &cli_metrics);
	if (rc)
		goto out;
	if (o.kernel) {
		rc = stat_kernel_prepare(&o);
		if (rc)
			goto out;
	}
	rc = stat_events_from_opts(&se, &o);
	if (rc && pmc_pmu_init(err, sizeof(err)) < 0) {
		fprintf(stderr, "pmctool: libpfm4 could not start: %s\n", err);
		rc = PMC_EXIT_INTERNAL;
	}
	if (!rc)
		rc = stat_events_plan(&se, &o);
	if (rc)
		goto out;
	if (o.dry_run) {
		stat_events_print_plan(&se, stdout);
		goto out;
	}
	if (se.plan.nbatches > 1 && o.batch == STAT_BATCH_AUTO)
		fprintf(stderr, "pmctool: %zu events need %zu batches (%s): the workload runs %zu time%s%s\n", se.n,
			se.plan.nbatches, se.budget_why, se.plan.nbatches * o.runs, se.plan.nbatches * o.runs == 1 ? "" : "s",
			" (--batch=multiplex for one run)");
	rc = stat_guard(&se);
	if (rc)
		goto out;
	kernel_mode = o.k != NULL;
	install_signals();
	describe_workload(&o, &rep);
	rc = stat_measure(&se, &o, &rep);
	if (rc && !rep.nruns)
		goto out;
	pmc_report_summarize(&rep);
	pmc_report_set_const(&rep, "SECONDS", rep.wall_ns_mean / 1e9);
	if (o.k) {
		add_measured_vs_declared(&rep);
		add_declared_rates(&rep);
	}
	stat_metrics_apply(&se, cli_metrics, o.nmetric_args, &rep);
	add_stat_checks(&rep);
	r = pmc_output_emit(&rep, &o.out, o.outpath);
	if (r == -EPIPE) {
		rc = rc ? rc : PMC_EXIT_OUTPUT;
		goto out;
	}
	if (r) {
		fprintf(stderr, "pmctool: cannot write the report to '%s': %s\n", o.outpath ? o.outpath : "stderr",
			strerror(-r));
		rc = PMC_EXIT_OUTPUT;
		goto out;
	}
	if (rc)
		goto out;
	if (stat_interrupted)
		rc = 128 + stat_interrupted;
	else if (!counted_anything(&rep))
		rc = PMC_EXIT_NOCOUNT;
	else
		rc = rep.exit_status;
out:
	free(cli_metrics);
	pmc_report_fini(&rep);
	stat_events_fini(&se);
	pmc_pmu_fini();
	return rc;
}
