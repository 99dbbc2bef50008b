/* SPDX-License-Identifier: MIT */
/* pmctool stat's options: one table (cli/opts.h) gives getopt's tables, the help, the given-twice and one-of checks
 * and the completion words; then the checks between options that no single option can make. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/stat.h"
#include "eventsets/eventset.h"
#include "output/format.h"
#include "pmu/event.h"

enum { STAT_FORMAT = 1, STAT_ROWS = 2, STAT_PRIV = 4, STAT_CGROUP = 8, STAT_SET = 16 }; /* the one-of groups: -x/--csv/--json; -A/--per-*;
						     --all-user/--all-kernel */

/* The ids of the options that share an apply (-A and --per-* use enum pmc_aggr's). */
enum {
	L_EVENT = 1, L_METRIC, L_PARAM, L_FAIL_IF,
	N_COUNTERS, N_REPEAT, N_ITERS, N_CPU, N_LOG_FD, N_INTERVAL, N_INTERVAL_COUNT, N_TIMEOUT,
};

/* The command whose options are being read: serve takes stat's, and its errors must name serve. */
static const char *bad_value_cmd = "stat";

void stat_opts_command(const char *name)
{
	bad_value_cmd = name;
}

int stat_bad_value(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, "pmctool %s: invalid value '%.80s%s' for %s: %s\n", bad_value_cmd, val, strlen(val) > 80 ? "..." : "",
		opt, what);
	return PMC_EXIT_USAGE;
}

int stat_parse_uint(const char *opt, const char *val, uint64_t min, uint64_t max, uint64_t *ret)
{
	char what[96];

	if (pmc_parse_dec_u64(val, min, max, ret) == 0)
		return 0;
	snprintf(what, sizeof(what), "expected a decimal whole number from %llu to %llu", (unsigned long long)min,
		 (unsigned long long)max);
	return stat_bad_value(opt, val, what);
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
		return stat_bad_value(opt, val, what);
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

/* The option as messages name it: "-r", "--counters". */
#define NAME(opt) pmc_opt_name(opt, name, sizeof(name))

/* The options that mean something only with -k: the first one given is named if -k is missing. */
static void kernel_only(struct stat_opts *o, const struct pmc_opt *opt)
{
	o->kernel_only = o->kernel_only ? o->kernel_only : opt->long_name;
}

static int apply_list(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	char name[64];

	switch (opt->id) {
	case L_EVENT:
		return push_arg(o->e.event_lists, &o->e.nlists, PMC_ARRAY_SIZE(o->e.event_lists), NAME(opt), val);
	case L_METRIC:
		return push_arg(o->metric_args, &o->nmetric_args, PMC_ARRAY_SIZE(o->metric_args), NAME(opt), val);
	case L_PARAM:
		kernel_only(o, opt);
		return push_arg(o->params, &o->nparams, PMC_ARRAY_SIZE(o->params), NAME(opt), val);
	default: /* L_FAIL_IF */
		return push_arg(o->fail_if, &o->nfail_if, PMC_ARRAY_SIZE(o->fail_if), NAME(opt), val);
	}
}

static int apply_batch(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)opt;
	if (!strcmp(val, "rerun"))
		o->e.batch = PMC_BATCH_RERUN;
	else if (!strcmp(val, "multiplex"))
		o->e.batch = PMC_BATCH_MULTIPLEX;
	else if (!strcmp(val, "rotate"))
		o->e.batch = PMC_BATCH_ROTATE;
	else
		return stat_bad_value("--batch", val, "expected 'rerun', 'multiplex' or 'rotate'");
	return 0;
}

/* --tables DIR: the vendor table directory searched first for event names (pmu/tables.c) and, through
 * pmc_pmu_tables, for -M's table metrics. A DIR that is not a directory is a usage error, not a silent miss. */
static int apply_tables(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat st;

	(void)ctx;
	(void)opt;
	if (stat(val, &st) || !S_ISDIR(st.st_mode))
		return stat_bad_value("--tables", val, "not a directory (a vendor table directory: see pmctool-tables(1))");
	pmc_pmu_tables_dir(val);
	return 0;
}

/* The whole numbers: each option's range and where it goes. */

static int apply_uint(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	char name[64], prev[16];
	uint64_t u;
	int r;

	switch (opt->id) {
	case N_COUNTERS:
		if (!(r = stat_parse_uint(NAME(opt), val, 1, 64, &u)))
			o->e.counters = (unsigned)u;
		return r;
	case N_REPEAT:
		if (!(r = stat_parse_uint(NAME(opt), val, 1, PMC_MAX_RUNS, &u))) {
			o->e.runs = (unsigned)u;
			o->e.runs_given = true;
		}
		return r;
	case N_ITERS:
		kernel_only(o, opt);
		return stat_parse_uint(NAME(opt), val, 1, (uint64_t)1 << 40, &o->e.iters);
	case N_CPU:
		kernel_only(o, opt);
		if (!(r = stat_parse_uint(NAME(opt), val, 0, 8191, &u)))
			o->e.cpu = (int)u;
		return r;
	case N_LOG_FD: /* given twice: the numbers are compared, not the spellings ('3' and '03' are one) */
		if ((r = stat_parse_uint(NAME(opt), val, 0, INT_MAX, &u)))
			return r;
		snprintf(prev, sizeof(prev), "%d", o->log_fd);
		if (o->log_fd >= 0 && o->log_fd != (int)u) {
			fprintf(stderr, "pmctool stat: %s given twice ('%.80s' and '%.80s'): give it once\n", NAME(opt),
				prev, val);
			r = PMC_EXIT_USAGE;
		}
		o->log_fd = (int)u;
		return r;
	case N_INTERVAL:
		return stat_parse_uint(NAME(opt), val, 10, 3600000, &o->e.interval_ms);
	case N_INTERVAL_COUNT:
		return stat_parse_uint(NAME(opt), val, 1, 100000000, &o->e.interval_count);
	default: /* N_TIMEOUT */
		return stat_parse_uint(NAME(opt), val, 1, (uint64_t)1 << 40, &o->e.timeout_ms);
	}
}

