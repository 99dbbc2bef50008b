/* SPDX-License-Identifier: MIT */
/* Internals of stat's scopes (engine/targets.c: who and where is counted, the rows; engine/scope.c: the measurement;
 * the -I records go to the caller's interval sink). */
#ifndef PMC_ENGINE_SCOPE_H
#define PMC_ENGINE_SCOPE_H

#include <stdio.h>

#include "engine/engine.h"
#include "perf/evlist.h"
#include "perf/measure.h"

/* Who is counted and how the counts fold into rows. */
struct scope_targets {
	struct pmc_target *t;       /* ntargets */
	size_t ntargets;
	int *row_of;                /* per target: its row (index in rows), -1 when only in the total */
	struct pmc_row_scope *rows;
	size_t nrows;
	pid_t *watch;               /* attach: the tasks whose end ends the count */
	size_t nwatch;
	char missing[160];          /* attach: PIDs/TIDs named that were gone at the start */
	char duplicate[160];        /* attach: PIDs/TIDs named twice, or already counted (a thread of a process named) */
	bool cpus;                  /* CPU targets (-a, -C) */
	int *cgroup_fds;            /* --for-each-cgroup / -G: each cgroup's directory, open (ncgroups) */
	size_t ncgroups;
};

/* Append id to the comma-separated list (",..." once when it is full, never past len). */
void scope_note_id(char *list, size_t len, long id);

/* --control: open what the request names (engine/control.c). 0, or an exit status after the message. */
int scope_control_open(const struct pmc_control_req *c, int *ctl, int *ack);

/* Build the targets of -p / -t / -a / -C (a command without them: one task target, pid filled at launch). 0 or an
 * exit status after the error went to the diagnostics sink. */
int scope_targets_build(const struct pmc_engine_opts *o, struct scope_targets *st);
/* Events of a PMU with its own cpumask (uncore, RAPL, cstate: one instance per socket), or its own cpus (a hybrid
 * CPU's cpu_core / cpu_atom), count only on the CPUs of
 * that mask: mark the others skipped. */
void scope_targets_mark_cpumask(const struct scope_targets *st, struct pmc_evlist *el);
void scope_targets_fini(struct scope_targets *st);

/* Sum c into *sum (value, enabled, running of OK counts; the status: OK when any counted, else NOT_SUPPORTED with
 * the first errno when any was refused, else NOT_COUNTED). *sum starts zeroed with status NOT_RUN. */
void scope_count_add(struct pmc_count *sum, const struct pmc_count *c);

/* Fold per-target counts (ntargets x n, [t * n + i]) of the counter set sc into the totals (n) and the rows
 * (nrows x n); a (target, event) sc skips is in neither. */
void scope_fold(const struct scope_targets *st, const struct pmc_evlist *sc, size_t n, const struct pmc_count *per,
		struct pmc_count *tot, struct pmc_count *rows);
/* What -p / -t name, in words ("process", "thread"). */
const char *scope_task_word(const struct pmc_engine_opts *o);
/* "1234,5678" (shortened with ",..." when long): the ids a request names, for the report's words. */
void scope_ids_text(const pid_t *ids, size_t n, char *buf, size_t len);
/* Each event's batch in the total and in every row, as the plan has them now (a batch split on the first run). */
void scope_assign_batches(const struct pmc_engine *se, const struct scope_targets *st, struct pmc_report *rep);
/* The report's words for who was counted (target, workload, aggregation, interval). */
void scope_describe_target(const struct pmc_engine_opts *o, const struct scope_targets *st, struct pmc_report *rep);
/* The report's events: the totals (se's order), then each row's copy of every event. 0 or -ENOMEM. */
int scope_alloc_rows(const struct pmc_engine *se, const struct scope_targets *st, struct pmc_report *rep);
/* Rows an event has no count in (an uncore event on the CPUs outside its PMU's cpumask) are left out; with
 * counted_only (--per-thread -a: every task of the system) also those that counted nothing, as perf leaves them. */
void scope_drop_empty_rows(struct pmc_report *rep, size_t n, bool counted_only);

/* --per-thread for a launched command (engine/threads.c): the rows come from the records of exiting tasks. */
struct pmc_eng_threads;
struct pmc_eng_threads *pmc_eng_threads_new(void);
void pmc_eng_threads_free(struct pmc_eng_threads *s);
/* Before the command execs: the buffer on pid, the counting events of target 0 of sc (opened with
 * PMC_EVL_INHERIT_STAT) redirected to it. 0, or an exit status after the message. */
int pmc_eng_threads_begin(struct pmc_eng_threads *s, const struct pmc_evlist *sc, pid_t pid, const char *argv0,
		       bool on_exec);
/* Read what the kernel wrote so far (while the command runs); s is a struct pmc_eng_threads (a session's drain). */
void pmc_eng_threads_drain(void *s);
/* After the last read of a run of a batch: a row per task into rep (rows added as new tasks appear), samples of
 * (run, batch) for the request positions idx. 0 or -ENOMEM. */
int pmc_eng_threads_push(struct pmc_eng_threads *s, const struct pmc_engine *se, struct pmc_report *rep,
		      const size_t *idx, unsigned run, unsigned batch);
/* Close the buffer of this run (before the counters are). */
void pmc_eng_threads_end(struct pmc_eng_threads *s);
/* After every run: how the rows are keyed, and what was lost. */
void pmc_eng_threads_note(const struct pmc_eng_threads *s, struct pmc_report *rep);

#endif
