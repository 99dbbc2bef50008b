/* SPDX-License-Identifier: MIT */
/* Internals of 'pmctool stat', shared by its files (cmd_stat.c: options and flow; stat_events.c: building the event
 * list; stat_measure.c: running batches into a report). */
#ifndef PMC_CLI_STAT_H
#define PMC_CLI_STAT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "eventsets/eventset.h"
#include "kernels/kernels.h"
#include "perf/open.h"
#include "run/launch.h"
#include "output/output.h"
#include "plan/plan.h"
#include "pmu/event.h"
#include "report/report.h"
#include "run/measure.h"

enum stat_batch_mode { STAT_BATCH_AUTO = 0, STAT_BATCH_RERUN, STAT_BATCH_MULTIPLEX, STAT_BATCH_ROTATE };

/* How the rows of a scoped measurement are aggregated (-A, --per-core, --per-die, --per-socket, --per-thread). */
enum stat_aggr { STAT_AGGR_GLOBAL = 0, STAT_AGGR_CPU, STAT_AGGR_CORE, STAT_AGGR_DIE, STAT_AGGR_SOCKET,
		 STAT_AGGR_THREAD };

struct stat_opts {
	const char *event_lists[PMC_MAX_EVENTS];
	size_t nlists;
	const char *set_name;          /* -g */
	const char *metric_args[64];   /* --metric NAME=FORMULA */
	size_t nmetric_args;
	const char *kernel;            /* -k */
	uint64_t iters;                /* --iters, 0 = the kernel's default */
	const char *params[32];        /* --param K=V */
	size_t nparams;
	int cpu;                       /* --cpu, -1 = current */
	double warmup_s;               /* --warmup */
	bool subtract_overhead;
	unsigned runs;                 /* -r */
	bool runs_given;
	enum stat_batch_mode batch;
	unsigned counters;             /* --counters, 0 = detect */
	bool dry_run;
	bool no_anchors;
	bool verbose;                  /* -v: print every perf_event_open */
	bool regions;                  /* --regions: the program counts its own regions (stat_regions.c) */
	struct pmc_output_opts out;
	const char *outpath;           /* -o */
	int log_fd;                    /* --log-fd, -1 = none */
	/* Scopes and time (stat_scope.c): */
	const char *pids;              /* -p PID[,PID...] */
	const char *tids;              /* -t TID[,TID...] */
	bool system_wide;              /* -a */
	const char *cpu_list;          /* -C LIST */
	enum stat_aggr aggr;
	uint64_t interval_ms;          /* -I, 0 = none */
	uint64_t interval_count;       /* --interval-count */
	uint64_t timeout_ms;           /* --timeout */
	long delay_ms;                 /* -D: 0 none, -1 until 'enable' on --control */
	const char *control;           /* --control fifo:CTL[,ACK] or fd:CTL[,ACK] */
	char **argv;                   /* the command, NULL with -k */
	const char *compare;           /* --compare CMD_A: measure it beside the command (cmd_compare.c) */
	const char *fail_if[16];       /* --fail-if CONDITION, with --compare */
	size_t nfail_if;
	char outpath_buf[4096];        /* -o after its %h %p %r %j were expanded */
	const struct pmc_kernel *k;    /* -k, resolved */
	struct pmc_kernel_params kp;
};

/* The events of a measurement and the plan that packs them. */
struct stat_events {
	struct pmc_event *evs;
	size_t n, cap;
	struct pmc_plan plan;
	struct pmc_plan_opts popts;
	char budget_why[256];          /* where the counter budget came from */
	unsigned never_ran;            /* groups the kernel accepted but never ran, split and measured again */
	struct pmc_eventset *set;      /* -g: the set and the variant chosen for this PMU */
	const struct pmc_eventset_variant *variant;
};

/* Parse stat's argv (argv[0] is "stat") into *o, which the caller zeroed. 0; -1 after --help was printed; or an exit
 * status after the error was printed. o->argv points into argv. */
int stat_parse_opts(int argc, char **argv, struct stat_opts *o);

/* Resolve one spec and append it. On a bad name prints the error (and suggestions) to stderr and returns
 * PMC_EXIT_USAGE; 0 on success. */
int stat_events_add_spec(struct stat_events *se, const char *spec, unsigned flags);
/* Append one resolved event. 0, or an exit status after the error was printed. */
int stat_events_push(struct stat_events *se, const struct pmc_event *ev);
/* Fill from -e lists, or the default set. Returns 0 or an exit status. */
int stat_events_from_opts(struct stat_events *se, const struct stat_opts *o);
/* Work out the counter budget and plan; adds the anchors when more than one batch is needed. 0 or exit status. */
int stat_events_plan(struct stat_events *se, const struct stat_opts *o);
void stat_events_print_plan(const struct stat_events *se, FILE *f);
void stat_events_fini(struct stat_events *se);