static int apply_warmup(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	kernel_only(o, opt);
	return parse_double_opt("--warmup", val, 0, 60, &o->e.warmup_s);
}

static int apply_subtract(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)val;
	kernel_only(o, opt);
	o->e.subtract_overhead = true;
	return 0;
}

static int apply_read(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	kernel_only(o, opt);
	if (!strcmp(val, "syscall") || !strcmp(val, "auto")) {
		o->e.syscall_reads = !strcmp(val, "syscall");
		return 0;
	}
	pmc_diag_error("--read: unknown read path '%s': use auto (in process where the kernel allows it) or syscall "
		       "(read() for every counter)", val);
	return PMC_EXIT_USAGE;
}

static int apply_delay(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	uint64_t u;

	(void)opt;
	if (!strcmp(val, "-1"))
		o->e.delay_ms = -1;
	else if (pmc_parse_dec_u64(val, 0, 86400000, &u))
		return stat_bad_value("-D", val, "expected -1 (start disabled, for --control) or a decimal whole number of "
					    "milliseconds from 0 to 86400000");
	else
		o->e.delay_ms = (long)u;
	return 0;
}

/* --topdown[=LEVEL]: the top-down tree of levels 1..LEVEL (engine/topdown.c; the tree says how deep it goes). */
static int apply_topdown(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;
	char name[64];
	uint64_t u = 1;
	int r = val ? stat_parse_uint(NAME(opt), val, 1, 2, &u) : 0;

	o->e.topdown_level = (int)u;
	return r;
}

/* -x SEP: perf stat's separated layout (given twice and the format group are the table's checks). */
static int apply_sep(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)opt;
	if (!*val || strlen(val) >= sizeof(o->out.sep))
		return stat_bad_value("-x", val, "expected a separator of 1 to 15 characters");
	snprintf(o->out.sep, sizeof(o->out.sep), "%s", val);
	o->out.format = PMC_OUTPUT_SEP;
	return 0;
}

/* -A and --per-*: the rows (two different ones are the table's ROWS group). */
static int apply_aggr(void *ctx, const struct pmc_opt *opt, const char *val)
{
	struct stat_opts *o = ctx;

	(void)val;
	o->e.aggr = (enum pmc_aggr)opt->id;
	return 0;
}

#define F(member) PMC_OPT_FIELD(struct stat_opts, member)
#define TEXT(line) { .kind = PMC_OPT_TEXT, .help = line }

