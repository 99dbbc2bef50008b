/* SPDX-License-Identifier: MIT */
/* 'pmctool stat' on the command line: its options (the engine's, engine/engine.h, and the printing choices), the
 * plan and -I stream printers, and --compare. cmd_stat.c parses and prints; the engine measures. */
#ifndef PMC_CLI_STAT_H
#define PMC_CLI_STAT_H

#include <stdio.h>

#include "engine/engine.h"
#include "output/output.h"

struct stat_opts {
	struct pmc_engine_opts e;      /* what is measured and how */
	struct pmc_output_opts out;    /* how the report is printed */
	const char *outpath;           /* -o */
	int log_fd;                    /* --log-fd, -1 = none */
	const char *compare;           /* --compare CMD_A: measure it beside the command (cmd_compare.c) */
	const char *fail_if[16];       /* --fail-if CONDITION, with --compare */
	size_t nfail_if;
	const char *kernel_only;       /* the first option given that needs -k ("iters"), for the message */
	const char *kernel_name;       /* -k NAME, e.k once stat_resolve found it */
	const char *params[32];        /* --param K=V (and sweep's swept one), e.kp once stat_resolve parsed them */
	size_t nparams;
	const char *metric_args[64];   /* --metric NAME=FORMULA, e.metrics once stat_resolve parsed them */
	size_t nmetric_args;
	struct pmc_metric_def *metric_buf; /* stat_resolve's definitions for e (stat_opts_fini frees) */
	bool verbose;                  /* -v: every perf_event_open as a trace line (the engine context's observer) */
	bool quiet;                    /* -q: no report unless -o / --log-fd say where, no notes; errors still */
	bool check_first;              /* --check: pmctool check's quick part before measuring */
	char outpath_buf[4096];        /* -o after its %h %p %r %j were expanded */
	pid_t *pid_buf, *tid_buf;      /* -p, -t parsed: e.targets points here (stat_opts_fini frees) */
	int *cpu_buf;                  /* -C parsed */
	char control_ctl[4096], control_ack[4096]; /* --control parsed: e.control points here */
	char *cgroup_buf;              /* -G, --for-each-cgroup: the list, split in place */
	const char *cgroup_names[64];  /* e.targets.cgroups points here */
	const char *metrics_arg;       /* -M NAME[,NAME...], resolved by stat_apply_metrics_resolve */
	char *set_buf;                 /* -M's event set: e.set_name points here */
	struct pmc_tm_plan *tm_plan;   /* -M's vendor table metrics: e.metric_defs and -M's e.event_lists point here */
};

/* stat_opts.c's messages for a bad value ("invalid value 'V' for OPT: WHAT", exit 2) and its whole numbers. */
int stat_bad_value(const char *opt, const char *val, const char *what);
/* Name NAME ("serve") instead of "stat" in stat_bad_value's messages, for a command that takes stat's options. */
void stat_opts_command(const char *name);
int stat_parse_uint(const char *opt, const char *val, uint64_t min, uint64_t max, uint64_t *ret);
/* The effects of options in stat_apply.c (cli/opts.h's pmc_opt_apply_fn): ctx is a struct stat_opts. */
struct pmc_opt;
int stat_apply_tasks(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_cpus(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_control(void *ctx, const struct pmc_opt *opt, const char *val);
/* -G NAME (one cgroup for every event, perf's) or --for-each-cgroup LIST (a row per cgroup); an option with the id
 * STAT_CGROUP_EACH takes a list as -G (serve's -G: a series per cgroup). */
#define STAT_CGROUP_EACH 77
int stat_apply_cgroups(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_detailed(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_metric_group(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_td_level(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_big_num(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_priv(void *ctx, const struct pmc_opt *opt, const char *val);
int stat_apply_per_cache(void *ctx, const struct pmc_opt *opt, const char *val);
/* --per-thread -a (perf's): every process running now, attached, a row per thread; after -a's privilege check. 0 or
 * an exit status after the message. */
int stat_apply_every_task(struct stat_opts *o);
/* After every option was read: -M's items into an event set, --topdown's level and the vendor tables' metrics (their
 * definitions and event groups into the request). 0 or an exit status after the message. */
int stat_apply_metrics_resolve(struct stat_opts *o);
/* After planning: -M's table metrics whose events are not one group, as a note (rep NULL: --dry-run) or a check in
 * the report. */
void stat_metrics_split_check(const struct stat_opts *o, const struct pmc_engine *se, struct pmc_report *rep);

/* --check: pmctool check's quick verdict as the report's "trust" note (cmd_stat.c). */
struct pmc_check_result;
void stat_trust_note(const struct pmc_check_result *res, struct pmc_report *rep);

/* The options' text that the request holds parsed: --metric into e->metrics (*buf, the caller's to free), -k into
 * e->k, --param into e->kp. Before the engine's prepare, under the sink its messages go to (they are the ones the
 * engine's own parsers give). 0 or an exit status after the message. */
int stat_resolve(const struct stat_opts *so, struct pmc_engine_opts *e, struct pmc_metric_def **buf);

/* Free what stat_parse_opts allocated for the request (the parsed -p, -t and -C lists). */
void stat_opts_fini(struct stat_opts *o);

/* Parse stat's argv (argv[0] is "stat") into *o, which the caller zeroed. 0; -1 after --help was printed; or an exit
 * status after the error was printed. o->e.argv points into argv. */
int stat_parse_opts(int argc, char **argv, struct stat_opts *o);

/* stat --compare CMD_A -- CMD_B: both measured, interleaved, then compared (cmd_compare.c); each measurement is o's
 * request with its command. An exit status. */
int stat_compare_run(const struct stat_opts *o);

/* --dry-run (stat_plan.c): the plan as a table, or as one JSON document (schema/pmctool-report.schema.json,
 * "kind": "plan"), with the notes on names under the table. */
void stat_events_print_plan(const struct pmc_engine *se, FILE *f);
void stat_plan_json(const struct pmc_engine *se, FILE *f);
void stat_names_print_notes(const struct pmc_engine *se, FILE *f);

/* -I (stat_stream.c): the stream the records go to, where the report goes (dest as pmc_output_write_path names it;
 * NULL stderr), and the engine's interval sink writing to it. 0, or PMC_EXIT_OUTPUT after the message. */
struct stat_stream {
	FILE *f;
	const struct pmc_output_opts *out;
	bool per_row; /* the records have a scope column (for --interval-clear's headers) */
	struct pmc_interval_record *held; /* -x, -j: this interval's records, written together when it ends */
	size_t nheld, capheld;
	const char *dest;  /* -o's path, NULL for stderr */
	int err;           /* the first write error (-errno): the rest went to stderr instead, as -o without -I does */
	bool said;         /* that error is said on stderr already */
};
int stat_stream_open(const char *dest, const struct pmc_output_opts *out, struct stat_stream *s,
		     struct pmc_interval_sink *sink);
/* Write the final report after the records (CSV without a second header; JSON as one more line; -x and -j only with
 * --summary, as perf, -x's notes anyway), flush and close.
 * rep NULL: only close. 0, or -errno: the first write error (said on stderr when it happened; the intervals after it
 * and the report went to stderr instead). */
int stat_stream_finish(struct stat_stream *s, const struct pmc_report *rep);


#endif
