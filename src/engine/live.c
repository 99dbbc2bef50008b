/* SPDX-License-Identifier: MIT */
/* The engine: a live counter set (pmctool serve). The scope's targets (engine/targets.c: -a, -C, -G, -p, -t) are
 * opened once, every event at once, and left counting; a read is one read() per open counter at the moment it is
 * asked for, folded into the totals and the rows of a report of one run. Nothing runs between reads (no thread, no
 * timer, no rotation): the kernel time-slices what the counters cannot hold at once, and the running fraction of each
 * count says so. A read never stops, resets or reopens a counter. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/scope.h"
#include "perf/perf.h"

struct pmc_eng_live {
	const struct pmc_engine *se;
	const struct pmc_engine_opts *o;
	struct scope_targets st;         /* scope_targets_fini's, whatever scope_targets_build returned */
	struct pmc_evlist *sc;
	const struct pmc_event **reqev;
	uint64_t t_start;
	struct pmc_report base;          /* measured once at the open, copied into each read's report: the environment
					    and the CPU (a read makes no system call but the counters' reads) */
};

void pmc_eng_live_close(struct pmc_eng_live *l)
{
	if (!l)
		return;
	pmc_evlist_delete(l->sc);
	scope_targets_fini(&l->st);
	free(l->reqev);
	free(l);
}

/* The counters on the targets, grouped as the plan says when it is one batch (top-down's level 1 must be one
 * group), else each alone for the kernel to multiplex. 0, or an exit status after the message. */
static int open_set(struct pmc_eng_live *l)
{
	const struct pmc_engine *se = l->se;
	bool group = se->plan.nbatches == 1 && !se->plan.batches[0].ungrouped;
	int r;

	for (int attempt = 0; attempt < 2; attempt++) {
		struct pmc_evlist_opts eo = { .flags = (l->o->no_inherit ? 0 : PMC_EVL_INHERIT) | (group ? PMC_EVL_GROUP : 0) };

		pmc_evlist_delete(l->sc);
		l->sc = NULL;
		if (pmc_evlist_new((const struct pmc_event *const *)l->reqev, se->n, l->st.t, l->st.ntargets, &eo, &l->sc) < 0)
			return PMC_EXIT_INTERNAL;
		scope_targets_mark_cpumask(&l->st, l->sc);
		r = pmc_evlist_open(l->sc, NULL);
		if (r == PMC_EVL_SPLIT && group) {
			pmc_diag_note("the kernel refused the events as one group: they count ungrouped and may be multiplexed");
			group = false;
			continue;
		}
		return r < 0 ? PMC_EXIT_INTERNAL : 0;
	}
	return PMC_EXIT_INTERNAL;
}

int pmc_eng_live_open(const struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_eng_live **ret)
{
	struct pmc_eng_live *l;
	int rc;

	*ret = NULL;
	if (o->argv || o->k || o->interval_ms || o->delay_ms || o->control.given || o->aggr == PMC_AGGR_THREAD ||
	    (!pmc_target_req_tasks(&o->targets) && !pmc_target_req_cpus(&o->targets))) {
		pmc_diag_error("live counting counts CPUs (-a, -C, -G) or running tasks (-p, -t) until it is closed: not a "
			       "command, a kernel, -I, -D, --control or --per-thread");
		return PMC_EXIT_USAGE;
	}
	if (!(l = calloc(1, sizeof(*l))) || !(l->reqev = malloc((se->n + 1) * sizeof(*l->reqev)))) {
		free(l);
		return PMC_EXIT_INTERNAL;
	}
	l->se = se;
	l->o = o;
	for (size_t i = 0; i < se->n; i++)
		l->reqev[i] = &se->evs[i];
	rc = scope_targets_build(o, &l->st);
	if (!rc)
		rc = open_set(l);
	if (!rc && pmc_target_req_tasks(&o->targets) &&
	    pmc_evlist_count_err(l->sc, EACCES) + pmc_evlist_count_err(l->sc, EPERM) == l->st.ntargets * se->n) {
		pmc_diag_error("cannot attach to the tasks named: permission denied (ptrace access, or CAP_PERFMON)");
		rc = PMC_EXIT_NOCOUNT;
	}
	if (rc) {
		pmc_eng_live_close(l);
		return rc;
	}
	l->t_start = pmc_now_ns();
	pmc_eng_environment(&l->base, "perf_event", o->env_lean);
	pmc_eng_record_cpu(&l->base, o->env_lean);
	*ret = l;
	return 0;
}

size_t pmc_eng_live_counters(const struct pmc_eng_live *l)
{
	size_t n = 0;

	for (size_t t = 0; t < l->st.ntargets; t++) {
		const int *fds = pmc_evlist_fds(l->sc, t);
		for (size_t i = 0; i < l->se->n; i++)
			n += fds[i] >= 0;
	}
	return n;
}

const struct pmc_env *pmc_eng_live_env(const struct pmc_eng_live *l)
{
	return &l->base.env;
}

int pmc_eng_live_read(struct pmc_eng_live *l, struct pmc_report *rep)
{
	size_t n = l->se->n, nr = l->st.nrows * n;
	struct pmc_count *tot = calloc(n + 1, sizeof(*tot)), *rows = calloc(nr ? nr : 1, sizeof(*rows));
	uint64_t now;
	int rc = 0;

	if (!tot || !rows || scope_alloc_rows(l->se, &l->st, rep) < 0) {
		rc = PMC_EXIT_INTERNAL;
		goto out;
	}
	pmc_evlist_read(l->sc);
	now = pmc_now_ns();
	scope_fold(&l->st, l->sc, n, pmc_evlist_counts(l->sc), tot, rows);
	scope_describe_target(l->o, &l->st, rep);
	rep->env = l->base.env;
	memcpy(rep->cpu_pmu, l->base.cpu_pmu, sizeof(rep->cpu_pmu));
	memcpy(rep->cpu_vendor, l->base.cpu_vendor, sizeof(rep->cpu_vendor));
	rep->cpu_smt = l->base.cpu_smt;
	rep->mode = l->se->plan.nbatches > 1 ? "multiplex" : "single";
	rep->nbatches = (unsigned)l->se->plan.nbatches;
	for (size_t i = 0; i < n && !rc; i++) {
		if (pmc_eng_push_sample(&rep->events[i], 0, 0, &tot[i]))
			rc = PMC_EXIT_INTERNAL;
		for (size_t r = 0; r < l->st.nrows && !rc; r++)
			if (rows[r * n + i].status != PMC_COUNT_NOT_RUN &&
			    pmc_eng_push_sample(&rep->events[(r + 1) * n + i], 0, 0, &rows[r * n + i]))
				rc = PMC_EXIT_INTERNAL;
	}
	if (!rc) {
		struct pmc_report_exec e = { .wall_ns = (double)(now - l->t_start), .user_s = NAN, .sys_s = NAN };

		e.counting_ns = e.wall_ns;
		if (pmc_eng_exec_record(rep, &e))
			rc = PMC_EXIT_INTERNAL;
	}
	rep->nruns = 1;
	scope_drop_empty_rows(rep, n, false);
	pmc_eng_runs_finish(l->se, rep, 1);
out:
	free(tot);
	free(rows);
	return rc;
}
