/* SPDX-License-Identifier: MIT */
/*
 * pmctool_check (include/pmctool_engine.h): `pmctool check`'s trust check as a library call. info/check.h makes the
 * measurements and the judgements; its measure op here runs each on the engine in this process, as `pmctool check`
 * does: the loop kernel in this thread, or, for the items that time a launched loop, in a forked child (no exec).
 */
#include "pmctool_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/check_req.h"
#include "engine/check_uncore.h"
#include "engine/engine.h"
#include "info/check.h"
#include "info/inventory.h"
#include "report/report.h"
#include "run/emulate.h"
#include "run/launch.h"
#include "util/diag.h"
#include "util/util.h"

struct trust {
	struct pmctool_trust pub;
	struct pmc_check_result res;
	struct pmctool_trust_item items[PMC_CHECK_MAX_ITEMS];
};

struct runner {
	char first_error[256];
};

static void collect(void *vctx, enum pmc_diag_kind kind, const char *msg)
{
	struct runner *r = vctx;

	if (kind == PMC_DIAG_ERROR && !r->first_error[0])
		snprintf(r->first_error, sizeof(r->first_error), "%s", msg);
}

/* One measurement of the check (info/check.h's op), on the engine in this process. */
static int measure(void *vctx, const struct pmc_check_req *q, struct pmc_check_sample *s)
{
	struct runner *r = vctx;
	struct pmc_engine_ctx ctx = { .diag = collect, .diag_ctx = r };
	struct pmc_eng_check_args a;
	struct pmc_engine_opts o;
	struct pmc_report rep;
	int rc;

	pmc_engine_opts_init(&o);
	pmc_eng_check_opts(q, &a, &o);
	memset(&rep, 0, sizeof(rep));
	r->first_error[0] = '\0';
	rc = pmc_engine_run(&ctx, &o, &rep);
	if (rc && !rep.nruns) {
		s->rc = -1;
		snprintf(s->err, sizeof(s->err), "the measurement failed (pmctool stat would exit %d): %.180s", rc,
			 r->first_error[0] ? r->first_error : "no report");
	} else {
		pmc_eng_check_sample(&rep, s);
	}
	pmc_report_fini(&rep);
	return 0;
}

int pmctool_check(int quick, struct pmctool_trust **ret, struct pmctool_error *err)
{
	static struct pmc_inventory inv; /* large; pmctool check keeps it static too */
	struct trust *t;
	struct runner r = { .first_error = "" };
	struct pmc_check_env env;
	struct pmc_check_ops ops = { .measure = measure, .ctx = &r };
	char vg[4096];

	if (err)
		memset(err, 0, sizeof(*err));
	if (!ret || !(t = calloc(1, sizeof(*t)))) {
		if (err) {
			err->kind = ret ? PMCTOOL_ERR_SYSTEM : PMCTOOL_ERR_REQUEST;
			snprintf(err->detail, sizeof(err->detail), "%s", ret ? "out of memory" : "pmctool_check: ret is required");
			err->exit_status = ret ? PMC_EXIT_INTERNAL : PMC_EXIT_USAGE;
		}
		return ret ? PMCTOOL_ERR_SYSTEM : PMCTOOL_ERR_REQUEST;
	}
	*ret = NULL;
	pmc_launch_shared_process(); /* the caller's own children are not the check's */
	pmc_launch_reset_ending();
	pmc_inventory_collect(&inv);
	pmc_check_env_from(&inv, &env);
	env.quick = quick != 0;
	env.emulator = pmc_emulator_find(vg, sizeof(vg));
	pmc_check_run(&env, &ops, &t->res);
	pmc_check_uncore_items(&t->res); /* informational, as the command's */
	for (size_t i = 0; i < t->res.n; i++) {
		const struct pmc_check_item *it = &t->res.item[i];

		t->items[i] = (struct pmctool_trust_item){ it->name, it->title, (enum pmctool_trust_verdict)it->verdict,
							   pmc_check_verdict_name(it->verdict), it->detail };
	}
	t->pub = (struct pmctool_trust){ t->res.n, t->items, (enum pmctool_trust_verdict)t->res.overall,
					 pmc_check_verdict_name(t->res.overall), t->res.summary,
					 pmc_check_exit_status(&t->res) };
	*ret = &t->pub;
	return 0;
}

void pmctool_trust_free(struct pmctool_trust *t)
{
	free(t); /* the public part is the first member */
}
