/* SPDX-License-Identifier: MIT */
/* The engine: a scoped measurement: attach (-p, -t), system-wide (-a, -C), rows (-A, --per-core, --per-die,
 * --per-socket, --per-thread), intervals (-I), -D and --control. Targets and rows come from engine/targets.c, the
 * counters from perf/evlist.c, the wait from run/session.c; the -I records go to the caller's interval sink. */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/exec.h"
#include "engine/fields.h"
#include "engine/scope.h"
#include "info/privilege.h"
#include "perf/keep.h"
#include "run/launch.h"
#include "run/session.h"

/* One batch run of a scoped measurement. */
struct scope_run {
	struct pmc_engine *se;        /* its plan is split when the kernel refuses a batch's group (loop.c's regroup) */
	const struct pmc_engine_opts *o;
	struct pmc_report *rep;
	struct scope_targets *st;
	struct pmc_evlist *sc;        /* the counters of this run */
	struct pmc_measure_req req;
	struct pmc_eng_step *step; /* the loop's request, and the group's fate */
	size_t *idx;               /* request position -> event index in se */
	unsigned run, batch;       /* the sample's run and batch */
	bool rotate;
	size_t cur;                /* rotate: the batch counting now */
	bool *active;              /* rotate: request positions counting now */
	struct pmc_count *prev;    /* ntargets x n: the last interval's read */
	struct pmc_count *acc;     /* rotate: per (target, event) what its intervals counted */
	uint64_t t_start, last_ns; /* counting started; the last tick */
	bool enabled, ever;        /* the counters run now; they ran at some point */
	uint64_t on_since, on_ns;  /* -D, --control: when counting last started, how long it has been on before that */
	uint64_t first_on;         /* when counting first started (0: never) */
	struct pmc_eng_threads *thr;  /* --per-thread of a launched command, else NULL */
	int ctl, ack;              /* --control's descriptors, -1 when none */
	int err;
};

bool pmc_eng_scope_wanted(const struct pmc_engine_opts *o)
{
	return pmc_target_req_tasks(&o->targets) || pmc_target_req_cpus(&o->targets) || o->targets.ncgroups ||
	       o->aggr != PMC_AGGR_GLOBAL ||
	       o->interval_ms || o->timeout_ms || o->delay_ms || o->control.given;
}

static int refuse(const char *msg)
{
	pmc_diag_error("%s", msg);
	return PMC_EXIT_USAGE;
}