static const struct pmc_opt stat_table[] = {
	TEXT("Events:"),
	{ .id = L_EVENT, .short_name = 'e', .long_name = "event", .kind = PMC_OPT_LIST, .metavar = "LIST", .apply = apply_list,
	  .help = "comma-separated events, repeatable, case-insensitive. Spellings:\n"
		  "  libpfm4   UOPS_ISSUED:ANY:c=1, perf::INSTRUCTIONS, INST_RETIRED:ANY_P:u\n"
		  "  perf      cycles, instructions, ref-cycles, branches, task-clock, page-faults...\n"
		  "  sysfs     msr/tsc/, cpu/event=0x0e,umask=0x01,cmask=1,inv/\n"
		  "  raw       r53010e\n"
		  "  bench     uops_issued.any>=2 (cmask), uops_issued.any<1 (cmask+inv),\n"
		  "            *EVENT (edge), br_inst_exec.0x81 (numeric umask)\n"
		  "  breakpoint mem:0x401000:x (executions of an address)\n"
		  "modifiers :u (user mode only) and :k (kernel mode only)\n"
		  "Without -e and -g: task-clock, context-switches, cpu-migrations, page-faults,\n"
		  "cycles, instructions, ref-cycles (not on AMD), branches, branch-misses and msr/tsc/;\n"
		  "with -x or -j perf's list (without ref-cycles and msr/tsc/)." },
	{ .long_name = "tables", .kind = PMC_OPT_VALUE, .metavar = "DIR", .flags = PMC_OPT_SINGLE, .apply = apply_tables,
	  .help = "look event names up in the vendor tables of DIR first (perf's pmu-events tree,\n"
		  "Intel perfmon, Arm's Neoverse files; see pmctool-tables(1))" },
	{ .short_name = 'g', .long_name = "group", .kind = PMC_OPT_VALUE, .metavar = "SET", .flags = PMC_OPT_SINGLE,
	  .conflict = STAT_SET, .field = F(e.set_name), .help = "an event set from events/ ('pmctool sets' lists them); one -g only" },
	{ .id = L_METRIC, .long_name = "metric", .kind = PMC_OPT_LIST, .metavar = "NAME=FORMULA", .apply = apply_list,
	  .help = "add a derived metric (see pmctool-events(5) for the formula language)" },
	{ .long_name = "topdown", .kind = PMC_OPT_VALUE, .metavar = "[=LEVEL]", .flags = PMC_OPT_SINGLE | PMC_OPT_OPTIONAL,
	  .refused_by = PMC_OPT_NOT_SWEEP,
	  .apply = apply_topdown,
	  .help = "top-down analysis: where the slots (or cycles) go, as a tree of levels 1..LEVEL\n"
		  "(1 or 2; 1 when left out), its tree chosen for this CPU; each level counted as\n"
		  "one group, never multiplexed unless --batch=multiplex; n/a with the reason where\n"
		  "an event is not counted (pmctool-topdown(7): the trees and nodes)" },
	{ .long_name = "td-level", .kind = PMC_OPT_VALUE, .metavar = "N", .flags = PMC_OPT_SINGLE, .apply = stat_apply_td_level,
	  .refused_by = PMC_OPT_NOT_SWEEP,
	  .help = "perf's spelling of --topdown=N (0: the deepest level, 2)" },
	{ .long_name = "topdown-def", .kind = PMC_OPT_VALUE, .metavar = "NAME", .flags = PMC_OPT_SINGLE,
	  .refused_by = PMC_OPT_NOT_SWEEP,
	  .field = F(e.topdown_def),
	  .help = "the tree --topdown evaluates, in place of this CPU's (intel-icl-tma: Intel's\n"
		  "corrected level 1 on Ice Lake; pmctool-topdown(7) lists them)" },
	{ .short_name = 'n', .long_name = "null", .kind = PMC_OPT_FLAG, .field = F(e.null_run),
	  .help = "count nothing: run the command and report its times only (perf's null run,\n"
		  "for pmctool's own cost); not with -e, -g, -d or --metric" },
	{ .short_name = 'i', .long_name = "no-inherit", .kind = PMC_OPT_FLAG, .field = F(e.no_inherit),
	  .help = "count the command (or the tasks of -p/-t) alone, not the tasks it starts\n"
		  "(perf's -i)" },
	{ .short_name = 'S', .long_name = "sync", .kind = PMC_OPT_FLAG, .field = F(e.sync_first),
	  .help = "call sync() before each run, so writeback left by the last one is not counted\n"
		  "(perf's -S)" },
	{ .long_name = "no-merge", .kind = PMC_OPT_FLAG, .field = F(e.no_merge),
	  .help = "each core type's row alone on a hybrid CPU, each box of an uncore family\n"
		  "(uncore_imc_0..N) alone: no summed row (perf's)" },
	{ .short_name = 'M', .long_name = "metrics", .kind = PMC_OPT_VALUE, .metavar = "NAME,...", .flags = PMC_OPT_SINGLE,
	  .conflict = STAT_SET, .apply = stat_apply_metric_group,
	  .help = "perf's metrics and metric groups: pmctool's event sets (-M cache is -g cache,\n"
		  "one set), TopdownL1/L2 (--topdown), and the vendor tables' metrics and groups\n"
		  "(tma_retiring, TopdownL3, ...: their formulas over their events, each metric's\n"
		  "events one weak group); a name both have is pmctool's, with a note:\n"
		  "table:NAME and pmctool:NAME pick one" },
	{ .short_name = 'd', .long_name = "detailed", .kind = PMC_OPT_FLAG, .apply = stat_apply_detailed,
	  .help = "perf's detailed events, added to the others: -d L1-dcache and LLC loads and\n"
		  "misses; -dd also L1-icache, dTLB and iTLB; -ddd also L1-dcache prefetches;\n"
		  "with their miss shares as metrics (not supported where the CPU lacks them)" },
	{ .id = PMC_PRIV_ALL_USER, .long_name = "all-user", .kind = PMC_OPT_FLAG, .conflict = STAT_PRIV,
	  .apply = stat_apply_priv,
	  .help = "count every event in user mode only, whatever its modifier (perf's; PMUs\n"
		  "without privilege filters, e.g. msr/tsc/, uncore, power, count as they are)" },
	{ .id = PMC_PRIV_ALL_KERNEL, .long_name = "all-kernel", .kind = PMC_OPT_FLAG, .conflict = STAT_PRIV,
	  .apply = stat_apply_priv, .help = "count every event in kernel mode only (as --all-user)" },
	{ .long_name = "emulate", .kind = PMC_OPT_FLAG, .field = F(e.emulate),
	  .help = "count instructions:u (the default event then) with valgrind (lackey), an\n"
		  "emulator, where no counter does: exact user-mode instructions, reported as\n"
		  "instructions:u@emulated with the slowdown; the command also runs natively\n"
		  "for its time. Also per event: -e instructions:u@emulated" },
	{ .long_name = "check", .kind = PMC_OPT_FLAG, .field = F(check_first),
	  .help = "first run pmctool check's quick part (exact counts, both read paths; under a\n"
		  "second): its verdict goes to stderr and into the report's checks" },
	TEXT(""),
	TEXT("Batches:"),
	{ .long_name = "batch", .kind = PMC_OPT_VALUE, .metavar = "=MODE", .flags = PMC_OPT_SINGLE, .apply = apply_batch,
	  .help = "rerun: run the workload once per batch of events that fits the counters, with\n"
		  "instructions, cycles, ref-cycles and msr/tsc/ in every batch (the default when one\n"
		  "batch is not enough); multiplex: one run, the kernel time-slices the counters and\n"
		  "counts are scaled by enabled/running time; rotate (with -I): the batches take\n"
		  "turns, one per interval, and each record names its batch (the default for -I\n"
		  "and without a command, where nothing can be rerun; multiplex otherwise)" },
	{ .id = N_COUNTERS, .long_name = "counters", .kind = PMC_OPT_VALUE, .metavar = "N", .flags = PMC_OPT_SINGLE,
	  .apply = apply_uint, .help = "programmable counters per batch (default: detected; 1..64)" },
	{ .long_name = "no-anchors", .kind = PMC_OPT_FLAG, .field = F(e.no_anchors),
	  .help = "do not add the anchor events to every batch" },
	{ .long_name = "dry-run", .kind = PMC_OPT_FLAG, .field = F(e.plan_only),
	  .refused_by = PMC_OPT_NOT_SWEEP,
	  .help = "print the plan (batches, encodings) and exit without running anything (text, or\n"
		  "JSON with --json)" },
	{ .id = N_REPEAT, .short_name = 'r', .long_name = "repeat", .kind = PMC_OPT_VALUE, .metavar = "N",
	  .flags = PMC_OPT_SINGLE, .apply = apply_uint,
	  .help = "run N times; report mean, median, stddev, min and max (1..100000); runs that\n"
		  "failed are listed and kept out of the statistics; N x counts per run <= 2000000" },
	TEXT(""),
	TEXT("Scopes (perf's spellings):"),
	{ .short_name = 'p', .long_name = "pid", .kind = PMC_OPT_VALUE, .metavar = "PID[,PID...]",
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .flags = PMC_OPT_SINGLE | PMC_OPT_SCOPE, .apply = stat_apply_tasks,
	  .help = "count running processes (all their threads, and threads they start) until they\n"
		  "exit, Ctrl-C or --timeout" },
	{ .short_name = 't', .long_name = "tid", .kind = PMC_OPT_VALUE, .metavar = "TID[,TID...]",
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .flags = PMC_OPT_SINGLE | PMC_OPT_SCOPE, .apply = stat_apply_tasks, .help = "count running threads" },
	{ .short_name = 'a', .long_name = "all-cpus", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_SCOPE,
	  .field = F(e.targets.system_wide),
	  .help = "count every CPU system-wide (needs perf_event_paranoid <= 0 or CAP_PERFMON);\n"
		  "with a COMMAND while it runs, without one until Ctrl-C or --timeout; uncore,\n"
		  "RAPL and cstate events count once per socket (their PMU's cpumask)" },
	{ .short_name = 'C', .kind = PMC_OPT_VALUE, .metavar = "LIST", .flags = PMC_OPT_SINGLE | PMC_OPT_SCOPE,
	  .apply = stat_apply_cpus, .help = "count only these CPUs (0,2-3), as -a" },
	{ .short_name = 'G', .long_name = "cgroup", .kind = PMC_OPT_VALUE, .metavar = "NAME",
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .flags = PMC_OPT_SINGLE | PMC_OPT_SCOPE, .conflict = STAT_CGROUP, .apply = stat_apply_cgroups,
	  .help = "with -a/-C: count only the tasks of cgroup NAME (a path under the cgroup file\n"
		  "system holding perf_event), as perf -G NAME" },
	/* --for-each-cgroup's left column is too wide: its help starts on the next line */
	TEXT("      --for-each-cgroup LIST"),
	TEXT("                          with -a/-C: every event once per cgroup of LIST (a,b/c), a row each (perf's)"),
	{ .long_name = "for-each-cgroup", .kind = PMC_OPT_VALUE, .metavar = "LIST",
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .flags = PMC_OPT_SINGLE | PMC_OPT_SCOPE, .conflict = STAT_CGROUP, .apply = stat_apply_cgroups },
	{ .id = PMC_AGGR_CPU, .short_name = 'A', .long_name = "no-aggr", .kind = PMC_OPT_FLAG, .conflict = STAT_ROWS,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .apply = apply_aggr, .help = "with -a/-C: a row per CPU (and the total)" },
	/* --per-core, --per-die, --per-socket and --per-node share two lines of help */
	TEXT("      --per-core, --per-die, --per-socket, --per-node"),
	TEXT("                          with -a/-C: a row per core, die, socket or NUMA node (sysfs topology)"),
	{ .id = PMC_AGGR_CORE, .long_name = "per-core", .kind = PMC_OPT_FLAG, .conflict = STAT_ROWS, .apply = apply_aggr,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL },
	{ .id = PMC_AGGR_DIE, .long_name = "per-die", .kind = PMC_OPT_FLAG, .conflict = STAT_ROWS, .apply = apply_aggr,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL },
	{ .id = PMC_AGGR_SOCKET, .long_name = "per-socket", .kind = PMC_OPT_FLAG, .conflict = STAT_ROWS,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .apply = apply_aggr },
	{ .id = PMC_AGGR_NODE, .long_name = "per-node", .kind = PMC_OPT_FLAG, .conflict = STAT_ROWS, .apply = apply_aggr,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL },
	{ .id = PMC_AGGR_CACHE, .long_name = "per-cache", .kind = PMC_OPT_VALUE, .metavar = "[=LEVEL]",
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .flags = PMC_OPT_OPTIONAL, .conflict = STAT_ROWS, .apply = stat_apply_per_cache,
	  .help = "with -a/-C: a row per cache instance of LEVEL (l2, L3...; the highest when left\n"
		  "out), from sysfs, labelled as perf labels them (S0-D0-L3-ID0)" },
	{ .id = PMC_AGGR_THREAD, .long_name = "per-thread", .kind = PMC_OPT_FLAG, .conflict = STAT_ROWS,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .apply = apply_aggr,
	  .help = "a row per thread (tid, comm): with -p/-t each thread (threads it starts count\n"
		  "in its row), with a COMMAND each task it creates, in order, the command first" },
	{ .long_name = "pre", .kind = PMC_OPT_VALUE, .metavar = "CMD", .flags = PMC_OPT_SINGLE, .field = F(e.pre_cmd),
	  .help = "run CMD with /bin/sh before each run of the command (each batch's too), as\n"
		  "perf; a non-zero exit stops the runs and is pmctool's exit status" },
	{ .long_name = "post", .kind = PMC_OPT_VALUE, .metavar = "CMD", .flags = PMC_OPT_SINGLE, .field = F(e.post_cmd),
	  .help = "run CMD after each run of the command, as --pre" },
	{ .id = N_TIMEOUT, .long_name = "timeout", .kind = PMC_OPT_VALUE, .metavar = "MS", .flags = PMC_OPT_SINGLE,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .apply = apply_uint,
	  .help = "stop counting after MS milliseconds (the command and what it started get\n"
		  "SIGTERM, SIGKILL after 2 s)" },
	TEXT(""),
	TEXT("Time:"),
	/* -I's left column is one wider than the others: its help follows after one space */
	TEXT("  -I, --interval-print MS print the counts of every MS-millisecond interval as it ends (10..3600000), in"),
	TEXT("                          the report's format (--json: one JSON object per line, NDJSON), then the total"),
	{ .id = N_INTERVAL, .short_name = 'I', .long_name = "interval-print", .kind = PMC_OPT_VALUE, .metavar = "MS",
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .flags = PMC_OPT_SINGLE, .apply = apply_uint },
	{ .id = N_INTERVAL_COUNT, .long_name = "interval-count", .kind = PMC_OPT_VALUE, .metavar = "N",
	  .flags = PMC_OPT_SINGLE, .apply = apply_uint, .help = "stop after N intervals" },
	{ .short_name = 'D', .long_name = "delay", .kind = PMC_OPT_VALUE, .metavar = "MS", .flags = PMC_OPT_SINGLE,
	  .apply = apply_delay,
	  .help = "start counting MS milliseconds after the command starts (or after attaching);\n"
		  "-1: stopped until 'enable' arrives on --control" },
	/* --control's value is too wide for the column: its help starts on the next line */
	TEXT("      --control fifo:CTL[,ACK] | fd:CTL[,ACK]"),
	TEXT("                          read perf's commands 'enable', 'disable', 'stop', 'ping' (one per line) from"),
	TEXT("                          the FIFO or descriptor CTL; write 'ack' to ACK after each (fifo: both must"),
	TEXT("                          be FIFOs)"),
	{ .long_name = "control", .kind = PMC_OPT_VALUE, .metavar = "fifo:CTL[,ACK]", .flags = PMC_OPT_SINGLE,
	  .refused_by = PMC_OPT_NOT_SWEEP_TOTAL,
	  .apply = stat_apply_control },
	TEXT(""),
	TEXT("Regions:"),
	{ .long_name = "regions", .kind = PMC_OPT_FLAG, .field = F(e.regions),
	  .refused_by = PMC_OPT_NOT_SWEEP,
	  .help = "the command marks regions of its code with libpmctool (pmctool-regions(7)):\n"
		  "each execution gets its batch's events (batches of half the counters), and\n"
		  "the report has one block per region (calls, counts, metrics; per thread and\n"
		  "merged) beside the whole program's counts" },
	TEXT(""),
	TEXT("Built-in kernels:"),
	{ .short_name = 'k', .long_name = "kernel", .kind = PMC_OPT_VALUE, .metavar = "NAME", .flags = PMC_OPT_SINGLE,
	  .field = F(kernel_name),
	  .help = "run a built-in kernel in-process, reading counters with RDPMC (one -k only;\n"
		  "the options below need it)" },
	{ .id = N_ITERS, .long_name = "iters", .kind = PMC_OPT_VALUE, .metavar = "N",
	  .flags = PMC_OPT_SINGLE | PMC_OPT_KERNEL_ONLY, .apply = apply_uint, .help = "iterations of the kernel's loop" },
	{ .id = L_PARAM, .long_name = "param", .kind = PMC_OPT_LIST, .metavar = "K=V", .flags = PMC_OPT_KERNEL_ONLY,
	  .apply = apply_list, .help = "a kernel parameter (repeatable)" },
	{ .id = N_CPU, .long_name = "cpu", .kind = PMC_OPT_VALUE, .metavar = "N",
	  .flags = PMC_OPT_SINGLE | PMC_OPT_KERNEL_ONLY, .apply = apply_uint,
	  .help = "pin to CPU N (default: the current CPU)" },
	{ .long_name = "warmup", .kind = PMC_OPT_VALUE, .metavar = "SECONDS", .flags = PMC_OPT_SINGLE | PMC_OPT_KERNEL_ONLY,
	  .apply = apply_warmup, .help = "run the kernel this long before measuring (0..60, default 0.2)" },
	/* one wider than the column: one space before its help */
	TEXT("      --subtract-overhead subtract the measured cost of an empty measured region"),
	{ .long_name = "subtract-overhead", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_KERNEL_ONLY, .apply = apply_subtract },
	{ .long_name = "read", .kind = PMC_OPT_VALUE, .metavar = "PATH", .flags = PMC_OPT_SINGLE | PMC_OPT_KERNEL_ONLY,
	  .apply = apply_read,
	  .help = "auto: read counters in process where the kernel allows it (RDPMC, the\n"
		  "user-space counter read), read() otherwise; syscall: read() for every counter,\n"
		  "to cross-check the in-process path (pmctool check does)" },
	TEXT(""),
	TEXT("Output (to stderr unless -o):"),
	{ .short_name = 'x', .long_name = "field-separator", .kind = PMC_OPT_VALUE, .metavar = "SEP",
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .flags = PMC_OPT_SINGLE, .conflict = STAT_FORMAT, .apply = apply_sep,
	  .help = "perf stat's separated layout (value, unit, event, [variance,] run time,\n"
		  "running %, metric value, metric unit)" },
	{ .long_name = "csv", .kind = PMC_OPT_FLAG, .conflict = STAT_FORMAT, .field = F(out.format),
	  .apply = pmc_opt_set_format,
	  .help = "CSV (RFC 4180): a header, one row per event, run and batch, summaries, runs,\n"
		  "metrics, checks" },
	{ .long_name = "json", .kind = PMC_OPT_FLAG, .conflict = STAT_FORMAT, .field = F(out.format),
	  .apply = pmc_opt_set_format,
	  .help = "one JSON document (schema/pmctool-report.schema.json)\n"
		  "(-x, --csv and --json exclude each other)" },
	{ .short_name = 'j', .long_name = "json-output", .kind = PMC_OPT_FLAG, .conflict = STAT_FORMAT,
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .field = F(out.format), .apply = pmc_opt_set_format,
	  .help = "perf stat's JSON lines (perf -j): one object per event with perf's keys and\n"
		  "its metric beside the event (--json is pmctool's own document)" },
	{ .long_name = "perf-layout", .kind = PMC_OPT_FLAG, .conflict = STAT_FORMAT, .field = F(out.format),
	  .apply = pmc_opt_set_format,
	  .help = "perf stat's own table, column for column (perf's metric beside each event,\n"
		  "its time lines); pmctool's checks and other metrics left out. Not with -I,\n"
		  "-A, --per-*, -G or --metric-only" },
	{ .short_name = 'o', .long_name = "output", .kind = PMC_OPT_VALUE, .metavar = "FILE", .flags = PMC_OPT_SINGLE,
	  .field = F(outpath),
	  .help = "write the report to FILE ('-' for stdout, /dev/fd/N for descriptor N); a regular\n"
		  "file is replaced whole or not at all, keeping its mode and owner; a device or\n"
		  "FIFO is written through (a FIFO's reader is waited for 2 s). Opened as a\n"
		  "shell's '>' would; checked before anything runs; if it fails after the run,\n"
		  "the report goes to stderr" },
	{ .id = N_LOG_FD, .long_name = "log-fd", .kind = PMC_OPT_VALUE, .metavar = "N", .apply = apply_uint,
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .help = "write the report to file descriptor N (as perf stat; not with -o)" },
	{ .short_name = 'B', .long_name = "big-num", .kind = PMC_OPT_FLAG, .apply = stat_apply_big_num,
	  .help = "the table's counts with thousands' separators (the default, as perf -B)" },
	{ .long_name = "no-big-num", .kind = PMC_OPT_FLAG, .apply = stat_apply_big_num,
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .help = "the table's counts without separators (perf's --no-big-num)" },
	{ .long_name = "interval-clear", .kind = PMC_OPT_FLAG, .field = F(out.interval_clear),
	  .help = "with -I and the table: clear the terminal before each interval (perf's)" },
	{ .long_name = "metric-only", .kind = PMC_OPT_FLAG, .field = F(out.metric_only),
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .help = "print the metrics alone, a column each, a line per row (perf's); the table,\n"
		  "-x or -j" },
	{ .long_name = "table", .kind = PMC_OPT_FLAG, .field = F(out.run_table),
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .help = "with -r: the table lists each run's time and its difference from the mean\n"
		  "(perf's table of individual measurements)" },
	{ .long_name = "summary", .kind = PMC_OPT_FLAG, .field = F(out.interval_summary),
	  .help = "with -I: the whole measurement after the intervals (-x, -j: as perf, only\n"
		  "with --summary; the table, --csv and --json always print it)" },
	{ .long_name = "no-csv-summary", .kind = PMC_OPT_FLAG, .field = F(out.no_csv_summary),
	  .help = "with -I --summary -x: the summary lines without their first field 'summary'\n"
		  "(perf's)" },
	{ .long_name = "append", .kind = PMC_OPT_FLAG, .field = F(out.append),
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .help = "with -o: add the report after what FILE holds (perf's), whole or not at all" },
	{ .short_name = 'q', .long_name = "quiet", .kind = PMC_OPT_FLAG, .field = F(quiet),
	  .refused_by = PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_COMPARE,
	  .help = "print no report and no notes (errors still go to stderr; -o and --log-fd still\n"
		  "get the report; the exit status still says how it went), as perf -q" },
	{ .short_name = 'v', .long_name = "verbose", .kind = PMC_OPT_FLAG, .field = F(verbose),
	  .help = "print every perf_event_open (its attr, pid, cpu, group fd, flags and the\n"
		  "kernel's answer) to stderr, as perf -vv does" },
	TEXT(""),
	TEXT("A/B comparison (see pmctool-compare(1)):"),
	{ .long_name = "compare", .kind = PMC_OPT_VALUE, .metavar = "CMD_A", .flags = PMC_OPT_SINGLE, .field = F(compare),
	  .refused_by = PMC_OPT_NOT_SWEEP,
	  .help = "measure CMD_A (split into words; no shell) and COMMAND alternately, -r times\n"
		  "each (default 5), with the same events, and compare them per event and metric" },
	{ .id = L_FAIL_IF, .long_name = "fail-if", .kind = PMC_OPT_LIST, .metavar = "COND", .apply = apply_list,
	  .help = "with --compare: exit 1 when COND holds ('instructions>+2%', 'cycles<-5%',\n"
		  "'page-faults>+100', 'instructions:u>+3sd'), repeatable" },
	TEXT("  -o may hold %h (host), %p (pid), %r (MPI/Slurm rank), %j (job id), %% ('%'): 'run.%h.%r.json'"),
	{ .short_name = 'h', .long_name = "help", .kind = PMC_OPT_FLAG, .flags = PMC_OPT_HELP, .help = "this text" },
	{ .kind = PMC_OPT_END },
};

