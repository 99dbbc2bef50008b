/* SPDX-License-Identifier: MIT */
/* The OpenMetrics / Prometheus text exposition of pmctool serve (output/openmetrics.h). */
#include "output/openmetrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OM_FAMILY_MAX 160

const char *pmc_om_content_type(enum pmc_om_format fmt)
{
	return fmt == PMC_OM_OPENMETRICS ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
					 : "text/plain; version=0.0.4; charset=utf-8";
}

enum pmc_om_format pmc_om_negotiate(const char *accept)
{
	return accept && strstr(accept, "application/openmetrics-text") ? PMC_OM_OPENMETRICS : PMC_OM_PROMETHEUS;
}

void pmc_om_family(const char *event, bool seconds, char *buf, size_t len)
{
	static const char prefix[] = "pmctool_";
	const char *suffix = seconds ? "_seconds" : "";
	size_t off = 0, room;

	if (!len)
		return;
	room = len - 1 > strlen(suffix) ? len - 1 - strlen(suffix) : 0;
	for (const char *p = prefix; *p && off < room; p++)
		buf[off++] = *p;
	for (const char *p = event; *p && off < room; p++) {
		char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '_';
		if (c == '_' && off && buf[off - 1] == '_')
			continue;
		buf[off++] = c;
	}
	while (off > sizeof(prefix) - 1 && buf[off - 1] == '_') /* "cycles:u:" ends in a letter, not in '_' */
		off--;
	for (const char *p = suffix; *p && off < len - 1; p++)
		buf[off++] = *p;
	buf[off] = '\0';
}

/* Text escaped as both formats want: backslash and newline always, the double quote in a label value (quote). */
static void escaped(FILE *f, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\' || (quote && *s == '"'))
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void label_value(FILE *f, const char *s)
{
	escaped(f, s, true);
}

/* A sample's value: integral counts exactly, seconds to the nanosecond, other fractions with every digit. */
static void number(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.17g", v);
}

/* A family's metadata: TYPE, UNIT (OpenMetrics, when its name ends with the unit), HELP. In Prometheus' format a
 * counter's family is named with its _total, an info family with its _info (its type is gauge there). */
static void family(FILE *f, enum pmc_om_format fmt, const char *name, const char *type, const char *unit,
		   const char *help)
{
	bool om = fmt == PMC_OM_OPENMETRICS;
	const char *suffix = om ? "" : !strcmp(type, "counter") ? "_total" : !strcmp(type, "info") ? "_info" : "";
	const char *ptype = !om && !strcmp(type, "info") ? "gauge" : type;

	fprintf(f, "# TYPE %s%s %s\n", name, suffix, ptype);
	if (om && unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s%s ", name, suffix);
	escaped(f, help, false);
	fputc('\n', f);
}

/* The first index of event i's name: an event's rows share its family. */
static size_t first_of(const struct pmc_om_event *ev, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(ev[k].name, ev[i].name))
			return k;
	return i;
}

/* Whether any series of event i's name counted. */
static bool any_counted(const struct pmc_om_event *ev, size_t n, size_t i)
{
	for (size_t k = i; k < n; k++)
		if (ev[k].counted && !strcmp(ev[k].name, ev[i].name))
			return true;
	return false;
}

/* Event i's family name into name: a name an earlier family took (taken[0..ntaken): two spellings that fold to one
 * name) gets i as a suffix. */
static void event_family(const struct pmc_om_event *ev, size_t i, char (*taken)[OM_FAMILY_MAX], size_t ntaken,
			 char *name, size_t len)
{
	pmc_om_family(ev[i].name, ev[i].seconds, name, len);
	for (size_t k = 0; k < ntaken; k++)
		if (!strcmp(taken[k], name)) {
			size_t l = strlen(name);
			snprintf(name + l, len - l, "_%zu", i);
			return;
		}
}

/* ,name="value" of a row (nothing for the total). */
static void row_label(FILE *f, const struct pmc_om_label *row)
{
	if (!row->name)
		return;
	fprintf(f, ",%s=\"", row->name);
	label_value(f, row->value ? row->value : "");
	fputc('"', f);
}

/* NAME{KEY="value"[,row]} ... the start of a series, up to its value's space. */
static void series(FILE *f, const char *name, const char *key, const char *value, const struct pmc_om_label *row)
{
	fprintf(f, "%s{%s=\"", name, key);
	label_value(f, value);
	fputc('"', f);
	row_label(f, row);
}

static int write_events(FILE *f, enum pmc_om_format fmt, const struct pmc_om_event *ev, size_t n)
{
	char name[OM_FAMILY_MAX], help[320], (*taken)[OM_FAMILY_MAX] = malloc((n ? n : 1) * sizeof(*taken));
	size_t ntaken = 0;
	bool any = false;

	if (!taken)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (first_of(ev, i) != i || !any_counted(ev, n, i))
			continue;
		event_family(ev, i, taken, ntaken, name, sizeof(name));
		memcpy(taken[ntaken++], name, sizeof(name));
		snprintf(help, sizeof(help), "%s counted by pmctool (perf_event_open) since it started%s%s", ev[i].name,
			 ev[i].row.name ? ", per " : ", over the CPUs or tasks counted", ev[i].row.name ? ev[i].row.name : "");
		if (ev[i].seconds)
			snprintf(help + strlen(help), sizeof(help) - strlen(help), ", in seconds");
		family(f, fmt, name, "counter", ev[i].seconds ? "seconds" : NULL, help);
		for (size_t k = i; k < n; k++) {
			if (!ev[k].counted || strcmp(ev[k].name, ev[i].name))
				continue;
			fprintf(f, "%s_total", name);
			series(f, "", "event", ev[k].name, &ev[k].row);
			fputs("} ", f);
			if (ev[k].seconds)
				fprintf(f, "%.9f", ev[k].value / 1e9);
			else
				number(f, ev[k].value);
			fputc('\n', f);
		}
		any = true;
	}
	if (any) {
		family(f, fmt, "pmctool_event_running_ratio", "gauge", NULL,
		       "the fraction of the time enabled each event was on a counter (below 1: multiplexed, the count "
		       "is scaled)");
		for (size_t i = 0; i < n; i++) {
			if (!ev[i].counted)
				continue;
			series(f, "pmctool_event_running_ratio", "event", ev[i].name, &ev[i].row);
			fputs("} ", f);
			number(f, ev[i].running_ratio);
			fputc('\n', f);
		}
	}
	family(f, fmt, "pmctool_event_up", "gauge",  NULL,
	       "1 when the event counts; 0 when it is not counted or not supported here (reason says why; its counter "
	       "family is absent, never 0)");
	for (size_t i = 0; i < n; i++) {
		series(f, "pmctool_event_up", "event", ev[i].name, &ev[i].row);
		if (!ev[i].counted) {
			fputs(",reason=\"", f);
			label_value(f, ev[i].reason && *ev[i].reason ? ev[i].reason : "not counted");
			fputc('"', f);
		}
		fprintf(f, "} %d\n", ev[i].counted ? 1 : 0);
	}
	free(taken);
	return 0;
}

