/* SPDX-License-Identifier: MIT */
/*
 * The measurement engine: what 'pmctool stat' (and sweep, compare, --regions) measure with, as a library with no
 * printing of its own (messages go to util/diag.h's sink, -I records to the caller's interval sink). The data flows
 * one way: options -> events (events.c, names.c, hybrid.c) -> plan (events.c) -> runs (measure.c: a launched
 * command or a kernel; scope.c: -p/-t/-a/-C/-I/--per-thread) -> counts in a report -> metrics and checks
 * (metrics.c, runs.c, kernel.c). The CLI (src/cli/) parses arguments into struct pmc_engine_opts and chooses how the
 * report is printed; pmc_engine_run() is the whole flow for a caller that only wants the report.
 */
#ifndef PMC_ENGINE_H
#define PMC_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>

#include "eventsets/eventset.h"
#include "kernels/kernels.h"
#include "perf/open.h"
#include "util/diag.h"
#include "run/launch.h"
#include "plan/plan.h"
#include "pmu/event.h"
#include "report/report.h"
#include "perf/measure.h"

enum pmc_batch_mode { PMC_BATCH_AUTO = 0, PMC_BATCH_RERUN, PMC_BATCH_MULTIPLEX, PMC_BATCH_ROTATE };

/* How the rows of a scoped measurement are aggregated (-A, --per-core, --per-die, --per-socket, --per-thread,
 * --per-node). */
enum pmc_aggr { PMC_AGGR_GLOBAL = 0, PMC_AGGR_CPU, PMC_AGGR_CORE, PMC_AGGR_DIE, PMC_AGGR_SOCKET,
		 PMC_AGGR_THREAD, PMC_AGGR_NODE, PMC_AGGR_CACHE };

struct pmc_report_topdown;
/* -I: where the interval records go while the measurement runs (the CLI writes them to the report's stream). */
struct pmc_interval_sink {
	void (*begin)(void *ctx, bool per_row);             /* before the first record (per_row: rows are kept) */
	void (*record)(void *ctx, const struct pmc_interval_record *r);
	void (*end)(void *ctx);                             /* after each interval's records */
	void *ctx;
	/* --topdown: the interval's tree (report/topdown.h; interval, start_s, end_s set), after its records and before
	 * end(); NULL: not wanted */
	void (*topdown)(void *ctx, const struct pmc_report_topdown *td);
};

/* Who a scoped measurement counts: data, not the user's spelling (the CLI parses "-p 1234,5678" and "-C 0,2-3" with
 * sys/lists.h). At most one of pids, tids, CPUs; none: the launched command. The arrays are the caller's. */
#define PMC_TARGET_MAX_CPU 8191        /* the highest CPU number the engine counts on (-C names higher ones: "not online") */
struct pmc_target_req {
	const pid_t *pids;             /* processes: all their threads, and the threads they start */
	size_t npids;
	const pid_t *tids;             /* threads */
	size_t ntids;
	bool every_task;               /* pids are every process at the start (perf's --per-thread -a): tasks that end
					  before they are attached are normal, not a warning */
	bool system_wide;              /* every online CPU */
	const int *cpus;               /* these CPUs, each online, no repeats needed (repeats count once) */
	size_t ncpus;
	const char *const *cgroups;    /* with CPUs: each event counts the tasks of each of these cgroups (paths under
					  the perf_event hierarchy, sys/cgroup.h), a row per cgroup */
	size_t ncgroups;
};

/* perf's control channel (commands 'enable', 'disable', 'stop', 'ping' in, 'ack' out): FIFOs the engine opens
 * (each must be a FIFO), or descriptors the caller holds open. Parsed by the caller ("fifo:CTL[,ACK]" and
 * "fd:CTL[,ACK]" are the command line's spellings, sys/lists.h). */
struct pmc_control_req {
	bool given;
	bool is_fd;                    /* ctl_fd and ack_fd, else the paths ctl and ack */
	int ctl_fd, ack_fd;            /* descriptors the caller holds open; ack_fd -1: none */
	const char *ctl;               /* FIFO paths the engine opens */
	const char *ack;               /* "" or NULL: none */
};

