/* SPDX-License-Identifier: MIT */
/* The library's private parts shared by its files: the engine handle, its error helpers, and the typed request
 * (include/pmctool_engine.h) made into the engine's options (api_request.c). Private to src/api/. */
#ifndef PMC_API_H
#define PMC_API_H

#include <signal.h>

#include "pmctool_engine.h"
#include "engine/engine.h"

struct pmctool_engine {
	struct pmc_engine_ctx ctx;
	volatile sig_atomic_t stop;
	char first_error[512];         /* the first error message of the call running now */
	char first_subject[32];        /* the request field it named first (util/diag.h: PMC_FIELD), or "" */
};

/* Fill err (NULL accepted) and return kind. */
int api_fail(struct pmctool_error *err, enum pmctool_error_kind kind, const char *subject, int status,
	     const char *detail);
/* A diagnostics sink (ctx: the engine) keeping the first error and its subject. */
void api_collect(void *vctx, enum pmc_diag_kind kind, const char *msg);

/* -I's records of the totals gathered into one pmctool_interval per interval for the request's callback. */
struct api_intervals {
	void (*fn)(void *ctx, const struct pmctool_interval *iv);
	void *ctx;
	const struct pmc_engine *se;   /* its events: the records' */
	struct pmctool_count *counts;  /* se->n, allocated before the runs (none while they go) */
	unsigned char *have;           /* which of them the interval counted */
	unsigned index;
	double start_s, end_s;
};

/* A request made into the engine's options, with what they point to. */
struct api_request {
	struct pmc_engine_opts o;
	struct pmc_metric_def *defs;   /* the request's metrics, parsed */
	pid_t *pids, *tids;
	int *cpus;
	struct api_intervals iv;
};

/* events/eventset and metrics into o (*defs: the parsed metrics, the caller frees them). 0, or the error's kind. */
int api_request_what(struct pmctool_engine *e, struct pmc_engine_opts *o, const char *events, const char *eventset,
		     const char *const *metrics, struct pmc_metric_def **defs, struct pmctool_error *err);
/* rq into q (pmc_engine_opts_init'd here; the scope checks made). 0, or the error's kind (q for api_request_fini). */
int api_request(struct pmctool_engine *e, const struct pmctool_request *rq, struct api_request *q,
		struct pmctool_error *err);
/* After pmc_engine_prepare: the interval buffers for se's events. 0 or -ENOMEM. */
int api_request_ready(struct api_request *q, const struct pmc_engine *se);
void api_request_fini(struct api_request *q);

#endif
