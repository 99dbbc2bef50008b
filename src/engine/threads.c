/* SPDX-License-Identifier: MIT */
/* The engine, --per-thread for a launched command: the rows are the command's tasks (threads and child processes),
 * learnt from the records perf/ring.c reads as they exit. Row k of every run and batch is the k-th task created
 * (the command itself first), since tids differ between runs; its tid and comm are those of the first run that had
 * it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fields.h"
#include "engine/scope.h"
#include "perf/ring.h"
#include "pmu/event.h"

#define RING_PAGES 64 /* 256 KiB of records with 4 KiB pages: thousands of exits between two drains */
#define CREATED_TP "sched:sched_process_fork" /* fired for every thread and process created (kernel_clone) */

struct pmc_eng_threads {
	struct pmc_threads th;
	const struct pmc_evlist *sc;
	bool open;
	struct pmc_row_scope *rows;  /* nrows, keyed by creation order */
	size_t nrows;
	unsigned execs;              /* runs x batches measured */
	unsigned renamed;            /* a row whose task had another name in a later run */
	uint64_t lost, corrupt, unknown, foreign;
	size_t missing;              /* tasks without a final count (still running at the end, or lost) */
	size_t silent;               /* tasks that exited on a kernel that writes no final counts */
	size_t unnamed;              /* tasks known from their final count alone: names guessed (pmc_threads_unnamed) */
	unsigned stalled;            /* runs or batches whose buffer stopped taking records (pmc_threads_stalled) */
	size_t stalled_seen;         /* in those: the most tasks seen without a final count */
	/* The tasks created, counted apart from the buffer (pmc_threads_open_created): what the buffer lost is known */
	int created_state;           /* 0: not tried yet, 1: counted, -1: cannot be (created_why) */
	uint64_t created_id;         /* CREATED_TP's tracepoint id */
	char created_why[600];
	unsigned counted;            /* runs or batches whose tasks created were counted */
	uint64_t created;            /* in those: the most tasks the command had */
	size_t absent;               /* in those: the most tasks without a row (pmc_threads_absent) */
	uint64_t absent_of;          /* the tasks of the run or batch that had the most without a row */
};

struct pmc_eng_threads *pmc_eng_threads_new(void)
{
	return calloc(1, sizeof(struct pmc_eng_threads));
}

void pmc_eng_threads_free(struct pmc_eng_threads *s)
{
	if (!s)
		return;
	pmc_eng_threads_end(s);
	free(s->rows);
	free(s);
}

/* The name the kernel gives a task that execs path: its last component, shortened to 15 bytes. */
static void comm_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	snprintf(buf, len < PMC_THREADS_COMM_LEN ? len : PMC_THREADS_COMM_LEN, "%s", slash ? slash + 1 : path);
}

/* Count the tasks the command creates apart from the buffer; where that cannot be, created_why says why (once). */
static void open_created(struct pmc_eng_threads *s, pid_t pid, bool on_exec)
{
	int r;

	if (!s->created_state) {
		struct pmc_resolve_error err = { 0 };
		struct pmc_event ev;

		if (pmc_event_resolve(CREATED_TP, &ev, &err) < 0) {
			snprintf(s->created_why, sizeof(s->created_why), "%s", err.msg[0] ? err.msg : "no such tracepoint");
			s->created_state = -1;
			return;
		}
		s->created_id = ev.attr.config;
		s->created_state = 1;
	}
	if (s->created_state < 0)
		return;
	r = pmc_threads_open_created(&s->th, pid, s->created_id, on_exec);
	if (r < 0 && !(r == -ESRCH && pmc_launch_ending)) {
		snprintf(s->created_why, sizeof(s->created_why), "the tracepoint " CREATED_TP " could not be opened: %s%s",
			 strerror(-r), r == -EACCES || r == -EPERM ? " (a count in the kernel: kernel.perf_event_paranoid "
								      "1 or less, or CAP_PERFMON)" : "");
		s->created_state = -1;
	}
}

int pmc_eng_threads_begin(struct pmc_eng_threads *s, const struct pmc_evlist *sc, pid_t pid, const char *argv0,
		       bool on_exec)
{
	char comm[PMC_THREADS_COMM_LEN];
	const int *fds;
	int r;

	comm_of(argv0, comm, sizeof(comm));
	if (pmc_threads_init(&s->th, pmc_evlist_nevents(sc), pid, comm) < 0)
		return PMC_EXIT_INTERNAL;
	fds = pmc_evlist_fds(sc, 0); /* target 0: the command */
	r = pmc_threads_open(&s->th, pid, fds, on_exec, RING_PAGES);
	if (r == -ESRCH && pmc_launch_ending) {
		pmc_threads_fini(&s->th);
		return PMC_EXIT_INTERNAL; /* the command died of pmctool's interruption before it was set up: quiet */
	}
	if (r < 0) {
		pmc_diag_error(RQ_AGGR_THREAD ": cannot set up the buffer the kernel writes each thread's "
				"count to: %s%s", strerror(-r),
			r == -EPERM || r == -ENOMEM ? " (the locked-memory limit: raise ulimit -l or "
						      "kernel.perf_event_mlock_kb)" : "");
		pmc_threads_fini(&s->th);
		return PMC_EXIT_NOCOUNT;
	}
	open_created(s, pid, on_exec);
	s->sc = sc;
	s->open = true;
	return 0;
}

