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

void pmc_output_topdown_table(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_report_topdown *td = rep->topdown;
	char safe[PMC_REPORT_TD_REASON * 4 + 8];

	if (!td)
		return;
	fprintf(f, "\n Top-down, level %d, %% of %s (%s: %s):\n", td->level, td->unit, td->tree, td->title);
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];
		int indent = 2 * (n->level - 1);
		char b[TD_BAR + 1];

		if (!n->ok) {
			fprintf(f, "  %*s%-*s %9s  %s\n", indent, "", 22 - indent, n->name, "n/a",
				pmc_output_safe(n->reason, safe, sizeof(safe)));
			continue;
		}
		bar(n->value, b, sizeof(b));
		fprintf(f, "  %*s%-*s %8.1f%%  |%-*s|%s", indent, "", 22 - indent, n->name, 100.0 * n->value, TD_BAR, b,
			n->bottleneck ? "  <== bottleneck" : "");
		if (n->clamped)
			fprintf(f, "  (clamped from %.1f%%)", 100.0 * n->raw);
		fputc('\n', f);
	}
	fprintf(f, "  tree: %s\n", td->why);
	if (td->note)
		fprintf(f, "  note: %s\n", td->note);
}

/* The value and threshold as text ("" for n/a). */
static void num(double v, bool ok, char *buf, size_t len)
{
	if (ok && isfinite(v))
		pmc_format_shortest(v, buf, len);
	else
		buf[0] = '\0';
}

void pmc_output_topdown_csv(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_report_topdown *td = rep->topdown;

	for (size_t i = 0; td && i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];
		char value[48], raw[48], thr[48], level[16], unit[48];
		const char *names[] = { "record", "event", "canonical", "n", "value", "scaled", "unit", "min", "status",
					"reason", "workload" };
		const char *vals[] = { "topdown", n->name, n->parent ? n->parent : "", level, value, raw, unit, thr,
				       !n->ok ? "n/a" : n->bottleneck ? "bottleneck" : "ok", n->reason, td->tree };

		num(n->value, n->ok, value, sizeof(value));
		num(n->raw, n->ok, raw, sizeof(raw));
		num(n->threshold, true, thr, sizeof(thr));
		snprintf(level, sizeof(level), "%d", n->level);
		snprintf(unit, sizeof(unit), "fraction of %s", td->unit);
		pmc_csv_named_row(f, names, vals, sizeof(names) / sizeof(names[0]));
	}
}

void pmc_output_topdown_sep(FILE *f, const struct pmc_report *rep, const char *sep)
{
	const struct pmc_report_topdown *td = rep->topdown;

	if (!td)
		return;
	fprintf(f, "# topdown %s level %d: %% of %s%snode%sparent%slevel%sthreshold%%%sbottleneck or reason\n",
		td->tree, td->level, td->unit, sep, sep, sep, sep, sep);
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];

		if (n->ok)
			fprintf(f, "%.2f", 100.0 * n->value);
		else
			fputs("<n/a>", f);
		fprintf(f, "%s%%%stopdown.%s%s%s%s%d%s%.0f%s%s\n", sep, sep, n->name, sep, n->parent ? n->parent : "", sep,
			n->level, sep, 100.0 * n->threshold, sep, !n->ok ? n->reason : n->bottleneck ? "bottleneck" : "");
	}
}

void pmc_output_topdown_json(FILE *f, const struct pmc_report *rep)
{
	const struct pmc_report_topdown *td = rep->topdown;

	if (!td)
		return;
	fputs(",\"topdown\":{\"tree\":", f);
	pmc_json_string(f, td->tree);
	fputs(",\"title\":", f);
	pmc_json_string(f, td->title);
	fputs(",\"unit\":", f);
	pmc_json_string(f, td->unit);
	fprintf(f, ",\"level\":%d,\"why\":", td->level);
	pmc_json_string(f, td->why);
	fputs(",\"note\":", f);
	pmc_json_string_or_null(f, td->note);
	fputs(",\"nodes\":[", f);
	for (size_t i = 0; i < td->nnodes; i++) {
		const struct pmc_report_td_node *n = &td->node[i];

		fputs(i ? ",{\"node\":" : "{\"node\":", f);
		pmc_json_string(f, n->name);
		fputs(",\"parent\":", f);
		pmc_json_string_or_null(f, n->parent);
		fprintf(f, ",\"level\":%d,\"value\":", n->level);
		pmc_json_number(f, n->ok ? n->value : NAN);
		fputs(",\"raw\":", f);
		pmc_json_number(f, n->ok ? n->raw : NAN);
		fprintf(f, ",\"clamped\":%s,\"threshold\":", n->clamped ? "true" : "false");
		pmc_json_number(f, n->threshold);
		fprintf(f, ",\"bottleneck\":%s,\"reason\":", n->bottleneck ? "true" : "false");
		pmc_json_string_or_null(f, n->ok ? NULL : n->reason);
		fputs(",\"explain\":", f);
		pmc_json_string_or_null(f, n->explain);
		fputc('}', f);
	}
	fputs("]}", f);
}