static const struct pmc_opt_group stat_groups[] = {
	{ STAT_FORMAT, "%s and %s both choose the report's format: give one", false },
	{ STAT_ROWS, "%s and %s both choose the rows: give one", false },
	{ STAT_PRIV, "%s and %s both choose the privilege level of every event: give one", false },
	{ STAT_CGROUP, "%s and %s both name the cgroups: give one", false },
	{ STAT_SET, "%s and %s both choose the event set: give one", false },
	{ 0, NULL, false },
};

/* An option without its value is named as the help spells it ("-e", "--batch"); anything else is unknown. */
static int stat_bad_option(const struct pmc_opts_cmd *cmd, const char *arg, const struct pmc_opt *missing)
{
	char name[64];

	if (missing)
		fprintf(stderr, "pmctool stat: option %s needs a value\n", pmc_opt_name(missing, name, sizeof(name)));
	else
		fprintf(stderr, "pmctool stat: unknown option '%s'\n", arg);
	if (!missing)
		pmc_opts_suggest(cmd, arg);
	fprintf(stderr, "Run 'pmctool stat --help' for the options.\n");
	return PMC_EXIT_USAGE;
}

const struct pmc_opts_cmd pmc_opts_stat = {
	.name = "stat",
	.opts = stat_table,
	.groups = stat_groups,
	.usage = "Usage: pmctool stat [OPTIONS] [--] COMMAND [ARGS...]\n"
		 "       pmctool stat [OPTIONS] -p PID[,PID...] | -t TID[,TID...] | -a | -C LIST [COMMAND...]\n"
		 "       pmctool stat [OPTIONS] -k KERNEL [--iters N] [--param K=V]...\n"
		 "\n"
		 "Count events while COMMAND runs (its children and threads included; pmctool's own start-up is not\n"
		 "counted), or while a built-in kernel runs inside pmctool ('pmctool kernels' lists them).\n"
		 "\n",
	.epilogue = "\n"
		    "Numbers are decimal ('-r 010' is 10). Exit status: the command's (with -r, the first failing run's);\n"
		    "128+N when it died of signal N; 126 cannot execute; 127 not found; 2 bad usage or event (nothing ran);\n"
		    "3 nothing could be counted and the command exited 0 (a failing command's own status wins); 4 the report\n"
		    "could not be written; 5 internal error; 130 / 143 interrupted by SIGINT / SIGTERM (the counts so far are\n"
		    "printed, marked partial).\n"
		    "See pmctool-stat(1).\n",
	.col = 26,
	.long_indent = "    ",
	.stop_at_operand = true,
	.bad_option = stat_bad_option,
};

