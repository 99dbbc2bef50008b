/* SPDX-License-Identifier: MIT */
/* Sweep, compare and merge results as a table and CSV (the JSON: multi_json.c): the table and CSV formats' entries
 * for them (format.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/multi.h"

const char *pmc_series_kind_name(enum pmc_series_kind k)
{
	return k == PMC_SERIES_METRIC ? "metric" : k == PMC_SERIES_TIME ? "time" : k == PMC_SERIES_DECLARED ? "declared"
		: k == PMC_SERIES_REGION ? "region" : "event";
}

void pmc_multi_short(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else if (a >= 1e12)
		snprintf(buf, len, "%.4gT", v / 1e12);
	else if (a >= 1e9)
		snprintf(buf, len, "%.4gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.4gM", v / 1e6);
	else if (a >= 1e5)
		snprintf(buf, len, "%.4gk", v / 1e3);
	else
		snprintf(buf, len, "%.6g", v);
}

static void csv_num(FILE *f, double v)
{
	char buf[40];

	fputc(',', f);
	if (isfinite(v)) {
		pmc_format_shortest(v, buf, sizeof(buf));
		fputs(buf, f);
	}
}

static const char *unit_suffix(const char *unit, char *buf, size_t len)
{
	if (unit && *unit)
		snprintf(buf, len, " (%s)", unit);
	else
		buf[0] = '\0';
	return buf;
}

/* ---- sweep ---- */

/* A column worth showing: an event (counted or not, it was asked for), or a series measured somewhere; declared
 * values that are 0 everywhere (bytes of a kernel that loads nothing) are left out. */
static bool show_column(const struct pmc_sweep *sw, const struct pmc_series *c)
{
	if (c->kind == PMC_SERIES_EVENT)
		return true;
	for (size_t i = 0; i < sw->npoints; i++) {
		double mean, sd;
		pmc_sweep_value(sw, i, c->name, &mean, &sd);
		if (isfinite(mean) && (c->kind != PMC_SERIES_DECLARED || mean != 0))
			return true;
	}
	return false;
}

