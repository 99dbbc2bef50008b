/* SPDX-License-Identifier: MIT */
/* pmctool stat: options, help and the flow argv -> events -> plan -> runs -> report -> output. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/stat.h"
#include "run/launch.h"
#include "util/path_template.h"

static const char stat_help[] =
	"Usage: pmctool stat [OPTIONS] [--] COMMAND [ARGS...]\n"
	"       pmctool stat [OPTIONS] -p PID[,PID...] | -t TID[,TID...] | -a | -C LIST [COMMAND...]\n"
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
	"                          cycles, instructions, ref-cycles (not on AMD), branches, branch-misses and msr/tsc/.\n"
	"  -g, --group SET         an event set from events/ ('pmctool sets' lists them); one -g only\n"
	"      --metric NAME=FORMULA  add a derived metric (see pmctool-events(5) for the formula language)\n"
	"\n"
	"Batches:\n"
	"      --batch=MODE        rerun: run the workload once per batch of events that fits the counters, with\n"
	"                          instructions, cycles, ref-cycles and msr/tsc/ in every batch (the default when one\n"
	"                          batch is not enough); multiplex: one run, the kernel time-slices the counters and\n"
	"                          counts are scaled by enabled/running time; rotate (with -I): the batches take\n"
	"                          turns, one per interval, and each record names its batch (the default for -I\n"
	"                          and without a command, where nothing can be rerun; multiplex otherwise)\n"
	"      --counters N        programmable counters per batch (default: detected; 1..64)\n"
	"      --no-anchors        do not add the anchor events to every batch\n"
	"      --dry-run           print the plan (batches, encodings) and exit without running anything (text, or\n"
	"                          JSON with --json)\n"
	"  -r, --repeat N          run N times; report mean, median, stddev, min and max (1..100000); runs that\n"
	"                          failed are listed and kept out of the statistics; N x counts per run <= 2000000\n"
	"\n"
	"Scopes (perf's spellings):\n"
	"  -p, --pid PID[,PID...]  count running processes (all their threads, and threads they start) until they\n"
	"                          exit, Ctrl-C or --timeout\n"
	"  -t, --tid TID[,TID...]  count running threads\n"
	"  -a, --all-cpus          count every CPU system-wide (needs perf_event_paranoid <= 0 or CAP_PERFMON);\n"
	"                          with a COMMAND while it runs, without one until Ctrl-C or --timeout; uncore,\n"
	"                          RAPL and cstate events count once per socket (their PMU's cpumask)\n"
	"  -C LIST                 count only these CPUs (0,2-3), as -a\n"
	"  -A, --no-aggr           with -a/-C: a row per CPU (and the total)\n"
	"      --per-core, --per-die, --per-socket\n"
	"                          with -a/-C: a row per core, die or socket (sysfs topology)\n"
	"      --per-thread        a row per thread (tid, comm): with -p/-t each thread (threads it starts count\n"
	"                          in its row), with a COMMAND each task it creates, in order, the command first\n"
	"      --timeout MS        stop counting after MS milliseconds (the command and what it started get\n"
	"                          SIGTERM, SIGKILL after 2 s)\n"
	"\n"
	"Time:\n"
	"  -I, --interval-print MS print the counts of every MS-millisecond interval as it ends (10..3600000), in\n"
	"                          the report's format (--json: one JSON object per line, NDJSON), then the total\n"
	"      --interval-count N  stop after N intervals\n"
	"  -D, --delay MS          start counting MS milliseconds after the command starts (or after attaching);\n"
	"                          -1: stopped until 'enable' arrives on --control\n"
	"      --control fifo:CTL[,ACK] | fd:CTL[,ACK]\n"
	"                          read perf's commands 'enable', 'disable', 'stop', 'ping' (one per line) from\n"
	"                          the FIFO or descriptor CTL; write 'ack' to ACK after each (fifo: both must\n"
	"                          be FIFOs)\n"
	"\n"
	"Regions:\n"
	"      --regions           the command marks regions of its code with libpmctool (pmctool-regions(7)):\n"
	"                          each execution gets its batch's events (batches of half the counters), and\n"
	"                          the report has one block per region (calls, counts, metrics; per thread and\n"
	"                          merged) beside the whole program's counts\n"
	"\n"
	"Built-in kernels:\n"
	"  -k, --kernel NAME       run a built-in kernel in-process, reading counters with RDPMC (one -k only;\n"
	"                          the options below need it)\n"
	"      --iters N           iterations of the kernel's loop\n"
	"      --param K=V         a kernel parameter (repeatable)\n"
	"      --cpu N             pin to CPU N (default: the current CPU)\n"
	"      --warmup SECONDS    run the kernel this long before measuring (0..60, default 0.2)\n"
	"      --subtract-overhead subtract the measured cost of an empty measured region\n"
	"\n"
	"Output (to stderr unless -o):\n"
	"  -x, --field-separator SEP  perf stat's separated layout (value, unit, event, [variance,] run time,\n"
	"                          running %, metric value, metric unit)\n"
	"      --csv               CSV (RFC 4180): a header, one row per event, run and batch, summaries, runs,\n"
	"                          metrics, checks\n"
	"      --json              one JSON document (schema/pmctool-report.schema.json)\n"
	"                          (-x, --csv and --json exclude each other)\n"
	"  -o, --output FILE       write the report to FILE ('-' for stdout, /dev/fd/N for descriptor N); a regular\n"
	"                          file is replaced whole or not at all, keeping its mode and owner; a device or\n"
	"                          FIFO is written through (a FIFO's reader is waited for 2 s). Opened as a\n"
	"                          shell's '>' would; checked before anything runs; if it fails after the run,\n"
	"                          the report goes to stderr\n"
	"      --log-fd N          write the report to file descriptor N (as perf stat; not with -o)\n"
	"  -v, --verbose           print every perf_event_open (its attr, pid, cpu, group fd, flags and the\n"
	"                          kernel's answer) to stderr, as perf -vv does\n"
	"\n"
	"A/B comparison (see pmctool-compare(1)):\n"
	"      --compare CMD_A     measure CMD_A (split into words; no shell) and COMMAND alternately, -r times\n"
	"                          each (default 5), with the same events, and compare them per event and metric\n"
	"      --fail-if COND      with --compare: exit 1 when COND holds ('instructions>+2%', 'cycles<-5%',\n"
	"                          'page-faults>+100'), repeatable\n"
	"  -o may hold %h (host), %p (pid), %r (MPI/Slurm rank), %j (job id), %% ('%'): 'run.%h.%r.json'\n"
	"  -h, --help              this text\n"
	"\n"
	"Numbers are decimal ('-r 010' is 10). Exit status: the command's (with -r, the first failing run's);\n"
	"128+N when it died of signal N; 126 cannot execute; 127 not found; 2 bad usage or event (nothing ran);\n"
	"3 nothing could be counted and the command exited 0 (a failing command's own status wins); 4 the report\n"
	"could not be written; 5 internal error; 130 / 143 interrupted by SIGINT / SIGTERM (the counts so far are\n"
	"printed, marked partial).\n"
	"See pmctool-stat(1).\n";

enum {
	OPT_BATCH = 256, OPT_COUNTERS, OPT_DRY_RUN, OPT_CSV, OPT_JSON, OPT_METRIC, OPT_ITERS, OPT_PARAM, OPT_CPU,
	OPT_WARMUP, OPT_SUBTRACT, OPT_NO_ANCHORS, OPT_LOG_FD, OPT_PER_CORE, OPT_PER_DIE, OPT_PER_SOCKET, OPT_PER_THREAD,
	OPT_INTERVAL_COUNT, OPT_TIMEOUT, OPT_CONTROL, OPT_COMPARE, OPT_FAIL_IF, OPT_REGIONS,
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
	{ "log-fd", required_argument, NULL, OPT_LOG_FD },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "no-aggr", no_argument, NULL, 'A' },
	{ "per-core", no_argument, NULL, OPT_PER_CORE },
	{ "per-die", no_argument, NULL, OPT_PER_DIE },
	{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
	{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
	{ "interval-print", required_argument, NULL, 'I' },
	{ "interval-count", required_argument, NULL, OPT_INTERVAL_COUNT },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "delay", required_argument, NULL, 'D' },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "compare", required_argument, NULL, OPT_COMPARE },
	{ "fail-if", required_argument, NULL, OPT_FAIL_IF },
	{ "regions", no_argument, NULL, OPT_REGIONS },
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

	if (pmc_parse_dec_u64(val, min, max, ret) == 0)
		return 0;
	snprintf(what, sizeof(what), "expected a decimal whole number from %llu to %llu", (unsigned long long)min,
		 (unsigned long long)max);
	return bad_value(opt, val, what);
}

/* A decimal number: digits with at most one '.', as the help gives them (strtod alone would take 0x10, 1e1, inf). */
static int parse_double_opt(const char *opt, const char *val, double min, double max, double *ret)
{
	char *end;
	double v;
	size_t digits = strspn(val, "0123456789.");

	errno = 0;
	v = strtod(val, &end);
	if (!*val || val[digits] || strchr(val, '.') != strrchr(val, '.') || *end || errno || !(v >= min && v <= max)) {
		char what[96];
		snprintf(what, sizeof(what), "expected a decimal number from %g to %g", min, max);
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

/* An option that takes one value, given twice with different values: an error naming both, never a silent drop. */
static int twice(const char *opt, const char *a, const char *b)
{
	fprintf(stderr, "pmctool stat: %s given twice ('%.80s' and '%.80s'): give it once\n", opt, a, b);
	return PMC_EXIT_USAGE;
}

static int set_once(const char **slot, const char *opt, const char *val)
{
	if (*slot && strcmp(*slot, val))
		return twice(opt, *slot, val);
	*slot = val;
	return 0;
}

static const char *format_option(enum pmc_output_format f)
{
	return f == PMC_OUTPUT_SEP ? "-x" : f == PMC_OUTPUT_CSV ? "--csv" : f == PMC_OUTPUT_JSON ? "--json" : "";
}

/* -x, --csv and --json pick one format: two different ones are an error naming both. */
static int set_format(struct stat_opts *o, enum pmc_output_format f)
{
	if (o->out.format != PMC_OUTPUT_TABLE && o->out.format != f) {
		fprintf(stderr, "pmctool stat: %s and %s both choose the report's format: give one\n",
			format_option(o->out.format), format_option(f));
		return PMC_EXIT_USAGE;
	}
	o->out.format = f;
	return 0;
}

/* Options that take one value: given again with another value, an error naming both values (the same value twice is
 * harmless). -k, -g, -o and -x are checked where they are parsed. */
static int check_single(int c, const char *val, const char **seen)
{
	static const struct {
		int opt;
		const char *name;
	} single[] = {
		{ 'r', "-r" }, { OPT_COUNTERS, "--counters" }, { OPT_BATCH, "--batch" }, { OPT_ITERS, "--iters" },
		{ OPT_CPU, "--cpu" }, { OPT_WARMUP, "--warmup" }, { 'p', "-p" }, { 't', "-t" }, { 'C', "-C" },
		{ 'I', "-I" }, { OPT_INTERVAL_COUNT, "--interval-count" }, { OPT_TIMEOUT, "--timeout" }, { 'D', "-D" },
		{ OPT_CONTROL, "--control" },
	};

	for (size_t i = 0; i < PMC_ARRAY_SIZE(single); i++) {
		if (single[i].opt != c)
			continue;
		if (seen[i] && strcmp(seen[i], val))
			return twice(single[i].name, seen[i], val);
		seen[i] = val;
	}
	return 0;
}

/* -A, --per-core, --per-die, --per-socket and --per-thread choose the rows: two different ones are an error. */
static int set_aggr(struct stat_opts *o, int c)
{
	static const char *const names[] = { "", "-A", "--per-core", "--per-die", "--per-socket", "--per-thread" };
	enum pmc_aggr a = c == 'A' ? PMC_AGGR_CPU : c == OPT_PER_CORE ? PMC_AGGR_CORE : c == OPT_PER_DIE ? PMC_AGGR_DIE
			 : c == OPT_PER_SOCKET ? PMC_AGGR_SOCKET : PMC_AGGR_THREAD;

	if (o->e.aggr != PMC_AGGR_GLOBAL && o->e.aggr != a) {
		fprintf(stderr, "pmctool stat: %s and %s both choose the rows: give one\n", names[o->e.aggr], names[a]);
		return PMC_EXIT_USAGE;
	}
	o->e.aggr = a;
	return 0;
}

/* The options that only mean something with -k, and options that exclude each other. */
static int check_combinations(const struct stat_opts *o, const char *kernel_only)
{
	if (kernel_only && !o->e.kernel) {
		fprintf(stderr, "pmctool stat: %s needs -k KERNEL (it sets up a built-in kernel)\n", kernel_only);
		return PMC_EXIT_USAGE;
	}
	if (o->e.kernel && o->e.argv) {
		fprintf(stderr, "pmctool stat: give either -k KERNEL or a command, not both\n");
		return PMC_EXIT_USAGE;
	}
	if (o->e.regions && o->e.kernel) {
		fprintf(stderr, "pmctool stat: --regions measures the regions of a command built with libpmctool, not "
				"a kernel (-k)\n");
		return PMC_EXIT_USAGE;
	}
	if (o->e.regions && (pmc_eng_scope_wanted(&o->e) || o->compare)) {
		fprintf(stderr, "pmctool stat: --regions runs the command per batch and counts its regions; it does not "
				"combine with -p, -t, -a, -C, -A, --per-*, -I, -D, --timeout, --control or --compare\n");
		return PMC_EXIT_USAGE;
	}
	if (o->nfail_if && !o->compare) {
		fprintf(stderr, "pmctool stat: --fail-if needs --compare CMD_A (it judges B against A)\n");
		return PMC_EXIT_USAGE;
	}
	if (o->compare && pmc_eng_scope_wanted(&o->e)) {
		fprintf(stderr, "pmctool stat: --compare measures two commands it launches: not with -p, -t, -a, -C, -A, "
				"--per-*, -I, -D, --timeout or --control\n");
		return PMC_EXIT_USAGE;
	}
	if (o->compare && (o->e.kernel || o->e.plan_only)) {
		fprintf(stderr, "pmctool stat: --compare measures two commands: not with %s\n", o->e.kernel ? "-k" : "--dry-run");
		return PMC_EXIT_USAGE;
	}
	if (o->outpath && o->log_fd >= 0) {
		fprintf(stderr, "pmctool stat: -o and --log-fd both choose where the report goes: give one\n");
		return PMC_EXIT_USAGE;
	}
	if (o->e.plan_only && (o->out.format == PMC_OUTPUT_SEP || o->out.format == PMC_OUTPUT_CSV)) {
		fprintf(stderr, "pmctool stat: --dry-run prints the plan as text or --json, not with %s\n",
			format_option(o->out.format));
		return PMC_EXIT_USAGE;
	}
	return 0;
}

int stat_parse_opts(int argc, char **argv, struct stat_opts *o)
{
	const char *kernel_only = NULL; /* the first -k-only option seen */
	const char *seen[14] = { NULL }; /* check_single's values */
	uint64_t u;
	int c, r = 0;

	o->e.runs = 1;
	o->e.cpu = -1;
	o->e.warmup_s = 0.2;
	o->log_fd = -1;
	optind = 0; /* glibc: a full restart, no state left from an earlier parse (the fuzz target parses many) */
	opterr = 0;
	while (!r && (c = getopt_long(argc, argv, "+e:g:r:k:x:o:vhp:t:aC:AI:D:", stat_longopts, NULL)) != -1) {
		if (optarg && (r = check_single(c, optarg, seen)))
			break;
		switch (c) {
		case 'e':
			r = push_arg(o->e.event_lists, &o->e.nlists, PMC_ARRAY_SIZE(o->e.event_lists), "-e", optarg);
			break;
		case 'g':
			r = set_once(&o->e.set_name, "-g", optarg);
			break;
		case OPT_METRIC:
			r = push_arg(o->e.metric_args, &o->e.nmetric_args, PMC_ARRAY_SIZE(o->e.metric_args), "--metric", optarg);
			break;
		case OPT_BATCH:
			if (!strcmp(optarg, "rerun"))
				o->e.batch = PMC_BATCH_RERUN;
			else if (!strcmp(optarg, "multiplex"))
				o->e.batch = PMC_BATCH_MULTIPLEX;
			else if (!strcmp(optarg, "rotate"))
				o->e.batch = PMC_BATCH_ROTATE;
			else
				r = bad_value("--batch", optarg, "expected 'rerun', 'multiplex' or 'rotate'");
			break;
		case OPT_COUNTERS:
			if (!(r = parse_uint_opt("--counters", optarg, 1, 64, &u)))
				o->e.counters = (unsigned)u;
			break;
		case OPT_NO_ANCHORS:
			o->e.no_anchors = true;
			break;
		case OPT_DRY_RUN:
			o->e.plan_only = true;
			break;
		case 'r':
			if (!(r = parse_uint_opt("-r", optarg, 1, PMC_MAX_RUNS, &u))) {
				o->e.runs = (unsigned)u;
				o->e.runs_given = true;
			}
			break;
		case 'k':
			r = set_once(&o->e.kernel, "-k", optarg);
			break;
		case OPT_ITERS:
			kernel_only = kernel_only ? kernel_only : "--iters";
			r = parse_uint_opt("--iters", optarg, 1, (uint64_t)1 << 40, &o->e.iters);
			break;
		case OPT_PARAM:
			kernel_only = kernel_only ? kernel_only : "--param";
			r = push_arg(o->e.params, &o->e.nparams, PMC_ARRAY_SIZE(o->e.params), "--param", optarg);
			break;
		case OPT_CPU:
			kernel_only = kernel_only ? kernel_only : "--cpu";
			if (!(r = parse_uint_opt("--cpu", optarg, 0, 8191, &u)))
				o->e.cpu = (int)u;
			break;
		case OPT_WARMUP:
			kernel_only = kernel_only ? kernel_only : "--warmup";
			r = parse_double_opt("--warmup", optarg, 0, 60, &o->e.warmup_s);
			break;
		case OPT_SUBTRACT:
			kernel_only = kernel_only ? kernel_only : "--subtract-overhead";
			o->e.subtract_overhead = true;
			break;
		case 'x':
			if (!*optarg || strlen(optarg) >= sizeof(o->out.sep))
				r = bad_value("-x", optarg, "expected a separator of 1 to 15 characters");
			else if (o->out.format == PMC_OUTPUT_SEP && strcmp(o->out.sep, optarg))
				r = twice("-x", o->out.sep, optarg);
			else if (!(r = set_format(o, PMC_OUTPUT_SEP)))
				snprintf(o->out.sep, sizeof(o->out.sep), "%s", optarg);
			break;
		case OPT_CSV:
			r = set_format(o, PMC_OUTPUT_CSV);
			break;
		case OPT_JSON:
			r = set_format(o, PMC_OUTPUT_JSON);
			break;
		case 'o':
			r = set_once(&o->outpath, "-o", optarg);
			break;
		case OPT_LOG_FD:
			if (!(r = parse_uint_opt("--log-fd", optarg, 0, INT_MAX, &u))) {
				char prev[16];
				snprintf(prev, sizeof(prev), "%d", o->log_fd);
				if (o->log_fd >= 0 && o->log_fd != (int)u)
					r = twice("--log-fd", prev, optarg);
				o->log_fd = (int)u;
			}
			break;
		case OPT_COMPARE:
			r = set_once(&o->compare, "--compare", optarg);
			break;
		case OPT_FAIL_IF:
			r = push_arg(o->fail_if, &o->nfail_if, PMC_ARRAY_SIZE(o->fail_if), "--fail-if", optarg);
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_REGIONS:
			o->e.regions = true;
			break;
		case 'p':
			o->e.pids = optarg;
			break;
		case 't':
			o->e.tids = optarg;
			break;
		case 'a':
			o->e.system_wide = true;
			break;
		case 'C':
			o->e.cpu_list = optarg;
			break;
		case 'A':
		case OPT_PER_CORE:
		case OPT_PER_DIE:
		case OPT_PER_SOCKET:
		case OPT_PER_THREAD:
			r = set_aggr(o, c);
			break;
		case 'I':
			r = parse_uint_opt("-I", optarg, 10, 3600000, &o->e.interval_ms);
			break;
		case OPT_INTERVAL_COUNT:
			r = parse_uint_opt("--interval-count", optarg, 1, 100000000, &o->e.interval_count);
			break;
		case OPT_TIMEOUT:
			r = parse_uint_opt("--timeout", optarg, 1, (uint64_t)1 << 40, &o->e.timeout_ms);
			break;
		case 'D':
			if (!strcmp(optarg, "-1"))
				o->e.delay_ms = -1;
			else if (pmc_parse_dec_u64(optarg, 0, 86400000, &u))
				r = bad_value("-D", optarg, "expected -1 (start disabled, for --control) or a decimal whole "
					      "number of milliseconds from 0 to 86400000");
			else
				o->e.delay_ms = (long)u;
			break;
		case OPT_CONTROL:
			o->e.control = optarg;
			break;
		case 'h':
			fputs(stat_help, stdout);
			return -1;
		case '?':
		default:
			if (optopt && strchr("egrkxoptCID", optopt))
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
		o->e.argv = argv + optind;
	r = check_combinations(o, kernel_only);
	if (!r)
		r = pmc_eng_scope_check(&o->e);
	if (r)
		return r;
	if (!o->e.kernel && !o->e.argv && !o->e.plan_only && !pmc_eng_scope_wanted(&o->e)) {
		fprintf(stderr, "pmctool stat: no command to measure: 'pmctool stat [OPTIONS] -- COMMAND [ARGS...]' "
				"or '-k KERNEL'\n");
		return PMC_EXIT_USAGE;
	}
	return 0;
}

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
	stat_stop = sig;
	if (child > 0 || pmc_launch_group > 0)
		pmc_launch_signal(sig, child); /* the command's whole process group */
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

/* Where the report goes, as a path for pmc_output_write_path (NULL: stderr), and how to name it in a message. */
static const char *report_dest(const struct stat_opts *o, char *buf, size_t len)
{
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

int pmc_cmd_stat(int argc, char **argv)
{
	struct stat_opts o;
	struct pmc_engine_ctx ctx = { .stop = &stat_stop }; /* messages: the thread's sink, stderr */
	struct pmc_engine se;
	struct pmc_report rep;
	struct pmc_metric_def *metrics = NULL;
	struct stat_stream stream = { 0 }; /* -I: the records and then the report go here as they happen */
	char fdpath[32];
	const char *dest;
	bool streamed;
	int rc, r;

	memset(&o, 0, sizeof(o));
	pmc_engine_init(&se, &ctx);
	memset(&rep, 0, sizeof(rep));
	rc = stat_parse_opts(argc, argv, &o);
	if (rc)
		return rc < 0 ? PMC_EXIT_OK : rc;
	if (o.verbose)
		ctx.observer = pmc_eng_trace_open;
	pmc_origin_get(&rep.origin);
	rep.has_origin = true;
	if (o.outpath && (rc = expand_outpath(&o, &rep.origin)))
		return rc;
	if (o.compare)
		return stat_compare_run(&o);
	/* The report's destination is checked first: a missing directory must not cost the whole run. */
	dest = report_dest(&o, fdpath, sizeof(fdpath));
	if (dest && (r = pmc_output_check_path(dest)) < 0)
		return output_error(&o, dest, r == -EPIPE ? -EIO : r);
	rc = pmc_engine_prepare(&se, &o.e, &metrics);
	if (rc)
		goto out;
	if (o.e.plan_only) {
		rc = emit_plan(&se, &o, dest);
		goto out;
	}
	rc = pmc_engine_check(&se, &o.e);
	if (!rc && o.e.interval_ms && pmc_eng_scope_wanted(&o.e))
		rc = stat_stream_open(dest, &o.out, &stream, &o.e.intervals);
	if (rc)
		goto out;
	kernel_mode = o.e.k != NULL;
	stat_ctx = &ctx;
	install_signals();
	rc = pmc_engine_measure(&se, &o.e, metrics, &rep);
	if (rc && !rep.nruns)
		goto out;
	streamed = stream.f != NULL;
	r = streamed ? stat_stream_finish(&stream, &rep) : pmc_output_emit(&rep, &o.out, dest);
	if (r) {
		rc = streamed ? output_error(&o, dest, r) : report_undelivered(&o, dest, r, &rep);
		goto out;
	}
	if (!rc)
		rc = pmc_engine_status(&se, &rep);
out:
	stat_ctx = NULL;
	stat_stream_finish(&stream, NULL);
	free(metrics);
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
	return rc;
}
