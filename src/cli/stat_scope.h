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

/* Build the targets of -p / -t / -a / -C (a command without them: one task target, pid filled at launch). 0 or an
 * exit status after the error was printed. */
int scope_targets_build(const struct stat_opts *o, struct scope_targets *st);
/* Events of a PMU with its own cpumask (uncore, RAPL, cstate: one instance per socket) count only on the CPUs of
 * that mask: mark the others skipped. */
void scope_targets_mark_cpumask(const struct scope_targets *st, struct pmc_scope *s);
void scope_targets_fini(struct scope_targets *st);

/* Sum c into *sum (value, enabled, running of OK counts; the status: OK when any counted, else NOT_SUPPORTED with
 * the first errno when any was refused, else NOT_COUNTED). *sum starts zeroed with status NOT_RUN. */
void scope_count_add(struct pmc_count *sum, const struct pmc_count *c);

#endif
