/* SPDX-License-Identifier: MIT */
/*
 * The engine's public API (include/pmctool_engine.h): a typed request mapped onto the engine's options, the engine's
 * flow run on a context of the caller's own, and its report turned into a typed result. The report stays inside the
 * result, so that the JSON document is the one `pmctool stat --json` writes, from the same writer.
 */
#include "pmctool_engine.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "api/api.h"
#include "arch/arch.h"
#include "engine/engine.h"
#include "engine/replay.h"
#include "kernels/kernels.h"
#include "output/output.h"
#include "report/load.h"
#include "report/regions.h"
#include "report/report.h"
#include "report/topdown.h"
#include "run/launch.h"
#include "util/diag.h"
#include "util/util.h"

/* The result's public part first: the caller holds a pointer to it, pmctool_result_free to all of it. */
struct result {
	struct pmctool_result pub;
	struct pmc_report rep;
	struct pmctool_count *counts;
	struct pmctool_metric *metrics;
	struct pmctool_check *checks;
	struct pmctool_region *regions;
	double *region_values;         /* nregions x nevents */
};

static void free_result(struct result *r)
{
	if (!r)
		return;
	pmc_report_fini(&r->rep);
	free(r->counts);
	free(r->metrics);
	free(r->checks);
	free(r->regions);
	free(r->region_values);
	free(r);
}

struct pmctool_engine *pmctool_engine_new(void)
{
	struct pmctool_engine *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->ctx.diag = api_collect;
	e->ctx.diag_ctx = e;
	e->ctx.stop = &e->stop;
	pmc_launch_shared_process(); /* the caller has children of its own: never signalled nor reaped */
	return e;
}

void pmctool_engine_free(struct pmctool_engine *e)
{
	free(e);
}

void pmctool_engine_stop(struct pmctool_engine *e, int sig)
{
	if (!e)
		return;
	e->stop = sig > 0 ? sig : SIGINT;
	pmc_launch_signal(e->stop, e->ctx.child); /* the command's process group, when one runs */
}

int pmctool_kernel_at(size_t i, struct pmctool_kernel_info *ret)
{
	const struct pmc_kernel *k = pmc_kernel_at(i);

	if (!k || !ret)
		return -1;
	*ret = (struct pmctool_kernel_info){ k->name, k->desc, (k->isa & pmc_arch_isa_have()) == k->isa, k->assembly };
	return 0;
}

const char *pmctool_version(void)
{
	return PMC_VERSION;
}

/* An exit status of the engine's (pmctool(1)) as an error's kind. */
static enum pmctool_error_kind kind_of(int status, const struct pmctool_engine *e, const struct pmc_report *rep)
{
	if (e->stop && status == 128 + e->stop)
		return PMCTOOL_ERR_STOPPED;
	if (rep && rep->nruns && rep->exit_status && status == rep->exit_status)
		return PMCTOOL_ERR_COMMAND;
	switch (status) {
	case PMC_EXIT_USAGE:
		return PMCTOOL_ERR_REQUEST;
	case PMC_EXIT_NOCOUNT:
		return PMCTOOL_ERR_NOCOUNT;
	case PMC_EXIT_NOEXEC:
	case PMC_EXIT_NOTFOUND:
		return PMCTOOL_ERR_LAUNCH;
	default:
		return PMCTOOL_ERR_SYSTEM;
	}
}

/* The unit of the value as the result gives it: nanoseconds for the clocks (task-clock, cpu-clock), the PMU's own
 * (sysfs .unit) where it names one, "" for plain counts. */
static const char *unit_of(const struct pmc_report_event *ev)
{
	if (ev->ev.flags & PMC_EVF_TIME_NS)
		return "ns";
	return ev->ev.unit[0] ? ev->ev.unit : "";
}