int pmc_eng_scope_check(struct pmc_engine_opts *o)
{
	bool attach = pmc_target_req_tasks(&o->targets), cpus = pmc_target_req_cpus(&o->targets);

	if (!pmc_eng_scope_wanted(o))
		return o->batch == PMC_BATCH_ROTATE ? refuse(RQ_BATCHING "=rotate rotates the batches across "
							     "intervals: it needs " RQ_INTERVAL_MS " MS") : 0;
	if (o->fork_fn) /* the engine's own callers only (engine/check_req.c) */
		return refuse("internal: a forked function is measured as a plain command, without scopes or times");
	if (o->k || o->kernel_named)
		return refuse(RQ_KERNEL " runs a kernel inside pmctool: " RQ_PIDS ", " RQ_TIDS ", " RQ_SYSTEM_WIDE ", "
			      RQ_CPUS ", " RQ_AGGR_CPU ", " RQ_AGGR ", " RQ_INTERVAL_MS ", " RQ_DELAY_MS ", "
			      RQ_TIMEOUT_MS " and " RQ_CONTROL " are for commands and running processes");
	if (o->targets.npids && o->targets.ntids)
		return refuse(RQ_PIDS " and " RQ_TIDS " both name what to attach to: give one");
	if (attach && cpus)
		return refuse(RQ_PIDS "/" RQ_TIDS " count tasks and " RQ_SYSTEM_WIDE "/" RQ_CPUS " count CPUs: give "
			      "one");
	if (!attach && !cpus && !o->argv && !o->plan_only)
		return refuse("no command to measure: give a COMMAND, " RQ_PIDS " PID, " RQ_TIDS " TID, " RQ_SYSTEM_WIDE
			      " or " RQ_CPUS " LIST");
	if (o->aggr == PMC_AGGR_THREAD && cpus)
		return refuse(RQ_AGGR_THREAD " splits the counts of tasks: give a command, " RQ_PIDS ", " RQ_TIDS " or "
			      RQ_SYSTEM_WIDE " (every task), not " RQ_CPUS);
	if (o->aggr == PMC_AGGR_THREAD && o->argv && !attach && o->interval_ms)
		return refuse(RQ_AGGR_THREAD " splits a launched command's counts as its threads exit, so it has no "
			      "rows per interval: use " RQ_INTERVAL_MS " without " RQ_AGGR_THREAD ", or " RQ_PIDS " "
			      "PID "
			      RQ_AGGR_THREAD " " RQ_INTERVAL_MS);
	if (o->targets.ncgroups && !cpus)
		return refuse(RQ_CGROUPS " and " RQ_CGROUPS_EACH " count the tasks of a cgroup on CPUs, as perf: give "
			      RQ_SYSTEM_WIDE " (or " RQ_CPUS " LIST)");
	if (o->targets.ncgroups && o->aggr != PMC_AGGR_GLOBAL)
		return refuse(RQ_CGROUPS " and " RQ_CGROUPS_EACH " give a row per cgroup: not with " RQ_AGGR_CPU ", "
			      RQ_AGGR_CORE ", " RQ_AGGR_DIE ", " RQ_AGGR_SOCKET " or " RQ_AGGR_THREAD);
	if (o->aggr != PMC_AGGR_GLOBAL && o->aggr != PMC_AGGR_THREAD && !cpus)
		return refuse(RQ_AGGR_CPU ", " RQ_AGGR_CORE ", " RQ_AGGR_DIE ", " RQ_AGGR_SOCKET ", " RQ_AGGR_NODE " "
			      "and " RQ_AGGR_CACHE " split CPU-wide counts: they need " RQ_SYSTEM_WIDE " or " RQ_CPUS);
	if (o->interval_count && !o->interval_ms)
		return refuse(RQ_INTERVAL_COUNT " needs " RQ_INTERVAL_MS " MS");
	if (o->delay_ms < 0 && !o->control.given)
		return refuse(RQ_DELAY_MS " -1 starts with the counters stopped until 'enable' arrives on " RQ_CONTROL
			      ": give " RQ_CONTROL);
	if (o->runs > 1 && !o->argv)
		return refuse(RQ_RUNS " repeats a command: without one (" RQ_PIDS ", " RQ_TIDS ", " RQ_SYSTEM_WIDE " "
			      "or " RQ_CPUS " alone) there is nothing to repeat");
	if (o->batch == PMC_BATCH_ROTATE && !o->interval_ms)
		return refuse(RQ_BATCHING "=rotate rotates the batches across intervals: it needs " RQ_INTERVAL_MS " "
			      "MS");
	if (o->batch == PMC_BATCH_RERUN && !o->argv)
		return refuse(RQ_BATCHING "=rerun runs the command once per batch: without a command use " RQ_BATCHING
			      "=multiplex, or " RQ_BATCHING "=rotate with " RQ_INTERVAL_MS);
	/* Without a command nothing can be rerun: the batches share the counters over time, in user space across
	 * intervals (rotate, each interval names its batch) or in the kernel (multiplex, scaled, running % shown). */
	if (o->batch == PMC_BATCH_AUTO && (!o->argv || o->interval_ms))
		o->batch = o->interval_ms ? PMC_BATCH_ROTATE : PMC_BATCH_MULTIPLEX;
	return 0;
}

int pmc_eng_scope_guard(const struct pmc_engine_opts *o)
{
	struct pmc_privilege p;

	if (!pmc_target_req_cpus(&o->targets))
		return 0;
	pmc_privilege_read(&p);
	if (p.cap_perfmon || p.cap_sys_admin || (p.paranoid != INT_MIN && p.paranoid < 1))
		return 0;
	pmc_diag_error("%s counts CPU-wide, which needs kernel.perf_event_paranoid <= 0 (it is %d) or "
			"CAP_PERFMON: run as root, give the program CAP_PERFMON (setcap cap_perfmon+ep), or ask the "
			"administrator for 'sysctl kernel.perf_event_paranoid=0'; without them count a command or "
			RQ_PIDS " PID",
		o->targets.system_wide ? RQ_SYSTEM_WIDE : RQ_CPUS, p.paranoid);
	return PMC_EXIT_NOCOUNT;
}

/* The report's event for row r (-1: the total) of event index i. */
static struct pmc_report_event *rep_event(struct scope_run *x, int r, size_t i)
{
	return &x->rep->events[(size_t)(r + 1) * x->se->n + i];
}

