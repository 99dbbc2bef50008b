/* SPDX-License-Identifier: MIT */
/* stat --topdown's tree (report/topdown.h) in each format: an indented tree with a bar per node and the bottleneck
 * marked (table), "topdown" records (CSV, -x), a "topdown" object (JSON). A node that is n/a says why; nothing is
 * written without rep->topdown. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"
#include "report/topdown.h"

#define TD_BAR 40 /* characters for 100% */

static void bar(double frac, char *buf, size_t len)
{
	size_t n = frac <= 0 ? 0 : frac >= 1 ? TD_BAR : (size_t)(frac * TD_BAR + 0.5);

	if (n >= len)
		n = len - 1;
	memset(buf, '#', n);
	buf[n] = '\0';
}

/* One tree; each line starts with pre (the interval's time with -I, else ""). */
static void table_tree(FILE *f, const struct pmc_report_topdown *td, const char *pre)
{
	char safe[PMC_REPORT_TD_REASON * 4 + 8];

	fprintf(f, "%s%s Top-down%s%s, level %d, %% of %s (%s: %s):\n", pre, pre[0] ? "" : "\n", td->scope[0] ? " of " : "",
		pmc_output_safe(td->scope, safe, sizeof(safe)), td->level, td->unit, td->tree, td->title);
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];
		int indent = 2 * (n->level - 1);
		char b[TD_BAR + 1];

		if (!n->ok) {
			fprintf(f, "%s  %*s%-*s %9s  %s\n", pre, indent, "", 22 - indent, n->name, "n/a",
				pmc_output_safe(n->reason, safe, sizeof(safe)));
			continue;
		}
		bar(n->value, b, sizeof(b));
		fprintf(f, "%s  %*s%-*s %8.1f%%  |%-*s|%s", pre, indent, "", 22 - indent, n->name, 100.0 * n->value, TD_BAR,
			b, n->bottleneck ? "  <== bottleneck" : "");
		if (n->clamped)
			fprintf(f, "  (clamped from %.1f%%)", 100.0 * n->raw);
		fputc('\n', f);
	}
}

void pmc_output_topdown_table(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_report_topdown *td = rep->topdown;

	if (!td)
		return;
	for (; td; td = td->next) { /* each tree's why and note after the last tree of its kind (rows, regions) */
		table_tree(f, td, "");
		if (td->next && !strcmp(td->next->tree, td->tree))
			continue;
		fprintf(f, "  tree: %s\n", td->why);
		if (td->note)
			fprintf(f, "  note: %s\n", td->note);
	}
}

/* The value and threshold as text ("" for n/a). */
static void num(double v, bool ok, char *buf, size_t len)
{
	if (ok && isfinite(v))
		pmc_format_shortest(v, buf, len);
	else
		buf[0] = '\0';
}

/* One tree's "topdown" records; with -I the interval's number and end time. */
static void csv_tree(FILE *f, const struct pmc_report_topdown *td)
{
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];
		char value[48], raw[48], thr[48], level[16], unit[48], ival[16], tns[32];
		const char *names[] = { "record", "event", "canonical", "n", "value", "scaled", "unit", "min", "status",
					"reason", "workload", "scope", "interval", "time_ns" };
		const char *vals[] = { "topdown", n->name, n->parent ? n->parent : "", level, value, raw, unit, thr,
				       !n->ok ? "n/a" : n->bottleneck ? "bottleneck" : "ok", n->reason, td->tree, td->scope,
				       td->interval ? ival : "", td->interval ? tns : "" };

		num(n->value, n->ok, value, sizeof(value));
		num(n->raw, n->ok, raw, sizeof(raw));
		num(n->threshold, true, thr, sizeof(thr));
		snprintf(level, sizeof(level), "%d", n->level);
		snprintf(unit, sizeof(unit), "fraction of %s", td->unit);
		snprintf(ival, sizeof(ival), "%u", td->interval);
		snprintf(tns, sizeof(tns), "%.0f", round(td->end_s * 1e9));
		pmc_csv_named_row(f, names, vals, sizeof(names) / sizeof(names[0]));
	}
}

void pmc_output_topdown_csv(FILE *f, const struct pmc_report *rep)
{
	for (const struct pmc_report_topdown *td = rep->topdown; td; td = td->next)
		csv_tree(f, td);
}