static inline bool pmc_target_req_tasks(const struct pmc_target_req *t)
{
	return t->npids || t->ntids;
}

static inline bool pmc_target_req_cpus(const struct pmc_target_req *t)
{
	return t->system_wide || t->ncpus;
}

/* What to measure and how: every field has a zero default except runs (1) and cpu (-1); see pmc_engine_opts_init. */
struct pmc_engine_opts {
	const char *event_lists[PMC_MAX_EVENTS];
	size_t nlists;
	const char *set_name;          /* -g */
	const struct pmc_metric_def *metrics; /* --metric NAME=FORMULA, parsed by the caller (pmc_eng_metrics_parse): */
	size_t nmetrics;               /* evaluated after metric_defs, in order; the caller's array */
	const struct pmc_metric_def *metric_defs; /* metrics already defined (-M's from the vendor tables): evaluated */
	size_t nmetric_defs;           /* before --metric's, which may use them; the caller's array */
	size_t metric_list_first;      /* event_lists[first, first + n) are -M's table-metric groups (one per metric: */
	size_t metric_list_n;          /* engine/mgroups.c counts them as one group when they fit the counters together) */
	const struct pmc_kernel *k;    /* -k, found by the caller (pmc_eng_kernel_find); NULL: a command or a scope */
	bool kernel_named;             /* a kernel is asked for, k not found yet (the CLI's checks come before it) */
	struct pmc_kernel_params kp;   /* --param K=V, parsed by the caller (pmc_eng_kernel_params) */
	uint64_t iters;                /* --iters, 0 = the kernel's default */
	int cpu;                       /* --cpu, -1 = current */
	double warmup_s;               /* --warmup */
	bool subtract_overhead;
	bool syscall_reads;            /* --read=syscall: -k reads every counter with read() */
	unsigned runs;                 /* -r */
	bool runs_given;
	enum pmc_batch_mode batch;
	unsigned counters;             /* --counters, 0 = detect */
	bool plan_only;                /* plan, never run (--dry-run): no check that needs the machine as it runs */
	bool no_anchors;
	unsigned detailed;             /* -d, -dd, -ddd: perf's detailed cache and TLB events added, levels 1 to 3 */
	bool null_run;                 /* -n: no counter at all, the command's times only (perf's null run) */
	bool no_merge;                 /* --no-merge: a hybrid CPU's per-core-type rows alone, not summed */
	int cache_level;               /* --per-cache[=LEVEL]: the cache level whose instances are rows (0: the highest) */
	bool no_inherit;               /* -i: the tasks a command or attached task starts are not counted (perf's) */
	bool sync_first;               /* -S: sync() before each execution, as perf's --sync */
	bool perf_defaults;            /* without -e: perf's default list alone (no ref-cycles, no msr/tsc/), for perf's
					  formats (-x, -j), whose readers map perf's events */
	enum pmc_priv_override {       /* --all-user, --all-kernel: perf's, on every core, cache, software, */
		PMC_PRIV_AS_GIVEN = 0, /* tracepoint and breakpoint event (exclude_kernel / exclude_user set, */
		PMC_PRIV_ALL_USER,     /* modifiers overridden); PMUs without privilege filters (msr, uncore, */
		PMC_PRIV_ALL_KERNEL,   /* power) are left as they are */
	} priv;
	bool regions;                  /* --regions: the program counts its own regions (engine/regions.c) */
	/* Scopes and time (engine/scope.c): */
	struct pmc_target_req targets; /* -p, -t, -a, -C: none of them counts the command */
	enum pmc_aggr aggr;
	uint64_t interval_ms;          /* -I, 0 = none */
	uint64_t interval_count;       /* --interval-count */
	uint64_t timeout_ms;           /* --timeout */
	long delay_ms;                 /* -D: 0 none, -1 until 'enable' on --control */
	struct pmc_control_req control; /* --control */
	char **argv;                   /* the command, NULL with -k */
	int (*fork_fn)(void *ctx);     /* set: no exec; a forked child runs fork_fn(fork_ctx) as the command (argv only */
	void *fork_ctx;                /* names it), counted from just before it starts (engine/exec_cmd.c) */
	const char *pre_cmd, *post_cmd; /* --pre, --post: shell commands run before / after each execution of argv */
	struct pmc_interval_sink intervals; /* -I */
	int topdown_level;             /* --topdown[=LEVEL]: 0 none (engine/topdown.c) */
	bool emulate;                  /* --emulate: every instructions:u counted by valgrind (engine/emulate.c) */
	const char *topdown_def;       /* --topdown-def NAME: the tree, else the chooser's for this CPU */
	bool env_lean;                 /* the report's environment is neither shown nor compared (a table, -x, CSV):
					  libpfm4 is not started only to name the core PMU in it (core_pmu stays "") */
};

