/* SPDX-License-Identifier: MIT */
/* Sweep, compare and merge results as one JSON document each (kinds "sweep", "compare", "merge" of
 * schema/pmctool-report.schema.json): the JSON format's entries for them (format.h). */
#include <math.h>

#include "output/multi.h"

static void json_series(struct pmc_jw *w, const struct pmc_series *s, double per)
{
	if (s->kind == PMC_SERIES_METRIC)
		per = 1;
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", s->name);
	pmc_jw_kstr(w, "kind", pmc_series_kind_name(s->kind));
	pmc_jw_kstr_or_null(w, "region", s->region);
	pmc_jw_kstr_or_null(w, "unit", s->unit);
	pmc_jw_kbool(w, "ok", s->ok);
	pmc_jw_kstr_or_null(w, "reason", s->ok ? NULL : s->reason);
	pmc_jw_kuint(w, "n", s->ok ? s->nruns : 0);
	pmc_jw_knum_if(w, "mean", s->ok, s->mean / per);
	pmc_jw_knum_if(w, "sd", s->ok, s->sd / per);
	pmc_jw_knum_if(w, "min", s->ok, s->min / per);
	pmc_jw_knum_if(w, "max", s->ok, s->max / per);
	pmc_jw_karray_begin(w, "runs");
	for (size_t r = 0; r < s->nruns; r++)
		pmc_jw_num(w, s->runs[r] / per);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

static void sweep_point(struct pmc_jw *w, const struct pmc_sweep_point *p)
{
	double per = p->per > 0 ? p->per : 1;

	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "value", p->value);
	pmc_jw_knum(w, "x", p->x);
	pmc_jw_kuint(w, "rounds_ok", p->rounds_ok);
	pmc_jw_kuint(w, "rounds_failed", p->rounds_failed);
	pmc_jw_kstr_or_null(w, "failure", p->rounds_failed ? p->failure : NULL);
	pmc_jw_knum(w, "divisor", per);
	pmc_jw_karray_begin(w, "series");
	for (size_t k = 0; k < p->data.n; k++)
		json_series(w, &p->data.s[k], per);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

/* The two points of the step after point i: their values' names, then the caller's numbers. */
static void step_begin(struct pmc_jw *w, const struct pmc_sweep *sw, size_t i)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "from_value", sw->pts[i].value);
	pmc_jw_kstr(w, "to_value", sw->pts[i + 1].value);
}

int pmc_sweep_json(FILE *f, const struct pmc_sweep *sw)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_header(w, "sweep");
	pmc_jw_kstr(w, "parameter", sw->param);
	pmc_jw_kstr(w, "how", sw->how);
	pmc_jw_kstr(w, "workload", sw->workload);
	pmc_jw_kstr_or_null(w, "normalized", sw->per_text);
	pmc_jw_kuint(w, "rounds", sw->rounds);
	pmc_jw_kuint(w, "seed", sw->seed);
	pmc_jw_kbool(w, "partial", sw->partial);
	pmc_jw_kstr(w, "plotted", sw->y);
	pmc_jw_karray_begin(w, "points");
	for (size_t i = 0; i < sw->npoints; i++)
		sweep_point(w, &sw->pts[i]);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "steps");
	for (size_t k = 0; k < sw->nsteps; k++) {
		double a, b, sd;

		pmc_sweep_value(sw, sw->steps[k], sw->y, &a, &sd);
		pmc_sweep_value(sw, sw->steps[k] + 1, sw->y, &b, &sd);
		step_begin(w, sw, sw->steps[k]);
		pmc_jw_knum(w, "from", a);
		pmc_jw_knum(w, "to", b);
		pmc_jw_knum(w, "score", sw->step_score[k]);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	if (sw->largest < 0) {
		pmc_jw_knull(w, "largest_change");
	} else {
		pmc_jw_key(w, "largest_change");
		step_begin(w, sw, (size_t)sw->largest);
		pmc_jw_knum(w, "score", sw->largest_score);
		pmc_jw_object_end(w);
	}
	pmc_jw_object_end(w);
	fputc('\n', f);
	return 0;
}

