/* SPDX-License-Identifier: MIT */
/*
 * pmctool's measurement engine from a program: what `pmctool stat` measures, as a request and a typed result.
 * Link with $(pkg-config --cflags --libs pmctool-engine). Example: examples/two_measurements.c.
 *
 *   struct pmctool_engine *e = pmctool_engine_new();
 *   const char *cmd[] = { "./prog", "arg", NULL };
 *   struct pmctool_request rq = { .argv = cmd, .events = "instructions:u,task-clock", .runs = 5 };
 *   struct pmctool_result *r; struct pmctool_error err;
 *   if (pmctool_measure(e, &rq, &r, &err) != 0) ... err.kind, err.subject, err.detail;
 *
 * Each measurement stands alone: two requests in one process share nothing but libpfm4's tables. Nothing is faked:
 * an event this machine cannot count is a count whose status says so, with the reason. Measuring a command forks
 * it and waits for it; the caller's signal handler may call pmctool_engine_stop (async-signal-safe).
 */
#ifndef PMCTOOL_ENGINE_H
#define PMCTOOL_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pmctool_error_kind {
	PMCTOOL_OK = 0,
	PMCTOOL_ERR_REQUEST, /* a field of the request is wrong (an unknown event, a bad formula): nothing ran */
	PMCTOOL_ERR_LAUNCH,  /* the command was not found or could not be executed */
	PMCTOOL_ERR_NOCOUNT, /* nothing could be counted at all (no event opened): the result says why per event */
	PMCTOOL_ERR_STOPPED, /* pmctool_engine_stop: the result holds what was counted until then */
	PMCTOOL_ERR_COMMAND, /* the command failed (its status is the result's exit_status); its counts stand */
	PMCTOOL_ERR_SYSTEM,  /* out of memory, or a system error pmctool could not work around */
};

struct pmctool_error {
	enum pmctool_error_kind kind;
	char subject[32];  /* the request field it is about ("events", "metrics", "argv", "kernel"), or "" */
	char detail[512];  /* what is wrong and what to do; a request field in its own word ("metrics", not --metric) */
	int exit_status;   /* the status `pmctool stat` exits with for the same request (pmctool(1)) */
};

enum pmctool_batching { PMCTOOL_BATCH_AUTO = 0, PMCTOOL_BATCH_RERUN, PMCTOOL_BATCH_MULTIPLEX };

struct pmctool_interval;

/* What to measure. Zero is every field's default; each field is the `pmctool stat` option named beside it, with the
 * same meaning and the same checks (a wrong field is kind REQUEST, subject the field's name). */
struct pmctool_request {
	const char *const *argv;     /* the command, NULL-terminated; NULL with kernel, or with targets alone */
	const char *kernel;          /* a built-in kernel (`-k`; pmctool kernels), run in this process; NULL with argv */
	uint64_t iters;              /* the kernel's iterations (`--iters`); 0: its default */
	const char *events;          /* what `stat -e` takes (comma-separated); NULL: the default set */
	const char *eventset;        /* a named set (`stat -g`; pmctool sets), instead of events */
	const char *const *metrics;  /* "NAME=FORMULA" each (`stat --metric`), NULL-terminated; NULL: none */
	unsigned runs;               /* `-r`; 0: one */
	enum pmctool_batching batching; /* `--batch` */
	const char *const *params;   /* the kernel's "NAME=VALUE" each (`--param`), NULL-terminated; NULL: its defaults */
	/* Targets: who is counted instead of argv (or, for CPUs, while argv runs); at most one kind. */
	const int *pids;             /* running processes, their threads and what they start (`-p`), npids of them */
	size_t npids;
	const int *tids;             /* running threads (`-t`) */
	size_t ntids;
	const int *cpus;             /* everything on these CPUs (`-C`); CPUs need CAP_PERFMON or perf_event_paranoid <= 0 */
	size_t ncpus;
	int system_wide;             /* everything on every online CPU (`-a`) */
	uint64_t timeout_ms;         /* stop counting after this long (`--timeout`; argv is then sent SIGTERM); 0: until
				        argv ends, the tasks attached end, or pmctool_engine_stop */
	uint64_t interval_ms;        /* `-I`, 10 ms or more: on_interval gets each interval's counts as it ends */
	void (*on_interval)(void *ctx, const struct pmctool_interval *iv);
	void *interval_ctx;
	int regions;                 /* `--regions`: argv's libpmctool regions (pmctool-regions(7)) are counted too; the
				        result's JSON (pmctool_result_json) holds them under "regions" */
	int64_t delay_ms;            /* `-D`: counting starts this long after argv starts; -1: at 'enable' on control */
	const int *control;          /* `--control fd:CTL,ACK`: {CTL, ACK} descriptors the caller holds open (ACK -1:
				        none); commands 'enable', 'disable', 'stop', 'ping' read from CTL, 'ack' written */
};

