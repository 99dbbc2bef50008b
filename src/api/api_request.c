/* SPDX-License-Identifier: MIT */
/*
 * The typed request (include/pmctool_engine.h) made into the engine's options: its text parsed with the command
 * line's parsers (metrics, the kernel and its parameters), its targets copied, its checks those of `pmctool stat`
 * (pmc_eng_scope_check), each error naming the request's field; and -I's records gathered into the caller's
 * intervals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "util/diag.h"
#include "util/util.h"

int api_fail(struct pmctool_error *err, enum pmctool_error_kind kind, const char *subject, int status,
	     const char *detail)
{
	if (err) {
		err->kind = kind;
		snprintf(err->subject, sizeof(err->subject), "%s", subject);
		snprintf(err->detail, sizeof(err->detail), "%s", detail);
		err->exit_status = status;
	}
	return (int)kind;
}

void api_collect(void *vctx, enum pmc_diag_kind kind, const char *msg)
{
	struct pmctool_engine *e = vctx;

	if (kind == PMC_DIAG_ERROR && !e->first_error[0]) {
		snprintf(e->first_error, sizeof(e->first_error), "%s", msg);
		snprintf(e->first_subject, sizeof(e->first_subject), "%s", pmc_diag_subject());
	}
}

/* A parser's status as the request's error: 0, or the kind with subject and the parser's message. */
static int parsed(struct pmctool_engine *e, int rc, const char *subject, struct pmctool_error *err)
{
	if (!rc)
		return 0;
	return api_fail(err, rc == PMC_EXIT_USAGE ? PMCTOOL_ERR_REQUEST : PMCTOOL_ERR_SYSTEM,
			subject ? subject : e->first_subject, rc, e->first_error[0] ? e->first_error : "out of memory");
}

/* Start collecting a parser's messages (the caller's sink back with end_parse). */
static struct pmc_diag_sink begin_parse(struct pmctool_engine *e)
{
	e->first_error[0] = '\0';
	e->first_subject[0] = '\0';
	return pmc_diag_exchange((struct pmc_diag_sink){ api_collect, e });
}

static size_t count_strings(const char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

int api_request_what(struct pmctool_engine *e, struct pmc_engine_opts *o, const char *events, const char *eventset,
		     const char *const *metrics, struct pmc_metric_def **defs, struct pmctool_error *err)
{
	struct pmc_diag_sink prev;
	size_t n = count_strings(metrics);
	int rc;

	if (events && eventset)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "eventset", PMC_EXIT_USAGE,
				"events and eventset both given: a request measures one of them");
	if (events)
		o->event_lists[o->nlists++] = events;
	o->set_name = eventset;
	prev = begin_parse(e);
	rc = pmc_eng_metrics_parse(metrics, n, defs);
	pmc_diag_exchange(prev);
	o->metrics = *defs;
	o->nmetrics = rc ? 0 : n;
	return parsed(e, rc, "metrics", err);
}

/* The kernel by name and its parameters, parsed as -k and --param are. 0, or the error's kind. */
static int request_kernel(struct pmctool_engine *e, const struct pmctool_request *rq, struct pmc_engine_opts *o,
			  struct pmctool_error *err)
{
	struct pmc_diag_sink prev;
	size_t n = count_strings(rq->params);
	int rc;

	if (!rq->kernel && (n || rq->iters))
		return api_fail(err, PMCTOOL_ERR_REQUEST, n ? "params" : "iters", PMC_EXIT_USAGE,
				"params and iters are a built-in kernel's: give kernel too");
	if (!rq->kernel)
		return 0;
	prev = begin_parse(e);
	rc = pmc_eng_kernel_find(rq->kernel, &o->k);
	if (!rc)
		rc = pmc_eng_kernel_params(o->k, rq->params, n, &o->kp);
	pmc_diag_exchange(prev);
	o->iters = rq->iters;
	return parsed(e, rc, o->k ? "params" : "kernel", err);
}

/* ids[n] checked (at least min) and copied into *ret, as pid_t (pid) or int. 0, or the error's kind naming field. */
static int copy_ids(const int *ids, size_t n, int min, const char *field, bool pid, void **ret,
		    struct pmctool_error *err)
{
	char why[160];

