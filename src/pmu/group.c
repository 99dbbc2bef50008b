/* SPDX-License-Identifier: MIT */
/* Splitting an -e list: commas separate events except inside pmu/terms/, and perf's groups {a,b}[:mods] keep their
 * members together (tools/perf/util/parse-events.y, the group rules). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

struct walker {
	const char *list;
	size_t len;
	unsigned *next_group;
	int (*cb)(const struct pmc_spec_item *item, void *ctx);
	void *ctx;
	char *err;
	size_t errlen;
	char item[PMC_NAME_MAX * 2];
};

static int fail(struct walker *w, int rc, const char *fmt, const char *s, size_t n)
{
	if (w->err && w->errlen)
		snprintf(w->err, w->errlen, fmt, (int)PMC_MIN(n, (size_t)60), s, n > 60 ? "..." : "");
	return rc;
}

/* One event at list[*i]: up to the ',' or '}' that ends it (not one inside pmu/terms/). */
static int one_event(struct walker *w, size_t *i, struct pmc_spec_item *it)
{
	size_t a = *i, b;
	bool in_terms = false, is_mem;
	int rc;

	while (a < w->len && isspace((unsigned char)w->list[a]))
		a++;
	/* mem:ADDR/LEN has a lone '/' that opens no term list */
	is_mem = !strncasecmp(w->list + a, "mem:", 4);
	for (b = a; b < w->len; b++) {
		char c = w->list[b];

		if (c == '/' && !is_mem)
			in_terms = !in_terms;
		else if (!in_terms && (c == ',' || c == '}' || c == '{'))
			break;
	}
	*i = b;
	if (in_terms)
		return fail(w, -EINVAL, "'%.*s%s': a '/' that opens pmu/terms/ is not closed", w->list + a, b - a);
	if (b < w->len && w->list[b] == '{')
		return fail(w, -EINVAL, "'%.*s%s': '{' starts a group only at the start of an event, and groups do not "
			    "nest", w->list + a, w->len - a);
	while (b > a && isspace((unsigned char)w->list[b - 1]))
		b--;
	if (a == b)
		return fail(w, -EINVAL, "'%.*s%s': an empty event (two commas, or a comma at an end)", w->list,
			    w->len);
	if (b - a >= sizeof(w->item))
		return fail(w, -E2BIG, "event '%.*s%s' is too long: more than 255 characters", w->list + a, b - a);
	memcpy(w->item, w->list + a, b - a);
	w->item[b - a] = '\0';
	it->spec = w->item;
	rc = w->cb(it, w->ctx);
	it->leader = false;
	return rc;
}

/* {a,b,...}[:mods] at list[*i] (the '{'). */
static int one_group(struct walker *w, size_t *i, struct pmc_spec_item *it)
{
	size_t start = *i, m;
	char mods[16] = "";
	size_t after; /* just past the group and its modifiers */
	int rc;

	/* the modifiers come after the '}', and apply to every member: find them first */
	for (m = start; m < w->len && w->list[m] != '}'; m++)
		if (w->list[m] == '{' && m != start)
			return fail(w, -EINVAL, "'%.*s%s': groups do not nest", w->list + start, w->len - start);
	if (m == w->len)
		return fail(w, -EINVAL, "'%.*s%s': a group '{' is not closed by '}'", w->list + start, w->len - start);
	after = m + 1;
	if (m + 1 < w->len && w->list[m + 1] == ':') {
		size_t n = strcspn(w->list + m + 2, ",");

		after = m + 2 + n;
		while (n && isspace((unsigned char)w->list[m + 1 + n]))
			n--;
		if (!n || n >= sizeof(mods))
			return fail(w, -EINVAL, "'%.*s%s': a group's modifiers follow '}:' (u, k, W...)", w->list + start,
				    m + 2 + n - start);
		memcpy(mods, w->list + m + 2, n);
		mods[n] = '\0';
	}
	it->group = ++*w->next_group;
	it->group_mods = mods;
	it->leader = true;
	*i = start + 1;
	for (;;) {
		rc = one_event(w, i, it);
		if (rc)
			return rc;
		/* A member ends at a ',' or '}' outside its pmu/terms/: when that is not the '}' found above (a '}' or
		 * ',' inside /.../, as in "{a/}/"), the group's end is not where its members end. */
		if (*i >= m) {
			if (*i == m)
				break;
			return fail(w, -EINVAL, "'%.*s%s': a group's '}' inside a member's pmu/terms/ (close the '/' "
				    "before the '}')", w->list + start, w->len - start);
		}
		(*i)++; /* the ',' */
	}
	*i = after;
	it->group = 0;
	it->group_mods = "";
	return 0;
}

int pmc_event_list_walk(const char *list, unsigned *next_group, int (*cb)(const struct pmc_spec_item *, void *),
			void *ctx, char *err, size_t errlen)
{
	struct walker w = { .list = list, .len = strnlen(list, PMC_MAX_LIST_LEN + 1), .next_group = next_group,
			    .cb = cb, .ctx = ctx, .err = err, .errlen = errlen };
	struct pmc_spec_item it = { .group_mods = "" };
	unsigned local = 0;
	size_t i = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!w.next_group)
		w.next_group = &local;
	if (w.len > PMC_MAX_LIST_LEN) {
		if (err && errlen)
			snprintf(err, errlen, "the event list is longer than %d characters (%d events of up to %d "
				 "characters each)", PMC_MAX_LIST_LEN, PMC_MAX_EVENTS, PMC_NAME_MAX - 1);
		return -E2BIG;
	}
	for (;;) {
		int rc;

		while (i < w.len && isspace((unsigned char)list[i]))
			i++;
		rc = i < w.len && list[i] == '{' ? one_group(&w, &i, &it) : one_event(&w, &i, &it);
		if (rc)
			return rc;
		while (i < w.len && isspace((unsigned char)list[i]))
			i++;
		if (i >= w.len)
			return 0;
		if (list[i] != ',')
			return fail(&w, -EINVAL, "'%.*s%s': a '}' without a group '{' (or text after a group's "
				    "modifiers)", list, w.len);
		i++;
	}
}

struct split_ctx {
	int (*cb)(const char *spec, void *ctx);
	void *ctx;
};

static int split_cb(const struct pmc_spec_item *it, void *ctx)
{
	const struct split_ctx *s = ctx;

	return s->cb(it->spec, s->ctx);
}

int pmc_event_list_split(const char *list, int (*cb)(const char *spec, void *ctx), void *ctx)
{
	struct split_ctx s = { cb, ctx };

	return pmc_event_list_walk(list, NULL, split_cb, &s, NULL, 0);
}