enum pmctool_count_status { PMCTOOL_COUNTED = 0, PMCTOOL_NOT_COUNTED, PMCTOOL_NOT_SUPPORTED, PMCTOOL_NOT_RUN };

struct pmctool_count {
	const char *event;                /* as the request named it */
	enum pmctool_count_status status;
	double value;                     /* mean over the runs (scaled where multiplexed); 0 unless COUNTED */
	double running;                   /* the lowest share of its time the event was on a counter, 0..1 */
	const char *unit;                 /* "ns" for the clocks (task-clock), the PMU's (sysfs .unit: "Joules", "MiB"),
	                                     "" for plain counts */
	const char *reason;               /* why it is not counted, "" when it is */
};

/* One interval of a request with interval_ms (each a count since the last, of the events counted in it). */
struct pmctool_interval {
	unsigned index;                   /* 1, 2, ... */
	double start_s, end_s;            /* since counting started */
	size_t ncounts;
	const struct pmctool_count *counts; /* valid during the call only; value scaled where multiplexed */
};

struct pmctool_metric {
	const char *name, *unit, *reason; /* reason: why there is no value (n/a), or which events it read */
	int valid;
	double value;
};

struct pmctool_check {
	const char *name;                 /* stable: "multiplexed", "no-hardware-pmu", ... (pmctool-checks(7)) */
	int severity;                     /* 0 info, 1 warning, 2 bad */
	const char *message;
};

/* A region of the command's (a request with regions), as `stat --regions` reports it merged over its threads. */
struct pmctool_region {
	const char *name;
	double calls;                     /* per execution, mean */
	const double *values;             /* per count of the result, in its order: the count inside the region per
					     execution (mean), NAN where it was not measured */
};

struct pmctool_result {
	size_t ncounts, nmetrics, nchecks;
	const struct pmctool_count *counts;
	const struct pmctool_metric *metrics;
	const struct pmctool_check *checks;
	unsigned runs;                    /* runs completed (fewer when stopped) */
	double seconds;                   /* wall time of one run, mean */
	int exit_status;                  /* the command's first failing status (128 + signal), 0 */
	size_t nregions;                  /* with the request's regions: the regions the command entered; else 0 */
	const struct pmctool_region *regions;
};

/* A built-in kernel (`pmctool kernels`): what a request's kernel field names. */
struct pmctool_kernel_info {
	const char *name, *desc;
	int runs_here;                    /* 1 when this CPU has the instructions it needs */
	int exact;                        /* 1 for an assembly kernel: its instruction and branch counts are exact */
};
/* The i-th built-in kernel: 0 and *ret, or -1 past the end. */
int pmctool_kernel_at(size_t i, struct pmctool_kernel_info *ret);

struct pmctool_engine *pmctool_engine_new(void);
void pmctool_engine_free(struct pmctool_engine *e);
/* 0 and *ret (free with pmctool_result_free), or the error's kind with err filled; with PMCTOOL_ERR_STOPPED,
 * _COMMAND and _NOCOUNT *ret is set too (what was measured). */
int pmctool_measure(struct pmctool_engine *e, const struct pmctool_request *rq, struct pmctool_result **ret,
		    struct pmctool_error *err);
/* Stop the measurement running in e (from a signal handler too): the result is partial, kind STOPPED. */
void pmctool_engine_stop(struct pmctool_engine *e, int sig);
/* The document `pmctool stat --json` writes for the same measurement (free() it). 0 or -errno. */
int pmctool_result_json(const struct pmctool_result *r, char **ret, size_t *ret_len);
void pmctool_result_free(struct pmctool_result *r);
const char *pmctool_version(void);