/* What the engine needs of its caller, owned by the caller (the engine keeps no state of its own between
 * measurements): two measurements with two contexts, in one process, share nothing but libpfm4 (main.c starts it
 * once and ends it at exit). */
struct pmc_engine_ctx {
	pmc_diag_fn diag;              /* where the messages go while an engine call runs; NULL: the thread's sink */
	void *diag_ctx;
	volatile sig_atomic_t *stop;   /* the caller's signal flag (the signal's number, 0 none): the runs stop, the
					  report is partial; NULL: never stopped */
	volatile sig_atomic_t child;   /* the command running now (0 none), for the caller's signal handler */
	pmc_perf_observer observer;    /* -v: each perf_event_open while the runs go (pmc_eng_trace_open: a trace line
					  to the sink); NULL none */
	void *observer_ctx;
};

/* A measurement's events and the plan that packs them (the engine's state between the calls below). */
struct pmc_engine {
	struct pmc_engine_ctx *ctx;    /* the caller's (pmc_engine_init) */
	struct pmc_event *evs;
	size_t n, cap;
	struct pmc_plan plan;
	struct pmc_plan_opts popts;
	char budget_why[256];          /* where the counter budget came from */
	unsigned never_ran;            /* groups the kernel accepted but never ran, split and measured again */
	int hook_status;               /* --pre / --post: the non-zero status that stopped the runs */
	struct pmc_eventset *set;      /* -g: the set and the variant chosen for this PMU */
	const struct pmc_eventset_variant *variant;
	struct pmc_eng_topdown *topdown; /* --topdown: the tree and its inputs' events (engine/topdown.c) */
	bool emulate;                  /* --emulate: instructions:u is counted by valgrind (engine/emulate.c) */
	bool no_merge;                 /* --no-merge: a box family's boxes each in their own row (engine/uncore.c) */
	const char *subject;           /* what a failed pmc_engine_prepare was about: "events", "metrics", "kernel",
					  "eventset", "topdown" ("" after success): an error's subject for a library */
	unsigned mgroup_lo, mgroup_hi; /* the perf group numbers of -M's table-metric groups (0: none) */
	unsigned mgroup_merged;        /* that many metric groups were made one (engine/mgroups.c), 0 when not */
	unsigned mgroup_events;        /* the merged group's events */
	bool mgroup_no_gp_anchors;     /* the programmable anchors were left out: a metric group needs their counters */
	bool nmi_known, nmi_on;        /* live counting: the NMI watchdog's state read once at the open (a read makes no
					  system call but the counters'); not known: read at each evaluation */
};


/*
 * The engine's flow, in order. Each returns 0 or an exit status (util/util.h's PMC_EXIT_*, after the message went to
 * the diagnostics sink); "message" below means such a message.
 */
/* Defaults: one run, the current CPU, no log. */
void pmc_engine_opts_init(struct pmc_engine_opts *o);
/* An empty measurement on the caller's context (never NULL; it outlives se). */
void pmc_engine_init(struct pmc_engine *se, struct pmc_engine_ctx *ctx);
/* Check -k's CPU, resolve the events (-e, -g or the default set), check the metrics' names, and plan the batches.
 * *metrics (metric_defs and metrics, joined) is the caller's to free; se is pmc_engine_fini's to release, whatever this returns. */