	if (n && !ids) {
		snprintf(why, sizeof(why), "n%s is %zu and %s is NULL", field, n, field);
		return api_fail(err, PMCTOOL_ERR_REQUEST, field, PMC_EXIT_USAGE, why);
	}
	if (!(*ret = calloc(n + 1, pid ? sizeof(pid_t) : sizeof(int))))
		return api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (ids[i] < min) {
			snprintf(why, sizeof(why), "%s[%zu] is %d: %s", field, i, ids[i],
				 min ? "an ID is a positive number" : "a CPU number is 0 or more");
			return api_fail(err, PMCTOOL_ERR_REQUEST, field, PMC_EXIT_USAGE, why);
		}
		if (pid)
			((pid_t *)*ret)[i] = (pid_t)ids[i];
		else
			((int *)*ret)[i] = ids[i];
	}
	return 0;
}

/* pids, tids, cpus, system_wide into o->targets (copies in q). 0, or the error's kind. */
static int request_targets(const struct pmctool_request *rq, struct api_request *q, struct pmctool_error *err)
{
	struct pmc_target_req *t = &q->o.targets;
	int kind;

	if ((kind = copy_ids(rq->pids, rq->npids, 1, "pids", true, (void **)&q->pids, err)) ||
	    (kind = copy_ids(rq->tids, rq->ntids, 1, "tids", true, (void **)&q->tids, err)) ||
	    (kind = copy_ids(rq->cpus, rq->ncpus, 0, "cpus", false, (void **)&q->cpus, err)))
		return kind;
	*t = (struct pmc_target_req){ .pids = q->pids, .npids = rq->npids, .tids = q->tids, .ntids = rq->ntids,
				      .cpus = q->cpus, .ncpus = rq->ncpus, .system_wide = rq->system_wide != 0 };
	if (t->system_wide && t->ncpus)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "system_wide", PMC_EXIT_USAGE,
				"system_wide counts every CPU and cpus names some: give one");
	return 0;
}

/* ---- intervals: the totals' records of one interval, then the caller's callback at its end ---- */

static void iv_begin(void *ctx, bool per_row)
{
	(void)ctx;
	(void)per_row;
}

static void iv_record(void *ctx, const struct pmc_interval_record *r)
{
	struct api_intervals *iv = ctx;
	const struct pmc_count *c = &r->count;
	struct pmctool_count *out;
	size_t i;

	if (r->scope || !iv->se || r->ev < iv->se->evs || r->ev >= iv->se->evs + iv->se->n)
		return; /* rows: the callback has the totals */
	i = (size_t)(r->ev - iv->se->evs);
	out = &iv->counts[i];
	iv->have[i] = 1;
	iv->index = r->interval;
	iv->start_s = r->start_s;
	iv->end_s = r->end_s;
	out->event = r->ev->name;
	out->unit = (r->ev->flags & PMC_EVF_TIME_NS) ? "ns" : r->ev->unit;
	out->status = c->status == PMC_COUNT_OK		    ? PMCTOOL_COUNTED
		      : c->status == PMC_COUNT_NOT_COUNTED   ? PMCTOOL_NOT_COUNTED
		      : c->status == PMC_COUNT_NOT_SUPPORTED ? PMCTOOL_NOT_SUPPORTED
							     : PMCTOOL_NOT_RUN;
	out->value = 0;
	out->running = 0;
	out->reason = out->status == PMCTOOL_COUNTED	   ? ""
		      : out->status == PMCTOOL_NOT_COUNTED ? "not on a counter in this interval"
							   : "not counted here (the result's count says why)";
	if (out->status != PMCTOOL_COUNTED)
		return;
	out->value = c->running && c->running < c->enabled ? (double)c->value * ((double)c->enabled / (double)c->running)
							   : (double)c->value;
	out->running = c->enabled ? (double)c->running / (double)c->enabled : 1;
}

static void iv_end(void *ctx)
{
	struct api_intervals *iv = ctx;
	struct pmctool_interval out = { iv->index, iv->start_s, iv->end_s, 0, iv->counts + iv->se->n };

	/* the interval's counts, in the request's order, after the events' own slots (no allocation here) */
	for (size_t i = 0; i < iv->se->n; i++)
		if (iv->have[i])
			iv->counts[iv->se->n + out.ncounts++] = iv->counts[i];
	memset(iv->have, 0, iv->se->n);
	if (iv->fn)
		iv->fn(iv->ctx, &out);
}

int api_request_ready(struct api_request *q, const struct pmc_engine *se)
{
	if (!q->iv.fn)
		return 0;
	q->iv.se = se;
	q->iv.counts = calloc(2 * se->n + 1, sizeof(*q->iv.counts));
	q->iv.have = calloc(se->n + 1, 1);
	return q->iv.counts && q->iv.have ? 0 : -ENOMEM;
}

