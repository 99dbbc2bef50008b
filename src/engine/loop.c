/* SPDX-License-Identifier: MIT */
/* The engine's measurement loop: runs x batches over an executor (engine/exec.h), and the one rule for a batch that
 * could not be counted as one group, whatever the target (a command, a kernel, attached tasks, CPUs). */
#include "engine/exec.h"

#include <stdlib.h>

/* The one rule for a batch that could not be counted as one group, for every target: the kernel refused batch b's
 * group (EINVAL at the member at request position 'at', of nreq), or accepted it and never ran it (asked of the live
 * set; counted in se->never_ran, split in the middle of its own events). Split it there on the first run only, so
 * every run measures the same batches; where it cannot be, count only this batch ungrouped. The loop then measures
 * batch b again. */
static void regroup(struct pmc_engine *se, size_t b, size_t nreq, size_t at, unsigned run)
{
	size_t own = se->plan.batches[b].n, first_own = nreq - own;

	if (run == 0 && at > first_own && pmc_plan_split(&se->plan, b, at - first_own) == 0)
		return;
	se->plan.batches[b].ungrouped = true;
}

static void regroup_report(const struct pmc_engine *se, struct pmc_report *rep)
{
	size_t ungrouped = 0;

	for (size_t b = 0; b < se->plan.nbatches; b++)
		ungrouped += se->plan.batches[b].ungrouped;
	if (se->never_ran)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "group-never-ran",
				     "the kernel accepted a batch as one group but never ran it (time running 0: the NMI "
				     "watchdog, another user of the counters or a constraint its group check ignores held "
				     "a counter); it was split (or, where it could not be, counted ungrouped) and measured again");
	if (ungrouped)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "ungrouped",
				     "the kernel refused %zu batch%s as one group and %s could not be split; %s events "
				     "were counted ungrouped and may have been multiplexed (the other batches stayed "
				     "grouped)",
				     ungrouped, ungrouped == 1 ? "" : "es", ungrouped == 1 ? "it" : "they",
				     ungrouped == 1 ? "its" : "their");
}

/* Whether some batch other than b runs (is not known to be unsupported): only then may b be skipped, so that the
 * every-batch events (anchors, free events) are counted at least once. */
static bool another_batch_runs(const struct pmc_engine *se, size_t b)
{
	for (size_t k = 0; k < se->plan.nbatches; k++)
		if (k != b && !se->plan.batches[k].unsupported)
			return true;
	return false;
}

/* The request of batch b (every event, all_at_once unless the plan is one batch). */
static void build_step(const struct pmc_engine *se, bool all, size_t b, struct pmc_eng_step *s)
{
	if (all && se->plan.nbatches != 1) {
		for (size_t i = 0; i < se->n; i++) {
			s->events[i] = &se->evs[i];
			s->idx[i] = i;
		}
		s->n = se->n;
		s->first_own = 0;
	} else {
		s->n = pmc_eng_build_request(se, b, s->events, s->idx);
		s->first_own = s->n - se->plan.batches[b].n;
	}
	s->batch = all ? 0 : b;
	s->group = !all && !se->popts.multiplex && b < se->plan.nbatches && !se->plan.batches[b].ungrouped;
	s->skip_unsupported = !all && another_batch_runs(se, b);
	s->refused_at = -1;
	s->never_ran = s->skipped = false;
}

/* The report's words for what the loop decided. */
static void loop_report(const struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep,
			unsigned done)
{
	if (se->hook_status)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "hook-failed",
				     "%s exited with status %d: the runs stopped after %u execution%s (perf's rule); the "
				     "exit status is the hook's", o->pre_cmd && !done ? "--pre" : "--pre or --post",
				     se->hook_status, done, done == 1 ? "" : "s");
	rep->nbatches_skipped = 0;
	for (size_t b = 0; b < se->plan.nbatches; b++)
		rep->nbatches_skipped += se->plan.batches[b].unsupported;
	if (rep->nbatches_skipped)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "batches-skipped",
				     "%u of %zu batches had no event of their own the kernel could open; the command was "
				     "not run for them (their events are listed with the reason), which saved %zu "
				     "execution%s",
				     rep->nbatches_skipped, se->plan.nbatches, (size_t)rep->nbatches_skipped * o->runs,
				     rep->nbatches_skipped * o->runs == 1 ? "" : "s");
	regroup_report(se, rep);
}

int pmc_eng_loop(struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep,
		 const struct pmc_eng_exec *ex, unsigned *ret_done)
{
	struct pmc_eng_step s = { 0 };
	unsigned done = 0; /* executions completed */
	int rc = 0;

	s.events = malloc((se->n + 1) * sizeof(*s.events));
	s.idx = malloc((se->n + 1) * sizeof(*s.idx));
	if (!s.events || !s.idx)
		rc = PMC_EXIT_INTERNAL;
	for (unsigned run = 0; run < o->runs && !pmc_eng_stopped(se) && !rc; run++) {
		unsigned done_before = done;

		s.run = run;
		for (size_t b = 0; b < (ex->all_at_once ? 1 : se->plan.nbatches) && !pmc_eng_stopped(se); b++) {
			int r;

			if (!ex->all_at_once && se->plan.batches[b].unsupported)
				continue;
			build_step(se, ex->all_at_once, b, &s);
			r = ex->run(ex->ctx, &s);
			if (!r && (s.refused_at >= 0 || s.never_ran)) {
				if (pmc_eng_stopped(se))
					break; /* interrupted: nothing to measure again */
				if (s.refused_at >= 0) {
					regroup(se, b, s.n, (size_t)s.refused_at, run);
				} else {
					se->never_ran++;
					regroup(se, b, s.n, s.n - se->plan.batches[b].n / 2, run);
				}
				b--; /* the same batch again, now split or ungrouped */
				continue;
			}
			if (!r && s.skipped) /* later runs skip it without opening anything */
				se->plan.batches[b].unsupported = true;
			done += r == PMC_ENG_HOOK_STOP_AFTER;
			if (r == PMC_ENG_HOOK_STOP_SIGNAL)
				break; /* the loop ends: pmctool was interrupted */
			if (r) {
				rc = r == PMC_ENG_HOOK_STOP || r == PMC_ENG_HOOK_STOP_AFTER ? se->hook_status : r;
				break;
			}
			done++;
		}
		if (done > done_before) /* a run that failed before any execution finished adds nothing to report */
			rep->nruns = run + 1;
	}
	loop_report(se, o, rep, done);
	free(s.events);
	free(s.idx);
	if (ret_done)
		*ret_done = done;
	return rc;
}
