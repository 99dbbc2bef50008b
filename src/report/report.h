/* SPDX-License-Identifier: MIT */
/* What one measurement produced: the data every output format, metric and check reads. Plain data. */
#ifndef PMC_REPORT_H
#define PMC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perf/perf.h"
#include "report/env.h"
#include "pmu/event.h"
#include "util/path_template.h"

#define PMC_REPORT_MAX_PARTS 4

/* One event's count in one run of one batch. */
struct pmc_sample {
	unsigned run;   /* 0..nruns-1 (-r) */
	unsigned batch; /* 0..nbatches-1 */
	struct pmc_count count;
};

/* The scope of a row (-A, --per-core, --per-die, --per-socket, --per-thread): which CPUs or which thread its counts
 * are from. PMC_ROW_ALL is the total over everything counted. */
enum pmc_row_kind { PMC_ROW_ALL = 0, PMC_ROW_CPU, PMC_ROW_CORE, PMC_ROW_DIE, PMC_ROW_SOCKET, PMC_ROW_THREAD,
		     PMC_ROW_CGROUP, PMC_ROW_NODE, PMC_ROW_CACHE };

struct pmc_row_scope {
	enum pmc_row_kind kind;
	int cpu, core, die, socket; /* those the kind names: CPU all four; CORE core, die, socket; DIE die, socket... */
	int pid, tid;               /* THREAD */
	char comm[20];              /* THREAD: the thread's name when counting started */
	char label[48];             /* "CPU3", "S0-D0-C1", "S0-D0", "S0", "1234 worker", the cgroup; "" for ALL */
	unsigned ncpus;             /* CPU rows aggregated into it (CORE, DIE, SOCKET, NODE) */
};

/* One -I record: an event's count over one interval, for the total or one row. */
struct pmc_interval_record {
	unsigned interval;                /* 1-based */
	double start_s, end_s;            /* since counting started */
	int batch;                        /* --batch=rotate: the batch counted (0-based); -1: counted in every interval */
	const struct pmc_event *ev;
	const struct pmc_row_scope *scope; /* NULL: the total */
	struct pmc_count count;           /* the interval's count: the difference of two reads */
};

/* An event and everything measured for it. */
struct pmc_report_event {
	struct pmc_event ev;
	bool in_every_batch;        /* anchor or free event: counted in each batch */
	int batch;                  /* the one batch it was planned in, or -1 when in_every_batch */
	struct pmc_sample *samples; /* nsamples entries, owned by the report */
	size_t nsamples;
	size_t samples_cap;         /* > 0: samples is a pmc_store array (pmc_report_push_sample); 0: malloc'd */

	/* Summary, filled by pmc_report_summarize(). Statistics are over the scaled values of the OK samples. */
	enum pmc_count_status status; /* OK when at least one sample counted; else the status of the samples */
	int err;                      /* errno when NOT_SUPPORTED */
	char reason[256];             /* why it is not counted / not supported, for a person; "" when OK */
	size_t nok;                   /* samples that counted */
	double mean, median, stddev, min, max;
	double running_pct;           /* lowest running/enabled over the samples, in percent (100 = never multiplexed) */
	double batch_spread_pct;      /* in_every_batch events over >1 batch: (max - min) / mean of per-batch means,
					 percent; negative when not applicable */

	/* Hybrid CPUs (ev.core_pmu != 0): a copy counts only while the workload runs on its core type, so its values
	 * are never scaled (time_running < time_enabled is time spent on the other type, not multiplexing) and
	 * running_pct stays 100; core_share_pct is the lowest running/enabled, the share of time on this core type. */
	double core_share_pct;
	/* A merged row (nparts > 0): the sum of the per-core-PMU copies parts[] (indices in events), one sample per
	 * sample of the first copy, scaled only by the time the workload ran on no counted core type. */
	size_t parts[PMC_REPORT_MAX_PARTS];
	unsigned nparts;
	struct pmc_row_scope scope; /* the row's scope: PMC_ROW_ALL (zeroed) for the totals */
};

#define PMC_METRIC_NAME_MAX 64

struct pmc_metric_value {
	char name[PMC_METRIC_NAME_MAX];
	char unit[16];          /* "", "GHz", "%", "FLOP/s"... */
	char desc[160];
	bool valid;             /* false: value not available, reason says why ("n/a") */
	double value;
	char reason[160];
	char scope[48];         /* the row it was computed for (its label), "" for the totals */
};

enum pmc_check_severity { PMC_CHECK_INFO = 0, PMC_CHECK_WARN, PMC_CHECK_BAD };

struct pmc_check_note {
	char name[48];          /* stable identifier: "multiplexed", "batch-drift", "utilization", ... */
	enum pmc_check_severity severity;
	char msg[1024];         /* a longer message ends in "..." (pmc_report_add_check): never cut without a mark */
};

/* A named constant available to formulas and checks (TSC_HZ, SECONDS, ITERATIONS, EXPECTED_INSTRUCTIONS...). */
struct pmc_named_value {
	char name[48];
	double value;
};

#define PMC_REPORT_MAX_CONSTS 32