/* A detail for the kinds whose reason is not one message of the engine's: what was counted, or why not. */
static void result_detail(const struct pmc_report *rep, enum pmctool_error_kind k, int status, char *buf, size_t len)
{
	size_t used = 0;

	if (k == PMCTOOL_ERR_STOPPED) {
		snprintf(buf, len, "stopped by signal %d after %u run%s: the result holds what was counted until then",
			 status - 128, rep->nruns, rep->nruns == 1 ? "" : "s");
		return;
	}
	if (k != PMCTOOL_ERR_NOCOUNT)
		return;
	used = (size_t)snprintf(buf, len, "no event could be counted:");
	for (size_t i = 0; i < rep->nevents && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s %s: %s", i ? ";" : "", rep->events[i].ev.name,
					 rep->events[i].reason[0] ? rep->events[i].reason : "not counted");
}

/* --regions: each region merged over threads, its counts in the result's order. 0 or -ENOMEM. */
static int fill_regions(struct result *r)
{
	const struct pmc_report_regions *rr = r->rep.regions;
	size_t n = rr ? rr->n : 0, ne = r->rep.nevents;

	if (!n)
		return 0;
	r->regions = calloc(n, sizeof(*r->regions));
	r->region_values = calloc(n * ne + 1, sizeof(*r->region_values));
	if (!r->regions || !r->region_values)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		double *v = r->region_values + k * ne;

		for (size_t i = 0; i < ne && i < rr->nevents; i++)
			v[i] = pmc_region_value(&rr->r[k].all, i);
		for (size_t i = rr->nevents; i < ne; i++)
			v[i] = NAN;
		r->regions[k] = (struct pmctool_region){ rr->r[k].name, pmc_region_calls(&rr->r[k].all), v };
	}
	r->pub.nregions = n;
	r->pub.regions = r->regions;
	return 0;
}

/* The typed view of the report (pointers into it: they live as long as the result). */
static int fill(struct result *r)
{
	const struct pmc_report *rep = &r->rep;

	r->counts = calloc(rep->nevents ? rep->nevents : 1, sizeof(*r->counts));
	r->metrics = calloc(rep->nmetrics ? rep->nmetrics : 1, sizeof(*r->metrics));
	r->checks = calloc(rep->nchecks ? rep->nchecks : 1, sizeof(*r->checks));
	if (!r->counts || !r->metrics || !r->checks)
		return -ENOMEM;
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *ev = &rep->events[i];
		struct pmctool_count *c = &r->counts[i];

		c->event = ev->ev.name;
		c->status = ev->status == PMC_COUNT_OK		   ? PMCTOOL_COUNTED
			    : ev->status == PMC_COUNT_NOT_COUNTED   ? PMCTOOL_NOT_COUNTED
			    : ev->status == PMC_COUNT_NOT_SUPPORTED ? PMCTOOL_NOT_SUPPORTED
								    : PMCTOOL_NOT_RUN;
		c->value = c->status == PMCTOOL_COUNTED ? ev->mean : 0;
		c->running = c->status == PMCTOOL_COUNTED ? ev->running_pct / 100 : 0;
		c->unit = unit_of(ev);
		c->reason = ev->reason;
	}
	for (size_t i = 0; i < rep->nmetrics; i++) {
		const struct pmc_metric_value *m = &rep->metrics[i];

		r->metrics[i] = (struct pmctool_metric){ m->name, m->unit, m->reason, m->valid, m->valid ? m->value : 0 };
	}
	for (size_t i = 0; i < rep->nchecks; i++)
		r->checks[i] = (struct pmctool_check){ rep->checks[i].name, (int)rep->checks[i].severity,
						       rep->checks[i].msg };
	r->pub = (struct pmctool_result){ rep->nevents, rep->nmetrics, rep->nchecks, r->counts, r->metrics, r->checks,
					  rep->nruns, rep->wall_ns_mean / 1e9, rep->exit_status, 0, NULL };
	return fill_regions(r);
}