void scope_fold(const struct scope_targets *st, const struct pmc_evlist *sc, size_t n, const struct pmc_count *per,
		struct pmc_count *tot, struct pmc_count *rows)
{
	for (size_t i = 0; i < n; i++)
		tot[i] = (struct pmc_count){ .status = PMC_COUNT_NOT_RUN };
	for (size_t k = 0; k < st->nrows * n; k++)
		rows[k] = (struct pmc_count){ .status = PMC_COUNT_NOT_RUN };
	for (size_t t = 0; t < st->ntargets; t++)
		for (size_t i = 0; i < n; i++) {
			const struct pmc_count *c = &per[t * n + i];
			if (pmc_evlist_skipped(sc, t, i))
				continue;
			scope_count_add(&tot[i], c);
			if (st->row_of[t] >= 0)
				scope_count_add(&rows[(size_t)st->row_of[t] * n + i], c);
		}
}

static void fold(struct scope_run *x, const struct pmc_count *per, struct pmc_count *tot, struct pmc_count *rows)
{
	scope_fold(x->st, x->sc, x->req.n, per, tot, rows);
}

static bool counts_in(const struct scope_run *x, size_t pos)
{
	return !x->rotate || !x->active || x->active[pos];
}

/* Whether position i is a breakpoint that takes turns (opened on its batch's turn only). */
static bool deferred(const struct scope_run *x, size_t i)
{
	return x->rotate && x->req.events[i]->cls == PMC_CLASS_BREAKPOINT && !x->se->plan.in_every[x->idx[i]];
}

/* rotate: the batch x->cur takes the counters (x->active says which positions count now). Breakpoints of the batch
 * that leaves are closed and those of the one that comes are opened, since each holds a debug register while
 * open; the other events are stopped and started. */
static void turn(struct scope_run *x)
{
	unsigned flags = (x->o->no_inherit ? 0 : PMC_EVL_INHERIT) | (x->enabled ? 0 : PMC_EVL_DISABLED);

	pmc_evlist_disable(x->sc, NULL);
	for (size_t i = 0; i < x->req.n; i++) /* first free the registers, then take them */
		if (deferred(x, i) && !x->active[i])
			pmc_evlist_close_event(x->sc, i);
	for (size_t i = 0; i < x->req.n; i++) {
		if (!deferred(x, i) || !x->active[i])
			continue;
		pmc_evlist_reopen_event(x->sc, i, flags);
		for (size_t t = 0; t < x->st->ntargets; t++)
			memset(&x->prev[t * x->req.n + i], 0, sizeof(x->prev[0]));
	}
	if (x->enabled)
		pmc_evlist_enable(x->sc, x->active);
}