int pmc_engine_prepare(struct pmc_engine *se, struct pmc_engine_opts *o, struct pmc_metric_def **metrics);
/* Before the first run: what the plan implies (notes), and whether this user may count it here. */
int pmc_engine_check(const struct pmc_engine *se, const struct pmc_engine_opts *o);
/* Run the plan into rep (zeroed by the caller; its origin may be set), then its statistics, metrics and checks.
 * A status with rep->nruns > 0 leaves a partial report worth printing (interrupted, a run that failed). */
int pmc_engine_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, const struct pmc_metric_def *metrics,
		       struct pmc_report *rep);
/* The exit status of a measurement that ran: 128+N when stopped by signal N (the context's flag); else the first failing run's own
 * status (a measured command's status is never replaced); else 3 when nothing at all was counted; else 0. */
int pmc_engine_status(const struct pmc_engine *se, const struct pmc_report *rep);
/* Release se's events and plan (not libpfm4, which is the process's: pmc_pmu_fini at exit). */
void pmc_engine_fini(struct pmc_engine *se);
/* All of the above for a caller that only wants the report (rep: pmc_report_fini's). */
int pmc_engine_run(struct pmc_engine_ctx *ctx, struct pmc_engine_opts *o, struct pmc_report *rep);

/* Live counting (engine/live.c; pmctool serve): the scope's CPUs (-a, -C, with -G cgroups) or running tasks (-p, -t),
 * no command, counting from pmc_engine_live_open until pmc_eng_live_close, every event at once (the kernel
 * time-slices what the counters cannot hold: the running fraction says so). Nothing runs in between: no thread, no
 * timer. A read is one read() per open counter at the call, and never stops, resets or reopens one. */
struct pmc_eng_live;
/* After pmc_engine_prepare and pmc_engine_check, with o as pmc_eng_scope_check left it (o and se outlive the set).
 * *ret, or an exit status after the message (nothing left open). */
int pmc_engine_live_open(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_eng_live **ret);
/* The counts since the open, read now, into rep (zeroed by the caller; pmc_report_fini's) as one run: the totals,
 * then the rows (-A, --per-socket, -G: a row per cgroup), with the statistics, metrics (of the rows too), top-down
 * tree and checks that pmc_engine_measure gives; the environment and CPU are the open's. 0 or an exit status. */
int pmc_engine_live_read(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_eng_live *l,
			 const struct pmc_metric_def *metrics, struct pmc_report *rep);
/* Close every counter and free l (NULL accepted). */
void pmc_eng_live_close(struct pmc_eng_live *l);
/* The counters open (what a read reads: its read() calls), and the environment measured at the open. */
size_t pmc_eng_live_counters(const struct pmc_eng_live *l);
const struct pmc_env *pmc_eng_live_env(const struct pmc_eng_live *l);
/* The stages behind them (the engine's context's sink not swapped in). */
int pmc_eng_live_open(const struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_eng_live **ret);
int pmc_eng_live_read(struct pmc_eng_live *l, struct pmc_report *rep);

/* The stages, for the CLI's other commands and the tests. */
/* Resolve one spec and append it. On a bad name gives the error (and suggestions) to the diagnostics sink and returns
 * PMC_EXIT_USAGE; 0 on success. */
int pmc_eng_events_add_spec(struct pmc_engine *se, const char *spec, unsigned flags);
/* Append one resolved event. 0, or an exit status after the error went to the diagnostics sink. */
int pmc_eng_events_push(struct pmc_engine *se, const struct pmc_event *ev);
/* --all-user / --all-kernel applied to one event (o->priv; nothing for PMUs without privilege filters). */
void pmc_eng_priv_override(const struct pmc_engine_opts *o, struct pmc_event *ev);
/* Fill from -e lists, or the default set. Returns 0 or an exit status. */
int pmc_eng_events_from_opts(struct pmc_engine *se, const struct pmc_engine_opts *o);
/* Work out the counter budget and plan; adds the anchors when more than one batch is needed. 0 or exit status. */
int pmc_eng_events_plan(struct pmc_engine *se, const struct pmc_engine_opts *o);
void pmc_eng_events_fini(struct pmc_engine *se);