static void compare_row(struct pmc_jw *w, const struct pmc_compare_row *r)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", r->name);
	pmc_jw_kstr(w, "kind", pmc_series_kind_name(r->kind));
	pmc_jw_kstr_or_null(w, "unit", r->unit);
	pmc_jw_knum(w, "a", r->a);
	pmc_jw_knum(w, "b", r->b);
	pmc_jw_knum(w, "sd_a", r->sd_a);
	pmc_jw_knum(w, "sd_b", r->sd_b);
	pmc_jw_kuint(w, "n_a", r->na);
	pmc_jw_kuint(w, "n_b", r->nb);
	pmc_jw_knum_if(w, "diff", r->ok_a && r->ok_b, r->diff);
	pmc_jw_knum(w, "ratio", r->ratio);
	pmc_jw_knum_if(w, "statistic", r->tested, r->t.stat);
	pmc_jw_knum_if(w, "p", r->tested, r->t.p);
	pmc_jw_kstr(w, "verdict", r->verdict);
	pmc_jw_kstr_or_null(w, "note", r->note);
	pmc_jw_object_end(w);
}

int pmc_compare_json(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_header(w, "compare");
	pmc_jw_kstr(w, "a", c->a_name);
	pmc_jw_kstr(w, "b", c->b_name);
	pmc_jw_kstr(w, "test", pmc_test_name(c->test));
	pmc_jw_knum(w, "alpha", c->alpha);
	pmc_jw_karray_begin(w, "rows");
	for (size_t i = 0; i < c->nrows; i++)
		compare_row(w, &c->rows[i]);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "conditions");
	for (size_t i = 0; i < nconds; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "condition", conds[i].text);
		pmc_jw_kstr(w, "state", pmc_cond_state_name(conds[i].state));
		pmc_jw_kstr(w, "why", conds[i].why);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_kobject_begin(w, "environment");
	pmc_jw_key(w, "same");
	if (c->env_same == 1 || !c->env_same)
		pmc_jw_bool(w, c->env_same == 1);
	else
		pmc_jw_null(w);
	pmc_jw_kstr_or_null(w, "differences", c->env_diff);
	pmc_jw_object_end(w);
	pmc_jw_object_end(w);
	fputc('\n', f);
	return 0;
}

static void merge_rank(struct pmc_jw *w, const struct pmc_merge_rank *rk)
{
	pmc_jw_object_begin(w);
	pmc_jw_kint(w, "rank", rk->rank);
	pmc_jw_kstr_or_null(w, "host", rk->host);
	pmc_jw_kstr(w, "file", rk->file);
	pmc_jw_kstr(w, "state", rk->state);
	pmc_jw_kstr_or_null(w, "why", rk->why);
	pmc_jw_karray_begin(w, "series");
	for (size_t i = 0; i < rk->data.n; i++)
		json_series(w, &rk->data.s[i], 1);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

static void merge_row(struct pmc_jw *w, const struct pmc_merge_row *row)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", row->name);
	pmc_jw_kstr(w, "kind", pmc_series_kind_name(row->kind));
	pmc_jw_kstr_or_null(w, "region", row->region);
	pmc_jw_kstr_or_null(w, "unit", row->unit);
	pmc_jw_kuint(w, "ranks", row->n);
	pmc_jw_knum(w, "total", row->total);
	pmc_jw_knum(w, "min", row->min);
	pmc_jw_knum(w, "mean", row->mean);
	pmc_jw_knum(w, "max", row->max);
	pmc_jw_knum(w, "imbalance", row->imbalance);
	pmc_jw_knum_if(w, "min_rank", row->n, (double)row->min_rank);
	pmc_jw_knum_if(w, "max_rank", row->n, (double)row->max_rank);
	pmc_jw_object_end(w);
}

int pmc_merge_json(FILE *f, const struct pmc_merge *m)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_header(w, "merge");
	pmc_jw_kuint(w, "reports", m->nranks);
	pmc_jw_kuint(w, "failed", m->failed);
	pmc_jw_kuint(w, "partial", m->partial);
	pmc_jw_kuint(w, "unreadable", m->unreadable);
	pmc_jw_karray_begin(w, "ranks");
	for (size_t r = 0; r < m->nranks; r++)
		merge_rank(w, &m->ranks[r]);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "summary");
	for (size_t k = 0; k < m->nrows; k++)
		merge_row(w, &m->rows[k]);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
	fputc('\n', f);
	return 0;
}