/* The options that only mean something with -k, and options that exclude each other. */
static int check_combinations(const struct stat_opts *o)
{
	if ((o->e.pre_cmd || o->e.post_cmd) && (o->kernel_name || !o->e.argv || pmc_eng_scope_wanted(&o->e))) {
		fprintf(stderr, "pmctool stat: --pre and --post run around each run of a launched command: not with -k, "
				"-p, -t, -a, -C or the time and row options\n");
		return PMC_EXIT_USAGE;
	}
	if (o->e.null_run && (o->e.nlists || o->e.set_name || o->e.detailed || o->nmetric_args || o->kernel_name ||
			      o->e.regions || pmc_eng_scope_wanted(&o->e))) {
		fprintf(stderr, "pmctool stat: -n counts nothing: not with -e, -g, -d, --metric, -k, --regions or the "
				"scope options\n");
		return PMC_EXIT_USAGE;
	}
	if (o->out.metric_only && (o->out.format == PMC_OUTPUT_CSV || o->out.format == PMC_OUTPUT_JSON ||
				   o->e.interval_ms || o->e.plan_only)) {
		fprintf(stderr, "pmctool stat: --metric-only prints the metrics of the table, -x or -j: not with --csv or "
				"--json (they hold the metrics anyway), -I or --dry-run\n");
		return PMC_EXIT_USAGE;
	}
	if (o->out.format == PMC_OUTPUT_PERF_STD && (o->e.interval_ms || o->out.metric_only || o->out.run_table ||
						    o->e.aggr != PMC_AGGR_GLOBAL || o->e.targets.ncgroups)) {
		fprintf(stderr, "pmctool stat: --perf-layout prints perf's table of totals: not with -I, --metric-only, "
				"--table, -A, --per-* or -G (pmctool's own table has them all)\n");
		return PMC_EXIT_USAGE;
	}
	if (o->out.run_table && o->e.runs < 2) {
		fprintf(stderr, "pmctool stat: --table lists the runs of -r N (N >= 2)\n");
		return PMC_EXIT_USAGE;
	}
	if ((o->out.interval_summary || o->out.interval_clear) && !o->e.interval_ms) {
		fprintf(stderr, "pmctool stat: %s is for -I MS\n", o->out.interval_summary ? "--summary" : "--interval-clear");
		return PMC_EXIT_USAGE;
	}
	if (o->out.interval_clear && o->out.format != PMC_OUTPUT_TABLE) {
		fprintf(stderr, "pmctool stat: --interval-clear clears a terminal between the table's intervals: not with "
				"-x, -j, --csv or --json\n");
		return PMC_EXIT_USAGE;
	}
	if (o->out.append && !o->outpath) {
		fprintf(stderr, "pmctool stat: --append adds to the file -o names: give -o FILE\n");
		return PMC_EXIT_USAGE;
	}
	if (o->kernel_only && !o->kernel_name) {
		fprintf(stderr, "pmctool stat: --%s needs -k KERNEL (it sets up a built-in kernel)%s\n", o->kernel_only,
			!strcmp(o->kernel_only, "cpu") ? "; to count on some CPUs give -C LIST (perf's CPU list, as in "
							 "perf stat -C 0-3)" : "");
		return PMC_EXIT_USAGE;
	}
	if (o->kernel_name && o->e.argv) {
		fprintf(stderr, "pmctool stat: give either -k KERNEL or a command, not both\n");
		return PMC_EXIT_USAGE;
	}
	if (o->e.regions && o->kernel_name) {
		fprintf(stderr, "pmctool stat: --regions measures the regions of a command built with libpmctool, not "
				"a kernel (-k)\n");
		return PMC_EXIT_USAGE;
	}
	if (o->e.regions && (pmc_eng_scope_wanted(&o->e) || o->compare)) {
		fprintf(stderr, "pmctool stat: --regions runs the command per batch and counts its regions; it does not "
				"combine with -p, -t, -a, -C, -A, --per-*, -I, -D, --timeout, --control or --compare\n");
		return PMC_EXIT_USAGE;
	}
	if ((o->e.topdown_level || o->e.topdown_def || (o->compare && pmc_eventset_topdown_level(o->e.set_name))) &&
	    o->compare) {
		fprintf(stderr, "pmctool stat: --topdown prints one measurement's tree; it does not combine with --compare "
				"(measure each command with --topdown)\n");
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
	if (o->compare && (o->kernel_name || o->e.plan_only)) {
		fprintf(stderr, "pmctool stat: --compare measures two commands: not with %s\n", o->kernel_name ? "-k" : "--dry-run");
		return PMC_EXIT_USAGE;
	}
	if (o->outpath && o->log_fd >= 0) {
		fprintf(stderr, "pmctool stat: -o and --log-fd both choose where the report goes: give one\n");
		return PMC_EXIT_USAGE;
	}
	if (o->e.plan_only && (o->out.format == PMC_OUTPUT_SEP || o->out.format == PMC_OUTPUT_CSV)) {
		fprintf(stderr, "pmctool stat: --dry-run prints the plan as text or --json, not with %s\n",
			pmc_format_get(o->out.format)->flag);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

static int first_refused(void *arg, const struct pmc_opt *opt, const char *val)
{
	(void)val;
	if (!(opt->refused_by & PMC_OPT_NOT_COMPARE))
		return 0;
	*(const struct pmc_opt **)arg = opt;
	return 1;
}

/* --compare: the first option given that its refused_by says stat --compare does not take. */
static int compare_refuses(int argc, char **argv)
{
	const struct pmc_opt *bad = NULL;
	char name[64];
	int operand;

	if (pmc_opts_walk(&pmc_opts_stat, argc, argv, first_refused, &bad, &operand) != 1 || !bad)
		return 0;
	fprintf(stderr, "pmctool stat: %s is not for --compare (its report is the comparison: a table, --csv or "
			"--json, on stderr or -o)\n", pmc_opt_name(bad, name, sizeof(name)));
	return PMC_EXIT_USAGE;
}

static int parse_opts(int argc, char **argv, struct stat_opts *o)
{
	int operand = argc, r;

	o->e.runs = 1;
	o->e.cpu = -1;
	o->e.warmup_s = 0.2;
	o->log_fd = -1;
	r = pmc_opts_parse(&pmc_opts_stat, argc, argv, o, &operand);
	if (r == PMC_OPTS_HELP)
		return -1;
	if (r || (o->compare && (r = compare_refuses(argc, argv))))
		return r;
	if ((r = stat_apply_metrics_resolve(o)))
		return r;
	if (operand < argc)
		o->e.argv = argv + operand;
	/* Options but no command and no target: perf counts system-wide until Ctrl-C (or --timeout); so does pmctool. A
	 * bare 'pmctool stat' still gets its usage message below. */
	if (!o->e.argv && argc > 1 && !o->kernel_name && !o->e.plan_only && !o->compare &&
	    !pmc_target_req_tasks(&o->e.targets) && !pmc_target_req_cpus(&o->e.targets))
		o->e.targets.system_wide = true;
	/* perf's formats get perf's default events: their readers map perf's names (issue 34) */
	o->e.perf_defaults = o->out.format == PMC_OUTPUT_SEP || o->out.format == PMC_OUTPUT_PERF_JSON ||
			     o->out.format == PMC_OUTPUT_PERF_STD;
	r = check_combinations(o);
	if (!r)
		r = stat_apply_every_task(o);
	o->e.kernel_named = o->kernel_name != NULL; /* resolved later (stat_resolve), refused with scopes now */
	if (!r)
		r = pmc_eng_scope_check(&o->e);
	if (r)
		return r;
	if (!o->kernel_name && !o->e.argv && !o->e.plan_only && !pmc_eng_scope_wanted(&o->e)) {
		fprintf(stderr, "pmctool stat: no command to measure: 'pmctool stat [OPTIONS] -- COMMAND [ARGS...]' "
				"or '-k KERNEL'\n");
		return PMC_EXIT_USAGE;
	}
	return 0;
}

int stat_parse_opts(int argc, char **argv, struct stat_opts *o)
{
	int r = parse_opts(argc, argv, o);

	if (r)
		stat_opts_fini(o);
	return r;
}