/* ---- A saved report evaluated again (`pmctool report`): its metrics, checks and top-down tree from its counts ---- */
struct pmctool_report_request {
	const char *json;                 /* a saved `pmctool stat --json` document (schema 1), or one written by hand */
	size_t json_len;                  /* its length; 0: up to its NUL */
	const char *topdown_def;          /* the top-down tree (pmctool-topdown(7)); NULL: the report's, else its CPU's */
	int topdown_level;                /* levels 1..N; 0: the report's, else the deepest whose inputs it has */
	int topdown;                      /* 1: no tree for the report is an error (kind REQUEST, subject topdown_def) */
	const char *const *metrics;       /* "NAME=FORMULA" each, evaluated after the defaults, NULL-terminated; NULL */
	const char *tables;               /* vendor tables (a directory) for its table metrics; NULL: the report's */
};

struct pmctool_topdown_node {
	const char *name, *parent;        /* parent NULL at level 1 */
	int level;
	int valid;                        /* 0: n/a, reason says which input is missing and why */
	double value;                     /* share of the tree's unit, 0..1 */
	int bottleneck;                   /* above the node's threshold */
	const char *reason;
};

struct pmctool_report {
	const struct pmctool_result *result; /* the report's counts, its metrics evaluated again, the checks (freed with
	                                        the report; pmctool_result_json writes `pmctool report --json`) */
	const char *tree;                 /* the tree evaluated, NULL when none applies */
	const char *tree_why;             /* why this tree */
	const char *unit;                 /* "slots", or "cycles" */
	int level;
	size_t nnodes;                    /* levels 1..level, parents before children */
	const struct pmctool_topdown_node *nodes;
};

/* 0 and *ret (free with pmctool_report_free), or the error's kind with err filled (REQUEST: a malformed document,
 * a bad formula, an unknown tree or level; SYSTEM). The tree's inputs are found by their encoding for the report's
 * CPU, which may start libpfm4 forced to that CPU (LIBPFM_FORCE_PMU is set when no one started it before). */
int pmctool_report_eval(struct pmctool_engine *e, const struct pmctool_report_request *rq,
			struct pmctool_report **ret, struct pmctool_error *err);
void pmctool_report_free(struct pmctool_report *r);

/* Live counting (what `pmctool serve` exports): counters opened on CPUs or on running processes and left counting
 * until pmctool_live_close. A snapshot reads them at the call, one read() per open counter and nothing else (no
 * thread, no timer; a read never stops or resets the counting), and returns the counts since the open as a result of
 * one run: the values are cumulative, scaled where the kernel multiplexed them (running says how much). */
struct pmctool_live_request {
	const char *events;          /* as pmctool_request's (NULL: the default set) */
	const char *eventset;        /* or a named set */
	const char *const *metrics;  /* "NAME=FORMULA" each, NULL-terminated; NULL: none */
	const int *cpus;             /* count on these CPUs (ncpus); neither cpus nor pids: every online CPU, which needs */
	size_t ncpus;                /* CAP_PERFMON or kernel.perf_event_paranoid <= 0 */
	const int *pids;             /* or count these processes (all their threads, and those they start) */
	size_t npids;
};
struct pmctool_live;
/* 0 and *ret (close with pmctool_live_close), or the error's kind with err filled (nothing left open). The engine
 * e outlives it; one live set per engine at a time. */
int pmctool_live_open(struct pmctool_engine *e, const struct pmctool_live_request *rq, struct pmctool_live **ret,
		      struct pmctool_error *err);
/* The counts since the open, read now: 0 and *ret (pmctool_result_free), or the error's kind with err filled. */
int pmctool_live_snapshot(struct pmctool_live *l, struct pmctool_result **ret, struct pmctool_error *err);
/* Close every counter and free l (NULL accepted). */
void pmctool_live_close(struct pmctool_live *l);

/* ---- compare: `pmctool compare` on two results (issue 37) ---- */
/* Two stat documents compared as `pmctool compare A B` does: each event, metric and the wall time, B against A, with
 * the same test and the same verdicts. The documents are what pmctool_result_json and `pmctool stat --json` write. */
