/* SPDX-License-Identifier: MIT */
/* Metrics from the vendor tables: -M's selection, each formula's names decided, the definitions and event groups. */
#include "metrics/tmetrics.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics/expr.h"
#include "metrics/tm_internal.h"
#include "util/util.h"

/* ---- selection ---- */

static bool in_groups(const char *groups, const char *g)
{
	size_t n = strlen(g);

	for (const char *p = groups; p && *p;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		while (len && isspace((unsigned char)*p)) {
			p++;
			len--;
		}
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len == n && !strncasecmp(p, g, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

size_t pmc_tm_select(const struct pmc_tables *t, const char *item, bool *sel)
{
	const struct pmc_table_metric *ms;
	size_t n = pmc_tables_metrics(t, &ms), count = 0;
	int level = 0;
	char tma[16] = "";

	for (size_t i = 0; i < n; i++) {
		if (!strcasecmp(ms[i].name, item)) {
			sel[i] = true;
			return 1;
		}
	}
	if (!strncasecmp(item, "TopdownL", 8) && item[8] >= '1' && item[8] <= '9' && !item[9]) {
		level = item[8] - '0';
		snprintf(tma, sizeof(tma), "TmaL%d", level);
	}
	for (size_t i = 0; i < n; i++) {
		bool take = in_groups(ms[i].groups, item) || (tma[0] && in_groups(ms[i].groups, tma)) ||
			    (level >= 3 && ms[i].level == level && ms[i].aliases);

		if (take) {
			count += !sel[i];
			sel[i] = true;
		}
	}
	return count;
}

/* ---- notes and growing arrays ---- */

static int add_note(struct pmc_tm_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int add_note(struct pmc_tm_plan *p, const char *fmt, ...)
{
	char buf[512], **n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < p->nnotes; i++)
		if (!strcmp(p->notes[i], buf))
			return 0;
	n = realloc(p->notes, (p->nnotes + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	p->notes = n;
	if (!(n[p->nnotes] = strdup(buf)))
		return -ENOMEM;
	p->nnotes++;
	return 0;
}

/* ---- planning ---- */

enum mstate { M_TODO = 0, M_BUSY, M_OK, M_OUT };

struct resolved {             /* an event name of a table, decided once */
	char *name;
	char *spec;           /* NULL: none resolved, why says why */
	char *why;
	bool unnamed;         /* no one names it here (PMC_TM_UNNAMED): said once, in unnamed_note */
};

struct planner {
	const struct pmc_tables *t;
	const struct pmc_table_metric *ms;
	size_t nms;
	const struct pmc_tm_literals *lits;
	pmc_tm_resolve_fn resolve;
	void *rctx;
	bool (*reserved)(const char *name);
	struct pmc_tm_plan *p;
	enum mstate *state;
	int *def;                     /* metric -> its index in p->defs */
	double *scale;                /* metric -> its ScaleUnit factor */
	char **events;                /* metric -> its events and those of the metrics it references, "\n"-joined */
	struct resolved *res;
	size_t nres;
	char (*why)[300];             /* metric -> why it was left out */
	bool *unnamed;                /* metric -> left out for an event no one names here (one note for all) */
	bool unnamed_now;             /* the last decide() failed on such an event */
};

static const struct resolved *resolve_event(struct planner *pl, const char *name)
{
	char cand[PMC_TM_CAND_MAX][PMC_TM_SPEC_MAX], why[200] = "no spelling of it is known to pmctool";
	struct resolved *r;
	size_t n;

	for (size_t i = 0; i < pl->nres; i++)
		if (!strcmp(pl->res[i].name, name))
			return &pl->res[i];
	r = realloc(pl->res, (pl->nres + 1) * sizeof(*r));
	if (!r)
		return NULL;
	pl->res = r;
	r += pl->nres;
	memset(r, 0, sizeof(*r));
	n = pmc_tm_candidates(name, cand);
	for (size_t k = 0; k < n && !r->spec; k++) {
		char w[200] = "";

		int rc = pl->resolve(cand[k], pl->rctx, w, sizeof(w));

		if (rc == 0) {
			r->spec = strdup(cand[k]);
			if (!r->spec)
				return NULL;
		} else if (k == 0) { /* the most faithful spelling's reason */
			snprintf(why, sizeof(why), "%s", w[0] ? w : "it does not resolve");
			r->unnamed = rc == PMC_TM_UNNAMED;
		}
	}
	r->name = strdup(name);
	r->why = r->spec ? NULL : strdup(why);
	if (!r->name || (!r->spec && !r->why)) {
		free(r->name);
		free(r->spec);
		free(r->why);
		return NULL;
	}
	pl->nres++;
	return r;
}

/* perfmon's alias lines: the NAME of ALIAS in metric m, and its kind; NULL when alias is none of them. */
static const char *alias_of(const struct pmc_table_metric *m, const char *alias, char kind, char *buf, size_t len)
{
	const char *br = strchr(alias, '[');
	size_t al = br ? (size_t)(br - alias) : strlen(alias); /* a[0]: an instance of alias a (uncore: one per box) */

	for (const char *l = m->aliases; l && *l;) {
		const char *end = strchr(l, '\n');
		size_t ll = end ? (size_t)(end - l) : strlen(l);

		if (ll > al + 3 && l[0] == kind && l[1] == ' ' && !strncmp(l + 2, alias, al) && l[2 + al] == ' ') {
			snprintf(buf, len, "%.*s", (int)(ll - al - 3), l + al + 3);
			return buf;
		}
		l = end ? end + 1 : NULL;
	}
	return NULL;
}

/* perfmon's constants as perf's literals (or pmctool's constants). */
static const struct { const char *perfmon, *text; } perfmon_consts[] = {
	{ "SYSTEM_TSC_FREQ", "#system_tsc_freq" }, { "HYPERTHREADING_ON", "#smt_on" }, { "smt_on", "#smt_on" },
	{ "SOCKET_COUNT", "#num_packages" }, { "system.socket_count", "#num_packages" },
	{ "system.sockets[0].cpus.count * system.socket_count", "#num_cpus_online" },
	{ "DURATIONTIMEINSECONDS", "{SECONDS}" }, { "DURATIONTIMEINMILLISECONDS", "({SECONDS} * 1000)" },
	{ "THREADS_PER_CORE", "(1 + #smt_on)" },
};

static int compile(struct planner *pl, size_t mi);

/* What one name of metric mi's formula stands for, as pmctool's formula text in out. 0, -ENOENT (why filled: the
 * metric is left out), -ENOMEM. */
static int decide(struct planner *pl, size_t mi, const char *name, bool threshold, char *out, size_t len, char *why,
		  size_t whylen)
{
	const struct pmc_table_metric *m = &pl->ms[mi], *ref;
	char buf[PMC_TM_SPEC_MAX], tmp[PMC_TM_SPEC_MAX];
	const struct pmc_tm_literal *lit;
	const struct resolved *r;

	/* perfmon: a threshold's aliases are its ThresholdMetrics, the formula's its Events and Constants */
	if (!threshold && m->aliases && alias_of(m, name, 'e', buf, sizeof(buf)))
		name = buf;
	else if (threshold && m->aliases && alias_of(m, name, 't', buf, sizeof(buf))) {
		for (size_t i = 0; i < pl->nms; i++) { /* a metric by its LegacyName */
			if (pl->ms[i].legacy && !strcmp(pl->ms[i].legacy, buf)) {
				snprintf(tmp, sizeof(tmp), "%s", pl->ms[i].name);
				name = tmp;
				break;
			}
		}
	} else if (!threshold && m->aliases && alias_of(m, name, 'c', buf, sizeof(buf))) {
		char *end;
		double v = strtod(buf, &end);

		if (end != buf && !*end) {
			snprintf(out, len, "%.17g", v);
			return 0;
		}
		name = buf;
	}
	for (size_t i = 0; i < PMC_ARRAY_SIZE(perfmon_consts); i++) {
		if (strcasecmp(name, perfmon_consts[i].perfmon))
			continue;
		if (!strchr(perfmon_consts[i].text, '#')) {
			snprintf(out, len, "%s", perfmon_consts[i].text);
			return 0;
		}
		name = perfmon_consts[i].text[0] == '#' ? perfmon_consts[i].text : "#smt_on";
		lit = pmc_tm_literal_find(pl->lits, name);
		if (lit && lit->known && perfmon_consts[i].text[0] == '(') {
			snprintf(out, len, "%.17g", 1 + lit->value);
			return 0;
		}
		break;
	}
	if (name[0] == '#') {
		lit = pmc_tm_literal_find(pl->lits, name);
		if (!lit) {
			snprintf(why, whylen, "the literal %s is not one pmctool knows", name);
			return -ENOENT;
		}
		if (!lit->known) {
			snprintf(why, whylen, "%.100s: %s", name, lit->source);
			return -ENOENT;
		}
		snprintf(out, len, "%.17g", lit->value);
		return add_note(pl->p, "%s = %g (%s)", lit->name, lit->value, lit->source) ? -ENOMEM : 0;
	}
	if (!strcasecmp(name, "duration_time")) { /* perf's wall time, in seconds in a formula */
		snprintf(out, len, "{SECONDS}");
		return 0;
	}
	if (pmc_tables_find_metric(pl->t, name, &ref) == 0 && (ref != m || threshold)) {
		size_t ri = (size_t)(ref - pl->ms);
		/* a threshold uses what is planned anyway: it adds no metric (and no event) of its own */
		int rc = ref == m || threshold ? 0 : compile(pl, ri);

		if (rc == -ENOMEM)
			return rc;
		if (rc || pl->state[ri] != M_OK) {
			snprintf(why, whylen, "it uses metric %s, which is left out%s", ref->name,
				 pl->state[ri] == M_BUSY ? " (the two use each other)" : "");
			return -ENOENT;
		}
		if (ref == m && pl->def[ri] < 0) /* the threshold of the metric being planned: its own row */
			return -ENOENT;
		if (pl->scale[ri] != 1)
			snprintf(out, len, "({%s} / %.17g)", pl->p->defs[pl->def[ri]].name, pl->scale[ri]);
		else
			snprintf(out, len, "{%s}", pl->p->defs[pl->def[ri]].name);
		return 0;
	}
	r = resolve_event(pl, name);
	if (!r)
		return -ENOMEM;
	if (!r->spec) {
		snprintf(why, whylen, "event %s: %s", name, r->why);
		pl->unnamed_now = r->unnamed;
		return -ENOENT;
	}
	snprintf(out, len, "{%s}", r->spec);
	return 0;
}

struct render_ctx {
	struct planner *pl;
	size_t mi;
	bool threshold;
	char why[300];
	int rc;
};

static int render_name(const char *name, void *vctx, char *out, size_t len)
{
	struct render_ctx *c = vctx;
	int rc;

	if (c->rc) {
		snprintf(out, len, "0");
		return c->rc;
	}
	rc = decide(c->pl, c->mi, name, c->threshold, out, len, c->why, sizeof(c->why));
	if (rc) {
		c->rc = rc;
		snprintf(out, len, "0");
	}
	return rc;
}

/* Events of metric mi's formula, and those of the metrics it references, into pl->events[mi]. */
static int gather_events(struct planner *pl, size_t mi, const struct pmc_expr *e)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < pmc_expr_name_count(e); i++) {
		const char *n = pmc_expr_name(e, i);
		char abuf[PMC_TM_SPEC_MAX];
		const struct pmc_table_metric *ref;

		if (pl->ms[mi].aliases && alias_of(&pl->ms[mi], n, 'e', abuf, sizeof(abuf)))
			n = abuf;
		if (pmc_tables_find_metric(pl->t, n, &ref) == 0 && ref != &pl->ms[mi]) {
			if (pl->events[ref - pl->ms])
				fputs(pl->events[ref - pl->ms], f);
			continue;
		}
		for (size_t k = 0; k < pl->nres; k++)
			if (!strcmp(pl->res[k].name, n) && pl->res[k].spec)
				fprintf(f, "%s\n", pl->res[k].spec);
	}
	if (fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	pl->events[mi] = buf;
	return 0;
}

/* perf's ScaleUnit ("100%", "1GHz", "1e-9s"): the factor and the unit; perfmon's UnitOfMeasure ("percent"). */
static double scale_unit(const char *su, char *unit, size_t len, bool perfmon)
{
	char *end;
	double f;

	unit[0] = '\0';
	if (!su)
		return 1;
	if (perfmon) {
		snprintf(unit, len, "%s", !strcasecmp(su, "percent") ? "%" : su);
		return 1;
	}
	f = strtod(su, &end);
	if (end == su || !isfinite(f) || f == 0)
		f = 1, end = (char *)su;
	while (*end == ' ')
		end++;
	snprintf(unit, len, "%s", end);
	return f;
}

/* The value of a name known when the plan is made (a literal, a perfmon constant), for pmc_expr_prune. */
struct lit_ctx {
	struct planner *pl;
	size_t mi;
};

static int literal_lookup(const char *name, void *vctx, double *ret, char *reason, size_t len)
{
	struct lit_ctx *c = vctx;
	const struct pmc_table_metric *m = &c->pl->ms[c->mi];
	const struct pmc_tm_literal *lit;
	char buf[PMC_TM_SPEC_MAX], *end;

	(void)reason, (void)len;
	if (m->aliases && alias_of(m, name, 'c', buf, sizeof(buf))) {
		*ret = strtod(buf, &end);
		if (end != buf && !*end)
			return 0;
		name = buf;
	}
	for (size_t i = 0; i < PMC_ARRAY_SIZE(perfmon_consts); i++)
		if (!strcasecmp(name, perfmon_consts[i].perfmon) && perfmon_consts[i].text[0] == '#')
			name = perfmon_consts[i].text;
	if (name[0] != '#' || !(lit = pmc_tm_literal_find(c->pl->lits, name)) || !lit->known)
		return -ENOENT;
	*ret = lit->value;
	return add_note(c->pl->p, "%s = %g (%s)", lit->name, lit->value, lit->source) ? -ENOMEM : 0;
}

/* The formula as pmctool's own parser will read it (engine/metrics.c checks every --metric and -M definition): a
 * table's metric that perf's language accepts but pmctool's does not once written out (nesting, length) is left out
 * here with its reason, never an error that stops the whole -M run. */
static bool formula_parses(const char *formula, char *why, size_t whylen)
{
	struct pmc_expr *e;
	char err[200];

	if (pmc_expr_parse(formula, &e, err, sizeof(err)) < 0) {
		snprintf(why, whylen, "written in pmctool's language its formula does not parse: %s", err);
		return false;
	}
	pmc_expr_free(e);
	return true;
}

static int compile(struct planner *pl, size_t mi)
{
	struct lit_ctx lc = { pl, mi };
	const struct pmc_table_metric *m = &pl->ms[mi];
	struct pmc_expr *e = NULL;
	struct render_ctx rc = { pl, mi, false, "", 0 };
	struct pmc_metric_def *d, def;
	char err[200];
	int r;

	if (pl->state[mi] == M_OK || pl->state[mi] == M_OUT || pl->state[mi] == M_BUSY)
		return pl->state[mi] == M_OK ? 0 : -ENOENT;
	pl->state[mi] = M_BUSY;
	memset(&def, 0, sizeof(def));
	if (pmc_expr_parse_perf(m->expr, &e, err, sizeof(err))) {
		snprintf(pl->why[mi], sizeof(pl->why[mi]), "its formula does not parse: %s", err);
		goto out;
	}
	if (pmc_expr_prune(e, literal_lookup, &lc))
		goto nomem;
	r = pmc_expr_render(e, render_name, &rc, def.formula, sizeof(def.formula));
	if (r == -ENOMEM || rc.rc == -ENOMEM) {
		pmc_expr_free(e);
		return -ENOMEM;
	}
	if (rc.rc) {
		snprintf(pl->why[mi], sizeof(pl->why[mi]), "%s", rc.why);
		goto out;
	}
	if (r) {
		snprintf(pl->why[mi], sizeof(pl->why[mi]), "its formula is longer than pmctool's %d characters when "
			 "written with this machine's event names", PMC_FORMULA_MAX - 1);
		goto out;
	}
	if (!formula_parses(def.formula, pl->why[mi], sizeof(pl->why[mi])))
		goto out;
	pl->scale[mi] = scale_unit(m->unit, def.unit, sizeof(def.unit), m->aliases != NULL);
	if (pl->scale[mi] != 1) {
		char scaled[PMC_FORMULA_MAX];

		if ((size_t)snprintf(scaled, sizeof(scaled), "(%s) * %.17g", def.formula, pl->scale[mi]) >=
		    sizeof(scaled)) {
			snprintf(pl->why[mi], sizeof(pl->why[mi]), "its formula is too long");
			goto out;
		}
		memcpy(def.formula, scaled, sizeof(def.formula));
	}
	snprintf(def.name, sizeof(def.name), "%s%.*s", pl->reserved && pl->reserved(m->name) ? "table:" : "",
		 (int)sizeof(def.name) - 7, m->name);
	if (strcmp(def.name, m->name) && strncmp(def.name, "table:", 6)) {
		snprintf(pl->why[mi], sizeof(pl->why[mi]), "its name is longer than %zu characters", sizeof(def.name) - 1);
		goto out;
	}
	if (!strncmp(def.name, "table:", 6) &&
	    add_note(pl->p, "the table's metric %s is shown as %s: pmctool has its own %s", m->name, def.name, m->name))
		goto nomem;
	snprintf(def.desc, sizeof(def.desc), "%s", m->desc ? m->desc : "");
	if (gather_events(pl, mi, e))
		goto nomem;
	d = realloc(pl->p->defs, (pl->p->ndefs + 1) * sizeof(*d));
	if (!d)
		goto nomem;
	pl->p->defs = d;
	pl->def[mi] = (int)pl->p->ndefs;
	d[pl->p->ndefs++] = def;
	pl->state[mi] = M_OK;
	pmc_expr_free(e);
	return 0;
out:
	pmc_expr_free(e);
	pl->state[mi] = M_OUT;
	if (pl->unnamed_now && rc.rc) { /* said once for all such metrics (unnamed_note) */
		pl->unnamed[mi] = true;
		pl->unnamed_now = false;
		return -ENOENT;
	}
	pl->unnamed_now = false;
	return add_note(pl->p, "metric %s is left out: %s (table %s; the other metrics are evaluated)", m->name,
			pl->why[mi], m->source ? m->source : "?") ? -ENOMEM : -ENOENT;
nomem:
	pmc_expr_free(e);
	return -ENOMEM;
}

/* The table's threshold of metric mi, as pmctool's formula, into its definition (none when it does not parse or
 * names something this machine does not have: the value is still shown). */
static int threshold(struct planner *pl, size_t mi)
{
	const struct pmc_table_metric *m = &pl->ms[mi];
	struct pmc_metric_def *d = &pl->p->defs[pl->def[mi]];
	struct render_ctx rc = { pl, mi, true, "", 0 };
	struct pmc_expr *e;
	int r;

	if (!m->threshold || pmc_expr_parse_perf(m->threshold, &e, NULL, 0))
		return 0;
	r = pmc_expr_render(e, render_name, &rc, d->threshold, sizeof(d->threshold));
	pmc_expr_free(e);
	if (r == -ENOMEM || rc.rc == -ENOMEM)
		return -ENOMEM;
	if (r || rc.rc)
		d->threshold[0] = '\0';
	return 0;
}

/* Whether every line of a ("\n"-joined) is a line of b. */
static bool lines_within(const char *a, const char *b)
{
	for (const char *l = a; l && *l;) {
		const char *end = strchr(l, '\n');
		size_t n = end ? (size_t)(end - l) : strlen(l);
		bool found = false;

		for (const char *k = b; k && *k && !found;) {
			const char *kend = strchr(k, '\n');
			size_t kn = kend ? (size_t)(kend - k) : strlen(k);

			found = kn == n && !strncmp(k, l, n);
			k = kend ? kend + 1 : NULL;
		}
		if (!found)
			return false;
		l = end ? end + 1 : NULL;
	}
	return true;
}

/* One weak group of the metric's distinct events ("{A,B}:W"; a single event alone), or NULL for -ENOMEM. */
static char *group_of(const char *events)
{
	char *buf = NULL, *copy = strdup(events), *save = NULL;
	size_t len = 0, n = 0;
	FILE *f;

	if (!copy || !(f = open_memstream(&buf, &len))) {
		free(copy);
		return NULL;
	}
	for (char *w = strtok_r(copy, "\n", &save); w; w = strtok_r(NULL, "\n", &save)) {
		bool dup = false;

		for (const char *k = events; k < w - copy + events && !dup;) {
			const char *kend = strchr(k, '\n');

			dup = (size_t)(kend - k) == strlen(w) && !strncmp(k, w, strlen(w));
			k = kend + 1;
		}
		if (!dup)
			fprintf(f, "%s%s", n++ ? "," : "", w);
	}
	free(copy);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	if (n > 1) {
		char *g = malloc(strlen(buf) + 5);

		if (g)
			sprintf(g, "{%s}:W", buf);
		free(buf);
		return g;
	}
	return buf;
}

/* One note for every metric left out for events no one here names (no libpfm4 table for this CPU, none in the
 * tables), where a note per metric would repeat the same reason. */
static int unnamed_note(struct planner *pl)
{
	char events[200] = "", metrics[200] = "";
	size_t ne = 0, nm = 0, le = 0, lm = 0;

	for (size_t i = 0; i < pl->nres; i++)
		if (pl->res[i].unnamed && !pl->res[i].spec && ne++ < 8 && le < sizeof(events))
			le += (size_t)snprintf(events + le, sizeof(events) - le, "%s%s", ne > 1 ? ", " : "",
					       pl->res[i].name);
	for (size_t i = 0; i < pl->nms; i++)
		if (pl->unnamed[i] && nm++ < 8 && lm < sizeof(metrics))
			lm += (size_t)snprintf(metrics + lm, sizeof(metrics) - lm, "%s%s", nm > 1 ? ", " : "",
					       pl->ms[i].name);
	if (!nm)
		return 0;
	return add_note(pl->p, "%zu metric%s left out (%s%s): neither libpfm4 (it has no table for this CPU) nor the "
			"vendor tables name %s event%s %s%s; perf's AMD names pmctool knows, raw codes (r...) and "
			"cpu/event=...,umask=.../ still work", nm, nm == 1 ? " is" : "s are", metrics, nm > 8 ? ", ..." : "",
			ne == 1 ? "its" : "their", ne == 1 ? "" : "s", events, ne > 8 ? ", ..." : "");
}

static int plan_groups(struct planner *pl, const bool *sel)
{
	size_t *order = calloc(pl->nms, sizeof(*order)), n = 0;
	int rc = 0;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < pl->nms; i++)
		if (sel[i] && pl->state[i] == M_OK && pl->events[i] && pl->events[i][0])
			order[n++] = i;
	/* the largest first, so a metric whose events another's group holds needs none of its own */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && strlen(pl->events[order[k]]) > strlen(pl->events[order[k - 1]]); k--) {
			size_t t = order[k];
			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (size_t i = 0; i < n && !rc; i++) {
		bool held = false;
		char **g;

		for (size_t k = 0; k < i && !held; k++)
			held = lines_within(pl->events[order[i]], pl->events[order[k]]) &&
			       pl->events[order[k]][0];
		if (held)
			continue;
		g = realloc(pl->p->groups, (pl->p->ngroups + 1) * sizeof(*g));
		if (!g || !(g[pl->p->ngroups] = group_of(pl->events[order[i]]))) {
			if (g)
				pl->p->groups = g;
			rc = -ENOMEM;
			break;
		}
		pl->p->groups = g;
		pl->p->ngroups++;
	}
	free(order);
	return rc;
}

int pmc_tm_plan(const struct pmc_tables *t, const bool *sel, const struct pmc_tm_literals *lits,
		pmc_tm_resolve_fn resolve, void *rctx, bool (*reserved)(const char *name), struct pmc_tm_plan *ret)
{
	struct planner pl = { .t = t, .lits = lits, .resolve = resolve, .rctx = rctx, .reserved = reserved, .p = ret };
	int rc = 0;

	memset(ret, 0, sizeof(*ret));
	pl.nms = pmc_tables_metrics(t, &pl.ms);
	pl.state = calloc(pl.nms + 1, sizeof(*pl.state));
	pl.def = calloc(pl.nms + 1, sizeof(*pl.def));
	pl.scale = calloc(pl.nms + 1, sizeof(*pl.scale));
	pl.events = calloc(pl.nms + 1, sizeof(*pl.events));
	pl.why = calloc(pl.nms + 1, sizeof(*pl.why));
	pl.unnamed = calloc(pl.nms + 1, sizeof(*pl.unnamed));
	if (!pl.state || !pl.def || !pl.scale || !pl.events || !pl.why || !pl.unnamed) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < pl.nms; i++) {
		pl.def[i] = -1;
		pl.scale[i] = 1;
	}
	for (size_t i = 0; i < pl.nms && rc != -ENOMEM; i++)
		if (sel[i])
			rc = compile(&pl, i);
	for (size_t i = 0; i < pl.nms && rc != -ENOMEM; i++)
		if (pl.state[i] == M_OK)
			rc = threshold(&pl, i);
	if (rc != -ENOMEM)
		rc = unnamed_note(&pl);
	if (rc != -ENOMEM)
		rc = plan_groups(&pl, sel);
out:
	for (size_t i = 0; pl.events && i < pl.nms; i++)
		free(pl.events[i]);
	for (size_t i = 0; i < pl.nres; i++) {
		free(pl.res[i].name);
		free(pl.res[i].spec);
		free(pl.res[i].why);
	}
	free(pl.res);
	free(pl.state);
	free(pl.def);
	free(pl.scale);
	free(pl.events);
	free(pl.why);
	free(pl.unnamed);
	if (rc == -ENOMEM) {
		pmc_tm_plan_fini(ret);
		return rc;
	}
	return 0;
}

void pmc_tm_plan_fini(struct pmc_tm_plan *p)
{
	for (size_t i = 0; i < p->ngroups; i++)
		free(p->groups[i]);
	for (size_t i = 0; i < p->nnotes; i++)
		free(p->notes[i]);
	free(p->groups);
	free(p->notes);
	free(p->defs);
	memset(p, 0, sizeof(*p));
}

int pmc_tm_check(const struct pmc_tables *t, const struct pmc_table_metric *m, pmc_tm_resolve_fn resolve, void *rctx,
		 char *why, size_t whylen)
{
	struct pmc_expr *e;
	char err[200];
	int rc = 0;

	if (pmc_expr_parse_perf(m->expr, &e, err, sizeof(err))) {
		snprintf(why, whylen, "does not parse: %s", err);
		return -EINVAL;
	}
	for (size_t i = 0; i < pmc_expr_name_count(e) && !rc; i++) {
		const char *n = pmc_expr_name(e, i);
		char buf[PMC_TM_SPEC_MAX], cand[PMC_TM_CAND_MAX][PMC_TM_SPEC_MAX], w[200] = "";
		const struct pmc_table_metric *ref;
		size_t nc;
		bool ok = false;

		if (m->aliases && alias_of(m, n, 'e', buf, sizeof(buf)))
			n = buf;
		else if (m->aliases && (alias_of(m, n, 'c', buf, sizeof(buf)) || alias_of(m, n, 't', buf, sizeof(buf))))
			continue;
		if (n[0] == '#' || !strcasecmp(n, "duration_time") || pmc_tables_find_metric(t, n, &ref) == 0)
			continue;
		for (size_t k = 0; k < PMC_ARRAY_SIZE(perfmon_consts) && !ok; k++)
			ok = !strcasecmp(n, perfmon_consts[k].perfmon);
		nc = pmc_tm_candidates(n, cand);
		for (size_t k = 0; k < nc && !ok; k++)
			ok = resolve(cand[k], rctx, w, sizeof(w)) == 0;
		if (!ok) {
			snprintf(why, whylen, "event %s: %s", n, w[0] ? w : "no spelling of it is known to pmctool");
			rc = -ENOENT;
		}
	}
	pmc_expr_free(e);
	return rc;
}