/* -I: one interval's records, from the difference of this read and the last. */
static int on_tick(void *ctx, unsigned n, bool last)
{
	struct scope_run *x = ctx;
	size_t nc = x->st->ntargets * x->req.n, nr = x->st->nrows * x->req.n;
	struct pmc_count *delta = calloc(nc ? nc : 1, sizeof(*delta)), *tot = calloc(x->req.n + 1, sizeof(*tot));
	struct pmc_count *rows = calloc(nr ? nr : 1, sizeof(*rows));
	uint64_t now = pmc_now_ns();
	double start = (double)(x->last_ns - x->t_start) / 1e9, end = (double)(now - x->t_start) / 1e9;


	if (!delta || !tot || !rows) {
		x->err = -ENOMEM;
		goto out;
	}
	pmc_evlist_read(x->sc);
	for (size_t k = 0; k < nc; k++) {
		const struct pmc_count *c = &pmc_evlist_counts(x->sc)[k], *p = &x->prev[k];
		delta[k] = *c;
		if (c->status == PMC_COUNT_OK || c->status == PMC_COUNT_NOT_COUNTED) {
			delta[k].value = c->value - p->value;
			delta[k].enabled = c->enabled - p->enabled;
			delta[k].running = c->running - p->running;
			/* enabled but its task not scheduled in this interval (it slept): a task counter's time enabled
			 * stops with its task, so the truth is 0 in 0 ns, not <not counted>; that stays for a counter
			 * that never ran yet, or was enabled and not on a counter (multiplexed out) in this interval */
			delta[k].status = delta[k].running || (x->enabled && !delta[k].enabled && c->running)
						  ? PMC_COUNT_OK : PMC_COUNT_NOT_COUNTED;
			x->prev[k] = *c;
		}
		if (x->rotate && counts_in(x, k % x->req.n))
			scope_count_add(&x->acc[k], &delta[k]);
	}
	fold(x, delta, tot, rows);
	for (size_t i = 0; i < x->req.n; i++) {
		struct pmc_interval_record r = { .interval = n, .start_s = start, .end_s = end, .ev = x->req.events[i] };

		if (!counts_in(x, i))
			continue;
		r.batch = x->rotate && !x->se->plan.in_every[x->idx[i]] ? (int)x->cur : -1;
		for (int row = -1; row < (int)x->st->nrows; row++) {
			r.scope = row < 0 ? NULL : &x->st->rows[row];
			r.count = row < 0 ? tot[i] : rows[(size_t)row * x->req.n + i];
			if (!pmc_eng_uncore_interval(x->req.events, x->req.n, i,
									   row < 0 ? tot : &rows[(size_t)row * x->req.n],
									   &r.count))
				continue;
			if (r.count.status == PMC_COUNT_NOT_RUN)
				continue;
			if (x->o->intervals.record)
				x->o->intervals.record(x->o->intervals.ctx, &r);
			pmc_eng_topdown_record(x->se, &r);
		}
	}
	pmc_eng_topdown_interval(x->se, &x->o->intervals, n, start, end);
	if (x->o->intervals.end)
		x->o->intervals.end(x->o->intervals.ctx);
	x->rep->intervals = n;
	/* rotate: the next batch's own events take the counters */
	if (x->rotate && !last) {
		x->cur = (x->cur + 1) % x->se->plan.nbatches;
		for (size_t i = 0; i < x->req.n; i++) {
			bool want = x->se->plan.in_every[x->idx[i]] || x->rep->events[x->idx[i]].batch == (int)x->cur;
			x->active[i] = want;
		}
		turn(x);
	}
out:
	x->last_ns = now;
	free(delta);
	free(tot);
	free(rows);
	return x->err ? 1 : 0;
}

static void on_enable(void *ctx, bool on)
{
	struct scope_run *x = ctx;
	uint64_t now = pmc_now_ns();

	if (on)
		pmc_evlist_enable(x->sc, x->rotate ? x->active : NULL);
	else
		pmc_evlist_disable(x->sc, NULL);
	if (on && !x->enabled)
		x->on_since = now;
	else if (!on && x->enabled)
		x->on_ns += now - x->on_since;
	if (on && !x->first_on)
		x->first_on = now;
	x->enabled = on;
	x->ever |= on;
}

/* How long counting was on, and before it first started, over a session of elapsed ns from x->t_start. */
static void counting_times(struct scope_run *x, uint64_t elapsed, struct pmc_report_exec *e)
{
	uint64_t end = x->t_start + elapsed, on = x->on_ns, delay;

	if (x->enabled)
		on += end > x->on_since ? end - x->on_since : 0;
	delay = x->first_on > x->t_start ? PMC_MIN(x->first_on, end) - x->t_start : x->first_on ? 0 : elapsed;
	e->counting_ns = (double)PMC_MIN(on, elapsed);
	e->delayed_ns = (double)delay;
	e->disabled_ns = elapsed > on + delay ? (double)(elapsed - on - delay) : 0;
}

/* The final counts of one batch run into the report: the total and every row, as samples of (run, batch). */
static int push_counts(struct scope_run *x, const struct pmc_count *per)
{
	size_t n = x->req.n, nr = x->st->nrows * n;
	struct pmc_count *tot = calloc(n + 1, sizeof(*tot)), *rows = calloc(nr ? nr : 1, sizeof(*rows));
	int rc = 0;

	if (!tot || !rows)
		rc = -ENOMEM;
	if (!rc)
		fold(x, per, tot, rows);
	for (size_t i = 0; i < n && !rc; i++) {
		rc = pmc_eng_push_sample(rep_event(x, -1, x->idx[i]), x->run, x->batch, &tot[i]);
		for (size_t r = 0; r < x->st->nrows && !rc; r++)
			if (rows[r * n + i].status != PMC_COUNT_NOT_RUN) /* a row whose CPUs the event's PMU skips: none */
				rc = pmc_eng_push_sample(rep_event(x, (int)r, x->idx[i]), x->run, x->batch, &rows[r * n + i]);
	}
	free(tot);
	free(rows);
	return rc;
}