enum pmctool_verdict {
	PMCTOOL_SIGNIFICANT = 0,   /* "significant": the test says the change is not noise (p < alpha) */
	PMCTOOL_NOT_SIGNIFICANT,   /* "not significant" */
	PMCTOOL_NO_DIFFERENCE,     /* "no difference": the same values */
	PMCTOOL_NOT_ENOUGH_RUNS,   /* "not enough runs" for the test (Welch: 2 a side, Mann-Whitney: 4) */
	PMCTOOL_NOT_MEASURED,      /* "not measured" in A or in B (note says which and why) */
};

struct pmctool_compare_options {
	const char *test;              /* "welch" (NULL: the default) or "mann-whitney", as `compare --test` */
	double alpha;                  /* 0: 0.05, as `compare --alpha` */
	const char *const *fail_if;    /* `compare --fail-if` conditions ("instructions:u>+1%"), NULL-terminated; or NULL */
};

struct pmctool_compare_row {
	const char *name, *unit;
	const char *kind;              /* "event", "metric", "time", "declared" */
	int measured_a, measured_b;
	double a, b, sd_a, sd_b;       /* means and standard deviations over the runs (sd NAN with one run) */
	size_t runs_a, runs_b;
	double diff, ratio;            /* b - a and b / a (NAN when a is 0 or a side was not measured) */
	double p;                      /* the test's two-sided p-value; NAN when not tested */
	enum pmctool_verdict verdict;
	const char *verdict_word;      /* `pmctool compare`'s word for it */
	const char *note;              /* why not tested or not measured, "" otherwise */
};

struct pmctool_compare_cond {
	const char *text;              /* as given */
	int holds;                     /* 1 it holds (compare exits 1), 0 it does not, -1 it cannot be judged (exit 3) */
	const char *why;               /* what was judged, or why it cannot be */
};

struct pmctool_comparison {
	size_t nrows, nconds;
	const struct pmctool_compare_row *rows;
	const struct pmctool_compare_cond *conds;
	const char *test;              /* "welch-t" or "mann-whitney-u" */
	double alpha;
	int env_same;                  /* 1 same environment, 0 different (env_diff says how), -1 unknown */
	const char *env_diff;
	int exit_status;               /* what `pmctool compare` exits with: 1 a condition holds, 3 one cannot be judged */
};

/* 0 and *ret (free with pmctool_comparison_free), or the error's kind with err filled: PMCTOOL_ERR_REQUEST for a
 * document that is not a stat report (subject "a" or "b") or a bad option ("test", "alpha", "fail_if"). */
int pmctool_compare(const char *a_json, const char *b_json, const struct pmctool_compare_options *opt,
		    struct pmctool_comparison **ret, struct pmctool_error *err);
void pmctool_comparison_free(struct pmctool_comparison *c);
/* ---- end compare ---- */

/* ---- trust check: `pmctool check` (issue 37) ---- */
/* Can counts be trusted on this machine, now? The loop kernel, whose retired instructions and branches are known
 * exactly, measured on every core type and through both read paths, then the fixed counters, a multiplexed run, the
 * counter width and the NMI watchdog (pmctool-check(1)); each item judged. Takes a few seconds; quick: only the
 * probe, the exact counts and the read paths. The items that time a launched loop count it in a forked child of this
 * process (no exec; reaped before the call returns); the uncore and energy items are informational, as the
 * command's. */
enum pmctool_trust_verdict { PMCTOOL_TRUSTWORTHY = 0, PMCTOOL_DEGRADED, PMCTOOL_UNAVAILABLE };

struct pmctool_trust_item {
	const char *name;                 /* stable: "pmu", "exact:cpu", "read-paths", ... */
	const char *title;
	enum pmctool_trust_verdict verdict;
	const char *verdict_word;         /* "trustworthy", "degraded", "unavailable" */
	const char *detail;               /* what was measured; why degraded or unavailable */
};

struct pmctool_trust {
	size_t nitems;
	const struct pmctool_trust_item *items;
	enum pmctool_trust_verdict overall;
	const char *overall_word;
	const char *summary;
	int exit_status;                  /* what `pmctool check` exits with: 0, 10 degraded, 11 unavailable */
};

/* 0 and *ret (free with pmctool_trust_free); measures in this process (and in pmctool children, see above). */
int pmctool_check(int quick, struct pmctool_trust **ret, struct pmctool_error *err);
void pmctool_trust_free(struct pmctool_trust *t);
/* ---- end trust check ---- */

#ifdef __cplusplus
}
#endif
#endif
