/* SPDX-License-Identifier: MIT */
/* Sweeps, comparisons and merges built from loaded stat reports. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/multi.h"

size_t pmc_sweep_series(const struct pmc_sweep *sw, const struct pmc_series ***ret)
{
	const struct pmc_series **list = NULL;
	size_t n = 0;

	*ret = NULL;
	for (size_t p = 0; p < sw->npoints; p++) {
		for (size_t i = 0; i < sw->pts[p].data.n; i++) {
			const struct pmc_series *s = &sw->pts[p].data.s[i];
			bool seen = s->kind == PMC_SERIES_REGION;
			const struct pmc_series **nl;

			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp(list[k]->name, s->name) && list[k]->kind == s->kind;
			if (seen)
				continue;
			nl = realloc(list, (n + 1) * sizeof(*nl));
			if (!nl) {
				free(list);
				return 0;
			}
			list = nl;
			list[n++] = s;
		}
	}
	*ret = list;
	return n;
}

void pmc_sweep_value(const struct pmc_sweep *sw, size_t i, const char *name, double *mean, double *sd)
{
	const struct pmc_sweep_point *p = &sw->pts[i];
	const struct pmc_series *s = pmc_loaded_find(&p->data, name);
	double per = p->per > 0 && s && s->kind != PMC_SERIES_METRIC ? p->per : 1; /* metrics are ratios already */

	*mean = *sd = NAN;
	if (!s || !s->ok)
		return;
	*mean = s->mean / per;
	*sd = isfinite(s->sd) ? s->sd / per : NAN;
}

/* Whether the points span a factor of 32 or more in x (as the plot's log axis) and every y is positive. */
static bool geometric(const struct pmc_sweep *sw, const double *y, size_t m)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < sw->npoints; i++) {
		if (!(sw->pts[i].x > 0))
			return false;
		lo = fmin(lo, sw->pts[i].x);
		hi = fmax(hi, sw->pts[i].x);
	}
	for (size_t i = 0; i < m; i++)
		if (!(y[i] > 0))
			return false;
	return m >= 3 && hi / lo >= 32;
}

void pmc_sweep_find_steps(struct pmc_sweep *sw)
{
	double *y = calloc(sw->npoints + 1, sizeof(double)), *err = calloc(sw->npoints + 1, sizeof(double));
	double *score = calloc(sw->npoints + 1, sizeof(double));
	size_t *idx = NULL, m = 0;

	sw->nsteps = 0;
	sw->largest = -1;
	if (!y || !err || !score || !(idx = calloc(sw->npoints + 1, sizeof(*idx))))
		goto out;
	for (size_t i = 0; i < sw->npoints; i++) { /* the measured points, in x order (the points are sorted) */
		double mean, sd;
		pmc_sweep_value(sw, i, sw->y, &mean, &sd);
		if (!isfinite(mean))
			continue;
		y[m] = mean;
		err[m] = isfinite(sd) ? sd : 0;
		idx[m++] = i;
	}
	if (geometric(sw, y, m)) { /* over a factor of 32 or more, compare ratios: a steady power law is no step */
		for (size_t i = 0; i < m; i++) {
			err[i] /= y[i];
			y[i] = log(y[i]);
		}
	}
	sw->largest = pmc_steps_score(y, err, m, score);
	if (sw->largest < 0)
		goto out;
	sw->largest_score = score[sw->largest];
	for (size_t i = 0; i + 1 < m; i++) /* a spike that comes back is an outlier, not two steps */
		if (!pmc_steps_level_holds(y, m, i))
			score[i] = -1;
	for (size_t want = 0; want < 8; want++) { /* the steps, highest score first */
		long best = -1;
		for (size_t i = 0; i + 1 < m; i++)
			if (score[i] >= PMC_STEP_MIN_SCORE && (best < 0 || score[i] > score[best]))
				best = (long)i;
		if (best < 0)
			break;
		sw->steps[sw->nsteps] = idx[best];
		sw->step_score[sw->nsteps++] = score[best];
		score[best] = -1;
	}
	sw->largest = (long)idx[sw->largest];
out:
	free(y);
	free(err);
	free(score);
	free(idx);
}

/* ---- compare ---- */

static void fill_side(const struct pmc_series *s, bool *ok, double *mean, double *sd, size_t *n)
{
	*ok = s && s->ok;
	*mean = *ok ? s->mean : NAN;
	*sd = *ok ? s->sd : NAN;
	*n = *ok ? (s->nruns ? s->nruns : 1) : 0;
}