/* Attached tasks the kernel refused: say why and what to do, once. */
static void explain_attach_refusal(const struct scope_run *x)
{
	size_t eacces = pmc_evlist_count_err(x->sc, EACCES) + pmc_evlist_count_err(x->sc, EPERM);
	size_t esrch = pmc_evlist_count_err(x->sc, ESRCH);

	if (x->st->cpus || !pmc_target_req_tasks(&x->o->targets))
		return;
	if (eacces)
		pmc_report_add_check(x->rep, PMC_CHECK_BAD, "attach-denied",
				     "the kernel refused to count %zu (task, event) pair%s (EACCES/EPERM): counting another "
				     "process needs ptrace access to it (the same user and kernel.yama.ptrace_scope 0 or 1, "
				     "where 1 allows only descendants), or CAP_PERFMON / CAP_SYS_PTRACE; run as that user or "
				     "as root", eacces, eacces == 1 ? "" : "s");
	if (esrch)
		pmc_report_add_check(x->rep, x->o->targets.every_task ? PMC_CHECK_INFO : PMC_CHECK_WARN, "task-vanished",
				     "%zu (task, event) pair%s could not be opened: the thread ended between listing and "
				     "attaching (ESRCH); its counts are missing", esrch, esrch == 1 ? "" : "s");
}

/* rotate: breakpoints of the batches after the first are opened on their turn. */
static void mark_deferred(struct scope_run *x)
{
	for (size_t i = 0; i < x->req.n; i++)
		if (deferred(x, i) && x->rep->events[x->idx[i]].batch != 0)
			pmc_evlist_defer(x->sc, i);
}

static unsigned open_flags(const struct pmc_engine_opts *o, bool command, bool rotate)
{
	unsigned f = o->no_inherit ? 0 : PMC_EVL_INHERIT;
	bool launched = command && !pmc_target_req_cpus(&o->targets) && !pmc_target_req_tasks(&o->targets);

	if (o->delay_ms || command || rotate)
		f |= PMC_EVL_DISABLED;
	/* -p/-t or -a/-C with a command: the targets counted while the command runs, enabled when it is released */
	if (launched && !rotate && !o->delay_ms)
		f |= PMC_EVL_ENABLE_ON_EXEC; /* a task counter starts at exec, as a plain run's */
	if (launched && o->aggr == PMC_AGGR_THREAD)
		f |= PMC_EVL_INHERIT_STAT; /* each exiting task's own count, for its row */
	return f;
}

/* The counters of this run on the targets, with the set's flags and the batch's grouping: 0, PMC_EVL_SPLIT (closed
 * again: the kernel refused the group, *fail says where) or -ENOMEM. */
static int open_counters(struct scope_run *x, unsigned flags, struct pmc_evlist_fail *fail)
{
	struct pmc_evlist_opts eo = { .flags = flags | (x->req.group ? PMC_EVL_GROUP : 0) };
	int r;

	pmc_evlist_delete(x->sc);
	x->sc = NULL;
	r = pmc_evlist_new(x->req.events, x->req.n, x->st->t, x->st->ntargets, &eo, &x->sc);
	if (r < 0)
		return r;
	scope_targets_mark_cpumask(x->st, x->sc);
	mark_deferred(x);
	return pmc_evlist_open(x->sc, fail);
}

/* One run of one batch (or, multiplexed / rotated, of all): open, wait, read, into the report. 0 (with x->step's
 * refused_at or never_ran when the group was refused or never ran: nothing recorded, the loop regroups), or an exit
 * status. */
