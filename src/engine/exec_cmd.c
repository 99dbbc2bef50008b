/* SPDX-License-Identifier: MIT */
/* The engine's command executor: one execution of a command with its counters, in the shape of libperf's
 * prepare/start workload. run/launch.c forks the command and holds it before exec; the counter set is opened here on
 * its pid; then it is released, reaped and read. */
#include "engine/exec.h"

#include <errno.h>
#include <string.h>

#include "perf/evlist.h"

/* Whether the batch's own events all failed to open (with req->skip_unsupported): then running the command would
 * count only the every-batch events, which every other batch counts too. */
static bool own_none_open(const struct pmc_measure_req *req, const int *fds)
{
	if (!req->skip_unsupported || req->first_own >= req->n)
		return false;
	for (size_t i = req->first_own; i < req->n; i++)
		if (fds[i] >= 0)
			return false;
	return true;
}

void pmc_eng_mark_privileged(const struct pmc_measure_req *req, struct pmc_count *counts)
{
	for (size_t i = 0; i < req->n; i++)
		if (!req->events[i]->cpu_wide && (counts[i].status == PMC_COUNT_OK || counts[i].status == PMC_COUNT_NOT_COUNTED)) {
			counts[i].status = PMC_COUNT_NOT_COUNTED;
			counts[i].err = PMC_ENG_PRIVILEGED_ERR;
		}
}

int pmc_eng_cmd_run(const struct pmc_eng_workload *w, const struct pmc_measure_req *req, struct pmc_measure_out *out,
		    struct pmc_launch_error *err)
{
	/* Counting the child from exec on: leaders start stopped and exec starts them; group mode puts the hardware
	 * events in one group per core PMU (they run together, never multiplexed against each other), free events and
	 * breakpoints stand alone so one failing never takes the others down; CPU-wide events know no exec: they are
	 * enabled just before the go byte and disabled after wait. A forked function has no exec: every counter is
	 * enabled just before the go byte. */
	struct pmc_evlist_opts eo = { .flags = (req->no_inherit ? 0 : PMC_EVL_INHERIT) | PMC_EVL_DISABLED |
					       (w->fn ? 0 : PMC_EVL_ENABLE_ON_EXEC) | PMC_EVL_CPU_WIDE |
					       (req->group ? PMC_EVL_GROUP : 0),
				      .counts = out->counts };
	struct pmc_evlist_fail fail = { 0 };
	struct pmc_evlist *el = NULL;
	struct pmc_target target = { .pid = -1, .cpu = -1 };
	struct pmc_launch l;
	int rc = -1;
	char why[4200];
	bool privileged;

	memset(err, 0, sizeof(*err));
	out->group_err = 0;
	out->group_err_index = -1;
	out->interrupted = false;
	out->skipped = false;
	out->never_ran = false;
	if (req->n && pmc_evlist_new(req->events, req->n, &target, 1, &eo, &el) < 0) {
		err->what = PMC_LAUNCH_SYSTEM;
		err->err = ENOMEM;
		return -1;
	}
	privileged = req->n && !w->fn && pmc_launch_gains_privilege(w->argv[0], why, sizeof(why));
	if ((w->fn ? pmc_launch_start_fn(w->fn, w->ctx, req->child, &l, err)
		   : pmc_launch_start(w->argv, req->child, req->keep_fd_set ? req->keep_fd : -1, &l, err)) < 0) {
		pmc_evlist_delete(el);
		return -1;
	}
	target.pid = l.pid; /* the set's target (it keeps a pointer): the held child */
	if (el && pmc_evlist_open(el, &fail) == PMC_EVL_SPLIT) {
		out->group_err = fail.err;
		out->group_err_index = (int)fail.index;
		pmc_launch_cancel(&l); /* the held child exits without exec */
	} else if (el && own_none_open(req, pmc_evlist_fds(el, 0))) {
		out->skipped = true; /* the held child exits without exec */
		pmc_launch_cancel(&l);
	} else {
		if (el && w->fn)
			pmc_evlist_enable(el, NULL);
		else if (el)
			pmc_evlist_toggle_cpu_wide(el, true);
		pmc_launch_go(&l, err);
	}
	pmc_launch_reap(&l, true, err);
	out->ru = l.ru;
	out->wall_ns = l.wall_ns;
	if (el && w->fn)
		pmc_evlist_disable(el, NULL);
	else if (el)
		pmc_evlist_toggle_cpu_wide(el, false);
	out->wait_status = l.status;
	if (pmc_launch_finish(&l, err) == 0) {
		/* Every counter is read before any is closed: closing a leader would detach its group. */
		if (el && !out->skipped && !out->group_err) {
			pmc_evlist_read(el);
			out->never_ran = req->group && pmc_evlist_never_ran(el, NULL);
		}
		if (!out->skipped && !out->group_err && privileged)
			pmc_eng_mark_privileged(req, out->counts);
		rc = 0;
	}
	pmc_evlist_delete(el);
	return rc;
}