int pmc_sweep_table(FILE *f, const struct pmc_sweep *sw)
{
	const struct pmc_series **cols;
	size_t ncols = pmc_sweep_series(sw, &cols), used = 0;
	int pw = (int)strlen(sw->param) > 8 ? (int)strlen(sw->param) : 8;
	char buf[200], u[24];

	fprintf(f, " Sweep of %s (%s) over '%s': %zu point%s x %u round%s, shuffled in each round (seed %llu)%s\n",
		sw->param, sw->how, sw->workload, sw->npoints, sw->npoints == 1 ? "" : "s", sw->rounds,
		sw->rounds == 1 ? "" : "s", (unsigned long long)sw->seed, sw->partial ? ", interrupted: partial" : "");
	fprintf(f, " Values%s%s: mean over the rounds, \xc2\xb1 standard deviation in %%\n\n", sw->per_text ? " " : "",
		sw->per_text ? sw->per_text : "");
	fprintf(f, " %*s %6s", pw, sw->param, "rounds");
	for (size_t c = 0; c < ncols; c++) {
		if (!show_column(sw, cols[c]))
			continue;
		snprintf(buf, sizeof(buf), "%.150s%s", cols[c]->name, unit_suffix(cols[c]->unit, u, sizeof(u)));
		fprintf(f, "  %16.40s", buf);
		used++;
	}
	fputc('\n', f);
	for (size_t i = 0; i < sw->npoints; i++) {
		const struct pmc_sweep_point *p = &sw->pts[i];
		fprintf(f, " %*s %3u/%-2u", pw, p->value, p->rounds_ok, p->rounds_ok + p->rounds_failed);
		for (size_t c = 0; c < ncols; c++) {
			double mean, sd;
			char cell[64];
			if (!show_column(sw, cols[c]))
				continue;
			pmc_sweep_value(sw, i, cols[c]->name, &mean, &sd);
			pmc_multi_short(mean, buf, sizeof(buf));
			bool spread = isfinite(mean) && isfinite(sd) && mean != 0 && sd > 0;
			if (spread)
				snprintf(cell, sizeof(cell), "%.32s \xc2\xb1%.1f%%", buf, 100 * sd / fabs(mean));
			else
				snprintf(cell, sizeof(cell), "%.32s", buf);
			fprintf(f, "  %*s", 16 + (spread ? 1 : 0), cell); /* ± is two bytes, one column */
		}
		if (p->rounds_failed)
			fprintf(f, "  (%.80s)", p->failure);
		fputc('\n', f);
	}
	(void)used;
	free(cols);
	fputc('\n', f);
	if (sw->largest < 0) {
		fprintf(f, " Steps in %s: fewer than two measured points\n", sw->y);
		return 0;
	}
	if (!sw->nsteps) {
		double a, b, sd;
		pmc_sweep_value(sw, (size_t)sw->largest, sw->y, &a, &sd);
		pmc_sweep_value(sw, (size_t)sw->largest + 1, sw->y, &b, &sd);
		fprintf(f, " Steps in %s: none; the largest change, %s=%s -> %s, is %.1fx the noise (a step needs %.0fx)\n",
			sw->y, sw->param, sw->pts[sw->largest].value, sw->pts[sw->largest + 1].value, sw->largest_score,
			PMC_STEP_MIN_SCORE);
		return 0;
	}
	fprintf(f, " Steps in %s (change between neighbours against the noise):\n", sw->y);
	for (size_t k = 0; k < sw->nsteps; k++) {
		size_t i = sw->steps[k];
		double a, b, sd;
		char sa[32], sb[32];
		pmc_sweep_value(sw, i, sw->y, &a, &sd);
		pmc_sweep_value(sw, i + 1, sw->y, &b, &sd);
		pmc_multi_short(a, sa, sizeof(sa));
		pmc_multi_short(b, sb, sizeof(sb));
		fprintf(f, "   %s=%s -> %s: %s -> %s (%+.1f%%), %.1fx the noise\n", sw->param, sw->pts[i].value,
			sw->pts[i + 1].value, sa, sb, a != 0 ? 100 * (b - a) / fabs(a) : 0.0, sw->step_score[k]);
	}
	return 0;
}

int pmc_sweep_csv(FILE *f, const struct pmc_sweep *sw)
{
	fputs("parameter,value,rounds_ok,rounds_failed,divisor,name,kind,unit,n,mean,sd,min,max\n", f);
	for (size_t i = 0; i < sw->npoints; i++) {
		const struct pmc_sweep_point *p = &sw->pts[i];
		for (size_t k = 0; k < p->data.n; k++) {
			const struct pmc_series *s = &p->data.s[k];
			double per = p->per > 0 && s->kind != PMC_SERIES_METRIC ? p->per : 1;
			pmc_csv_field(f, sw->param);
			fputc(',', f);
			pmc_csv_field(f, p->value);
			fprintf(f, ",%u,%u", p->rounds_ok, p->rounds_failed);
			csv_num(f, per);
			fputc(',', f);
			pmc_csv_field(f, s->name);
			fprintf(f, ",%s,", pmc_series_kind_name(s->kind));
			pmc_csv_field(f, s->unit);
			fprintf(f, ",%zu", s->ok ? s->nruns : 0);
			csv_num(f, s->ok ? s->mean / per : NAN);
			csv_num(f, s->ok ? s->sd / per : NAN);
			csv_num(f, s->ok ? s->min / per : NAN);
			csv_num(f, s->ok ? s->max / per : NAN);
			fputc('\n', f);
		}
	}
	return 0;
}

/* ---- compare ---- */

const char *pmc_cond_state_name(int st)
{
	return st > 0 ? "holds" : st == 0 ? "does not hold" : "cannot judge";
}

