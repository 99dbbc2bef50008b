/* SPDX-License-Identifier: MIT */
/* Internals of stat's scopes (stat_targets.c: who and where is counted, the rows; stat_scope.c: the measurement;
 * output/interval.c: the -I records). */
#ifndef PMC_CLI_STAT_SCOPE_H
#define PMC_CLI_STAT_SCOPE_H

#include <stdio.h>

#include "cli/stat.h"
#include "run/scope.h"

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
	bool cpus;                  /* CPU targets (-a, -C) */
};

/* The user's lists, parsed (pure: no system state): -p / -t "1234,5678" (each id > 0), -C "0,2-3" (ranges
 * ascending, each CPU passed to cb in order). 0, -EINVAL when malformed, or cb's first non-zero return. */
int scope_parse_id_list(const char *list, int (*cb)(long id, void *ctx), void *ctx);
int scope_parse_cpu_list(const char *list, int (*cb)(long cpu, void *ctx), void *ctx);
/* --control "fifo:CTL[,ACK]" or "fd:CTL[,ACK]": the paths (or descriptor numbers as text) into ctl and ack ("" when
 * none); *is_fd says which form. 0 or -EINVAL. */
int scope_parse_control(const char *spec, char *ctl, size_t ctl_len, char *ack, size_t ack_len, bool *is_fd);
/* --control: open what the spec names (stat_control.c). 0, or an exit status after the message. */
int scope_control_open(const char *spec, int *ctl, int *ack);

/* Build the targets of -p / -t / -a / -C (a command without them: one task target, pid filled at launch). 0 or an
 * exit status after the error was printed. */
int scope_targets_build(const struct stat_opts *o, struct scope_targets *st);
/* Events of a PMU with its own cpumask (uncore, RAPL, cstate: one instance per socket), or its own cpus (a hybrid
 * CPU's cpu_core / cpu_atom), count only on the CPUs of
 * that mask: mark the others skipped. */
void scope_targets_mark_cpumask(const struct scope_targets *st, struct pmc_scope *s);
void scope_targets_fini(struct scope_targets *st);

/* Sum c into *sum (value, enabled, running of OK counts; the status: OK when any counted, else NOT_SUPPORTED with
 * the first errno when any was refused, else NOT_COUNTED). *sum starts zeroed with status NOT_RUN. */
void scope_count_add(struct pmc_count *sum, const struct pmc_count *c);

/* --per-thread for a launched command (stat_threads.c): the rows come from the records of exiting tasks. */
struct stat_threads;
struct stat_threads *stat_threads_new(void);
void stat_threads_free(struct stat_threads *s);
/* Before the command execs: the buffer on pid, the counting events of target 0 of sc (opened with
 * PMC_SCOPE_INHERIT_STAT) redirected to it. 0, or an exit status after the message. */
int stat_threads_begin(struct stat_threads *s, const struct pmc_scope *sc, pid_t pid, const char *argv0,
		       bool on_exec);
/* Read what the kernel wrote so far (while the command runs); s is a struct stat_threads (a session's drain). */
void stat_threads_drain(void *s);
/* After the last read of a run of a batch: a row per task into rep (rows added as new tasks appear), samples of
 * (run, batch) for the request positions idx. 0 or -ENOMEM. */
int stat_threads_push(struct stat_threads *s, const struct stat_events *se, struct pmc_report *rep,
		      const size_t *idx, unsigned run, unsigned batch);
/* Close the buffer of this run (before the counters are). */
void stat_threads_end(struct stat_threads *s);
/* After every run: how the rows are keyed, and what was lost. */
void stat_threads_note(const struct stat_threads *s, struct pmc_report *rep);

#endif