/* Before running: the user may count at all (kernel.perf_event_paranoid, CAP_PERFMON) and the open-file limit fits
 * the largest batch (raising the soft limit when needed). 0, or an exit status after the error went to the diagnostics sink. */
int pmc_eng_guard(const struct pmc_engine *se);

/* The report's counted events for a note: "counted here: task-clock, page-faults and 2 more", or "none of them was
 * counted here". */
void pmc_eng_counted_list(const struct pmc_report *rep, char *buf, size_t len);

/* Run the plan (runs x batches) on the command or kernel into rep. Returns 0 or an exit status; a partial
 * report (interrupted) is still filled. */
int pmc_eng_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep);

/* A command that could not be launched: the message; the exit status (127 not found, 126 not executable, 5). */
int pmc_eng_report_launch_failure(const struct pmc_engine_opts *o, const struct pmc_launch_error *le);
/* -v: a perf_event_open record as a trace line to the diagnostics sink (a context's observer). */
void pmc_eng_trace_open(const struct pmc_open_record *rec, void *ctx);
/* Batch b's request: the every-batch events it keeps, then its own (reqev[k] = &se->evs[idx[k]]); the count. */
size_t pmc_eng_build_request(const struct pmc_engine *se, size_t b, const struct pmc_event **reqev, size_t *idx);
/* Append a sample (run, batch, count) to e. 0 or -ENOMEM. */
int pmc_eng_push_sample(struct pmc_report_event *e, unsigned run, unsigned batch, const struct pmc_count *c);

/* The request's parsers, for whoever builds a request from text (the command line, the library's API): each gives its
 * message to the diagnostics sink and returns PMC_EXIT_USAGE on bad text, 0 otherwise. */
/* -k NAME: *ret, or the message with a suggestion. */
int pmc_eng_kernel_find(const char *name, const struct pmc_kernel **ret);
/* --param K=V each, over k's defaults, into *kp. */
int pmc_eng_kernel_params(const struct pmc_kernel *k, const char *const *params, size_t n, struct pmc_kernel_params *kp);
/* --metric NAME=FORMULA each into *ret (n definitions, the caller's to free; NULL when n is 0); PMC_EXIT_INTERNAL
 * when out of memory. */
int pmc_eng_metrics_parse(const char *const *args, size_t n, struct pmc_metric_def **ret);
/* Check the CPU can run o->k, and fix the CPU on a hybrid one. 0 or an exit status (message given to the
 * diagnostics sink). */
int pmc_eng_kernel_prepare(struct pmc_engine_opts *o);
struct pmc_keep;
/* One disabled copy of each tracepoint and static-key software event held open for the whole measurement
 * (perf/keep.h), within the descriptors the runs leave: targets tasks or CPUs per event, all batches at once or one.
 * None when the measurement executes once (each event is opened once). The number kept. */
size_t pmc_eng_keep_open(const struct pmc_engine *se, unsigned runs, size_t targets, bool all_at_once,
			 struct pmc_keep *k);
/* What the kernel runner saw (read method, overhead, region TSC cycles, expectations) into the report. */
void pmc_eng_kernel_report(const struct pmc_engine_opts *o, const struct pmc_kernel_info *info, struct pmc_report *rep);
/* After the runs: measured / declared ratios and the declared work's rates (GFLOP/s, GB/s) of a kernel's report. */
void pmc_eng_kernel_metrics(struct pmc_report *rep);

/* The request's metric definitions in evaluation order: metric_defs, then metrics (before anything runs). 0 or an exit
 * status; *ret is freed by the caller. */
