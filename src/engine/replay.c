/* SPDX-License-Identifier: MIT */
/* A saved report evaluated again (replay.h): the tree chosen and fed from the report's counts, the metrics (default,
 * the request's, the vendor tables'), the checks. */
#include "engine/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/fields.h"
#include "metrics/checks.h"
#include "metrics/td_replay.h"
#include "metrics/tm_replay.h"
#include "metrics/topdown.h"
#include "metrics/topdown_report.h"
#include "pmu/event.h"
#include "report/replay.h"
#include "util/diag.h"
#include "util/util.h"

/* ---- the top-down tree from the report's counts ---- */

/* The tree: the request's, the report's, or the chooser's for the report's CPU (td->tree may stay NULL: none applies,
 * *why says why); td->model the libpfm4 PMU whose encodings are looked for. 0 or PMC_EXIT_USAGE after the message. */
static int choose_tree(const struct pmc_replay_req *rq, const struct pmc_loaded *l, struct pmc_td_replay *td,
		       const char **why, struct pmc_replay_keep *keep)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	const char *name = rq->topdown_def ? rq->topdown_def : l->td_tree[0] ? l->td_tree : NULL;

	td->model = l->cpu_pmu[0] ? l->cpu_pmu : forced && *forced ? forced : NULL;
	if (name) {
		td->tree = pmc_td_tree_find(name);
		*why = rq->topdown_def ? "chosen with --topdown-def" : "the tree the report was made with";
		if (!td->tree) {
			char names[512];
			size_t off = 0;

			names[0] = '\0';
			for (size_t i = 0; i < pmc_td_tree_count() && off < sizeof(names); i++)
				off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
							pmc_td_tree_at(i)->name);
			pmc_diag_error("%s '%s': no such top-down tree; the trees are: %s", rq->topdown_def ?
				       RQ_TOPDOWN_DEF : "the report's top-down tree", name, names);
			return PMC_EXIT_USAGE;
		}
	} else {
		struct pmc_td_cpu cpu = { .vendor = l->cpu_vendor[0] ? l->cpu_vendor : NULL, .pmu = td->model,
					  .smt_on = l->cpu_smt == 1 };
		struct pmc_td_choice ch;

		pmc_td_choose(&cpu, &ch);
		td->tree = ch.tree;
		snprintf(keep->why, sizeof(keep->why), "%s (CPU %s, from %s)", ch.reason, td->model ? td->model : "unknown",
			 l->cpu_pmu[0] ? "the report" : td->model ? "LIBPFM_FORCE_PMU" : "nowhere");
		*why = keep->why;
	}
	if (td->tree && !td->model)
		td->model = td->tree->pfm_pmu; /* stands in for the unnamed CPU: its events' encodings */
	return 0;
}

/* The model's encodings need libpfm4 forced to it before libpfm4 starts (it reads the variable once per process). */
static void force_model(const struct pmc_loaded *l, const char *model)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");

	if (forced && !strcmp(forced, model))
		return;
	if (forced && *forced && l->cpu_pmu[0])
		pmc_diag_note("the report is from CPU %s; LIBPFM_FORCE_PMU=%s is not used", model, forced);
	setenv("LIBPFM_FORCE_PMU", model, 1);
}

static int topdown(const struct pmc_replay_req *rq, const struct pmc_loaded *l, struct pmc_report *rep,
		   struct pmc_replay_keep *keep)
{
	struct pmc_td_replay *td = calloc(1, sizeof(*td));
	struct pmc_td_result *res = calloc(1, sizeof(*res));
	const char *why = NULL;
	int rc = PMC_EXIT_INTERNAL, level;

	if (!td || !res)
		goto out;
	if ((rc = choose_tree(rq, l, td, &why, keep)))
		goto out;
	if (!td->tree) {
		rc = 0;
		if (rq->topdown) {
			pmc_diag_error("no top-down tree for this report: %s; " RQ_TOPDOWN_DEF " NAME picks one",
				       why);
			rc = PMC_EXIT_USAGE;
		}
		goto out;
	}
	if (td->model) { /* libpfm4 may not know the model (Zen 5): its raw encodings are still known */
		force_model(l, td->model);
		pmc_pmu_init(NULL, 0);
	}
	pmc_td_replay_inputs(rep, td);
	level = rq->topdown_level	       ? rq->topdown_level
		: l->td_level && !rq->topdown_def ? l->td_level
						  : pmc_td_replay_deepest(td);
	if (level > td->tree->max_level) {
		pmc_diag_error(RQ_TOPDOWN_LEVEL "=%d: the tree %s has %d level%s", level, td->tree->name,
			       td->tree->max_level, td->tree->max_level == 1 ? "" : "s");
		rc = PMC_EXIT_USAGE;
		goto out;
	}
	rc = PMC_EXIT_INTERNAL;
	if (pmc_td_eval(td->tree, td->v, res) || pmc_td_report_fill(rep, td->tree, level, why, res))
		goto out;
	if (td->scaled)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "topdown-multiplexed",
				     "the top-down tree is built from scaled estimates: its events were multiplexed");
	rc = 0;
out:
	free(td);
	free(res);
	return rc;
}

/* ---- metrics and checks ---- */