/* One execution of the workload: one run (-r) of one batch. Recorded where runs happen (engine/measure.c). */
struct pmc_report_exec {
	unsigned run, batch;
	int exit_status;            /* the command's: exit code, or 128+signal; 0 for a kernel */
	int signal;                 /* the signal that ended it, 0 if none */
	bool interrupted;           /* SIGINT/SIGTERM arrived while it ran: its counts are partial */
	double wall_ns, user_s, sys_s;
	/* -D and --control: how long counting was on (wall_ns when it was on throughout), how long it waited for -D (or
	 * for the first 'enable') before it started, and how long 'disable' held it off after that. */
	double counting_ns, delayed_ns, disabled_ns;
};

/* What a run (all its batches) was, after pmc_report_summarize(). */
enum pmc_run_state {
	PMC_RUN_OK = 0,             /* every batch ran and exited 0 */
	PMC_RUN_FAILED,             /* a batch exited non-zero or died of a signal */
	PMC_RUN_PARTIAL,            /* interrupted, or stopped before all its batches ran */
};

struct pmc_report {
	char workload[512];         /* the command line, or "kernel fma (iters=...)" */
	struct pmc_env env;         /* where it was measured (engine/env.c), "environment" in JSON */
	const char *mode;           /* "single", "rerun" or "multiplex" */
	unsigned nbatches, nruns;
	unsigned nbatches_skipped;  /* batches none of whose own events opened: never run (a run is whole without them) */
	bool partial;               /* interrupted: counts so far only */

	struct pmc_report_event *events;
	size_t nevents;

	struct pmc_metric_value *metrics;
	size_t nmetrics;
	struct pmc_check_note *checks;
	size_t nchecks;

	double wall_ns_mean;        /* wall time of one run of the workload, averaged over runs and batches */
	double wall_ns_min, wall_ns_max;
	char wall_unresolved[160];  /* non-empty: why the wall time is no measurement (SECONDS is then n/a, with this) */
	/* -k: how the kernel's counters were read ("RDPMC (in process)", "read(): why", both; "" for a command), and
	 * whether every opened counter was read in process (pmctool check judges the read paths on these) */
	char read_method[256];
	bool read_in_process;
	double user_s, sys_s;       /* rusage of the workload, per run, averaged; NAN where not measured (-p, -a) */
	/* Counting started late (-D) or was switched off (--control): means over the used executions, from execs; the
	 * time metrics (SECONDS) are over counting_ns_mean then. All 0 when counting was on throughout. */
	double counting_ns_mean, delayed_ns_mean, disabled_ns_mean;
	double tsc_hz;              /* 0 when unknown */
	const char *tsc_source;     /* "cpuid 0x15", "perf mmap page", "/proc/cpuinfo", "calibrated", NULL */

	int exit_status;            /* the first failing run's: exit code, or 128+signal; 0 when none failed */
	int term_signal;            /* the signal that ended that run, 0 if none */

	struct pmc_report_exec *execs; /* every execution, in order (a pmc_store array: execs_cap) */
	size_t nexecs, execs_cap;
	/* Filled by pmc_report_summarize() from execs: the runs the statistics are over ("used") and why the others
	 * are not. Failed runs are kept out while any run succeeded; partial (interrupted) runs while any run
	 * completed. When nothing better exists the statistics are over what there is, and stats_over says so. */
	unsigned runs_ok, runs_failed, runs_partial, runs_used;
	const char *stats_over;     /* "ok runs", "failed runs" (every run failed), "partial runs" (no run completed) */

	struct pmc_named_value consts[PMC_REPORT_MAX_CONSTS];
	size_t nconsts;

	/* What was counted: "command" (the default), "pid", "tid", "system-wide" or "cpus"; target names them
	 * ("pid 1234 (3 threads)", "CPUs 0-3"); aggregation the rows' kind ("none", "cpu", "core", "die", "socket",
	 * "thread"); schedule how batches shared the counters ("single", "rerun", "multiplex", "rotate"); ended_by why
	 * counting stopped ("the command exited", "--timeout"...); intervals the -I records printed. */
	const char *target_kind;
	char target[256];
	const char *aggregation;
	const char *ended_by;
	double interval_ms;         /* -I, 0 when none */
	unsigned intervals;

	unsigned char *run_state;   /* per run: enum pmc_run_state, and bit 0x80 when used; owned, from summarize */
	unsigned nrun_state;

	/* Each metric in each run (for comparisons over per-run samples): metric_runs[m * nruns + r], NAN when n/a;
	 * NULL when not computed. Owned. Only the first nmetric_runs metrics have them (the totals': the metrics of
	 * rows are added after). */
	double *metric_runs;
	size_t nmetric_runs;
	/* Where the report was made (host, pid, MPI / Slurm rank, job), for merging per-rank reports. */
	bool has_origin;
	struct pmc_origin origin;
	struct pmc_report_regions *regions; /* stat --regions (report/regions.h); NULL otherwise. Owned. */
	struct pmc_report_topdown *topdown; /* stat --topdown (report/topdown.h); NULL otherwise. Owned (free()). */
	/* The CPU the counts are from (JSON "cpu", for pmctool report): the libpfm4 core PMU name ("skl"), the vendor
	 * ("" when unknown or the PMU was forced), SMT (1 on, 0 off, -1 unknown). No "cpu" member when both are "". */
	char cpu_pmu[48];
	char cpu_vendor[48];
	int cpu_smt;
};