/* Before running: the user may count at all (kernel.perf_event_paranoid, CAP_PERFMON) and the open-file limit fits
 * the largest batch (raising the soft limit when needed). 0, or an exit status after the error was printed. */
int stat_guard(const struct stat_events *se);

/* Run the plan (runs x batches) on the command or kernel into rep. Returns 0 or an exit status; a partial
 * report (interrupted) is still filled. */
int stat_measure(struct stat_events *se, const struct stat_opts *o, struct pmc_report *rep);

/* A command that could not be launched: the message; the exit status (127 not found, 126 not executable, 5). */
int stat_report_launch_failure(const struct stat_opts *o, const struct pmc_launch_error *le);
/* -v: print one perf_event_open record (perf/open.h's format) to the FILE ctx. */
void stat_print_open_record(const struct pmc_open_record *rec, void *ctx);
/* Batch b's request: the every-batch events it keeps, then its own (reqev[k] = &se->evs[idx[k]]); the count. */
size_t stat_build_request(const struct stat_events *se, size_t b, const struct pmc_event **reqev, size_t *idx);
/* Append a sample (run, batch, count) to e. 0 or -ENOMEM. */
int stat_push_sample(struct pmc_report_event *e, unsigned run, unsigned batch, const struct pmc_count *c);

/* Resolve -k and its --param values; check the CPU can run it. 0 or an exit status (message printed). */
int stat_kernel_prepare(struct stat_opts *o);
struct pmc_keep;
/* One disabled copy of each tracepoint and static-key software event held open for the whole measurement
 * (perf/keep.h), within the descriptors the runs leave: targets tasks or CPUs per event, all batches at once or one.
 * The number kept. */
size_t stat_keep_open(const struct stat_events *se, size_t targets, bool all_at_once, struct pmc_keep *k);
/* What the kernel runner saw (read method, overhead, region TSC cycles, expectations) into the report. */
void stat_kernel_report(const struct stat_opts *o, const struct pmc_kernel_info *info, struct pmc_report *rep);
/* After the runs: measured / declared ratios and the declared work's rates (GFLOP/s, GB/s) of a kernel's report. */
void stat_kernel_metrics(struct pmc_report *rep);

/* Parse the --metric options (before anything runs). 0 or an exit status; *ret is freed by the caller. */
int stat_metrics_parse(const struct stat_opts *o, struct pmc_metric_def **ret);
/* Evaluate the set's metrics (or the defaults) and --metric's into rep (no checks). */
void stat_metrics_eval(const struct stat_events *se, const struct pmc_metric_def *cli, size_t ncli,
		       struct pmc_report *rep);
/* Evaluate the set's metrics (or the defaults) and --metric's, then run the checks. */
void stat_metrics_apply(const struct stat_events *se, const struct pmc_metric_def *cli, size_t ncli,
			struct pmc_report *rep);

/* Before anything runs: every name a --metric formula uses is an event of this measurement (as written or its
 * canonical name), a constant, or a metric of the set or of --metric. 0, or PMC_EXIT_USAGE after the error. */
int stat_metrics_check(const struct stat_events *se, const struct pmc_metric_def *cli, size_t ncli);

/* Each metric in each run into rep->metric_runs (the same definitions stat_metrics_apply evaluated). */
void stat_metrics_per_run(const struct stat_events *se, const struct pmc_metric_def *cli, size_t ncli,
			  struct pmc_report *rep);

/* stat --compare CMD_A -- CMD_B: both measured, interleaved, then compared (cmd_compare.c). An exit status. */
int stat_compare_run(const struct stat_opts *o);

/* --dry-run --json: the plan as one JSON document (schema/pmctool-report.schema.json, "kind": "plan"). */
void stat_plan_json(const struct stat_events *se, FILE *f);

/* Hybrid CPUs (stat_hybrid.c; each does nothing on other machines). -k: fix the CPU the kernel runs on (the current
 * one unless --cpu), since the events are chosen for its core type. 0 or an exit status (message printed). */
int stat_hybrid_pin(struct stat_opts *o);
/* The events ev stands for: itself, or its copies per core PMU (-k or a CPU-wide event: only its CPU's core PMU).
 * The number written to out (max >= PMC_MAX_CORE_PMUS), or -errno after the error was printed. */