/* A gauge's labels after its key: level (a node's), unit (a metric's, when it has one), the row. */
static void gauge_labels(FILE *f, const char *name, const char *key, const struct pmc_om_gauge *g)
{
	series(f, name, key, g->name, &g->row);
	if (g->level)
		fprintf(f, ",level=\"%d\"", g->level);
	if (g->unit && *g->unit) {
		fputs(",unit=\"", f);
		label_value(f, g->unit);
		fputc('"', f);
	}
}

/* A family of gauges (the valid ones) and its _up family (every one; 0 with the reason for those without a value). */
static void write_gauges(FILE *f, enum pmc_om_format fmt, const struct pmc_om_gauge *g, size_t n, const char *name,
			 const char *key, const char *help, const char *up_help)
{
	char up[OM_FAMILY_MAX];
	bool any = false;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		any |= g[i].valid;
	if (any) {
		family(f, fmt, name, "gauge", NULL, help);
		for (size_t i = 0; i < n; i++) {
			if (!g[i].valid)
				continue;
			gauge_labels(f, name, key, &g[i]);
			fputs("} ", f);
			number(f, g[i].value);
			fputc('\n', f);
		}
	}
	snprintf(up, sizeof(up), "%s_up", name);
	family(f, fmt, up, "gauge", NULL, up_help);
	for (size_t i = 0; i < n; i++) {
		gauge_labels(f, up, key, &g[i]);
		if (!g[i].valid) {
			fputs(",reason=\"", f);
			label_value(f, g[i].reason && *g[i].reason ? g[i].reason : "no value");
			fputc('"', f);
		}
		fprintf(f, "} %d\n", g[i].valid ? 1 : 0);
	}
}

int pmc_om_write_doc(FILE *f, enum pmc_om_format fmt, const struct pmc_om_doc *d)
{
	errno = 0;
	if (write_events(f, fmt, d->ev, d->nev))
		return -ENOMEM;
	write_gauges(f, fmt, d->metrics, d->nmetrics, "pmctool_metric", "metric",
		     "a metric of the counts since pmctool started (its formula over them; unit in its label)",
		     "1 when the metric has a value; 0 when it has none (reason says why; it is absent from "
		     "pmctool_metric, never 0)");
	write_gauges(f, fmt, d->nodes, d->nnodes, "pmctool_topdown_fraction", "node",
		     "a top-down node's share of the slots since pmctool started (0 to 1)",
		     "1 when the top-down node has a value; 0 when it has none (reason says why; it is absent from "
		     "pmctool_topdown_fraction, never 0)");
	family(f, fmt, "pmctool_build", "info", NULL, "the pmctool that exports these series");
	fputs("pmctool_build_info{version=\"", f);
	label_value(f, d->version ? d->version : "");
	fputs("\"} 1\n", f);
	if (d->nenv) {
		bool first = true;

		family(f, fmt, "pmctool_environment", "info", NULL,
		       "where the counts are measured: CPU, kernel, microcode, libpfm4 (pmctool's environment fingerprint)");
		fputs("pmctool_environment_info{", f);
		for (size_t i = 0; i < d->nenv; i++) {
			if (!d->env[i].value || !*d->env[i].value)
				continue;
			fprintf(f, "%s%s=\"", first ? "" : ",", d->env[i].name);
			label_value(f, d->env[i].value);
			fputc('"', f);
			first = false;
		}
		fputs("} 1\n", f);
	}
	if (fmt == PMC_OM_OPENMETRICS)
		fputs("# EOF\n", f);
	if (ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}
