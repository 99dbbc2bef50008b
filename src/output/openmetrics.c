/* SPDX-License-Identifier: MIT */
/* The OpenMetrics / Prometheus text exposition of pmctool serve (output/openmetrics.h). */
#include "output/openmetrics.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/* Whether event i's family name was taken by an earlier event (two spellings that fold to one name). */
static bool family_taken(const struct pmc_om_event *ev, size_t i, const char *name)
{
	char other[OM_FAMILY_MAX];

	for (size_t k = 0; k < i; k++) {
		pmc_om_family(ev[k].name, ev[k].seconds, other, sizeof(other));
		if (ev[k].counted && !strcmp(other, name))
			return true;
	}
	return false;
}

int pmc_om_write(FILE *f, enum pmc_om_format fmt, const struct pmc_om_event *ev, size_t n, const char *version)
{
	char name[OM_FAMILY_MAX], help[320];
	bool any = false;

	errno = 0;
	for (size_t i = 0; i < n; i++) {
		if (!ev[i].counted)
			continue;
		pmc_om_family(ev[i].name, ev[i].seconds, name, sizeof(name));
		if (family_taken(ev, i, name)) {
			/* one family per name: a second spelling of the same name is told apart by its index */
			size_t l = strlen(name);
			snprintf(name + l, sizeof(name) - l, "_%zu", i);
		}
		snprintf(help, sizeof(help), "%s counted by pmctool (perf_event_open) since it started, over the CPUs "
			 "counted%s", ev[i].name, ev[i].seconds ? ", in seconds" : "");
		family(f, fmt, name, "counter", ev[i].seconds ? "seconds" : NULL, help);
		fprintf(f, "%s_total{event=\"", name);
		label_value(f, ev[i].name);
		fputs("\"} ", f);
		if (ev[i].seconds)
			fprintf(f, "%.9f", ev[i].value / 1e9);
		else
			number(f, ev[i].value);
		fputc('\n', f);
		any = true;
	}
	if (any) {
		family(f, fmt, "pmctool_event_running_ratio", "gauge", NULL,
		       "the fraction of the time enabled each event was on a counter (below 1: multiplexed, the count "
		       "is scaled)");
		for (size_t i = 0; i < n; i++) {
			if (!ev[i].counted)
				continue;
			fputs("pmctool_event_running_ratio{event=\"", f);
			label_value(f, ev[i].name);
			fputs("\"} ", f);
			number(f, ev[i].running_ratio);
			fputc('\n', f);
		}
	}
	family(f, fmt, "pmctool_event_up", "gauge",  NULL,
	       "1 when the event counts; 0 when it is not counted or not supported here (reason says why; its counter "
	       "family is absent, never 0)");
	for (size_t i = 0; i < n; i++) {
		fputs("pmctool_event_up{event=\"", f);
		label_value(f, ev[i].name);
		if (!ev[i].counted) {
			fputs("\",reason=\"", f);
			label_value(f, ev[i].reason && *ev[i].reason ? ev[i].reason : "not counted");
		}
		fprintf(f, "\"} %d\n", ev[i].counted ? 1 : 0);
	}
	family(f, fmt, "pmctool_build", "info", NULL, "the pmctool that exports these series");
	fputs("pmctool_build_info{version=\"", f);
	label_value(f, version);
	fputs("\"} 1\n", f);
	if (fmt == PMC_OM_OPENMETRICS)
		fputs("# EOF\n", f);
	if (ferror(f))
		return -(errno ? errno : EIO);
	return 0;
}