int stat_hybrid_copies(const struct stat_opts *o, const struct pmc_event *ev, struct pmc_event *out, size_t max);
/* Replace every event of se by its copies. 0 or an exit status. */
int stat_hybrid_expand(struct stat_events *se, const struct stat_opts *o);
/* After the measurement: the merged rows and a note on the core types. */
void stat_hybrid_report(const struct stat_opts *o, struct pmc_report *rep);

/* stat_scope.c: whether any scope or time option was given (then stat_scope_measure runs instead of stat_measure). */
bool stat_scope_wanted(const struct stat_opts *o);
/* After parsing: the scope options' combinations, and the batch schedule they imply (rotate or multiplex without a
 * command). 0, or an exit status after the error was printed. */
int stat_scope_check(struct stat_opts *o);
/* Before running: -a / -C need CPU-wide counting (perf_event_paranoid < 1 or CAP_PERFMON). 0 or an exit status. */
int stat_scope_guard(const struct stat_opts *o);
/* Count as the scope options say, into rep (totals first, then the rows); -I records go to stream as they happen.
 * 0 or an exit status; a partial report is still filled. */
int stat_scope_measure(struct stat_events *se, const struct stat_opts *o, struct pmc_report *rep, FILE *stream);
/* Say how more than one batch shares the counters when nothing is rerun (rotate or multiplex). */
void stat_scope_note_batches(const struct stat_events *se, const struct stat_opts *o);
/* -I: the stream the records go to, where the report goes (dest as pmc_output_write_path names it; NULL stderr).
 * 0, or PMC_EXIT_OUTPUT after the message. */
int stat_scope_open_stream(const char *dest, FILE **ret);
/* Write the final report after the records (CSV without a second header; JSON as one more line), flush and close
 * *f. rep NULL: only close. 0, or -errno. */
int stat_scope_finish_stream(FILE **f, const struct pmc_report *rep, const struct pmc_output_opts *out);
/* After the metrics of the totals: the same metrics per row (named with the row's label), and the set's checks per
 * row. */
void stat_scope_row_metrics(const struct stat_events *se, const struct pmc_metric_def *cli, size_t ncli,
			    struct pmc_report *rep);

/* perf's spellings (stat_names.c). -e lists, groups {a,b}:mods included, into se: 0 or an exit status (message
 * printed). */
int stat_events_add_lists(struct stat_events *se, const struct stat_opts *o);
/* After the budget is known: a group larger than a batch is an error (exit status, message printed), a weak one is
 * ungrouped. */
int stat_groups_check(struct stat_events *se, const struct stat_opts *o);
/* After planning: a group that fits a batch alone but not next to the every-batch events (anchors on PMUs without
 * fixed counters) is an error. 0 or PMC_EXIT_USAGE (message printed). */
int stat_groups_check_plan(const struct stat_events *se);
/* A set whose variant has no event for this CPU: its notes printed, PMC_EXIT_USAGE; else 0. */
int stat_set_check(const struct stat_events *se);
/* The notes on names (ignored modifiers, a split weak group, the set's notes, a forced PMU that is not this CPU's):
 * under the plan, and into the report as checks. */
void stat_names_notes(const struct stat_events *se, void (*emit)(void *ctx, bool warn, const char *name,
								  const char *msg), void *ctx);
void stat_names_print_notes(const struct stat_events *se, FILE *f);
void stat_names_report(const struct stat_events *se, struct pmc_report *rep);
/* Why exec gave ENOENT for the command prog: not in PATH, no such file, or a file whose #! interpreter or loader is
 * missing (" (...)", a static buffer). */
const char *stat_enoent_why(const char *prog);

/* --regions (stat_regions.c). The planner's budget: each counter is used twice, by the program's threads and by
 * pmctool's whole-program count. */
void stat_regions_budget(struct stat_events *se);
/* Before one execution: the results channel (a memfd) and the environment naming it and the batch's encoded
 * events; req->keep_fd set. 0 or an exit status (message printed). */
int stat_regions_begin(const struct stat_opts *o, struct pmc_measure_req *req);
/* After a completed execution: the program's results into rep. 0 or an exit status. */
int stat_regions_collect(struct pmc_report *rep, const struct pmc_measure_req *req, const size_t *idx);
/* Close the channel and clear the environment (any outcome). */
void stat_regions_end(struct pmc_measure_req *req);

/* Set by the SIGINT/SIGTERM handler: the signal number, 0 when none arrived. */
extern volatile sig_atomic_t stat_interrupted;

#endif