int pmc_eng_metrics_join(const struct pmc_engine_opts *o, struct pmc_metric_def **ret);
/* Evaluate the set's metrics (or the defaults) and --metric's into rep (no checks). */
void pmc_eng_metrics_eval(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
		       struct pmc_report *rep);
/* Evaluate the set's metrics (or the defaults) and --metric's, then run the checks. */
void pmc_eng_metrics_apply(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
			struct pmc_report *rep);

/* Before anything runs: every name a --metric formula uses is an event of this measurement (as written or its
 * canonical name), a constant, or a metric of the set or of --metric. 0, or PMC_EXIT_USAGE after the error. */
int pmc_eng_metrics_check(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli);

/* Each metric in each run into rep->metric_runs (the same definitions pmc_eng_metrics_apply evaluated). */
void pmc_eng_metrics_per_run(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
			  struct pmc_report *rep);

/* One execution into the report (engine/runs.c), the same for a command run, a kernel and a scope: its wall time
 * into the mean (summed here), min and max, its user/sys times into the sums (NAN where it has none: attached tasks
 * and CPUs), then its record. 0 or -ENOMEM. */
int pmc_eng_exec_record(struct pmc_report *rep, const struct pmc_report_exec *e);
/* After the runs: the sums become means over the DONE runs that counted, and the report is partial when stopped. */
void pmc_eng_runs_finish(const struct pmc_engine *se, struct pmc_report *rep, unsigned done);
/* A rusage time in seconds. */
static inline double pmc_eng_tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

/* Hybrid CPUs (engine/hybrid.c; each does nothing on other machines). -k: fix the CPU the kernel runs on (the current
 * one unless --cpu), since the events are chosen for its core type. 0 or an exit status (message given to the diagnostics sink). */
int pmc_eng_hybrid_pin(struct pmc_engine_opts *o);
/* The events ev stands for: itself, or its copies per core PMU (-k or a CPU-wide event: only its CPU's core PMU).
 * The number written to out (max >= PMC_MAX_CORE_PMUS), or -errno after the error went to the diagnostics sink. */
int pmc_eng_hybrid_copies(const struct pmc_engine_opts *o, const struct pmc_event *ev, struct pmc_event *out, size_t max);
/* Replace every event of se by its copies. 0 or an exit status. */
int pmc_eng_hybrid_expand(struct pmc_engine *se, const struct pmc_engine_opts *o);
/* After the measurement: the merged rows and a note on the core types. */
void pmc_eng_hybrid_report(const struct pmc_engine_opts *o, struct pmc_report *rep);

/* Non-core PMU families (engine/uncore.c). A spec in perf's family spelling (uncore_imc/cas_count_read/, or a bare
 * alias word of one family) pushed once per box: *done true, 0 or an exit status; *done false: not such a spelling. */
int pmc_eng_uncore_add(struct pmc_engine *se, const char *spec, unsigned flags, bool *done);
/* ev's sysfs .scale/.unit when spec is an alias spelling pmu/alias/ that has them. */
void pmc_eng_uncore_scale(struct pmc_event *ev, const char *spec);
/* Before the statistics: the rows of one name with uncore_box set (a family's boxes; with --no-merge, where the
 * boxes keep their own names, the per-cpumask-CPU copies of one box) summed into the first's, the others removed. */
void pmc_eng_uncore_merge(struct pmc_report *rep);
/* After them: a scaled event's value in its unit (MiB, Joules) and its rate (MiB/s, Watts) as metrics. */
void pmc_eng_uncore_metrics(struct pmc_report *rep);
/* The command as target (no -a, -C, -p, -t, -k): each event of a non-core PMU with a cpumask opened system-wide on
 * every cpumask CPU while the command runs (perf's rule; the copies summed into one row), said on stderr first with
 * the privilege that needs. 0 or an exit status. */
int pmc_eng_uncore_for_command(struct pmc_engine *se, const struct pmc_engine_opts *o);
/* After the measurement: the report's note that such events counted the whole socket. */
void pmc_eng_uncore_note(struct pmc_report *rep);
/* -I, the same sum per interval: false when evs[i] is a box summed into its family's first box's record; for that first box,
 * the other boxes' counts[j] added into *c (counts[i] before); true otherwise. */
