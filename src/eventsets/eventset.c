/* SPDX-License-Identifier: MIT */
/* Parser of the line-based event-set format. Each line: a keyword, then its arguments. */
#include "eventsets/eventset.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "arch/arch.h"
#include "metrics/expr.h"
#include "sys/sysfs.h"

struct pstate {
	const char *path;
	unsigned line;
	char *err;
	size_t errlen;
	int rc;
	struct pmc_eventset *set;
	struct pmc_eventset_variant common; /* what comes before the first 'variant' line */
	int cur;                            /* -1: common; else index of the variant being read */
	unsigned batch;
};

static void perr(struct pstate *p, int rc, size_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void perr(struct pstate *p, int rc, size_t col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->rc)
		return;
	p->rc = rc;
	if (!p->err || !p->errlen)
		return;
	n = snprintf(p->err, p->errlen, "%s:%u:%zu: ", p->path, p->line, col);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Append one zeroed element to *arr (of *n elements of 'size' bytes); NULL on out-of-memory or past 'max'. */
static void *push(struct pstate *p, void *arr, size_t *n, size_t size, size_t max, const char *what)
{
	void **a = arr;
	char *q;

	if (*n >= max) {
		perr(p, -E2BIG, 1, "more than %zu %s", max, what);
		return NULL;
	}
	q = realloc(*a, (*n + 1) * size);
	if (!q) {
		perr(p, -ENOMEM, 1, "out of memory");
		return NULL;
	}
	*a = q;
	memset(q + *n * size, 0, size);
	return q + (*n)++ * size;
}

static int push_str(struct pstate *p, char ***arr, size_t *n, const char *s, size_t len, size_t max, const char *what)
{
	char **slot = push(p, arr, n, sizeof(char *), max, what);

	if (!slot)
		return -1;
	*slot = strndup(s, len);
	if (!*slot) {
		(*n)--;
		perr(p, -ENOMEM, 1, "out of memory");
		return -1;
	}
	return 0;
}

static struct pmc_eventset_variant *cur_variant(struct pstate *p)
{
	return p->cur < 0 ? &p->common : &p->set->variants[p->cur];
}

static bool has_event(const struct pmc_eventset_variant *v, const char *name)
{
	for (size_t i = 0; i < v->nevents; i++)
		if (!strcasecmp(v->events[i].spelling, name))
			return true;
	return false;
}

static bool has_metric(const struct pmc_eventset_variant *v, const char *name)
{
	for (size_t i = 0; i < v->nmetrics; i++)
		if (!strcasecmp(v->metrics[i].name, name))
			return true;
	return false;
}

static bool has_check(const struct pmc_eventset_variant *v, const char *name)
{
	for (size_t i = 0; i < v->nchecks; i++)
		if (!strcasecmp(v->checks[i].name, name))
			return true;
	return false;
}

/* Parse a formula at column col and check that every name it uses exists in the current section. */
static void check_formula(struct pstate *p, const char *formula, size_t col)
{
	struct pmc_variant_view { const struct pmc_eventset_variant *a, *b; } vv = { &p->common, cur_variant(p) };
	struct pmc_expr *e;
	char msg[300];
	int rc = pmc_expr_parse(formula, &e, msg, sizeof(msg));
	unsigned long c;

	if (rc) {
		/* The parser's message starts "column N: "; make N a column of the line. */
		if (sscanf(msg, "column %lu:", &c) == 1) {
			const char *rest = strchr(msg, ':');
			perr(p, rc, col + c - 1, "in formula:%s", rest + 1);
		} else {
			perr(p, rc, col, "in formula: %s", msg);
		}
		return;
	}
	for (size_t i = 0; i < pmc_expr_name_count(e); i++) {
		const char *n = pmc_expr_name(e, i);
		const char *at = strstr(formula, n);

		if (has_event(vv.a, n) || has_event(vv.b, n) || has_metric(vv.a, n) || has_metric(vv.b, n) ||
		    pmc_metric_is_known_const(n))
			continue;
		perr(p, -EINVAL, col + (size_t)(at ? at - formula : 0), "'%s' is not an event listed (with 'event') "
		     "before this line, an earlier metric, nor a known constant (TSC_HZ, BASE_HZ, SECONDS, ...)", n);
		break;
	}
	pmc_expr_free(e);
}

/* Split "NAME = REST" and copy NAME; returns the offset of REST in s, or 0 after an error. */
static size_t split_name(struct pstate *p, const char *s, size_t col, char *name, size_t namelen, const char *kw)
{
	const char *eq = strchr(s, '=');
	size_t n;

	if (!eq) {
		perr(p, -EINVAL, col, "%s needs 'NAME = FORMULA'", kw);
		return 0;
	}
	n = (size_t)(eq - s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= namelen) {
		perr(p, -E2BIG, col, "%s name is longer than %zu characters", kw, namelen - 1);
		return 0;
	}
	memcpy(name, s, n);
	name[n] = '\0';
	return (size_t)(eq - s) + 1;
}

/* Split s at unquoted '|' (outside braces and double quotes) into up to max trimmed fields; returns the count. */
static size_t split_fields(char *s, char **fields, size_t *offs, size_t max)
{
	size_t n = 0;
	char *start = s;
	int brace = 0, quote = 0;

	for (char *q = s;; q++) {
		if (*q == '{' && !quote)
			brace++;
		else if (*q == '}' && !quote && brace)
			brace--;
		else if (*q == '"' && !brace)
			quote = !quote;
		if (*q && (*q != '|' || brace || quote || n == max - 1))
			continue;
		while (isspace((unsigned char)*start))
			start++;
		fields[n] = start;
		offs[n++] = (size_t)(start - s);
		{
			char *end = q;
			bool last = !*q;
			while (end > start && isspace((unsigned char)end[-1]))
				end--;
			*end = '\0';
			if (last)
				break;
		}
		start = q + 1;
		if (n == max) /* unreachable: the last field takes the rest */
			break;
	}
	return n;
}

static void kw_metric(struct pstate *p, const char *rest, size_t col)
{
	struct pmc_eventset_variant *v = cur_variant(p);
	struct pmc_metric_def d = { 0 };
	char buf[PMC_EVENTSET_MAX_LINE + 1], *f[3] = { 0 };
	size_t off = split_name(p, rest, col, d.name, sizeof(d.name), "metric"), offs[3], nf;
	struct pmc_metric_def *slot;

	if (!off)
		return;
	if (!pmc_metric_name_valid(d.name)) {
		perr(p, -EINVAL, col, "metric name '%s' must be a letter or '_' then letters, digits, '_'", d.name);
		return;
	}
	if (has_metric(&p->common, d.name) || has_metric(v, d.name)) {
		perr(p, -EINVAL, col, "metric '%s' is defined twice", d.name);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", rest + off);
	nf = split_fields(buf, f, offs, 3);
	if (strlen(f[0]) >= sizeof(d.formula) || (nf > 1 && strlen(f[1]) >= sizeof(d.unit)) ||
	    (nf > 2 && strlen(f[2]) >= sizeof(d.desc))) {
		perr(p, -E2BIG, col, "metric %s: formula (%zu), unit (%zu) or description (%zu characters) too long",
		     d.name, sizeof(d.formula) - 1, sizeof(d.unit) - 1, sizeof(d.desc) - 1);
		return;
	}
	snprintf(d.formula, sizeof(d.formula), "%s", f[0]);
	if (nf > 1)
		snprintf(d.unit, sizeof(d.unit), "%s", f[1]);
	if (nf > 2)
		snprintf(d.desc, sizeof(d.desc), "%s", f[2]);
	check_formula(p, d.formula, col + off + offs[0]);
	if (p->rc)
		return;
	slot = push(p, &v->metrics, &v->nmetrics, sizeof(*slot), PMC_EVENTSET_MAX_METRICS, "metrics");
	if (slot)
		*slot = d;
}

static void kw_check(struct pstate *p, const char *rest, size_t col)
{
	static const char *const sev[] = { [PMC_CHECK_INFO] = "info", [PMC_CHECK_WARN] = "warn",
					   [PMC_CHECK_BAD] = "bad" };
	struct pmc_eventset_variant *v = cur_variant(p);
	struct pmc_check_def d = { 0 };
	char head[128], buf[PMC_EVENTSET_MAX_LINE + 1], *f[2] = { 0 }, sv[16] = "";
	size_t off = split_name(p, rest, col, head, sizeof(head), "check"), offs[2], nf;
	struct pmc_check_def *slot;
	int k;

	if (!off)
		return;
	if (sscanf(head, "%47s %15s", d.name, sv) != 2 || strchr(head, ' ') != strrchr(head, ' ')) {
		perr(p, -EINVAL, col, "check needs 'NAME SEVERITY = CONDITION | MESSAGE' (SEVERITY: info, warn, bad)");
		return;
	}
	for (k = 0; k < 3 && strcasecmp(sev[k], sv); k++)
		;
	if (k == 3) {
		perr(p, -EINVAL, col + strlen(d.name) + 1, "check severity '%s' is not info, warn or bad", sv);
		return;
	}
	d.severity = (enum pmc_check_severity)k;
	if (has_check(&p->common, d.name) || has_check(v, d.name)) {
		perr(p, -EINVAL, col, "check '%s' is defined twice", d.name);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", rest + off);
	nf = split_fields(buf, f, offs, 2);
	if (nf < 2 || !f[1][0]) {
		perr(p, -EINVAL, col, "check %s needs a message after '|', saying what it means and what to do",
			d.name);
		return;
	}
	if (strlen(f[0]) >= sizeof(d.cond) || strlen(f[1]) >= sizeof(d.msg)) {
		perr(p, -E2BIG, col, "check %s: condition or message too long", d.name);
		return;
	}
	snprintf(d.cond, sizeof(d.cond), "%s", f[0]);
	snprintf(d.msg, sizeof(d.msg), "%s", f[1]);
	check_formula(p, d.cond, col + off + offs[0]);
	if (p->rc)
		return;
	slot = push(p, &v->checks, &v->nchecks, sizeof(*slot), PMC_EVENTSET_MAX_METRICS, "checks");
	if (slot)
		*slot = d;
}

static void kw_event(struct pstate *p, const char *rest, size_t col)
{
	struct pmc_eventset_variant *v = cur_variant(p);
	struct pmc_eventset_event *ev;
	size_t n = strcspn(rest, " \t");

	if (rest[n]) {
		perr(p, -EINVAL, col + n, "an event spelling has no spaces: one event per 'event' line");
		return;
	}
	if (n >= PMC_NAME_MAX) {
		perr(p, -E2BIG, col, "event spelling is longer than %d characters", PMC_NAME_MAX - 1);
		return;
	}
	if (has_event(&p->common, rest) || has_event(v, rest)) {
		perr(p, -EINVAL, col, "event '%s' is listed twice", rest);
		return;
	}
	ev = push(p, &v->events, &v->nevents, sizeof(*ev), PMC_MAX_EVENTS, "events");
	if (!ev)
		return;
	snprintf(ev->spelling, sizeof(ev->spelling), "%s", rest);
	ev->batch = p->batch;
	ev->line = p->line;
}

static void kw_variant(struct pstate *p, const char *rest, size_t col)
{
	struct pmc_eventset_variant *v;
	size_t n = strcspn(rest, " \t");
	const char *s = rest + n;

	if (n >= PMC_EVENTSET_NAME_MAX) {
		perr(p, -E2BIG, col, "variant name is longer than %d characters", PMC_EVENTSET_NAME_MAX - 1);
		return;
	}
	for (size_t i = 0; i < p->set->nvariants; i++) {
		if (strlen(p->set->variants[i].name) == n && !strncasecmp(p->set->variants[i].name, rest, n)) {
			perr(p, -EINVAL, col, "variant '%.*s' is defined twice", (int)n, rest);
			return;
		}
	}
	v = push(p, &p->set->variants, &p->set->nvariants, sizeof(*v), PMC_EVENTSET_MAX_VARIANTS, "variants");
	if (!v)
		return;
	memcpy(v->name, rest, n);
	p->cur = (int)p->set->nvariants - 1;
	p->batch = 0;
	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		n = strcspn(s, " \t");
		if (push_str(p, &v->pmus, &v->npmus, s, n, PMC_EVENTSET_MAX_PMUS, "PMU names"))
			return;
		s += n;
	}
	if (!v->npmus)
		perr(p, -EINVAL, col + strlen(rest), "variant %s needs the PMU names it applies to (libpfm4 names "
		     "such as hsw, skl, amd64_fam19h_zen3, arch:aarch64 for any PMU of an architecture, or * for any)", v->name);
}

static void kw_header(struct pstate *p, const char *kw, const char *rest, size_t col)
{
	struct pmc_eventset *s = p->set;

	if (p->cur >= 0 && strcasecmp(kw, "note")) {
		perr(p, -EINVAL, 1, "'%s' belongs before the first 'variant' line", kw);
		return;
	}
	if (!strcasecmp(kw, "set")) {
		size_t n = strlen(rest);
		if (s->name[0]) {
			perr(p, -EINVAL, 1, "a second 'set' line: one set per file");
		} else if (n == 0 || n >= sizeof(s->name) || strspn(rest, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
				   "NOPQRSTUVWXYZ0123456789_.-") != n) {
			perr(p, -EINVAL, col, "set name must be 1-%zu letters, digits, '_', '.', '-'",
			     sizeof(s->name) - 1);
		} else {
			memcpy(s->name, rest, n + 1);
		}
	} else if (!strcasecmp(kw, "description")) {
		size_t old = s->description ? strlen(s->description) : 0;
		char *d = realloc(s->description, old + strlen(rest) + 2);
		if (!d) {
			perr(p, -ENOMEM, 1, "out of memory");
			return;
		}
		if (old)
			d[old++] = ' ';
		strcpy(d + old, rest);
		s->description = d;
	} else if (!strcasecmp(kw, "provenance")) {
		push_str(p, &s->provenance, &s->nprovenance, rest, strlen(rest), PMC_EVENTSET_MAX_NOTES, "provenance");
	} else {
		struct pmc_eventset_variant *v = cur_variant(p);
		if (p->cur < 0)
			push_str(p, &s->notes, &s->nnotes, rest, strlen(rest), PMC_EVENTSET_MAX_NOTES, "notes");
		else
			push_str(p, &v->notes, &v->nnotes, rest, strlen(rest), PMC_EVENTSET_MAX_NOTES, "notes");
	}
}

static void parse_line(struct pstate *p, char *line)
{
	static const char *const with_text[] = { "set", "description", "provenance", "note", "variant", "event",
						 "metric", "check" };
	size_t col = 1, kwlen;
	char *s = line, *end = line + strlen(line), kw[16];
	char *rest;

	while (isspace((unsigned char)*s))
		s++;
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*s || *s == '#')
		return;
	kwlen = strcspn(s, " \t");
	rest = s + kwlen;
	while (isspace((unsigned char)*rest))
		rest++;
	col = (size_t)(rest - line) + 1;
	if (kwlen >= sizeof(kw)) {
		perr(p, -EINVAL, (size_t)(s - line) + 1, "unknown keyword '%.20s...'", s);
		return;
	}
	memcpy(kw, s, kwlen);
	kw[kwlen] = '\0';
	if (!p->set->name[0] && strcasecmp(kw, "set")) {
		perr(p, -EINVAL, (size_t)(s - line) + 1, "a set file starts with 'set NAME' (found '%s')", kw);
		return;
	}
	if (!strcasecmp(kw, "topdown")) { /* the set is the top-down tree of this CPU, to LEVEL (stat --topdown) */
		if (p->cur >= 0)
			perr(p, -EINVAL, 1, "'topdown' belongs before the first 'variant' line");
		else if (rest[0] < '1' || rest[0] > '9' || rest[1])
			perr(p, -EINVAL, col, "'topdown' takes the tree's level, 1 to 9 (stat --topdown=LEVEL)");
		else
			p->set->topdown_level = rest[0] - '0';
		return;
	}
	if (!strcasecmp(kw, "batch")) {
		if (*rest)
			perr(p, -EINVAL, col, "'batch' takes no arguments");
		else if (cur_variant(p)->nevents)
			p->batch++;
		return;
	}
	for (size_t i = 0; i < PMC_ARRAY_SIZE(with_text); i++) {
		if (strcasecmp(kw, with_text[i]))
			continue;
		if (!*rest)
			perr(p, -EINVAL, col, "'%s' needs an argument", kw);
		else if (i < 4)
			kw_header(p, kw, rest, col);
		else if (i == 4)
			kw_variant(p, rest, col);
		else if (i == 5)
			kw_event(p, rest, col);
		else if (i == 6)
			kw_metric(p, rest, col);
		else
			kw_check(p, rest, col);
		return;
	}
	perr(p, -EINVAL, (size_t)(s - line) + 1, "unknown keyword '%s' (expected set, description, provenance, note, "
	     "variant, event, batch, metric, check or topdown)", kw);
}

static void variant_fini(struct pmc_eventset_variant *v)
{
	for (size_t i = 0; i < v->npmus; i++)
		free(v->pmus[i]);
	for (size_t i = 0; i < v->nnotes; i++)
		free(v->notes[i]);
	free(v->pmus);
	free(v->notes);
	free(v->events);
	free(v->metrics);
	free(v->checks);
}

/* Prepend 'n' items of 'size' bytes from 'common' to the array *arr of *count. */
static int prepend(void *arr, size_t *count, const void *common, size_t n, size_t size)
{
	void **a = arr;
	char *q;

	if (!n)
		return 0;
	q = malloc((*count + n) * size);
	if (!q)
		return -ENOMEM;
	memcpy(q, common, n * size);
	if (*count)
		memcpy(q + n * size, *a, *count * size);
	free(*a);
	*a = q;
	*count += n;
	return 0;
}

static void finish(struct pstate *p)
{
	struct pmc_eventset *s = p->set;
	struct pmc_eventset_variant *c = &p->common;

	p->line++;
	if (!s->name[0])
		perr(p, -EINVAL, 1, "empty set file: it needs 'set NAME', 'description', 'provenance' and events");
	else if (!s->description)
		perr(p, -EINVAL, 1, "set %s has no 'description' line", s->name);
	else if (!s->nprovenance)
		perr(p, -EINVAL, 1, "set %s has no 'provenance' line: say which manual, paper or seed it comes from",
		     s->name);
	if (p->rc)
		return;
	if (!s->nvariants) {
		/* No variant lines: everything applies to any PMU. */
		struct pmc_eventset_variant *v = push(p, &s->variants, &s->nvariants, sizeof(*v), 1, "variants");
		if (!v || push_str(p, &v->pmus, &v->npmus, "*", 1, 1, "PMU names"))
			return;
		snprintf(v->name, sizeof(v->name), "any");
	}
	for (size_t i = 0; i < s->nvariants; i++) {
		struct pmc_eventset_variant *v = &s->variants[i];
		if (prepend(&v->events, &v->nevents, c->events, c->nevents, sizeof(*v->events)) ||
		    prepend(&v->metrics, &v->nmetrics, c->metrics, c->nmetrics, sizeof(*v->metrics)) ||
		    prepend(&v->checks, &v->nchecks, c->checks, c->nchecks, sizeof(*v->checks))) {
			perr(p, -ENOMEM, 1, "out of memory");
			return;
		}
	}
}

int pmc_eventset_parse(const char *text, size_t len, const char *path, struct pmc_eventset **ret,
		       char *err, size_t errlen)
{
	struct pstate p = { .path = path, .err = err, .errlen = errlen, .cur = -1 };
	char line[PMC_EVENTSET_MAX_LINE + 1];
	size_t pos = 0;

	if (err && errlen)
		err[0] = '\0';
	if (len > PMC_EVENTSET_MAX_FILE) {
		perr(&p, -E2BIG, 1, "file is larger than %d bytes", PMC_EVENTSET_MAX_FILE);
		return p.rc;
	}
	p.set = calloc(1, sizeof(*p.set));
	if (!p.set || !(p.set->path = strdup(path))) {
		free(p.set);
		return -ENOMEM;
	}
	while (pos < len && !p.rc) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - text - pos) : len - pos;

		p.line++;
		if (n > PMC_EVENTSET_MAX_LINE) {
			perr(&p, -E2BIG, PMC_EVENTSET_MAX_LINE, "line is longer than %d characters",
				PMC_EVENTSET_MAX_LINE);
			break;
		}
		memcpy(line, text + pos, n);
		line[n] = '\0';
		if (strlen(line) != n) {
			perr(&p, -EINVAL, strlen(line) + 1, "a NUL byte: set files are text");
			break;
		}
		parse_line(&p, line);
		pos += n + 1;
	}
	if (!p.rc)
		finish(&p);
	variant_fini(&p.common);
	if (p.rc) {
		pmc_eventset_free(p.set);
		return p.rc;
	}
	*ret = p.set;
	return 0;
}