/* The most samples one measurement may keep: -r x (each batch's events, anchors once per batch), as planned. Every
 * sample is kept (48 bytes: the exact median and the per-run output need each value), so this bounds the memory:
 * about 92 MiB of samples and as much again at most for the executions. stat refuses a larger -r x events. */
#define PMC_REPORT_MAX_SAMPLES 2000000u

/* Append one sample of e (run, batch, count) in storage fork() does not copy (report/store.h); room for the
 * expected number may be made first with pmc_report_reserve_samples. 0 or -ENOMEM. */
int pmc_report_push_sample(struct pmc_report_event *e, unsigned run, unsigned batch, const struct pmc_count *c);
int pmc_report_reserve_samples(struct pmc_report_event *e, size_t n);

/* Hybrid CPUs: after the measurement, add a merged row right after each event's per-core-PMU copies (events named
 * "NAME [pmu]" with ev.core_pmu set): named NAME, summing the copies sample by sample. 0 or -ENOMEM. */
int pmc_report_merge_core_pmus(struct pmc_report *rep);

/* The value of one OK sample of e: scaled to its enabled time, except on a hybrid CPU's core-PMU copy (never scaled:
 * see core_share_pct). */
double pmc_report_sample_value(const struct pmc_report_event *e, const struct pmc_count *c);

/* The core PMU a hybrid copy (ev.core_pmu != 0) counts on: "cpu_atom" from "cycles [cpu_atom]" or
 * "cpu_atom/event=0xc0/". */
void pmc_report_core_pmu_name(const struct pmc_report_event *e, char *buf, size_t len);

/* Fill status, statistics and reasons of every event from its samples, over the runs chosen from execs (all
 * samples when there are no execs). */
void pmc_report_summarize(struct pmc_report *rep);

/* The event whose name (as written) or canonical name matches, case-insensitively; NULL if none. */
const struct pmc_report_event *pmc_report_find_event(const struct pmc_report *rep, const char *name);

/* Set (add or replace) a named constant. 0 or -ENOSPC. */
int pmc_report_set_const(struct pmc_report *rep, const char *name, double value);
/* 0 and *ret, or -ENOENT. */
int pmc_report_get_const(const struct pmc_report *rep, const char *name, double *ret);

/* Append a metric / check note (arrays grow). 0 or -ENOMEM. */
int pmc_report_add_metric(struct pmc_report *rep, const struct pmc_metric_value *m);
int pmc_report_add_check(struct pmc_report *rep, enum pmc_check_severity sev, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The standard error of an event's mean, stddev / sqrt(n): what perf stat -r prints as "+-". 0 when n < 2. */
double pmc_report_sem(const struct pmc_report_event *e);

/* The time the time metrics (SECONDS, CPUs) are over: the time counting was on, which is the wall time unless -D or
 * --control held counting off for part of it. For one execution, and the report's mean over the used ones. */
double pmc_report_exec_counting_ns(const struct pmc_report_exec *x);
double pmc_report_counting_ns(const struct pmc_report *rep);
/* Whether counting started late (-D) or was switched off (--control) in the executions used. */
bool pmc_report_paused(const struct pmc_report *rep);

/* When counting started late or was switched off: one sentence for every format saying for how long and what the
 * time metrics are over, and true; else "" and false. */
bool pmc_report_counting_note(const struct pmc_report *rep, char *buf, size_t len);

/* After pmc_report_summarize: when a run failed or was interrupted, one sentence for every format saying which and
 * what the numbers are over ("1 of 1 run failed (run 1 exited 1): no run succeeded, so the numbers shown are that
 * run's"), and true; else "" and false. */
bool pmc_report_runs_note(const struct pmc_report *rep, char *buf, size_t len);

/* Append an execution. 0 or -ENOMEM. */
int pmc_report_add_exec(struct pmc_report *rep, const struct pmc_report_exec *x);
/* The state of run r (0-based) after pmc_report_summarize(); PMC_RUN_OK when there are no execs. */
enum pmc_run_state pmc_report_run_state(const struct pmc_report *rep, unsigned r);
/* Whether run r's samples are in the statistics. */
bool pmc_report_run_used(const struct pmc_report *rep, unsigned r);

/* The value of event e in run r: the mean of its counted samples' scaled values in that run (over batches, for an
 * event in every batch). 0 and *ret, or -ENODATA when nothing counted in that run. pos NULL: every sample is looked
 * at; else the samples are in run order, the search starts at *pos (at or before run r's first sample) and *pos is
 * left after run r's last, so that runs asked in increasing order take one pass. */
int pmc_report_event_run_value(const struct pmc_report_event *e, unsigned r, size_t *pos, double *ret);

/* Free everything the report owns (events' samples, metrics, checks). Accepts NULL. */
void pmc_report_fini(struct pmc_report *rep);

#endif