bool pmc_eng_uncore_interval(const struct pmc_event *const *evs, size_t n, size_t i, const struct pmc_count *counts,
			     struct pmc_count *c);

/* engine/scope.c: whether any scope or time option was given (then pmc_eng_scope_measure runs instead of pmc_eng_measure). */
bool pmc_eng_scope_wanted(const struct pmc_engine_opts *o);
/* After parsing: the scope options' combinations, and the batch schedule they imply (rotate or multiplex without a
 * command). 0, or an exit status after the error went to the diagnostics sink. */
int pmc_eng_scope_check(struct pmc_engine_opts *o);
/* Before running: -a / -C need CPU-wide counting (perf_event_paranoid < 1 or CAP_PERFMON). 0 or an exit status. */
int pmc_eng_scope_guard(const struct pmc_engine_opts *o);
/* Count as the scope options say, into rep (totals first, then the rows); -I records go to o->intervals as they
 * happen. 0 or an exit status; a partial report is still filled. */
int pmc_eng_scope_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep);
/* Say how more than one batch shares the counters when nothing is rerun (rotate or multiplex). */
void pmc_eng_scope_note_batches(const struct pmc_engine *se, const struct pmc_engine_opts *o);
/* After the metrics of the totals: the same metrics per row (named with the row's label), and the set's checks per
 * row. */
void pmc_eng_scope_row_metrics(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
			    struct pmc_report *rep);

/* perf's spellings (engine/names.c). -e lists, groups {a,b}:mods included, into se: 0 or an exit status (message
 * given). */
int pmc_eng_events_add_lists(struct pmc_engine *se, const struct pmc_engine_opts *o);
/* After the budget is known: a group larger than a batch is an error (exit status, message given), a weak one is
 * ungrouped. */
int pmc_eng_groups_check(struct pmc_engine *se, const struct pmc_engine_opts *o);
/* The same event, opened the same way (type, config, config1, config2, user/kernel filters). */
bool pmc_eng_same_event(const struct pmc_event *a, const struct pmc_event *b);
/* -M's table-metric groups (pmc_engine.mgroup_lo..hi) made one perf group when their distinct events fit one batch's
 * counters together (se->popts known), so no ratio of the table's metrics mixes groups or runs. */
int pmc_eng_metric_groups_merge(struct pmc_engine *se);
/* Whether a table-metric group needs more programmable counters than are left beside anchors costing anchor_gp:
 * the anchors are then left out (a group counted whole over anchors to compare batches by). */
bool pmc_eng_metric_group_crowded(const struct pmc_engine *se, unsigned anchor_gp);
/* After planning: a group that fits a batch alone but not next to the every-batch events (anchors on PMUs without
 * fixed counters) is an error. 0 or PMC_EXIT_USAGE (message given to the diagnostics sink). */
int pmc_eng_groups_check_plan(const struct pmc_engine *se);
/* A set whose variant has no event for this CPU: its notes in the message, PMC_EXIT_USAGE; else 0. */
int pmc_eng_set_check(const struct pmc_engine *se);
/* The notes on names (ignored modifiers, a split weak group, the set's notes, a forced PMU that is not this CPU's):
 * under the plan, and into the report as checks. */
void pmc_eng_names_notes(const struct pmc_engine *se, void (*emit)(void *ctx, bool warn, const char *name,
								  const char *msg), void *ctx);
void pmc_eng_names_report(const struct pmc_engine *se, struct pmc_report *rep);
/* Why exec gave ENOENT for the command prog: not in PATH, no such file, or a file whose #! interpreter or loader is
 * missing (" (...)", a static buffer). */
const char *pmc_eng_enoent_why(const char *prog);

/* Breakpoints (engine/breakpoints.c): where the probe (perf/probe.h) read 0, flag every breakpoint of evs
 * PMC_EVF_BP_NEVER_FIRES (never opened, <not counted>), else clear the flag. Returns how many were flagged. */
