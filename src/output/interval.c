/* SPDX-License-Identifier: MIT */
/* -I records as they happen: perf's interval lines (table and -x), CSV rows of the report's columns, or one JSON
 * object per line (NDJSON, "kind": "interval", schema/pmctool-report.schema.json). */
#include <math.h>
#include <string.h>

#include "output/output.h"

void pmc_output_interval_begin(FILE *f, const struct pmc_output_opts *o, bool rows)
{
	switch (o->format) {
	case PMC_OUTPUT_TABLE:
		fprintf(f, "#%15s %s%20s %-4s  %-34s %8s\n", "time", rows ? "scope            " : "", "counts", "unit",
			"events", "running");
		break;
	case PMC_OUTPUT_CSV:
		pmc_output_interval_csv_header(f);
		break;
	case PMC_OUTPUT_SEP:
	case PMC_OUTPUT_JSON:
	default:
		break;
	}
	fflush(f);
}

static void value_text(const struct pmc_interval_record *r, char *buf, size_t len, const char **unit)
{
	const struct pmc_count *c = &r->count;

	*unit = "";
	if (c->status != PMC_COUNT_OK) {
		snprintf(buf, len, "<%s>", pmc_output_status_name(c->status));
		return;
	}
	if (r->ev->flags & PMC_EVF_TIME_NS) {
		pmc_output_group_fixed(pmc_count_scaled(c) / 1e6, 2, buf, len);
		*unit = "msec";
	} else {
		pmc_output_group_digits(pmc_count_scaled(c), buf, len);
	}
}

static double running_pct(const struct pmc_count *c)
{
	return c->enabled ? 100.0 * (double)c->running / (double)c->enabled : 0;
}

static void table_line(FILE *f, const struct pmc_interval_record *r)
{
	char val[64], scope[64] = "", extra[48] = "";
	const char *unit;

	value_text(r, val, sizeof(val), &unit);
	if (r->scope)
		snprintf(scope, sizeof(scope), "%-16s ", r->scope->label);
	if (r->batch >= 0)
		snprintf(extra, sizeof(extra), "  batch %d", r->batch + 1);
	if (r->count.status == PMC_COUNT_OK)
		fprintf(f, "%16.9f %s%20s %-4s  %-34s %7.2f%%%s\n", r->end_s, scope, val, unit, r->ev->name,
			running_pct(&r->count), extra);
	else
		fprintf(f, "%16.9f %s%20s %-4s  %s%s\n", r->end_s, scope, val, unit, r->ev->name, extra);
}

/* perf's -I -x layout: time, [scope,] value, unit, event, run time, running %. */
static void sep_line(FILE *f, const struct pmc_interval_record *r, const char *sep)
{
	const struct pmc_count *c = &r->count;
	bool ok = c->status == PMC_COUNT_OK, ns = r->ev->flags & PMC_EVF_TIME_NS;

	fprintf(f, "%.9f%s", r->end_s, sep);
	if (r->scope)
		fprintf(f, "%s%s", r->scope->label, sep);
	if (ok && ns)
		fprintf(f, "%.2f", pmc_count_scaled(c) / 1e6);
	else if (ok)
		fprintf(f, "%.0f", pmc_count_scaled(c));
	else
		fprintf(f, "<%s>", pmc_output_status_name(c->status));
	fprintf(f, "%s%s%s%s%s%llu%s%.2f\n", sep, ns ? "msec" : "", sep, r->ev->name, sep,
		ok ? (unsigned long long)c->running : 0ull, sep, ok ? running_pct(c) : 0.0);
}

static void json_line(FILE *f, const struct pmc_interval_record *r)
{
	const struct pmc_count *c = &r->count;
	bool ok = c->status == PMC_COUNT_OK;

	pmc_json_header(f, "interval");
	fprintf(f, ",\"interval\":%u,\"start_ns\":", r->interval);
	pmc_json_number(f, round(r->start_s * 1e9));
	fputs(",\"end_ns\":", f);
	pmc_json_number(f, round(r->end_s * 1e9));
	fputs(",\"batch\":", f);
	if (r->batch >= 0)
		fprintf(f, "%d", r->batch + 1);
	else
		fputs("null", f);
	fputs(",\"event\":", f);
	pmc_json_string(f, r->ev->name);
	fputs(",\"canonical\":", f);
	pmc_json_string(f, r->ev->canonical);
	fputs(",\"unit\":", f);
	pmc_json_string_or_null(f, (r->ev->flags & PMC_EVF_TIME_NS) ? "ns" : NULL);
	fputs(",\"status\":", f);
	pmc_json_string(f, pmc_output_status_name(c->status));
	if (ok) {
		fprintf(f, ",\"value\":%llu,\"scaled\":", (unsigned long long)c->value);
		pmc_json_number(f, round(pmc_count_scaled(c)));
		fprintf(f, ",\"enabled_ns\":%llu,\"running_ns\":%llu,\"running_pct\":", (unsigned long long)c->enabled,
			(unsigned long long)c->running);
		pmc_json_number(f, running_pct(c));
	} else {
		fputs(",\"value\":null,\"scaled\":null,\"enabled_ns\":null,\"running_ns\":null,\"running_pct\":null", f);
	}
	fputs(",\"scope\":", f);
	pmc_json_scope(f, r->scope);
	fputs("}\n", f);
}

void pmc_output_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_interval_record *r)
{
	switch (o->format) {
	case PMC_OUTPUT_SEP:
		sep_line(f, r, o->sep);
		break;
	case PMC_OUTPUT_CSV:
		pmc_output_interval_csv(f, r);
		break;
	case PMC_OUTPUT_JSON:
		json_line(f, r);
		break;
	case PMC_OUTPUT_TABLE:
	default:
		table_line(f, r);
		break;
	}
}
