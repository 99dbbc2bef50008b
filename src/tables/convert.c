/* SPDX-License-Identifier: MIT */
/* One vendor JSON document -> table entries: events get the config perf's jevents would give them (the fields below,
 * perf's fixed-counter names, the first code of a list, MSR values into config1), metrics keep their text. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tables/tables_internal.h"
#include "util/json_read.h"

/* The names perf gives its own encoding whatever the JSON says (the JSON has the fixed counter's pseudo code). */
static const struct {
	const char *name;
	uint64_t config;
} fixed_names[] = {
	{ "inst_retired.any", 0xc0 },
	{ "inst_retired.any_p", 0xc0 },
	{ "cpu_clk_unhalted.ref", 0x0300 },
	{ "cpu_clk_unhalted.thread", 0x3c },
	{ "cpu_clk_unhalted.core", 0x3c },
	{ "cpu_clk_unhalted.thread_any", 0x3c | 1ull << 21 },
};

/* x86 fields that set bits of config, with the largest value the field holds. */
static const struct {
	const char *key;
	unsigned shift;
	uint64_t max;
} x86_fields[] = {
	{ "UMask", 8, 0xff },
	{ "EdgeDetect", 18, 1 },
	{ "AnyThread", 21, 1 },
	{ "Invert", 23, 1 },
	{ "CounterMask", 24, 0xff },
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* A numeric field: a JSON number, or a string in C notation ("0xC4", "1"); of a list ("0xB7,0xBB") the first.
 * 1 and *ret when present and not null, 0 when absent, -EINVAL with why. */
static int field_u64(const struct pmc_jvalue *o, const char *key, uint64_t max, uint64_t *ret, char *why,
                     size_t whylen)
{
	const struct pmc_jvalue *v = pmc_json_get(o, key);
	uint64_t x;

	if (!v || v->type == PMC_J_NULL)
		return 0;
	if (v->type == PMC_J_NUMBER) {
		if (!(v->num >= 0 && v->num <= (double)max) || v->num != (double)(uint64_t)v->num)
			goto bad;
		*ret = (uint64_t)v->num;
		return 1;
	}
	if (v->type != PMC_J_STRING)
		goto bad;
	const char *s = v->str;
	while (*s == ' ')
		s++;
	if (!*s)
		return 0; /* "" is how some files leave a field unset */
	char *end;
	errno = 0;
	x = strtoull(s, &end, 0);
	while (*end == ' ')
		end++;
	if (errno || end == s || (*end && *end != ',') || *s == '-' || x > max)
		goto bad;
	*ret = x;
	return 1;
bad:
	snprintf(why, whylen, "%s is not a number up to 0x%" PRIx64, key, max);
	return -EINVAL;
}

static bool flag_set(const struct pmc_jvalue *o, const char *key)
{
	const struct pmc_jvalue *v = pmc_json_get(o, key);

	if (!v)
		return false;
	if (v->type == PMC_J_BOOL)
		return v->b;
	if (v->type == PMC_J_NUMBER)
		return v->num != 0;
	return v->type == PMC_J_STRING && v->str[0] && strcmp(v->str, "0") != 0;
}

static char *lower_dup(const char *s)
{
	char *r = strdup(s);

	for (char *p = r; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

void pmc_table_event_fini(struct pmc_table_event *e)
{
	if (!e)
		return;
	free(e->name);
	free(e->pmu);
	free(e->terms);
	free(e->desc);
	free(e->compat);
	memset(e, 0, sizeof(*e));
}

static int x86_encode(const struct pmc_jvalue *o, struct pmc_table_event *e, char *why, size_t whylen)
{
	uint64_t code = 0, ext = 0, v;
	int r;

	for (size_t i = 0; i < sizeof(fixed_names) / sizeof(fixed_names[0]); i++)
		if (strcmp(e->name, fixed_names[i].name) == 0) {
			e->config = fixed_names[i].config;
			e->fixed_name = true;
			return 0;
		}
	/* no EventCode is event 0, as in perf (older trees leave it out of the fixed counters' entries) */
	if ((r = field_u64(o, "EventCode", 0xfff, &code, why, whylen)) < 0)
		return r;
	if ((r = field_u64(o, "ExtSel", 0xf, &ext, why, whylen)) < 0)
		return r;
	code |= ext << 8;
	e->config = (code & 0xff) | ((code >> 8) & 0xf) << 32;
	e->fixed_name = (code == 0); /* the fixed counters' pseudo code: umask names the counter */
	for (size_t i = 0; i < sizeof(x86_fields) / sizeof(x86_fields[0]); i++) {
		v = 0;
		if ((r = field_u64(o, x86_fields[i].key, x86_fields[i].max, &v, why, whylen)) < 0)
			return r;
		e->config |= v << x86_fields[i].shift;
	}
	uint64_t msr = 0, val = 0;
	if ((r = field_u64(o, "MSRIndex", 0xffffffff, &msr, why, whylen)) < 0)
		return r;
	if (msr == 0x1a6 || msr == 0x1a7 || msr == 0x3f6 || msr == 0x3f7) {
		if ((r = field_u64(o, "MSRValue", UINT64_MAX, &val, why, whylen)) < 0)
			return r;
		if (msr == 0x3f6 && val > 0xffff) {
			snprintf(why, whylen, "MSRValue 0x%" PRIx64 " exceeds the 16-bit load latency", val);
			return -EINVAL;
		}
		if (msr == 0x3f7 && val > 0xffffff) {
			snprintf(why, whylen, "MSRValue 0x%" PRIx64 " exceeds the 24-bit frontend field", val);
			return -EINVAL;
		}
		e->config1 = val;
	}
	return 0;
}

static int event_from(const struct pmc_jvalue *o, const char *name, enum pmc_table_enc enc,
                      const struct pmc_tables *std, struct pmc_table_event *e, char *why, size_t whylen)
{
	const struct pmc_table_event *base = NULL;
	const char *stdname = pmc_json_get_str(o, "ArchStdEvent", NULL);
	int r;

	memset(e, 0, sizeof(*e));
	if (!name)
		name = pmc_json_get_str(o, "EventName", stdname);
	if (!name || !*name)
		return -ENOENT;
	e->enc = enc;
	if (!(e->name = lower_dup(name)))
		return -ENOMEM;
	if (stdname && pmc_tables_find(std, stdname, &base) != 0) {
		snprintf(why, whylen, "ArchStdEvent %.60s is not among the architecture's standard events", stdname);
		r = -ENOENT;
		goto fail;
	}
	const char *desc = pmc_json_get_str(o, "BriefDescription", NULL);
	if (!desc)
		desc = pmc_json_get_str(o, "PublicDescription", NULL);
	if (!desc)
		desc = pmc_json_get_str(o, "title", NULL);
	if (!desc && base)
		desc = base->desc;
	const char *unit = pmc_json_get_str(o, "Unit", NULL);
	if ((desc && !(e->desc = strdup(desc))) || (unit && !(e->pmu = strdup(unit)))) {
		r = -ENOMEM;
		goto fail;
	}
	e->deprecated = flag_set(o, "Deprecated");
	if (enc == PMC_TABLE_ENC_ARM64) {
		uint64_t code = base ? base->config : 0;
		r = field_u64(o, "EventCode", 0xffff, &code, why, whylen);
		if (r == 0)
			r = field_u64(o, "code", 0xffff, &code, why, whylen);
		if (r < 0)
			goto fail;
		if (r == 0 && !base) {
			snprintf(why, whylen, "no EventCode");
			r = -EINVAL;
			goto fail;
		}
		e->config = code;
		return 0;
	}
	if ((r = x86_encode(o, e, why, whylen)) < 0)
		goto fail;
	return 0;
fail:
	if (r == -EINVAL || r == -ENOENT) {
		char field[160];
		snprintf(field, sizeof(field), "%s", why);
		snprintf(why, whylen, "event %.60s: %s", e->name, field);
	}
	pmc_table_event_fini(e);
	return r;
}

int pmc_table_event_from_json(const struct pmc_jvalue *o, enum pmc_table_enc enc, const struct pmc_tables *std,
                              struct pmc_table_event *e, char *why, size_t whylen)
{
	if (!o || !e || o->type != PMC_J_OBJECT)
		return -EINVAL;
	return event_from(o, NULL, enc, std, e, why, whylen);
}

static int add_event(struct pmc_tables *t, struct pmc_table_event *e)
{
	if (t->nev == t->capev) {
		size_t cap = t->capev ? t->capev * 2 : 64;
		void *p = realloc(t->ev, cap * sizeof(*t->ev));
		if (!p)
			return -ENOMEM;
		t->ev = p;
		t->capev = cap;
	}
	t->ev[t->nev++] = *e;
	return 0;
}

/* perfmon's alias lists ("Events", "Constants", the threshold's "ThresholdMetrics": [{"Name"|"Value", "Alias"}]) as
 * the lines of pmc_table_metric.aliases into *ret (NULL when there are none). 0 or -ENOMEM. */
static int alias_lines(const struct pmc_jvalue *o, char **ret)
{
	static const struct { const char *key, *field; char kind; } lists[] = {
		{ "Events", "Name", 'e' }, { "Constants", "Name", 'c' }, { "ThresholdMetrics", "Value", 't' },
	};
	const struct pmc_jvalue *th = pmc_json_get(o, "Threshold");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = NULL;

	*ret = NULL;
	for (size_t k = 0; k < sizeof(lists) / sizeof(lists[0]); k++) {
		const struct pmc_jvalue *l = pmc_json_get(lists[k].kind == 't' ? th : o, lists[k].key);

		for (size_t i = 0; l && l->type == PMC_J_ARRAY && i < l->n; i++) {
			const char *alias = pmc_json_get_str(l->items[i], "Alias", NULL);
			const char *name = pmc_json_get_str(l->items[i], lists[k].field, NULL);

			if (!alias || !name || strpbrk(alias, " \n") || strchr(name, '\n'))
				continue;
			if (!f && !(f = open_memstream(&buf, &len)))
				return -ENOMEM;
			fprintf(f, "%c %s %s\n", lists[k].kind, alias, name);
		}
	}
	if (f && fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return 0;
}

static int add_metric(struct pmc_tables *t, const struct pmc_jvalue *o, const char *name, const char *source)
{
	const struct pmc_jvalue *th = pmc_json_get(o, "Threshold");
	const char *expr = pmc_json_get_str(o, "MetricExpr", NULL), *threshold;
	const char *unit = pmc_json_get_str(o, "ScaleUnit", NULL), *desc;

	if (!name)
		name = pmc_json_get_str(o, "MetricName", NULL);
	if (!expr)
		expr = pmc_json_get_str(o, "Formula", NULL);
	if (!expr)
		expr = pmc_json_get_str(o, "formula", NULL);
	if (!name || !*name || !expr)
		return -ENOENT;
	threshold = pmc_json_get_str(o, "MetricThreshold", NULL);
	if (!threshold && th)
		threshold = th->type == PMC_J_STRING ? th->str : pmc_json_get_str(th, "Formula", NULL);
	if (!unit)
		unit = pmc_json_get_str(o, "UnitOfMeasure", NULL);
	if (!unit)
		unit = pmc_json_get_str(o, "units", NULL);
	desc = pmc_json_get_str(o, "BriefDescription", NULL);
	if (!desc)
		desc = pmc_json_get_str(o, "title", NULL);
	if (t->nmet == t->capmet) {
		size_t cap = t->capmet ? t->capmet * 2 : 32;
		void *p = realloc(t->met, cap * sizeof(*t->met));
		if (!p)
			return -ENOMEM;
		t->met = p;
		t->capmet = cap;
	}
	struct pmc_table_metric *m = &t->met[t->nmet];
	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	m->expr = strdup(expr);
	m->groups = dup_or_null(pmc_json_get_str(o, "MetricGroup", NULL));
	m->threshold = dup_or_null(threshold);
	m->unit = dup_or_null(unit);
	m->desc = dup_or_null(desc);
	m->source = source;
	m->legacy = dup_or_null(pmc_json_get_str(o, "LegacyName", NULL));
	m->level = (int)pmc_json_get_num(o, "Level", 0);
	if (m->level < 0 || m->level > 9)
		m->level = 0;
	t->nmet++;
	if (!m->name || !m->expr || alias_lines(o, &m->aliases))
		return -ENOMEM; /* the entry is counted, so pmc_tables_free frees what was allocated */
	return 0;
}

/* Walk the items of one document. nbad/why: items skipped for a malformed field (the first reason kept). */
struct walk {
	struct pmc_tables *t;
	const char *source;
	size_t events, metrics, bad, uncore, matrix;
	char *why;
	size_t whylen;
};

/* perf's PMU for a table's "Unit": a few by name, the rest uncore_<unit> in lower case (perf's pmu-events rule). */
static int uncore_family(const char *unit, char *buf, size_t len)
{
	static const struct {
		const char *unit, *pmu;
	} named[] = {
		{ "CBO", "uncore_cbox" }, { "QPI LL", "uncore_qpi" }, { "UPI LL", "uncore_upi" }, { "SBO", "uncore_sbox" },
		{ "iMPH-U", "uncore_arb" }, { "DFPMC", "amd_df" }, { "L3PMC", "amd_l3" }, { "UMCPMC", "amd_umc" },
	};
	int n;

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(unit, named[i].unit))
			return snprintf(buf, len, "%s", named[i].pmu) < (int)len ? 0 : -ENAMETOOLONG;
	if (strpbrk(unit, " ,/="))
		return -EINVAL;
	if (!strncmp(unit, "arm_", 4) || !strncmp(unit, "hisi_", 5))
		n = snprintf(buf, len, "%s", unit);
	else
		n = snprintf(buf, len, "uncore_%s", unit);
	for (char *p = buf; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

/* The fields of an uncore event that are its family's sysfs terms, per table format (perf's jevents names them so):
 * x86's event code and unit masks; arm64's system PMU events (arm_cmn: NodeType and EventidCode; an event= or
 * config= PMU: EventCode, ConfigCode). */
static const struct {
	const char *key, *term;
	uint64_t max;
} uncore_terms[][4] = {
	[PMC_TABLE_ENC_X86] = { { "EventCode", "event", 0xffff },
	                        { "UMask", "umask", 0xffffffff },
	                        { "UMaskExt", "umask_ext", 0xffffffff } },
	[PMC_TABLE_ENC_ARM64] = { { "NodeType", "type", 0xffff },
	                          { "EventidCode", "eventid", 0xffff },
	                          { "EventCode", "event", 0xffffffff },
	                          { "ConfigCode", "config", UINT64_MAX } },
};

/*
 * An uncore event: its family and sysfs terms (uncore_terms), which the family's format encodes per box as perf
 * does; arm64's system events keep their "Compat" (the PMU identifiers they are for). -ENOENT (left out, counted):
 * no code field (x86: no EventCode), fields pmctool does not spell as terms (PortMask, FCMask, filters), or a Unit
 * that names no PMU; -ENOMEM.
 */
static int uncore_from(const struct pmc_jvalue *o, const char *key, const char *unit, enum pmc_table_enc enc,
                       struct pmc_table_event *e)
{
	static const char *const unspelt[] = { "PortMask", "FCMask", "Filter", "UMaskExt2" };
	const char *name = pmc_json_get_str(o, "EventName", key), *desc = pmc_json_get_str(o, "BriefDescription", NULL);
	const char *compat = pmc_json_get_str(o, "Compat", NULL);
	char fam[64], terms[128], why[80];
	size_t n = 0, codes = 0;

	memset(e, 0, sizeof(*e));
	if (!name || (enc == PMC_TABLE_ENC_X86 && !pmc_json_get(o, "EventCode")) ||
	    uncore_family(unit, fam, sizeof(fam)) < 0)
		return -ENOENT;
	for (size_t i = 0; i < sizeof(unspelt) / sizeof(unspelt[0]); i++) {
		const char *v = pmc_json_get_str(o, unspelt[i], NULL);

		if (v && *v && strcmp(v, "0") && strcmp(v, "0x0") && strcmp(v, "0x00"))
			return -ENOENT;
	}
	terms[0] = '\0';
	for (size_t i = 0; i < 4 && uncore_terms[enc][i].key; i++) {
		uint64_t v = 0;
		int r = field_u64(o, uncore_terms[enc][i].key, uncore_terms[enc][i].max, &v, why, sizeof(why));

		if (r < 0)
			return -ENOENT;
		/* x86: event and umask always written (umask=0 is a value), an extension only when set */
		if (r == 0 && !(enc == PMC_TABLE_ENC_X86 && i < 2))
			continue;
		if (enc == PMC_TABLE_ENC_X86 && i == 2 && !v)
			continue;
		codes += (r == 1);
		n += (size_t)snprintf(terms + n, sizeof(terms) - n, "%s%s=0x%" PRIx64, n ? "," : "",
		                      uncore_terms[enc][i].term, v);
		if (n >= sizeof(terms))
			return -ENOENT;
	}
	if (!codes)
		return -ENOENT;
	e->enc = enc;
	if (!(e->name = lower_dup(name)) || !(e->pmu = strdup(fam)) || !(e->terms = strdup(terms)) ||
	    (desc && !(e->desc = strdup(desc))) || (compat && *compat && !(e->compat = strdup(compat)))) {
		pmc_table_event_fini(e);
		return -ENOMEM;
	}
	return 0;
}

static int take(struct walk *w, const struct pmc_jvalue *o, const char *key, bool event_only, bool metric_only)
{
	struct pmc_table_event e;
	char why[200] = "";
	int r;

	if (!o || o->type != PMC_J_OBJECT)
		return 0;
	if (!event_only && (metric_only || pmc_json_get(o, "MetricName"))) {
		r = add_metric(w->t, o, key, w->source);
		if (r == -ENOENT) {
			w->bad++;
			if (!w->why[0])
				snprintf(w->why, w->whylen, "metric %.60s: no name or no formula", key ? key : "?");
			return 0;
		}
		w->metrics += (r == 0);
		return r;
	}
	if (pmc_json_get(o, "MATRIX_REQUEST")) {
		w->matrix++; /* perfmon's offcore matrix: request and response bits to build offcore events from */
		return 0;
	}
	const char *unit = pmc_json_get_str(o, "Unit", NULL);
	if (unit && strcasecmp(unit, "cpu") != 0 && strcasecmp(unit, "cpu_core") != 0 &&
	    strcasecmp(unit, "cpu_atom") != 0) {
		/* an uncore PMU's event (perf's Unit names the PMU family): kept as its family's terms */
		r = uncore_from(o, key, unit, w->t->enc, &e);
		if (r == -ENOENT)
			w->uncore++;
		if (r < 0)
			return r == -ENOENT ? 0 : r;
	} else {
		r = event_from(o, key, w->t->enc, w->t->std, &e, why, sizeof(why));
	}
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		if (why[0]) { /* -ENOENT without why: an item that is no event (perf's files hold a few) */
			w->bad++;
			if (!w->why[0])
				snprintf(w->why, w->whylen, "%s", why);
		}
		return 0;
	}
	e.source = w->source;
	if ((r = add_event(w->t, &e)) < 0) {
		pmc_table_event_fini(&e);
		return r;
	}
	w->events++;
	return 0;
}

static int take_all(struct walk *w, const struct pmc_jvalue *v, bool keyed, bool event_only, bool metric_only)
{
	int r;

	for (size_t i = 0; v && i < v->n; i++)
		if ((r = take(w, v->items[i], keyed ? v->keys[i] : NULL, event_only, metric_only)) < 0)
			return r;
	return 0;
}

/* The vendors' files are not always strict JSON: older perf trees have trailing commas and raw tabs or newlines in
 * descriptions (perf's old C reader took them). Blank those out in place, same length, so the strict reader takes
 * the file and its line and column numbers still point into the file: a comma whose next non-blank character closes
 * an object or array, and a control character inside a string; a comma goes into the blank between "}" and "{". */
static void tolerate(char *s, size_t len)
{
	bool in = false;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (in) {
			if (c == '\\' && i + 1 < len)
				i++;
			else if (c == '"')
				in = false;
			else if ((unsigned char)c < 0x20)
				s[i] = ' ';
		} else if (c == '"') {
			in = true;
		} else if (c == ',') {
			size_t j = i + 1;
			while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r'))
				j++;
			if (j < len && (s[j] == '}' || s[j] == ']'))
				s[i] = ' ';
		} else if (c == '}' && i + 2 < len && (s[i + 1] == '\n' || s[i + 1] == ' ')) {
			size_t j = i + 1; /* "}" blank "{" is never JSON: the comma an older tree left out goes in */
			while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r'))
				j++;
			if (j < len && s[j] == '{') /* in the indent before "{" when there is one: lines stay where they are */
				s[s[j - 1] == ' ' || s[j - 1] == '\t' ? j - 1 : i + 1] = ',';
		}
	}
}

int pmc_tables_parse_note(struct pmc_tables *t, const char *text, size_t len, const char *source,
                          struct pmc_table_note *note)
{
	char *why = note->why;
	size_t whylen = sizeof(note->why);
	struct pmc_jvalue *doc;
	char err[160];
	int r;

	why[0] = '\0';
	char *copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	tolerate(copy, len);
	r = pmc_json_parse(copy, len, &doc, err, sizeof(err));
	free(copy);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		snprintf(why, whylen, "not valid JSON: %s", err);
		note->skipped = true;
		return -EINVAL;
	}
	struct walk w = { .t = t, .source = source, .why = why, .whylen = whylen };
	const struct pmc_jvalue *ev = pmc_json_get(doc, "Events"), *met = pmc_json_get(doc, "Metrics");
	const struct pmc_jvalue *nev = pmc_json_get(doc, "events"), *nmet = pmc_json_get(doc, "metrics");
	if (doc->type == PMC_J_ARRAY) { /* perf's pmu-events: an array of events and metrics */
		r = take_all(&w, doc, false, false, false);
	} else if ((ev && ev->type == PMC_J_ARRAY) || (met && met->type == PMC_J_ARRAY)) { /* Intel perfmon */
		r = take_all(&w, ev && ev->type == PMC_J_ARRAY ? ev : NULL, false, true, false);
		if (r == 0)
			r = take_all(&w, met && met->type == PMC_J_ARRAY ? met : NULL, false, false, true);
	} else if ((nev && nev->type == PMC_J_OBJECT) || (nmet && nmet->type == PMC_J_OBJECT)) { /* Arm Neoverse */
		r = take_all(&w, nev && nev->type == PMC_J_OBJECT ? nev : NULL, true, true, false);
		if (r == 0)
			r = take_all(&w, nmet && nmet->type == PMC_J_OBJECT ? nmet : NULL, true, false, true);
	} else {
		snprintf(why, whylen, "neither an array of events (perf), an object with \"Events\" (perfmon) nor one "
		         "with \"events\" (Neoverse)");
		r = -EINVAL;
	}
	pmc_json_free(doc);
	if (r == 0 && w.events + w.metrics == 0) {
		if (why[0])
			; /* the first bad item says why */
		else if (w.matrix)
			snprintf(why, whylen, "an offcore matrix (%zu request and response entries), not events: not read",
			         w.matrix);
		else if (w.uncore)
			snprintf(why, whylen, "only uncore events (%zu) pmctool cannot spell as their PMU's terms", w.uncore);
		else
			snprintf(why, whylen, "no events or metrics in it");
		r = -EINVAL;
	}
	note->uncore = w.uncore;
	note->events = w.events;
	note->metrics = w.metrics;
	note->bad = w.bad;
	note->skipped = r < 0;
	return r;
}

int pmc_tables_parse_text(struct pmc_tables *t, const char *text, size_t len, const char *source, char *why,
                          size_t whylen)
{
	struct pmc_table_note n = { 0 };
	int r;

	if (!t || !text || !why || !whylen)
		return -EINVAL;
	r = pmc_tables_parse_note(t, text, len, source, &n);
	snprintf(why, whylen, "%s", n.why);
	if (pmc_tables_sort(t) < 0)
		return -ENOMEM;
	return r;
}