static void compare_row(struct pmc_compare_row *r, const struct pmc_series *sa, const struct pmc_series *sb,
			enum pmc_test test, double alpha)
{
	const struct pmc_series *any = sa ? sa : sb;

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", any->name);
	snprintf(r->unit, sizeof(r->unit), "%s", any->unit);
	r->kind = any->kind;
	fill_side(sa, &r->ok_a, &r->a, &r->sd_a, &r->na);
	fill_side(sb, &r->ok_b, &r->b, &r->sd_b, &r->nb);
	r->diff = r->b - r->a;
	r->ratio = r->ok_a && r->ok_b && r->a != 0 ? r->b / r->a : NAN;
	if (!r->ok_a || !r->ok_b) {
		const struct pmc_series *bad = !r->ok_a ? sa : sb;
		r->verdict = "not measured";
		snprintf(r->note, sizeof(r->note), "%s: %.180s", !r->ok_a ? "A" : "B",
			 bad ? (bad->reason[0] ? bad->reason : "not counted") : "not in this report");
		return;
	}
	if (pmc_test_run(test, sa->runs, sa->nruns, sb->runs, sb->nruns, &r->t) < 0) {
		r->verdict = r->a == r->b ? "no difference" : "not enough runs";
		snprintf(r->note, sizeof(r->note), "%s needs %zu runs on each side (have %zu and %zu): -r", pmc_test_name(test),
			 pmc_test_min_n(test), sa->nruns, sb->nruns);
		return;
	}
	r->tested = true;
	r->verdict = r->a == r->b && r->t.p >= 1 ? "no difference" : r->t.p < alpha ? "significant" : "not significant";
}

int pmc_compare_build(const struct pmc_loaded *a, const struct pmc_loaded *b, enum pmc_test test, double alpha,
		      struct pmc_compare *ret)
{
	struct pmc_compare c;

	memset(&c, 0, sizeof(c));
	c.test = test;
	c.alpha = alpha;
	snprintf(c.a_name, sizeof(c.a_name), "%s", a->workload);
	snprintf(c.b_name, sizeof(c.b_name), "%s", b->workload);
	if (!a->env.present || !b->env.present) {
		c.env_same = -1;
		snprintf(c.env_diff, sizeof(c.env_diff), "%s no environment (written by an older pmctool or by hand): "
			 "whether both were measured alike cannot be told", !a->env.present && !b->env.present ? "A and B have"
			 : !a->env.present ? "A has" : "B has");
	} else {
		c.env_same = pmc_env_diff(&a->env, &b->env, c.env_diff, sizeof(c.env_diff)) == 0;
	}
	c.rows = calloc(a->n + b->n + 1, sizeof(*c.rows));
	if (!c.rows)
		return -ENOMEM;
	for (size_t i = 0; i < a->n; i++) {
		const struct pmc_series *sb = NULL;
		if (a->s[i].kind == PMC_SERIES_REGION)
			continue;
		for (size_t k = 0; k < b->n && !sb; k++)
			if (pmc_series_same(&b->s[k], &a->s[i]))
				sb = &b->s[k];
		compare_row(&c.rows[c.nrows++], &a->s[i], sb, test, alpha);
	}
	for (size_t k = 0; k < b->n; k++) {
		bool in_a = b->s[k].kind == PMC_SERIES_REGION;
		for (size_t i = 0; i < a->n && !in_a; i++)
			in_a = pmc_series_same(&b->s[k], &a->s[i]);
		if (!in_a)
			compare_row(&c.rows[c.nrows++], NULL, &b->s[k], test, alpha);
	}
	*ret = c;
	return 0;
}