int pmc_compare_table(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds)
{
	size_t nw = 14;
	char a[32], b[32], d[32], u[24], name[200], safe[800], safe2[800];

	/* names, units and notes come from the reports' files: made safe for a terminal */
	fprintf(f, " A: %s\n", pmc_output_safe(c->a_name, safe, sizeof(safe)));
	fprintf(f, " B: %s\n", pmc_output_safe(c->b_name, safe, sizeof(safe)));
	fprintf(f, " Significance: %s, two-sided, over the per-run samples; significant when p < %g\n",
		c->test == PMC_TEST_WELCH ? "Welch's t-test" : "Mann-Whitney U test", c->alpha);
	if (c->env_same == 1)
		fputs(" Environment: the same (CPU, microcode, kernel, libpfm4, tables, pmctool, backend)\n\n", f);
	else
		fprintf(f, " Environment: %s%s\n\n", c->env_same ? "" : "WARNING: DIFFERENT: ",
			pmc_output_safe(c->env_diff, safe, sizeof(safe)));
	for (size_t i = 0; i < c->nrows; i++) {
		size_t l = strlen(pmc_output_safe(c->rows[i].name, safe, sizeof(safe))) +
			   (c->rows[i].unit[0] ? strlen(pmc_output_safe(c->rows[i].unit, safe, sizeof(safe))) + 3 : 0);
		if (l > nw)
			nw = l > 40 ? 40 : l;
	}
	fprintf(f, " %-*s %10s %10s %10s %8s %9s  %s\n", (int)nw, "event / metric", "A", "B", "B - A", "B / A", "p",
		"verdict");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pmc_compare_row *r = &c->rows[i];
		snprintf(name, sizeof(name), "%s%s", pmc_output_safe(r->name, safe, sizeof(safe)),
			 unit_suffix(pmc_output_safe(r->unit, safe2, sizeof(safe2)), u, sizeof(u)));
		pmc_multi_short(r->a, a, sizeof(a));
		pmc_multi_short(r->b, b, sizeof(b));
		pmc_multi_short(r->diff, d, sizeof(d));
		fprintf(f, " %-*.*s %10s %10s %10s ", (int)nw, (int)nw, name, a, b, d);
		if (isfinite(r->ratio))
			fprintf(f, "%8.4f ", r->ratio);
		else
			fprintf(f, "%8s ", "n/a");
		if (r->tested)
			fprintf(f, "%9.3g", r->t.p);
		else
			fprintf(f, "%9s", "-");
		fprintf(f, "  %s", r->verdict);
		if (!r->tested && r->note[0])
			fprintf(f, " (%s)", pmc_output_safe(r->note, safe, sizeof(safe)));
		fputc('\n', f);
	}
	if (nconds)
		fputs("\n Conditions (--fail-if):\n", f);
	for (size_t i = 0; i < nconds; i++)
		fprintf(f, "   %-24s %s: %s\n", pmc_output_safe(conds[i].text, safe, sizeof(safe)),
			pmc_cond_state_name(conds[i].state), pmc_output_safe(conds[i].why, safe2, sizeof(safe2)));
	return 0;
}

int pmc_compare_csv(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds)
{
	fputs("name,kind,unit,a,b,sd_a,sd_b,n_a,n_b,diff,ratio,test,p,verdict,note\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct pmc_compare_row *r = &c->rows[i];
		pmc_csv_field(f, r->name);
		fprintf(f, ",%s,", pmc_series_kind_name(r->kind));
		pmc_csv_field(f, r->unit);
		csv_num(f, r->a);
		csv_num(f, r->b);
		csv_num(f, r->sd_a);
		csv_num(f, r->sd_b);
		fprintf(f, ",%zu,%zu", r->na, r->nb);
		csv_num(f, r->ok_a && r->ok_b ? r->diff : NAN);
		csv_num(f, r->ratio);
		fprintf(f, ",%s", r->tested ? pmc_test_name(c->test) : "");
		csv_num(f, r->tested ? r->t.p : NAN);
		fprintf(f, ",%s,", r->verdict);
		pmc_csv_field(f, r->note);
		fputc('\n', f);
	}
	for (size_t i = 0; i < nconds; i++) {
		pmc_csv_field(f, conds[i].text);
		fprintf(f, ",condition,,,,,,,,,,,,%s,", pmc_cond_state_name(conds[i].state));
		pmc_csv_field(f, conds[i].why);
		fputc('\n', f);
	}
	fprintf(f, "environment,environment,,,,,,,,,,,,%s,", c->env_same == 1 ? "same" : c->env_same ? "unknown"
											: "different");
	pmc_csv_field(f, c->env_diff);
	fputc('\n', f);
	return 0;
}