static int run_once(struct scope_run *x)
{
	const struct pmc_engine_opts *o = x->o;
	struct pmc_launch l;
	struct pmc_launch_error le = { 0 };
	struct pmc_session ss;
	struct pmc_evlist_fail fail = { 0 };
	bool command = o->argv != NULL, tasks_cmd = command && !x->st->cpus && !pmc_target_req_tasks(&o->targets);
	size_t nc;
	int r, rc = 0;
	bool stopped = false, privileged = false;
	char why[4200];

	memset(&ss, 0, sizeof(ss));
	/* A command that gains privilege at exec is not counted by the kernel from then on: its counts say so */
	privileged = tasks_cmd && pmc_launch_gains_privilege(o->argv[0], why, sizeof(why));
	if (command && pmc_launch_start(o->argv, x->se->ctx ? &x->se->ctx->child : NULL, -1, &l, &le) < 0)
		return pmc_eng_report_launch_failure(o, &le);
	if (tasks_cmd)
		x->st->t[0].pid = l.pid;
	r = open_counters(x, open_flags(o, command, x->rotate), &fail);
	if (r == PMC_EVL_SPLIT) {
		/* A group the kernel refuses: split (or ungrouped) as a command's is, and measured again; the command,
		 * held before exec, never runs this time */
		x->step->refused_at = (long)fail.index;
		goto out;
	}
	if (r < 0) {
		rc = pmc_eng_stopped(x->se) ? 0 : PMC_EXIT_INTERNAL; /* interrupted: no run, no failure */
		goto out;
	}
	if (x->run == 0)
		explain_attach_refusal(x);
	if (pmc_target_req_tasks(&o->targets) && pmc_evlist_count_err(x->sc, EACCES) + pmc_evlist_count_err(x->sc, EPERM) ==
					    x->st->ntargets * x->req.n) {
		char ids[160];

		scope_ids_text(o->targets.npids ? o->targets.pids : o->targets.tids,
			 o->targets.npids ? o->targets.npids : o->targets.ntids, ids, sizeof(ids));
		pmc_diag_error("cannot attach to %s %s: permission denied: counting another user's process "
				"needs ptrace access to it (kernel.yama.ptrace_scope 0, or 1 for descendants only) or "
				"CAP_PERFMON / CAP_SYS_PTRACE; run as its user or as root",
			scope_task_word(o), ids);
		rc = PMC_EXIT_NOCOUNT;
		goto out;
	}
	nc = x->st->ntargets * x->req.n;
	x->prev = calloc(nc ? nc : 1, sizeof(*x->prev));
	x->acc = calloc(nc ? nc : 1, sizeof(*x->acc));
	x->active = calloc(x->req.n + 1, sizeof(*x->active));
	if (!x->prev || !x->acc || !x->active) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	x->cur = 0;
	for (size_t k = 0; k < nc; k++)
		x->acc[k].status = PMC_COUNT_NOT_RUN;
	for (size_t i = 0; i < x->req.n; i++)
		x->active[i] = !x->rotate || x->se->plan.in_every[x->idx[i]] || x->rep->events[x->idx[i]].batch == 0;
	/* Started here: CPU-wide counters with the command, rotated batches (only the first batch's), after -D never */
	ss.enabled = !(open_flags(o, command, x->rotate) & PMC_EVL_DISABLED) ||
		     (open_flags(o, command, x->rotate) & PMC_EVL_ENABLE_ON_EXEC);
	if (!ss.enabled && !o->delay_ms) {
		on_enable(x, true);
		ss.enabled = true;
	}
	x->enabled = x->ever = ss.enabled;
	if (x->thr && (rc = pmc_eng_threads_begin(x->thr, x->sc, l.pid, o->argv[0], true))) {
		if (pmc_eng_stopped(x->se))
			rc = 0; /* interrupted before the command ran: no run, no failure */
		goto out;
	}
	if (command && pmc_launch_go(&l, &le) < 0) {
		/* Interrupted before the command could run (never released, or dead of the signal before it read its
		 * go byte): no run, and no claim that it could not run */
		if (pmc_eng_stopped(x->se))
			le.what = PMC_LAUNCH_OK;
		else
			rc = pmc_eng_report_launch_failure(o, &le);
		goto out;
	}
	ss.interval_ns = o->interval_ms * 1000000ull;
	ss.interval_count = (unsigned)o->interval_count;
	ss.timeout_ns = o->timeout_ms * 1000000ull;
	ss.delay_ms = o->delay_ms;
	ss.ctl_fd = x->ctl;
	ss.ack_fd = x->ack;
	ss.cmd = command ? &l : NULL;
	ss.tasks = command ? NULL : x->st->watch; /* -p with a command: the command's lifetime is the window (perf's) */
	ss.ntasks = command ? 0 : x->st->nwatch;
	ss.stop = x->se->ctx ? x->se->ctx->stop : NULL;
	ss.enable = on_enable;
	ss.tick = on_tick;
	ss.drain_ns = x->thr ? 10000000ull : 0;
	ss.drain = pmc_eng_threads_drain;
	ss.drain_ctx = x->thr;
	ss.ctx = x;
	x->t_start = x->last_ns = command ? l.t0 : pmc_now_ns();
	x->on_ns = x->first_on = 0;
	if (x->enabled) /* on from the start: enable_on_exec, or enabled before the command was released */
		x->on_since = x->first_on = x->t_start;
	r = pmc_session_run(&ss);
	if (command) {
		/* Counting ends with the command; a session ended otherwise (timeout, signal, 'stop') takes it down. */
		stopped = !l.reaped && ss.end != PMC_END_SIGNAL;
		if (stopped)
			pmc_report_add_check(x->rep, PMC_CHECK_INFO, "command-stopped",
					     "the command was still running at the end (%s): pmctool sent its process group "
					     "SIGTERM (SIGKILL after %d s), and its exit status is not pmctool's",
					     pmc_session_end_name(ss.end), PMC_LAUNCH_GRACE_MS / 1000);
		/* Ended by pmctool: the command and everything it started go, within a bounded time */
		if (stopped || pmc_launch_ending)
			pmc_launch_end_tree(&l, stopped ? SIGTERM : 0);
		pmc_launch_reap(&l, true, &le);
	}
	pmc_evlist_disable(x->sc, NULL);
	/* A task that never ran while counted (time enabled 0) stays <not counted>: nothing was measured in it. */
	pmc_evlist_read(x->sc);
	if (privileged) {
		pmc_eng_mark_privileged(&x->req, pmc_evlist_counts(x->sc));
		pmc_eng_mark_privileged(&x->req, x->acc);
	}
	/* A group the kernel accepted and never ran, asked of the live set as for every target: split and measured
	 * again (a group is only asked for with a command, which can be run again) */
	if (command && x->req.group && !pmc_eng_stopped(x->se) && pmc_evlist_never_ran(x->sc, NULL)) {
		x->step->never_ran = true;
		goto out;
	}
	if (r < 0) {
		pmc_diag_error("waiting failed: %s", strerror(-r));
		rc = PMC_EXIT_INTERNAL;
	}
	x->rep->ended_by = pmc_session_end_name(ss.end);
	if (ss.bad_commands)
		pmc_report_add_check(x->rep, PMC_CHECK_WARN, "control",
				     "%u line%s on --control %s no command (enable, disable, stop, ping)", ss.bad_commands,
				     ss.bad_commands == 1 ? "" : "s", ss.bad_commands == 1 ? "was" : "were");
	if (!rc && push_counts(x, x->rotate ? x->acc : pmc_evlist_counts(x->sc)))
		rc = PMC_EXIT_INTERNAL;
	if (!rc && x->thr && pmc_eng_threads_push(x->thr, x->se, x->rep, x->idx, x->run, x->batch))
		rc = PMC_EXIT_INTERNAL;
	if (!rc) {
		/* user/sys time only for a command pmctool launched: attached tasks and CPUs have no rusage (NAN:
		 * null in JSON, empty in CSV, no line in the table), never a 0 that reads as measured. */
		struct pmc_report_exec e = { .run = x->run, .batch = x->batch, .interrupted = pmc_eng_stopped(x->se) != 0,
					     .wall_ns = (double)ss.elapsed_ns, .user_s = NAN, .sys_s = NAN };
		counting_times(x, ss.elapsed_ns, &e);
		if (command && !stopped) {
			e.exit_status = pmc_wait_status_code(l.status);
			e.signal = WIFSIGNALED(l.status) ? WTERMSIG(l.status) : 0;
		}
		if (command) {
			e.user_s = pmc_eng_tv_s(&l.ru.ru_utime);
			e.sys_s = pmc_eng_tv_s(&l.ru.ru_stime);
		}
		if (pmc_eng_exec_record(x->rep, &e))
			rc = PMC_EXIT_INTERNAL;
	}
out:
	if (x->thr)
		pmc_eng_threads_end(x->thr);
	pmc_evlist_delete(x->sc);
	x->sc = NULL;
	if (command && pmc_launch_finish(&l, &le) < 0 && !rc)
		rc = pmc_eng_report_launch_failure(o, &le);
	free(x->prev);
	free(x->acc);
	free(x->active);
	x->prev = x->acc = NULL;
	x->active = NULL;
	return rc;
}