int pmctool_measure(struct pmctool_engine *e, const struct pmctool_request *rq, struct pmctool_result **ret,
		    struct pmctool_error *err)
{
	struct api_request q;
	struct pmc_engine se;
	struct pmc_metric_def *metrics = NULL;
	struct result *r = NULL;
	int rc, kind = 0;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!e || !rq || !ret)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "", PMC_EXIT_USAGE, "pmctool_measure: e, rq and ret are required");
	*ret = NULL;
	pmc_engine_init(&se, &e->ctx);
	if ((kind = api_request(e, rq, &q, err)))
		goto out;
	r = calloc(1, sizeof(*r));
	if (!r) {
		kind = api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	e->stop = 0;
	e->first_error[0] = '\0';
	e->first_subject[0] = '\0';
	pmc_launch_reset_ending(); /* a stop of the last measurement does not stop this one */
	rc = pmc_engine_prepare(&se, &q.o, &metrics);
	if (!rc && api_request_ready(&q, &se) < 0) {
		kind = api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
		goto out;
	}
	if (rc) {
		kind = api_fail(err, kind_of(rc, e, NULL), se.subject && se.subject[0] ? se.subject : e->first_subject, rc,
			    e->first_error);
		goto out;
	}
	rc = pmc_engine_check(&se, &q.o);
	if (!rc) {
		pmc_origin_get(&r->rep.origin);
		r->rep.has_origin = true;
		rc = pmc_engine_measure(&se, &q.o, metrics, &r->rep);
		if (!rc)
			rc = pmc_engine_status(&se, &r->rep);
	}
	if (rc) {
		enum pmctool_error_kind k = kind_of(rc, e, &r->rep);
		char detail[512] = "";

		result_detail(&r->rep, k, rc, detail, sizeof(detail));
		kind = api_fail(err, k, k == PMCTOOL_ERR_LAUNCH ? "argv" : e->first_subject, rc,
			    e->first_error[0]		? e->first_error
			    : k == PMCTOOL_ERR_COMMAND ? "the command failed: the result's exit_status says how"
							: detail);
	}
	if (r->rep.nruns || kind == PMCTOOL_ERR_NOCOUNT) { /* what was measured, or why nothing could be */
		if (fill(r) < 0) {
			kind = api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
			goto out;
		}
		*ret = &r->pub;
		r = NULL;
	}
out:
	free_result(r);
	free(metrics);
	api_request_fini(&q);
	pmc_engine_fini(&se);
	return kind;
}

int pmctool_result_json(const struct pmctool_result *pub, char **ret, size_t *ret_len)
{
	const struct result *r = (const struct result *)pub;
	struct pmc_output_opts out = { .format = PMC_OUTPUT_JSON };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!pub || !ret)
		return -EINVAL;
	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	rc = pmc_output_write(f, &r->rep, &out);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (rc) {
		free(buf);
		return rc < 0 ? rc : -EIO;
	}
	*ret = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
}

void pmctool_result_free(struct pmctool_result *pub)
{
	free_result((struct result *)pub);
}

/* ---- a saved report evaluated again ---- */

/* The report's public part first: pmctool_report_free takes the pointer the caller holds. */
struct report_result {
	struct pmctool_report pub;
	struct result *res;                  /* counts, metrics, checks (its report points into keep) */
	struct pmc_replay_keep keep;
	struct pmctool_topdown_node *nodes;
	struct pmc_metric_def *metrics;
};

void pmctool_report_free(struct pmctool_report *pub)
{
	struct report_result *rr = (struct report_result *)pub;

	if (!rr)
		return;
	free_result(rr->res);
	free(rr->nodes);
	free(rr->metrics);
	free(rr);
}

/* The request's level, tables and metrics, checked before anything is evaluated. 0, or the error's kind. */
static int report_request(const struct pmctool_report_request *rq, struct report_result *rr, struct pmc_replay_req *q,
			  struct pmctool_error *err)
{
	size_t n = 0;
	struct stat st;

	*q = (struct pmc_replay_req){ .topdown_def = rq->topdown_def, .topdown_level = rq->topdown_level,
				      .topdown = rq->topdown != 0, .tables = rq->tables };
	if (rq->topdown_level < 0 || rq->topdown_level > 9)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "topdown_level", PMC_EXIT_USAGE,
			    "topdown_level is a level, 1 or 2 (0: the report's, else the deepest it has inputs for)");
	if (rq->tables && (stat(rq->tables, &st) || !S_ISDIR(st.st_mode)))
		return api_fail(err, PMCTOOL_ERR_REQUEST, "tables", PMC_EXIT_USAGE,
			    "tables is not a directory (a vendor table directory: see pmctool-tables(1))");
	while (rq->metrics && rq->metrics[n])
		n++;
	if (n && !(rr->metrics = calloc(n, sizeof(*rr->metrics))))
		return api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		char why[256], detail[512];

		if (pmc_metric_def_parse_cli(rq->metrics[i], &rr->metrics[i], why, sizeof(why)) < 0) {
			snprintf(detail, sizeof(detail), "bad metric '%.200s': %s", rq->metrics[i], why);
			return api_fail(err, PMCTOOL_ERR_REQUEST, "metrics", PMC_EXIT_USAGE, detail);
		}
	}
	q->metrics = rr->metrics;
	q->nmetrics = n;
	return 0;
}