/* One tree's -x lines: pre (the interval's time and sep with -I) first, as perf's -I -x lines. */
static void sep_tree(FILE *f, const struct pmc_report_topdown *td, const char *sep, const char *pre)
{
	fprintf(f, "# topdown %s level %d%s%s: %% of %s%snode%sparent%slevel%sthreshold%%%sbottleneck or reason\n",
		td->tree, td->level, td->scope[0] ? " of " : "", td->scope, td->unit, sep, sep, sep, sep, sep);
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];

		fputs(pre, f);
		if (n->ok)
			fprintf(f, "%.2f", 100.0 * n->value);
		else
			fputs("<n/a>", f);
		fprintf(f, "%s%%%stopdown.%s%s%s%s%d%s%.0f%s%s\n", sep, sep, n->name, sep, n->parent ? n->parent : "", sep,
			n->level, sep, 100.0 * n->threshold, sep, !n->ok ? n->reason : n->bottleneck ? "bottleneck" : "");
	}
}

void pmc_output_topdown_sep(FILE *f, const struct pmc_report *rep, const char *sep)
{
	for (const struct pmc_report_topdown *td = rep->topdown; td; td = td->next)
		sep_tree(f, td, sep, "");
}

/* One tree as members of the open object. */
static void json_tree(struct pmc_jw *w, const struct pmc_report_topdown *td)
{
	pmc_jw_kstr(w, "tree", td->tree);
	pmc_jw_kstr(w, "title", td->title);
	pmc_jw_kstr(w, "unit", td->unit);
	pmc_jw_kint(w, "level", td->level);
	pmc_jw_kstr(w, "why", td->why);
	pmc_jw_kstr_or_null(w, "note", td->note);
	pmc_jw_karray_begin(w, "nodes");
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];

		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "node", n->name);
		pmc_jw_kstr_or_null(w, "parent", n->parent);
		pmc_jw_kint(w, "level", n->level);
		pmc_jw_knum_if(w, "value", n->ok, n->value);
		pmc_jw_knum_if(w, "raw", n->ok, n->raw);
		pmc_jw_kbool(w, "clamped", n->clamped);
		pmc_jw_knum(w, "threshold", n->threshold);
		pmc_jw_kbool(w, "bottleneck", n->bottleneck);
		pmc_jw_kstr_or_null(w, "reason", n->ok ? NULL : n->reason);
		pmc_jw_kstr_or_null(w, "explain", n->explain);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

/* The first tree as "topdown"; the others (rows, regions, core types) as "topdown_scopes", each with its scope. */
void pmc_output_topdown_json(struct pmc_jw *w, const struct pmc_report *rep)
{
	const struct pmc_report_topdown *td = rep->topdown;

	if (!td)
		return;
	pmc_jw_kobject_begin(w, "topdown");
	if (td->scope[0]) /* a hybrid CPU's first core type */
		pmc_jw_kstr(w, "scope", td->scope);
	json_tree(w, td);
	pmc_jw_object_end(w);
	if (!td->next)
		return;
	pmc_jw_karray_begin(w, "topdown_scopes");
	for (td = td->next; td; td = td->next) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "scope", td->scope);
		json_tree(w, td);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
}

/* -I: one interval's tree as each format writes it (the format table's topdown_interval entries): the table's tree
 * with each line led by the interval's time; -x lines led by the time; CSV "topdown" records with the interval and
 * time_ns; a JSON line of kind "interval_topdown". perf's -j has no place for it: no entry, nothing. */
void pmc_topdown_interval_table(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td)
{
	char pre[64];

	(void)o;
	snprintf(pre, sizeof(pre), "%16.9f ", td->end_s);
	table_tree(f, td, pre);
}

void pmc_topdown_interval_sep(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td)
{
	char pre[64];

	snprintf(pre, sizeof(pre), "%16.9f%s", td->end_s, o->sep);
	sep_tree(f, td, o->sep, pre);
}

void pmc_topdown_interval_csv(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td)
{
	(void)o;
	csv_tree(f, td);
}

void pmc_topdown_interval_json(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td)
{
	struct pmc_jw w;

	(void)o;
	pmc_jw_init(&w, f, 0);
	pmc_json_interval_header(&w, "interval_topdown", td->interval, td->start_s, td->end_s);
	pmc_jw_kstr_or_null(&w, "scope", td->scope);
	pmc_jw_kobject_begin(&w, "topdown");
	json_tree(&w, td);
	pmc_jw_object_end(&w);
	pmc_jw_object_end(&w);
	fputc('\n', f);
}