void pmc_compare_fini(struct pmc_compare *c)
{
	if (!c)
		return;
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

int pmc_fail_cond_parse(const char *text, struct pmc_fail_cond *ret, char *err, size_t errlen)
{
	struct pmc_fail_cond c;
	const char *op = NULL; /* the last '<' or '>': event names may hold one (uops_issued.any>=2) */
	char *end;
	size_t nlen;

	memset(&c, 0, sizeof(c));
	for (const char *p = text; *p; p++)
		if (*p == '<' || *p == '>')
			op = p;
	if (strlen(text) >= sizeof(c.text) || !op || op == text) {
		snprintf(err, errlen, "expected NAME>+N%% or NAME<-N%% (or an absolute change, NAME>+N), like "
			 "'instructions>+2%%'");
		return -EINVAL;
	}
	snprintf(c.text, sizeof(c.text), "%s", text);
	nlen = (size_t)(op - text);
	while (nlen && text[nlen - 1] == ' ')
		nlen--;
	snprintf(c.name, sizeof(c.name), "%.*s", (int)nlen, text);
	c.op = *op;
	op++;
	if (*op != '+' && *op != '-' && (*op < '0' || *op > '9')) {
		snprintf(err, errlen, "after '%c' a signed number: '%s>+2%%' (B more than 2%% above A)", c.op, c.name);
		return -EINVAL;
	}
	c.threshold = strtod(op, &end);
	if (end == op || !isfinite(c.threshold) || strspn(op + (*op == '+' || *op == '-'), "0123456789.") !=
	    (size_t)(end - op - (*op == '+' || *op == '-'))) {
		snprintf(err, errlen, "'%s' is not a decimal number", op);
		return -EINVAL;
	}
	if (*end == '%') {
		c.pct = true;
		end++;
	} else if (!strcmp(end, "sd")) {
		c.sd = true;
		end += 2;
		if (c.op == '>' ? c.threshold < 0 : c.threshold > 0) {
			snprintf(err, errlen, "'%s': a spread threshold points the way of its comparison (NAME>+3sd, "
				 "NAME<-3sd)", text);
			return -EINVAL;
		}
	}
	if (*end) {
		snprintf(err, errlen, "unexpected '%s' at the end (expected NAME>+N%%, NAME>+N or NAME>+Nsd)", end);
		return -EINVAL;
	}
	*ret = c;
	return 0;
}

/* NAME>+Ksd: the change of the means against the runs' spread (the two sides' standard deviations pooled). No
 * spread at all (exact counts: user-mode instructions, emulated counts) makes any change in that direction hold, and
 * none not: the rule never fails on noise an exact count does not have, and always on a real change. */
static void fail_cond_eval_sd(const struct pmc_compare_row *r, struct pmc_fail_cond *cond)
{
	double change = r->b - r->a, sd, k;

	if (r->na < 2 || r->nb < 2 || !isfinite(r->sd_a) || !isfinite(r->sd_b)) {
		snprintf(cond->why, sizeof(cond->why), "'%.60s' needs 2 runs or more a side to know its spread (-r 5): "
			 "A has %zu, B %zu", cond->name, r->na, r->nb);
		return;
	}
	sd = sqrt((r->sd_a * r->sd_a + r->sd_b * r->sd_b) / 2);
	if (sd == 0) {
		cond->state = cond->op == '>' ? change > 0 : change < 0;
		if (change == 0)
			snprintf(cond->why, sizeof(cond->why), "unchanged, with no spread in either side's %zu and %zu runs "
				 "(an exact count)", r->na, r->nb);
		else
			snprintf(cond->why, sizeof(cond->why), "changed %+.6g with no spread in either side's %zu and %zu "
				 "runs (an exact count: any change is real)", change, r->na, r->nb);
		return;
	}
	k = change / sd;
	cond->state = cond->op == '>' ? k > cond->threshold : k < cond->threshold;
	snprintf(cond->why, sizeof(cond->why), "changed %+.6g = %+.2f standard deviations of the runs (%.4g)", change, k,
		 sd);
}

/* One row judged against cond (state and why). */
static void fail_cond_eval_row(const struct pmc_compare *c, const struct pmc_compare_row *r, struct pmc_fail_cond *cond)
{
	double change;
	bool past;

	cond->state = -1;
	if (!r->ok_a || !r->ok_b) {
		snprintf(cond->why, sizeof(cond->why), "'%.60s' was not measured in both: %.160s", cond->name, r->note);
		return;
	}
	if (cond->sd)
		return fail_cond_eval_sd(r, cond);
	if (cond->pct && r->a == 0) {
		snprintf(cond->why, sizeof(cond->why), "'%s' is 0 in A: a relative change has no meaning", cond->name);
		return;
	}
	change = cond->pct ? (r->b / r->a - 1) * 100 : r->b - r->a;
	past = cond->op == '>' ? change > cond->threshold : change < cond->threshold;
	if (past && r->tested && r->t.p >= c->alpha) {
		cond->state = 0;
		snprintf(cond->why, sizeof(cond->why), "changed %+.3g%s, but not significantly (%s p = %.3g)", change,
			 cond->pct ? "%" : "", pmc_test_name(c->test), r->t.p);
		return;
	}
	cond->state = past;
	snprintf(cond->why, sizeof(cond->why), "changed %+.3g%s%s", change, cond->pct ? "%" : "",
		 !r->tested ? " (too few runs to test its significance)" : "");
}

/* A row of one test of a pytest report (report/load.c): "EVENT [NODEID]" for the condition's EVENT. */
static bool test_row_of(const char *row, const char *event)
{
	size_t n = strlen(event), len = strlen(row);

	return len > n + 3 && !strncasecmp(row, event, n) && row[n] == ' ' && row[n + 1] == '[' && row[len - 1] == ']';
}

void pmc_fail_cond_eval(const struct pmc_compare *c, struct pmc_fail_cond *cond)
{
	const struct pmc_compare_row *r = NULL;
	struct pmc_fail_cond one;
	size_t tests = 0, judged = 0, held = 0;
	char first[sizeof(cond->why)] = "";

	for (size_t i = 0; i < c->nrows && !r; i++)
		if (!strcasecmp(c->rows[i].name, cond->name))
			r = &c->rows[i];
	if (r)
		return fail_cond_eval_row(c, r, cond);
	/* A pytest report's event: every test judged; it holds when it holds for one (the first such is named). Tests
	 * in one report only (new, removed) or not counted are not judged; none judged: it cannot be judged. */
	for (size_t i = 0; i < c->nrows; i++) {
		if (!test_row_of(c->rows[i].name, cond->name))
			continue;
		tests++;
		one = *cond;
		fail_cond_eval_row(c, &c->rows[i], &one);
		judged += one.state >= 0;
		if (one.state > 0 && !held++)
			snprintf(first, sizeof(first), "%.150s %.100s", c->rows[i].name + strlen(cond->name) + 1, one.why);
	}
	cond->state = -1;
	if (!tests)
		snprintf(cond->why, sizeof(cond->why), "'%s' is not an event or metric of either report", cond->name);
	else if (!judged)
		snprintf(cond->why, sizeof(cond->why), "no test's '%.60s' was measured in both reports", cond->name);
	else if (held)
		snprintf(cond->why, sizeof(cond->why), "%zu of %zu tests: %s%s", held, judged, first,
			 judged < tests ? "; some tests not in both or not counted" : "");
	else
		snprintf(cond->why, sizeof(cond->why), "none of %zu tests%s", judged,
			 judged < tests ? " (others not in both reports or not counted)" : "");
	if (tests && judged)
		cond->state = held > 0;
}

/* ---- merge ---- */

static int cmp_rank(const void *x, const void *y)
{
	const struct pmc_merge_rank *a = x, *b = y;

	return (a->rank > b->rank) - (a->rank < b->rank);
}

int pmc_merge_build(struct pmc_merge *m)
{
	size_t cap = 0;

	qsort(m->ranks, m->nranks, sizeof(*m->ranks), cmp_rank);
	for (size_t r = 0; r < m->nranks; r++) {
		const struct pmc_loaded *l = &m->ranks[r].data;
		for (size_t i = 0; i < l->n; i++) {
			const struct pmc_series *s = &l->s[i];
			struct pmc_merge_row *row = NULL;

			for (size_t k = 0; k < m->nrows && !row; k++)
				if (m->rows[k].kind == s->kind && !strcmp(m->rows[k].region, s->region) &&
				    !strcmp(m->rows[k].name, s->name))
					row = &m->rows[k];
			if (!row) {
				if (m->nrows == cap) {
					size_t nc = cap ? cap * 2 : 16;
					struct pmc_merge_row *nr = realloc(m->rows, nc * sizeof(*nr));
					if (!nr)
						return -ENOMEM;
					m->rows = nr;
					cap = nc;
				}
				row = &m->rows[m->nrows++];
				memset(row, 0, sizeof(*row));
				snprintf(row->name, sizeof(row->name), "%s", s->name);
				snprintf(row->unit, sizeof(row->unit), "%s", s->unit);
				snprintf(row->region, sizeof(row->region), "%s", s->region);
				row->kind = s->kind;
				row->min = INFINITY;
				row->max = -INFINITY;
				row->min_rank = row->max_rank = -1;
			}
			if (!s->ok || !isfinite(s->mean))
				continue;
			row->n++;
			row->total += s->mean;
			if (s->mean < row->min) {
				row->min = s->mean;
				row->min_rank = m->ranks[r].rank;
			}
			if (s->mean > row->max) {
				row->max = s->mean;
				row->max_rank = m->ranks[r].rank;
			}
		}
	}
	for (size_t k = 0; k < m->nrows; k++) {
		struct pmc_merge_row *row = &m->rows[k];
		row->mean = row->n ? row->total / (double)row->n : NAN;
		row->imbalance = row->n && row->mean != 0 ? row->max / row->mean : NAN;
		if (!row->n)
			row->min = row->max = row->total = NAN;
		if (row->kind == PMC_SERIES_METRIC)
			row->total = NAN; /* a sum of ratios means nothing */
	}
	return 0;
}

void pmc_merge_fini(struct pmc_merge *m)
{
	if (!m)
		return;
	for (size_t r = 0; r < m->nranks; r++)
		pmc_loaded_fini(&m->ranks[r].data);
	free(m->ranks);
	free(m->rows);
	memset(m, 0, sizeof(*m));
}