void pmc_eng_threads_drain(void *ctx)
{
	struct pmc_eng_threads *s = ctx;

	if (s->open)
		pmc_threads_drain(&s->th);
}

void pmc_eng_threads_end(struct pmc_eng_threads *s)
{
	if (!s->open)
		return;
	pmc_threads_fini(&s->th);
	s->open = false;
	s->sc = NULL;
}

/* Row k exists in the report (its events after the totals' and the rows' before it). 0 or -ENOMEM. */
static int ensure_row(struct pmc_eng_threads *s, const struct pmc_engine *se, struct pmc_report *rep, size_t k,
		      const struct pmc_thread *t)
{
	struct pmc_row_scope *r;
	struct pmc_report_event *e;

	if (k < s->nrows) {
		s->renamed += strcmp(s->rows[k].comm, t->comm) != 0;
		return 0;
	}
	r = realloc(s->rows, (k + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	s->rows = r;
	e = realloc(rep->events, (k + 2) * se->n * sizeof(*e));
	if (!e)
		return -ENOMEM;
	rep->events = e;
	r = &s->rows[k];
	memset(r, 0, sizeof(*r));
	r->kind = PMC_ROW_THREAD;
	r->pid = t->pid;
	r->tid = t->tid;
	snprintf(r->comm, sizeof(r->comm), "%s", t->comm);
	snprintf(r->label, sizeof(r->label), "%s-%d", r->comm, (int)t->tid);
	for (size_t i = 0; i < se->n; i++) {
		struct pmc_report_event *x = &e[(k + 1) * se->n + i];
		memset(x, 0, sizeof(*x));
		x->ev = e[i].ev;
		x->in_every_batch = e[i].in_every_batch;
		x->batch = e[i].batch;
		x->scope = *r;
	}
	rep->nevents = (k + 2) * se->n;
	s->nrows = k + 1;
	return 0;
}

int pmc_eng_threads_push(struct pmc_eng_threads *s, const struct pmc_engine *se, struct pmc_report *rep,
		      const size_t *idx, unsigned run, unsigned batch)
{
	size_t n, ntask;
	struct pmc_count *rows;
	uint64_t created;
	int rc = 0;

	if (!s->open)
		return 0;
	pmc_threads_drain(&s->th);
	n = s->th.nev;
	ntask = s->th.n;
	rows = calloc(ntask * (n ? n : 1), sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	s->missing = PMC_MAX(s->missing, pmc_threads_split(&s->th, pmc_evlist_counts(s->sc), rows));
	s->silent = PMC_MAX(s->silent, pmc_threads_kernel_silent(&s->th));
	s->unnamed = PMC_MAX(s->unnamed, pmc_threads_unnamed(&s->th));
	if (pmc_threads_stalled(&s->th)) {
		size_t seen = 0;

		for (size_t k = 1; k < ntask; k++)
			seen += s->th.t[k].nread == 0;
		s->stalled++;
		s->stalled_seen = PMC_MAX(s->stalled_seen, seen);
	}
	/* A task without its final count has no sample (its count is in the first row): no row says "not counted"
	 * for a reason that is not the counter's */
	for (size_t k = 0; k < ntask && !rc; k++) {
		rc = ensure_row(s, se, rep, k, &s->th.t[k]);
		for (size_t i = 0; i < n && !rc; i++)
			if (pmc_evlist_fds(s->sc, 0)[i] >= 0 && (k == 0 || rows[k * n + i].status == PMC_COUNT_OK))
				rc = pmc_eng_push_sample(&rep->events[(k + 1) * se->n + idx[i]], run, batch, &rows[k * n + i]);
	}
	if (!pmc_threads_created(&s->th, &created)) {
		size_t absent = pmc_threads_absent(&s->th, created);

		if (!s->counted++ || absent > s->absent) {
			s->absent = absent;
			s->absent_of = created;
		}
		s->created = PMC_MAX(s->created, created);
	}
	s->lost += s->th.lost;
	s->corrupt += s->th.corrupt;
	s->unknown += s->th.unknown;
	s->foreign += s->th.foreign;
	if (s->th.nomem)
		rc = -ENOMEM;
	s->execs++;
	free(rows);
	return rc;
}

/* How many rows are missing: "N of the command's M tasks have no row", from the tasks created counted apart, or that
 * it is not known (the per-thread-tasks line says why). Short: a check's message holds 320 bytes. */
static void absent_text(const struct pmc_eng_threads *s, char *buf, size_t len)
{
	if (!s->counted && s->stalled_seen)
		snprintf(buf, len, "at least the %zu task%s seen without a final count (see per-thread-tasks)",
			 s->stalled_seen, s->stalled_seen == 1 ? "" : "s");
	else if (!s->counted)
		snprintf(buf, len, "how many is not known (see per-thread-tasks)");
	else if (s->absent)
		snprintf(buf, len, "%zu of the command's %llu tasks %s no row%s", s->absent, (unsigned long long)s->absent_of,
			 s->absent == 1 ? "has" : "have", s->counted > 1 ? " in the worst run or batch" : "");
	else
		snprintf(buf, len, "none is: each of the command's %llu tasks has its row", (unsigned long long)s->created);
}

void pmc_eng_threads_note(const struct pmc_eng_threads *s, struct pmc_report *rep)
{
	char absent[128];

	if (!s || !s->execs)
		return;
	absent_text(s, absent, sizeof(absent));
	pmc_report_add_check(rep, PMC_CHECK_INFO, "per-thread",
			     "%zu task%s (threads and child processes) in order of creation; the first row is the command "
			     "itself: the total minus what the others counted%s", s->nrows, s->nrows == 1 ? "" : "s",
			     s->execs > 1 ? "; with several runs or batches row k is the k-th task created in each (tids "
					    "differ between runs), named after the first run" : "");
	if (s->counted)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "per-thread-tasks",
				     "the command had %llu task%s%s, counted apart from the kernel's records (" CREATED_TP
				     "): a row missing is always warned about, with the number missing",
				     (unsigned long long)s->created, s->created == 1 ? "" : "s",
				     s->counted > 1 ? " (the most in one run or batch)" : "");
	else
		pmc_report_add_check(rep, PMC_CHECK_INFO, "per-thread-tasks",
				     "the tasks created could not be counted apart, so a row missing without a trace in the "
				     "kernel's records goes unnoticed: %s", s->created_why);
	if (s->renamed)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-order",
				     "%u row%s had a task of another name in a later run or batch: the command creates its "
				     "tasks in varying order, so rows after the first mix tasks", s->renamed,
				     s->renamed == 1 ? "" : "s");
	if (s->lost)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-lost",
				     "rows may be missing (%s): the kernel lost %llu record%s of exiting tasks (the buffer was "
				     "full)%s; their counts are in the first row", absent, (unsigned long long)s->lost,
				     s->lost == 1 ? "" : "s", s->corrupt ? ", and others could not be read" : "");
	else if (s->corrupt)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-lost",
				     "rows may be missing (%s): %llu bytes of exiting tasks' records could not be read (tasks "
				     "exiting at once on several CPUs overwrite each other's); their counts are in the first "
				     "row", absent, (unsigned long long)s->corrupt);
	if (s->unnamed && !s->lost && !s->corrupt)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-names",
				     "%zu task%s came with its final count but without its creation and name records (tasks "
				     "writing to the kernel's shared buffer at once on several CPUs can overwrite each "
				     "other's records): %s the command's name, not %s own; the counts are %s own",
				     s->unnamed, s->unnamed == 1 ? "" : "s", s->unnamed == 1 ? "its row has" : "their rows have",
				     s->unnamed == 1 ? "its" : "their", s->unnamed == 1 ? "its" : "their");
	if (s->silent)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-kernel",
				     "this kernel wrote no final count for the %zu task%s that exited (inherit_stat's "
				     "PERF_RECORD_READ, missing from Linux 5.13 until the fix 'perf/core: Fix missing read "
				     "event generation on task exit', Dec 2025): all counts are in the first row; the total "
				     "is exact. Count a running process with -p PID --per-thread instead", s->silent,
				     s->silent == 1 ? "" : "s");
	else if (s->stalled)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-stalled",
				     "rows are missing (%s): in %u of %u run%s or batches the kernel stopped writing exiting "
				     "tasks' records part way, with nothing reported lost; their counts are in the first row, "
				     "the total is exact. taskset -c N avoids it", absent, s->stalled, s->execs,
				     s->execs == 1 ? "" : "s");
	else if (s->missing)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-running",
				     "%zu task%s had no final count (still running when the command ended, or its record "
				     "lost): %s in the first row", s->missing, s->missing == 1 ? "" : "s",
				     s->missing == 1 ? "its count is" : "their counts are");
	if (s->absent && !s->lost && !s->corrupt && !s->silent && !s->stalled)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "per-thread-missing",
				     "rows are missing (%s) with nothing reported lost: tasks exiting at once on several CPUs "
				     "can overwrite each other's records in their shared buffer; their counts are in the first "
				     "row, the total is exact. taskset -c N avoids it", absent);
}