/* The report's tree (its first: the total's) as typed nodes. 0 or -ENOMEM. */
static int report_nodes(struct report_result *rr)
{
	const struct pmc_report_topdown *td = rr->res->rep.topdown;

	if (!td)
		return 0;
	rr->nodes = calloc(td->nnodes ? td->nnodes : 1, sizeof(*rr->nodes));
	if (!rr->nodes)
		return -ENOMEM;
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];

		rr->nodes[i] = (struct pmctool_topdown_node){ n->name, n->parent, n->level, n->ok, n->ok ? n->value : 0,
							      n->bottleneck, n->reason };
	}
	rr->pub.tree = td->tree;
	rr->pub.tree_why = td->why;
	rr->pub.unit = td->unit;
	rr->pub.level = td->level;
	rr->pub.nnodes = td->nnodes;
	rr->pub.nodes = rr->nodes;
	return 0;
}

int pmctool_report_eval(struct pmctool_engine *e, const struct pmctool_report_request *rq,
			struct pmctool_report **ret, struct pmctool_error *err)
{
	struct report_result *rr;
	struct pmc_replay_req q;
	struct pmc_loaded l;
	struct pmc_diag_sink prev;
	char why[256];
	int kind, rc;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!e || !rq || !rq->json || !ret)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "", PMC_EXIT_USAGE, "pmctool_report_eval: e, rq, rq->json and ret "
			    "are required");
	*ret = NULL;
	rr = calloc(1, sizeof(*rr));
	if (!rr || !(rr->res = calloc(1, sizeof(*rr->res)))) {
		free(rr);
		return api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
	}
	if ((kind = report_request(rq, rr, &q, err))) {
		pmctool_report_free(&rr->pub);
		return kind;
	}
	memset(&l, 0, sizeof(l));
	rc = pmc_loaded_parse(rq->json, rq->json_len ? rq->json_len : strlen(rq->json), &l, why, sizeof(why));
	if (rc < 0) {
		pmctool_report_free(&rr->pub);
		return rc == -ENOMEM ? api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory")
				     : api_fail(err, PMCTOOL_ERR_REQUEST, "json", PMC_EXIT_USAGE, why);
	}
	e->first_error[0] = '\0';
	e->first_subject[0] = '\0';
	prev = pmc_diag_exchange((struct pmc_diag_sink){ api_collect, e });
	rc = pmc_engine_replay(&l, &q, &rr->keep, &rr->res->rep);
	pmc_diag_exchange(prev);
	pmc_loaded_fini(&l);
	if (!rc && (fill(rr->res) < 0 || report_nodes(rr) < 0))
		rc = PMC_EXIT_INTERNAL;
	if (rc) {
		kind = rc == PMC_EXIT_USAGE ? api_fail(err, PMCTOOL_ERR_REQUEST, e->first_subject, rc, e->first_error)
					    : api_fail(err, PMCTOOL_ERR_SYSTEM, "", rc, "out of memory");
		pmctool_report_free(&rr->pub);
		return kind;
	}
	rr->pub.result = &rr->res->pub;
	*ret = &rr->pub;
	return 0;
}

/* Live counting: the engine's live counter set (engine/live.c) on the request's targets. */
struct pmctool_live {
	struct pmctool_engine *e;
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_metric_def *metrics;
	struct pmc_metric_def *defs;   /* the request's metrics, parsed */
	struct pmc_eng_live *live;
	int *cpus;
	pid_t *pids;
};