/* ---- merge ---- */

static double rank_value(const struct pmc_merge_rank *r, const struct pmc_merge_row *row)
{
	for (size_t i = 0; i < r->data.n; i++)
		if (r->data.s[i].kind == row->kind && !strcmp(r->data.s[i].region, row->region) &&
		    !strcmp(r->data.s[i].name, row->name))
			return r->data.s[i].ok ? r->data.s[i].mean : NAN;
	return NAN;
}

/* Per region (in the order first seen): a row per rank with its calls and counts. */
static void merge_regions_table(FILE *f, const struct pmc_merge *m)
{
	char buf[32], safe[800];

	for (size_t k = 0; k < m->nrows; k++) {
		const struct pmc_merge_row *first = &m->rows[k];
		bool seen = first->kind != PMC_SERIES_REGION;

		for (size_t j = 0; j < k && !seen; j++)
			seen = m->rows[j].kind == PMC_SERIES_REGION && !strcmp(m->rows[j].region, first->region);
		if (seen)
			continue;
		fprintf(f, "\n Region %s per rank:\n %5s", pmc_output_safe(first->region, safe, sizeof(safe)), "rank");
		for (size_t j = k; j < m->nrows; j++)
			if (m->rows[j].kind == PMC_SERIES_REGION && !strcmp(m->rows[j].region, first->region))
				fprintf(f, " %14.14s", pmc_output_safe(m->rows[j].name, safe, sizeof(safe)));
		fputc('\n', f);
		for (size_t r = 0; r < m->nranks; r++) {
			fprintf(f, " %5ld", m->ranks[r].rank);
			for (size_t j = k; j < m->nrows; j++) {
				if (m->rows[j].kind != PMC_SERIES_REGION || strcmp(m->rows[j].region, first->region))
					continue;
				pmc_multi_short(rank_value(&m->ranks[r], &m->rows[j]), buf, sizeof(buf));
				fprintf(f, " %14s", buf);
			}
			fputc('\n', f);
		}
	}
}

