/* SPDX-License-Identifier: MIT */
/* Nearest valid names for an unknown event: generic names, libpfm4 EVENT and EVENT:UMASK of the active PMUs, sysfs
 * PMUs and their events. The libpfm4 list is built once (a few thousand names) and kept until pmc_pmu_fini. */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

static struct {
	char **names;
	size_t n, cap;
	bool built;
} cands;

struct best {
	unsigned cap;
	struct pmc_resolve_error *err;
	unsigned dist[PMC_MAX_SUGGEST];
};

static void add_cand(const char *s)
{
	if (cands.n == cands.cap) {
		size_t ncap = cands.cap ? cands.cap * 2 : 1024;
		char **nn = realloc(cands.names, ncap * sizeof(*nn));

		if (!nn)
			return;
		cands.names = nn;
		cands.cap = ncap;
	}
	cands.names[cands.n] = strdup(s);
	if (cands.names[cands.n])
		cands.n++;
}

static void add_event_umasks(int idx)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	char buf[PMC_NAME_MAX];

	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return;
	add_cand(ei.name);
	for (int a = 0; a < ei.nattrs; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) != PFM_SUCCESS || ai.type != PFM_ATTR_UMASK)
			continue;
		snprintf(buf, sizeof(buf), "%s:%s", ei.name, ai.name);
		add_cand(buf);
	}
}

static void build(void)
{
	pfm_pmu_t p;

	cands.built = true;
	if (!pmc_pmu_libpfm_ready())
		return;
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present)
			continue;
		for (int idx = pi.first_event; idx != -1; idx = pfm_get_event_next(idx))
			add_event_umasks(idx);
	}
}

void pmc_suggest_fini(void)
{
	for (size_t i = 0; i < cands.n; i++)
		free(cands.names[i]);
	free(cands.names);
	memset(&cands, 0, sizeof(cands));
}

/* Insert name at its rank; equal names are dropped. */
static void consider(struct best *b, const char *key, const char *shown)
{
	unsigned d = pmc_edit_distance(key, shown, b->cap);
	struct pmc_resolve_error *err = b->err;
	int pos;

	if (d >= b->cap || d == 0) /* the input itself (it failed for another reason) is no suggestion */
		return;
	for (int i = 0; i < err->nsuggest; i++)
		if (!strcasecmp(err->suggest[i], shown))
			return;
	for (pos = err->nsuggest; pos > 0 && b->dist[pos - 1] > d; pos--)
		;
	if (pos >= PMC_MAX_SUGGEST)
		return;
	for (int i = PMC_MIN(err->nsuggest, PMC_MAX_SUGGEST - 1); i > pos; i--) {
		memcpy(err->suggest[i], err->suggest[i - 1], sizeof(err->suggest[i]));
		b->dist[i] = b->dist[i - 1];
	}
	snprintf(err->suggest[pos], sizeof(err->suggest[pos]), "%s", shown);
	b->dist[pos] = d;
	if (err->nsuggest < PMC_MAX_SUGGEST)
		err->nsuggest++;
}

static unsigned cap_for(const char *key)
{
	size_t l = strlen(key);

	return (unsigned)(l <= 4 ? 2 : PMC_MIN(l / 3 + 1, 6));
}

/* The part of an input worth comparing: no pmu:: prefix, no modifiers; test-bench spelling as EVENT:UMASK. */
static bool make_key(const char *input, char *key, size_t len)
{
	const char *p = input, *pp = strstr(input, "::");
	bool testbench;
	size_t n;

	if (*p == '*')
		p++;
	if (pp)
		p = pp + 2;
	testbench = strchr(p, '.') != NULL;
	snprintf(key, len, "%s", p);
	if (testbench) {
		key[strcspn(key, "<>:")] = '\0';
	} else {
		char *c = strchr(key, ':');

		if (c && (c = strchr(c + 1, ':')))
			*c = '\0';
	}
	n = strlen(key);
	if (n && key[n - 1] == ':')
		key[n - 1] = '\0';
	return testbench;
}

/* EVENT:UMASK -> event.umask, the way the user wrote theirs. */
static void as_testbench(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s", name);
	for (char *q = out; *q; q++)
		*q = *q == ':' ? '.' : (char)tolower((unsigned char)*q);
}

void pmc_suggest_dir_having(const char *dir, const char *input, const char *fmt, const char *need,
			    struct pmc_resolve_error *err)
{
	struct best b = { .err = err, .cap = cap_for(input) };
	char shown[PMC_NAME_MAX], path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	for (int i = 0; i < err->nsuggest; i++)
		b.dist[i] = pmc_edit_distance(input, err->suggest[i], ~0u);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '%'))
			continue;
		if (need && (snprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name, need) >= (int)sizeof(path) ||
			     access(path, F_OK)))
			continue; /* not usable: a tracepoint without an id */
		snprintf(shown, sizeof(shown), fmt, de->d_name);
		consider(&b, input, shown);
	}
	closedir(d);
}

void pmc_suggest_dir(const char *dir, const char *input, const char *fmt, struct pmc_resolve_error *err)
{
	pmc_suggest_dir_having(dir, input, fmt, NULL, err);
}

/* PMU names ("msr/") and their events ("msr/tsc/"). */
static void suggest_sysfs(const char *input, struct pmc_resolve_error *err)
{
	const char *root = pmc_event_source_dir();
	char dir[1024], fmt[300];
	struct dirent *de;
	DIR *d;

	pmc_suggest_dir(root, input, "%s/", err);
	d = opendir(root);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) > 200 || strchr(de->d_name, '%'))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s/events", root, de->d_name);
		snprintf(fmt, sizeof(fmt), "%s/%%s/", de->d_name);
		pmc_suggest_dir(dir, input, fmt, err);
	}
	closedir(d);
}

void pmc_suggest(const char *input, struct pmc_resolve_error *err)
{
	char key[PMC_NAME_MAX], shown[PMC_NAME_MAX];
	struct best b = { .err = err };
	bool testbench = make_key(input, key, sizeof(key));
	const char *g;

	err->nsuggest = 0;
	b.cap = cap_for(key);
	for (size_t i = 0; (g = pmc_generic_name_at(i)); i++)
		consider(&b, key, g);
	if (!cands.built)
		build();
	for (size_t i = 0; i < cands.n; i++) {
		if (testbench) {
			/* compare in the user's spelling: the distance is the same, only the shown form differs */
			as_testbench(cands.names[i], shown, sizeof(shown));
			if (strchr(shown, '.'))
				consider(&b, key, shown);
		} else {
			consider(&b, key, cands.names[i]);
		}
	}
	if (!testbench)
		suggest_sysfs(input, err);
}