/* interval_ms, on_interval, timeout_ms, regions, delay_ms, control. 0, or the error's kind. */
static int request_time(const struct pmctool_request *rq, struct api_request *q, struct pmctool_error *err)
{
	struct pmc_engine_opts *o = &q->o;

	if (rq->interval_ms && (rq->interval_ms < 10 || rq->interval_ms > 3600000))
		return api_fail(err, PMCTOOL_ERR_REQUEST, "interval_ms", PMC_EXIT_USAGE,
				"interval_ms is from 10 to 3600000 (milliseconds), or 0: none");
	if (rq->on_interval && !rq->interval_ms)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "on_interval", PMC_EXIT_USAGE,
				"on_interval is called at the end of each interval: give interval_ms too");
	if (rq->timeout_ms > (uint64_t)1 << 40)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "timeout_ms", PMC_EXIT_USAGE,
				"timeout_ms is from 1 to 2^40 (milliseconds), or 0: none");
	if (rq->delay_ms < -1 || rq->delay_ms > 86400000)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "delay_ms", PMC_EXIT_USAGE,
				"delay_ms is from 0 to 86400000 (milliseconds), or -1: stopped until 'enable' on control");
	if (rq->control && rq->control[0] < 0)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "control", PMC_EXIT_USAGE,
				"control is {CTL, ACK}: CTL a descriptor open for reading, ACK one open for writing or -1");
	if (rq->control)
		o->control = (struct pmc_control_req){ .given = true, .is_fd = true, .ctl_fd = rq->control[0],
						       .ack_fd = rq->control[1] };
	o->delay_ms = (long)rq->delay_ms;
	o->interval_ms = rq->interval_ms;
	o->timeout_ms = rq->timeout_ms;
	o->regions = rq->regions != 0;
	if (rq->on_interval) {
		q->iv.fn = rq->on_interval;
		q->iv.ctx = rq->interval_ctx;
		o->intervals = (struct pmc_interval_sink){ iv_begin, iv_record, iv_end, &q->iv, NULL };
	}
	if (o->regions && (rq->kernel || pmc_eng_scope_wanted(o)))
		return api_fail(err, PMCTOOL_ERR_REQUEST, "regions", PMC_EXIT_USAGE,
				"regions counts the regions of a command it launches (argv), once per batch: not with "
				"kernel, targets, interval_ms, timeout_ms, delay_ms or control");
	return 0;
}

int api_request(struct pmctool_engine *e, const struct pmctool_request *rq, struct api_request *q,
		struct pmctool_error *err)
{
	struct pmc_engine_opts *o = &q->o;
	struct pmc_diag_sink prev;
	bool targets = rq->npids || rq->ntids || rq->ncpus || rq->system_wide;
	int kind, rc;

	memset(q, 0, sizeof(*q));
	pmc_engine_opts_init(o);
	if ((rq->argv && rq->kernel) || (rq->argv && !rq->argv[0]) || (!rq->argv && !rq->kernel && !targets))
		return api_fail(err, PMCTOOL_ERR_REQUEST, rq->kernel ? "kernel" : "argv", PMC_EXIT_USAGE,
				"give a command (argv, NULL-terminated, its first element the program), a kernel, or "
				"targets (pids, tids, cpus, system_wide); not a command and a kernel");
	if (rq->batching > PMCTOOL_BATCH_MULTIPLEX)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "batching", PMC_EXIT_USAGE,
				"batching is PMCTOOL_BATCH_AUTO, _RERUN or _MULTIPLEX");
	if ((kind = api_request_what(e, o, rq->events, rq->eventset, rq->metrics, &q->defs, err)) ||
	    (kind = request_kernel(e, rq, o, err)) || (kind = request_targets(rq, q, err)) ||
	    (kind = request_time(rq, q, err)))
		return kind;
	o->runs = rq->runs ? rq->runs : 1;
	o->runs_given = rq->runs != 0;
	o->batch = rq->batching == PMCTOOL_BATCH_RERUN	   ? PMC_BATCH_RERUN
		   : rq->batching == PMCTOOL_BATCH_MULTIPLEX ? PMC_BATCH_MULTIPLEX
							     : PMC_BATCH_AUTO;
	o->argv = (char **)rq->argv; /* read only: the command is exec'd with it */
	/* the combinations `pmctool stat` refuses (kernel with targets, pids with cpus, runs without a command...) */
	prev = begin_parse(e);
	rc = pmc_eng_scope_check(o);
	pmc_diag_exchange(prev);
	return parsed(e, rc, NULL, err);
}

void api_request_fini(struct api_request *q)
{
	free(q->defs);
	free(q->pids);
	free(q->tids);
	free(q->cpus);
	free(q->iv.counts);
	free(q->iv.have);
	memset(q, 0, sizeof(*q));
}