int pmc_merge_table(FILE *f, const struct pmc_merge *m)
{
	char buf[32], u[24], name[260], safe[800], safe2[800];
	int w = 32; /* the name column: wider for region rows ("REGION: EVENT"), at most 64 */
	size_t ncol = 0;

	fprintf(f, " Merged %zu report%s: %zu ok, %u failed, %u partial, %u unreadable\n\n", m->nranks,
		m->nranks == 1 ? "" : "s", m->nranks - m->failed - m->partial - m->unreadable, m->failed, m->partial,
		m->unreadable);
	fprintf(f, " %5s %-16s %-10s", "rank", "host", "state");
	for (size_t k = 0; k < m->nrows; k++)
		if (m->rows[k].kind == PMC_SERIES_EVENT || m->rows[k].kind == PMC_SERIES_TIME) {
			fprintf(f, " %14.14s", pmc_output_safe(m->rows[k].name, safe, sizeof(safe)));
			ncol++;
		}
	fputc('\n', f);
	for (size_t r = 0; r < m->nranks; r++) {
		const struct pmc_merge_rank *rk = &m->ranks[r];
		fprintf(f, " %5ld %-16.16s %-10s", rk->rank, rk->host[0] ? pmc_output_safe(rk->host, safe, sizeof(safe)) : "-",
			rk->state);
		for (size_t k = 0; k < m->nrows; k++) {
			if (m->rows[k].kind != PMC_SERIES_EVENT && m->rows[k].kind != PMC_SERIES_TIME)
				continue;
			pmc_multi_short(rank_value(rk, &m->rows[k]), buf, sizeof(buf));
			fprintf(f, " %14s", buf);
		}
		if (strcmp(rk->state, "ok"))
			fprintf(f, "  %s: %.100s", pmc_output_safe(rk->file, safe, sizeof(safe)),
				pmc_output_safe(rk->why, safe2, sizeof(safe2)));
		fputc('\n', f);
	}
	(void)ncol;
	merge_regions_table(f, m);
	for (size_t k = 0; k < m->nrows; k++) {
		size_t l = strlen(m->rows[k].region) + 2 + strlen(m->rows[k].name);
		if (m->rows[k].kind == PMC_SERIES_REGION && (int)l > w)
			w = l > 64 ? 64 : (int)l;
	}
	fprintf(f, "\n %-*s %5s %10s %10s %10s %10s %9s %8s\n", w, "event / metric / region", "ranks", "total", "min",
		"mean", "max", "max/mean", "max at");
	for (size_t k = 0; k < m->nrows; k++) {
		const struct pmc_merge_row *row = &m->rows[k];
		char t[32], mn[32], me[32], mx[32];
		snprintf(name, sizeof(name), "%.63s%s%.159s%s", row->region, row->region[0] ? ": " : "", row->name,
			 unit_suffix(row->unit, u, sizeof(u)));
		pmc_output_safe(name, safe, sizeof(safe));
		pmc_multi_short(row->total, t, sizeof(t));
		pmc_multi_short(row->min, mn, sizeof(mn));
		pmc_multi_short(row->mean, me, sizeof(me));
		pmc_multi_short(row->max, mx, sizeof(mx));
		fprintf(f, " %-*.*s %5zu %10s %10s %10s %10s ", w, w, safe, row->n, t, mn, me, mx);
		if (isfinite(row->imbalance))
			fprintf(f, "%9.3f %8ld\n", row->imbalance, row->max_rank);
		else
			fprintf(f, "%9s %8s\n", "n/a", "-");
	}
	return 0;
}

int pmc_merge_csv(FILE *f, const struct pmc_merge *m)
{
	fputs("section,rank,host,state,file,name,kind,unit,ranks,value,total,min,mean,max,imbalance,region\n", f);
	for (size_t r = 0; r < m->nranks; r++) {
		const struct pmc_merge_rank *rk = &m->ranks[r];
		for (size_t k = 0; k < m->nrows; k++) {
			fprintf(f, "rank,%ld,", rk->rank);
			pmc_csv_field(f, rk->host);
			fprintf(f, ",%s,", rk->state);
			pmc_csv_field(f, rk->file);
			fputc(',', f);
			pmc_csv_field(f, m->rows[k].name);
			fprintf(f, ",%s,", pmc_series_kind_name(m->rows[k].kind));
			pmc_csv_field(f, m->rows[k].unit);
			fputc(',', f);
			csv_num(f, rank_value(rk, &m->rows[k]));
			fputs(",,,,,,", f);
			pmc_csv_field(f, m->rows[k].region);
			fputc('\n', f);
		}
	}
	for (size_t k = 0; k < m->nrows; k++) {
		const struct pmc_merge_row *row = &m->rows[k];
		fputs("summary,,,,,", f);
		pmc_csv_field(f, row->name);
		fprintf(f, ",%s,", pmc_series_kind_name(row->kind));
		pmc_csv_field(f, row->unit);
		fprintf(f, ",%zu,", row->n);
		csv_num(f, row->total);
		csv_num(f, row->min);
		csv_num(f, row->mean);
		csv_num(f, row->max);
		csv_num(f, row->imbalance);
		fputc(',', f);
		pmc_csv_field(f, row->region);
		fputc('\n', f);
	}
	return 0;
}