/* The checks evaluated again here; the report's others (what the measuring machine saw) are kept as written. */
static bool recomputed(const char *name)
{
	static const char *const names[] = { "multiplexed", "batch-drift", "utilization", "kernel-share",
					     "retired-vs-expected", "impossible-count", "zero-count", "descheduled",
					     "topdown-sum", "topdown-children", "topdown-range", "topdown-multiplexed" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

static bool has_metric(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nmetrics; i++)
		if (!strcasecmp(rep->metrics[i].name, name))
			return true;
	return false;
}

/* The report's metric rows not evaluated yet: the vendor tables' evaluated again (metrics/tm_replay.c); *ret says
 * for each why it was not. 0 or PMC_EXIT_INTERNAL. */
static int table_metrics(const struct pmc_replay_req *rq, const struct pmc_loaded *l, struct pmc_report *rep,
			 struct pmc_tm_replayed **ret, size_t *nret)
{
	const struct pmc_tm_replay_src src = { .tables_dir = rq->tables, .env_tables = l->env.tables,
					       .cpuid = l->env.cpuid, .smt = l->cpu_smt, .target_kind = l->target_kind,
					       .tsc_hz = rep->tsc_hz };
	struct pmc_tm_replayed *rows = calloc(l->n + 1, sizeof(*rows));
	size_t n = 0;
	char info[1024];

	*ret = rows;
	*nret = 0;
	if (!rows)
		return PMC_EXIT_INTERNAL;
	for (size_t i = 0; i < l->n; i++)
		if (l->s[i].kind == PMC_SERIES_METRIC && !has_metric(rep, l->s[i].name))
			rows[n++].name = l->s[i].name;
	*nret = n;
	if (!n)
		return 0;
	if (pmc_tm_replay(rep, &src, rows, n, info, sizeof(info)))
		return PMC_EXIT_INTERNAL;
	if (info[0]) /* which tables and literals, or why none */
		pmc_report_add_check(rep, PMC_CHECK_INFO, "report-table-metrics", "%s", info);
	return 0;
}

/* A metric whose formula pmctool does not know: as the report has it, saying why. 0 or -ENOMEM. */
static int kept_metric(struct pmc_report *rep, const struct pmc_series *s, const struct pmc_tm_replayed *rows,
		       size_t nrows)
{
	struct pmc_metric_value m = { .valid = s->ok, .value = s->mean };
	const char *why = "its formula is not known here";

	for (size_t r = 0; r < nrows; r++)
		if (!strcmp(rows[r].name, s->name) && rows[r].why[0])
			why = rows[r].why;
	snprintf(m.name, sizeof(m.name), "%.63s", s->name);
	snprintf(m.unit, sizeof(m.unit), "%s", s->unit);
	snprintf(m.desc, sizeof(m.desc), "as the report gives it, not evaluated again: %.110s", why);
	snprintf(m.reason, sizeof(m.reason), "%.159s", s->reason[0] ? s->reason : "n/a in the report");
	return pmc_report_add_metric(rep, &m);
}

static int metrics_and_checks(const struct pmc_replay_req *rq, const struct pmc_loaded *l, struct pmc_report *rep,
			      size_t rows_left)
{
	size_t ndef = 0, kept = 0, nrows = 0;
	const struct pmc_metric_def *defs = pmc_metrics_default(&ndef);
	struct pmc_tm_replayed *rows = NULL;
	int rc;
	char names[256] = "";
	size_t off = 0;

	if (pmc_metrics_eval(rep, defs, ndef, PMC_METRICS_SKIP_ABSENT) ||
	    (rq->nmetrics && pmc_metrics_eval(rep, rq->metrics, rq->nmetrics, 0)))
		return PMC_EXIT_INTERNAL;
	if ((rc = table_metrics(rq, l, rep, &rows, &nrows))) {
		free(rows);
		return rc;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct pmc_series *s = &l->s[i];

		if (s->kind != PMC_SERIES_METRIC || has_metric(rep, s->name))
			continue;
		if (kept_metric(rep, s, rows, nrows)) {
			free(rows);
			return PMC_EXIT_INTERNAL;
		}
		if (off < sizeof(names))
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", kept ? ", " : "", s->name);
		kept++;
	}
	if (kept)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "report-metrics-kept",
				     "%zu metric%s copied from the report, not evaluated again (give --metric NAME=FORMULA, or "
				     "--tables DIR for table metrics): %s", kept, kept == 1 ? "" : "s", names);
	free(rows);
	pmc_checks_run(rep, NULL);
	for (size_t i = 0; i < l->nchecks; i++) {
		const struct pmc_loaded_check *c = &l->checks[i];

		if (recomputed(c->name))
			continue;
		pmc_report_add_check(rep, !strcmp(c->severity, "bad") ? PMC_CHECK_BAD :
				     !strcmp(c->severity, "warn") ? PMC_CHECK_WARN : PMC_CHECK_INFO, c->name, "%s", c->msg);
	}
	if (rows_left)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "report-rows-left",
				     "the report's %zu row%s (-A, --per-*, --per-thread) %s left out: pmctool report "
				     "evaluates the totals", rows_left, rows_left == 1 ? "" : "s",
				     rows_left == 1 ? "is" : "are");
	return 0;
}

int pmc_engine_replay(const struct pmc_loaded *l, const struct pmc_replay_req *rq, struct pmc_replay_keep *keep,
		      struct pmc_report *rep)
{
	size_t rows = 0;
	int rc = pmc_report_from_loaded(l, rep, &rows) ? PMC_EXIT_INTERNAL : 0;

	if (!rc)
		rc = topdown(rq, l, rep, keep);
	if (!rc)
		rc = metrics_and_checks(rq, l, rep, rows);
	return rc;
}