/* needs:NAME: the variant counts events of the kernel PMU NAME (power, uncore_imc_0): without that PMU directory it
 * does not apply, and the next variant that does (an honest "not on this CPU" one) is chosen. */
static bool needs_met(const struct pmc_eventset_variant *v)
{
	for (size_t k = 0; k < v->npmus; k++) {
		char path[512];
		struct stat st;

		if (strncmp(v->pmus[k], "needs:", 6))
			continue;
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", pmc_sysfs_root(), v->pmus[k] + 6);
		if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			return false;
	}
	return true;
}

const struct pmc_eventset_variant *pmc_eventset_select(const struct pmc_eventset *set, const char *pmu_name)
{
	const struct pmc_eventset_variant *any = NULL, *arch = NULL;
	const char *arch_name = pmc_arch_name();

	for (size_t i = 0; i < set->nvariants; i++) {
		const struct pmc_eventset_variant *v = &set->variants[i];

		if (!needs_met(v))
			continue;
		for (size_t k = 0; k < v->npmus; k++) {
			if (pmu_name && !strcasecmp(v->pmus[k], pmu_name))
				return v;
			/* arch:NAME: any PMU of that architecture (the libpfm4 table may not know the CPU) */
			if (!arch && !strncmp(v->pmus[k], "arch:", 5) && !strcmp(v->pmus[k] + 5, arch_name))
				arch = v;
			if (!any && !strcmp(v->pmus[k], "*"))
				any = v;
		}
	}
	return arch ? arch : any;
}

void pmc_eventset_free(struct pmc_eventset *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->nvariants; i++)
		variant_fini(&set->variants[i]);
	for (size_t i = 0; i < set->nprovenance; i++)
		free(set->provenance[i]);
	for (size_t i = 0; i < set->nnotes; i++)
		free(set->notes[i]);
	free(set->variants);
	free(set->provenance);
	free(set->notes);
	free(set->description);
	free(set->path);
	free(set);
}

int pmc_eventset_event_sibling(const char *spelling, char *base, size_t baselen)
{
	const char *at = strrchr(spelling, '@');
	int idx = -1;
	size_t n = strlen(spelling);

	if (at && (!strcmp(at, "@sibling0") || !strcmp(at, "@sibling1"))) {
		idx = at[8] - '0';
		n = (size_t)(at - spelling);
	}
	if (n >= baselen)
		return -ENOSPC;
	memcpy(base, spelling, n);
	base[n] = '\0';
	return idx;
}