struct pmc_bp_probe;
size_t pmc_eng_breakpoints_mark(struct pmc_event *evs, size_t n, const struct pmc_bp_probe *probe);
/* Probe once (per process) when se counts a breakpoint with a counter, and mark them. Before any workload runs. */
void pmc_eng_breakpoints_probe(struct pmc_engine *se);
/* The region counts of flagged breakpoints: not counted (the program's library opened them itself). */
void pmc_eng_breakpoints_regions(struct pmc_report *rep);

/* --regions (engine/regions.c). The planner's budget: each counter is used twice, by the program's threads and by
 * pmctool's whole-program count. */
void pmc_eng_regions_budget(struct pmc_engine *se);
/* Before one execution: the results channel (a memfd) and the environment naming it and the batch's encoded
 * events; req->keep_fd set. 0 or an exit status (message given to the diagnostics sink). */
int pmc_eng_regions_begin(const struct pmc_engine_opts *o, struct pmc_measure_req *req);
/* After a completed execution: the program's results into rep. 0 or an exit status. */
int pmc_eng_regions_collect(struct pmc_report *rep, const struct pmc_measure_req *req, const size_t *idx);
/* Close the channel and clear the environment (any outcome). */
void pmc_eng_regions_end(struct pmc_measure_req *req);

/* --topdown (engine/topdown.c; each does nothing without it). Before the other events: choose the tree and add the
 * inputs of levels 1..LEVEL (level 1 as one group, its leader first). 0 or an exit status (message given). */
int pmc_eng_topdown_prepare(struct pmc_engine *se, const struct pmc_engine_opts *o);
/* After planning: level 1 is one group in one batch, or PMC_EXIT_USAGE (message given). */
int pmc_eng_topdown_plan(const struct pmc_engine *se, const struct pmc_engine_opts *o);
/* After the metrics: the tree from the report's totals into rep->topdown, its checks into the report. 0 or -ENOMEM. */
int pmc_eng_topdown_eval(const struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep);
void pmc_eng_topdown_fini(struct pmc_engine *se);
/* -I: each interval record as it is made (the tree's inputs of the total are kept), then at the interval's end its
 * tree to sink->topdown. Nothing allocated. */
void pmc_eng_topdown_record(const struct pmc_engine *se, const struct pmc_interval_record *r);
void pmc_eng_topdown_interval(const struct pmc_engine *se, const struct pmc_interval_sink *sink, unsigned n,
			      double start_s, double end_s);

/* /proc/sys/kernel/nmi_watchdog is on (engine/metrics.c): it holds a counter. */
bool pmc_eng_nmi_watchdog_on(void);

/* The signal that stopped se's measurement (its context's stop flag), 0 when none did. */
static inline int pmc_eng_stopped(const struct pmc_engine *se)
{
	return se->ctx && se->ctx->stop ? *se->ctx->stop : 0;
}

/* engine/emulate.c: instructions:u counted by valgrind (run/emulate.h). */
/* spec as an emulated event (EVENT@emulated, or any event under --emulate): *ret set and ev filled when it is one;
 * 0, or a usage status after the message (an event that cannot be emulated). */
int pmc_eng_emulated_resolve(bool emulate, const char *spec, struct pmc_event *ev, bool *ret);
bool pmc_eng_emulated(const struct pmc_engine *se);
/* Before the first run: an emulated measurement is of a launched command, alone, with valgrind installed. */
int pmc_eng_emulate_check(const struct pmc_engine *se, const struct pmc_engine_opts *o);
int pmc_eng_emulate_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep);

/* engine/env.c: the report's environment (report/env.h); backend names how it was counted. */
void pmc_eng_environment(struct pmc_report *rep, const char *backend, bool lean);
/* The report's CPU (cpu_pmu, cpu_vendor, cpu_smt; engine/engine.c): lean names the core PMU only where libpfm4 is
 * started already. */
void pmc_eng_record_cpu(struct pmc_report *rep, bool lean);

#endif