void pmctool_live_close(struct pmctool_live *l)
{
	if (!l)
		return;
	pmc_eng_live_close(l->live);
	pmc_engine_fini(&l->se);
	free(l->metrics);
	free(l->defs);
	free(l->cpus);
	free(l->pids);
	free(l);
}

/* The live request as the engine's options (the arrays copied into l). */
static int live_opts(struct pmctool_live *l, const struct pmctool_live_request *rq, struct pmctool_error *err)
{
	struct pmc_engine_opts *o = &l->o;

	int kind;

	pmc_engine_opts_init(o);
	if ((rq->ncpus && !rq->cpus) || (rq->npids && !rq->pids) || (rq->ncpus && rq->npids))
		return api_fail(err, PMCTOOL_ERR_REQUEST, rq->npids ? "pids" : "cpus", PMC_EXIT_USAGE,
			    "give CPUs (cpus, ncpus) or processes (pids, npids), not both; neither counts every CPU");
	if ((kind = api_request_what(l->e, o, rq->events, rq->eventset, rq->metrics, &l->defs, err)))
		return kind;
	l->cpus = malloc((rq->ncpus + 1) * sizeof(*l->cpus));
	l->pids = malloc((rq->npids + 1) * sizeof(*l->pids));
	if (!l->cpus || !l->pids)
		return api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
	for (size_t i = 0; i < rq->ncpus; i++)
		l->cpus[i] = rq->cpus[i];
	for (size_t i = 0; i < rq->npids; i++)
		l->pids[i] = (pid_t)rq->pids[i];
	o->targets.cpus = l->cpus;
	o->targets.ncpus = rq->ncpus;
	o->targets.pids = l->pids;
	o->targets.npids = rq->npids;
	o->targets.system_wide = !rq->ncpus && !rq->npids;
	o->env_lean = true;
	return 0;
}

int pmctool_live_open(struct pmctool_engine *e, const struct pmctool_live_request *rq, struct pmctool_live **ret,
		      struct pmctool_error *err)
{
	struct pmctool_live *l;
	int rc, kind;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!e || !rq || !ret)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "", PMC_EXIT_USAGE, "pmctool_live_open: e, rq and ret are required");
	*ret = NULL;
	if (!(l = calloc(1, sizeof(*l))))
		return api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
	l->e = e;
	e->stop = 0;
	e->first_error[0] = '\0';
	pmc_engine_init(&l->se, &e->ctx);
	if ((kind = live_opts(l, rq, err))) {
		pmctool_live_close(l);
		return kind;
	}
	rc = pmc_eng_scope_check(&l->o);
	if (!rc)
		rc = pmc_engine_prepare(&l->se, &l->o, &l->metrics);
	if (!rc)
		rc = pmc_engine_check(&l->se, &l->o);
	if (!rc)
		rc = pmc_engine_live_open(&l->se, &l->o, &l->live);
	if (rc) {
		kind = api_fail(err, kind_of(rc, e, NULL), l->se.subject && *l->se.subject ? l->se.subject : "", rc,
			    e->first_error[0] ? e->first_error : "the counters could not be opened");
		pmctool_live_close(l);
		return kind;
	}
	*ret = l;
	return 0;
}

int pmctool_live_snapshot(struct pmctool_live *l, struct pmctool_result **ret, struct pmctool_error *err)
{
	struct result *r;
	int rc;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!l || !ret)
		return api_fail(err, PMCTOOL_ERR_REQUEST, "", PMC_EXIT_USAGE, "pmctool_live_snapshot: l and ret are required");
	*ret = NULL;
	if (!(r = calloc(1, sizeof(*r))))
		return api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL, "out of memory");
	l->e->first_error[0] = '\0';
	rc = pmc_engine_live_read(&l->se, &l->o, l->live, l->metrics, &r->rep);
	if (rc || fill(r) < 0) {
		pmctool_result_free(&r->pub);
		return api_fail(err, PMCTOOL_ERR_SYSTEM, "", PMC_EXIT_INTERNAL,
			    l->e->first_error[0] ? l->e->first_error : "out of memory");
	}
	*ret = &r->pub;
	return 0;
}