/* The loop's executor: one run of the step's request. */
static int scope_step(void *ctx, struct pmc_eng_step *s)
{
	struct scope_run *x = ctx;

	x->step = s;
	x->run = s->run;
	x->batch = (unsigned)s->batch;
	x->idx = s->idx;
	x->req.events = (const struct pmc_event *const *)s->events;
	x->req.n = s->n;
	x->req.group = s->group;
	return run_once(x);
}

int pmc_eng_scope_measure(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	struct scope_targets st;
	struct scope_run x;
	struct pmc_keep keep = { 0 };
	int ctl = -1, ack = -1, rc;
	unsigned done = 0;

	memset(&x, 0, sizeof(x));
	rc = scope_targets_build(o, &st);
	if (rc)
		goto out_targets;
	if (o->control.given && (rc = scope_control_open(&o->control, &ctl, &ack)))
		goto out_targets;
	scope_describe_target(o, &st, rep);
	if (st.missing[0])
		pmc_report_add_check(rep, o->targets.every_task ? PMC_CHECK_INFO : PMC_CHECK_WARN, "task-vanished", "%s %s %s gone before counting started: not "
				     "counted", scope_task_word(o), st.missing, strchr(st.missing, ',') ? "were" : "was");
	if (st.duplicate[0])
		pmc_report_add_check(rep, PMC_CHECK_INFO, "task-duplicate", "%s %s named more than once (or within a "
				     "process named): each task is counted once", scope_task_word(o),
				     st.duplicate);
	if (scope_alloc_rows(se, &st, rep) < 0) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	x.se = se;
	x.o = o;
	x.ctl = ctl;
	x.ack = ack;
	x.rep = rep;
	x.st = &st;
	x.rotate = o->batch == PMC_BATCH_ROTATE && se->plan.nbatches > 1; /* one batch has nothing to rotate */
	if (o->aggr == PMC_AGGR_THREAD && o->argv && !pmc_target_req_tasks(&o->targets) &&
	    !(x.thr = pmc_eng_threads_new())) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	rep->mode = x.rotate ? "rotate" : se->popts.multiplex ? "multiplex" : se->plan.nbatches > 1 ? "rerun" : "single";
	rep->nbatches = (unsigned)se->plan.nbatches;
	if (se->ctx && se->ctx->observer)
		pmc_perf_set_observer(se->ctx->observer, se->ctx->observer_ctx);
	/* each run's and each rotation's tracepoint closes would cost the kernel a synchronization: keep one copy open */
	pmc_eng_keep_open(se, o->runs, st.ntargets, x.rotate || se->popts.multiplex, &keep);
	if (o->interval_ms && o->intervals.begin)
		o->intervals.begin(o->intervals.ctx, st.nrows > 0);
	{
		/* rerun: one batch per execution; rotate and multiplex: every event at once */
		struct pmc_eng_exec ex = { .all_at_once = x.rotate || se->popts.multiplex, .run = scope_step, .ctx = &x };

		rc = pmc_eng_loop(se, o, rep, &ex, &done);
	}
	pmc_perf_set_observer(NULL, NULL);
	scope_assign_batches(se, &st, rep); /* a batch split on the first run: its events' batches as measured */
	rep->nbatches = (unsigned)se->plan.nbatches;
	rep->mode = x.rotate ? "rotate" : se->popts.multiplex ? "multiplex" : se->plan.nbatches > 1 ? "rerun" : "single";
	pmc_eng_threads_note(x.thr, rep);
	scope_drop_empty_rows(rep, se->n, o->targets.every_task);
	pmc_eng_runs_finish(se, rep, done);
out:
	if (ctl >= 0 && !o->control.is_fd)
		close(ctl);
	if (ack >= 0 && !o->control.is_fd)
		close(ack);
	pmc_eng_threads_free(x.thr);
	pmc_keep_close(&keep);
out_targets:
	scope_targets_fini(&st);
	return rc;
}

void pmc_eng_scope_note_batches(const struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	if (se->plan.nbatches < 2 || o->batch == PMC_BATCH_RERUN || (o->batch == PMC_BATCH_AUTO && o->argv))
		return;
	if (o->batch == PMC_BATCH_ROTATE)
		pmc_diag_error("%zu events need %zu batches (%s): they take turns, one batch per " RQ_INTERVAL_MS " "
				"interval, and each record names its batch (" RQ_BATCHING "=multiplex to let the "
				"kernel "
				"time-slice them)",
			se->n, se->plan.nbatches, se->budget_why);
	else
		pmc_diag_error("%zu events need %zu batches (%s): the kernel multiplexes them and the counts "
				"are scaled (running %% shown)%s", se->n, se->plan.nbatches, se->budget_why,
			o->interval_ms ? "" : "; with " RQ_INTERVAL_MS ", " RQ_BATCHING "=rotate gives each interval "
			"one batch instead");
}
