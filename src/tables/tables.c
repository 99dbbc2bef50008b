/* SPDX-License-Identifier: MIT */
/* The table object: its entries, the case-insensitive lookup and the report. Loading is in load.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tables/tables_internal.h"

struct pmc_tables *pmc_tables_new(void)
{
	return calloc(1, sizeof(struct pmc_tables));
}

void pmc_tables_set_enc(struct pmc_tables *t, enum pmc_table_enc enc)
{
	if (t)
		t->enc = enc;
}

static void notes_free(struct pmc_table_note *n, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(n[i].path);
	free(n);
}

void pmc_tables_free(struct pmc_tables *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nev; i++)
		pmc_table_event_fini(&t->ev[i]);
	free(t->ev);
	for (size_t i = 0; i < t->nmet; i++) {
		struct pmc_table_metric *m = &t->met[i];
		free(m->name);
		free(m->expr);
		free(m->groups);
		free(m->threshold);
		free(m->unit);
		free(m->desc);
		free(m->aliases);
		free(m->legacy);
	}
	free(t->met);
	for (size_t i = 0; i < t->nsrc; i++)
		free(t->sources[i]);
	free(t->sources);
	pmc_tables_free(t->std);
	free(t->rep.dir);
	free(t->rep.cpuid);
	free(t->rep.mapfile);
	free(t->rep.matched);
	free(t->rep.model);
	notes_free(t->rep.locations, t->rep.nlocations);
	notes_free(t->rep.files, t->rep.nfiles);
	free(t);
}

int pmc_tables_add_source(struct pmc_tables *t, const char *path, const char **ret)
{
	char **p = realloc(t->sources, (t->nsrc + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	t->sources = p;
	if (!(p[t->nsrc] = strdup(path)))
		return -ENOMEM;
	*ret = p[t->nsrc++];
	return 0;
}

struct pmc_table_note *pmc_tables_note(struct pmc_tables *t, bool location, const char *path)
{
	struct pmc_table_note **list = location ? &t->rep.locations : &t->rep.files;
	size_t *n = location ? &t->rep.nlocations : &t->rep.nfiles;
	struct pmc_table_note *p = realloc(*list, (*n + 1) * sizeof(*p));

	if (!p)
		return NULL;
	*list = p;
	memset(&p[*n], 0, sizeof(p[*n]));
	if (!(p[*n].path = strdup(path)))
		return NULL;
	return &p[(*n)++];
}

/* Sorted by name; among equal names the one read first stays first (a hybrid CPU's cpu_core and cpu_atom entries). */
struct pair {
	struct pmc_table_event e;
	size_t pos;
};

static int by_name(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->e.name, y->e.name);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

int pmc_tables_sort(struct pmc_tables *t)
{
	struct pair *p = malloc(t->nev * sizeof(*p) + 1);

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < t->nev; i++)
		p[i] = (struct pair){ t->ev[i], i };
	qsort(p, t->nev, sizeof(*p), by_name);
	for (size_t i = 0; i < t->nev; i++)
		t->ev[i] = p[i].e;
	free(p);
	return 0;
}

int pmc_tables_find(const struct pmc_tables *t, const char *name, const struct pmc_table_event **ret)
{
	size_t lo = 0, hi;

	if (!t || !name || !ret)
		return -EINVAL;
	hi = t->nev;
	while (lo < hi) { /* the first entry not below name (names are stored lower-case) */
		size_t mid = lo + (hi - lo) / 2;
		if (strcasecmp(t->ev[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->nev && strcasecmp(t->ev[lo].name, name) == 0) {
		*ret = &t->ev[lo];
		return 0;
	}
	return -ENOENT;
}

int pmc_tables_find_metric(const struct pmc_tables *t, const char *name, const struct pmc_table_metric **ret)
{
	if (!t || !name || !ret)
		return -EINVAL;
	for (size_t i = 0; i < t->nmet; i++)
		if (strcasecmp(t->met[i].name, name) == 0) {
			*ret = &t->met[i];
			return 0;
		}
	return -ENOENT;
}

int pmc_tables_report(const struct pmc_tables *t, const struct pmc_tables_report **ret)
{
	if (!t || !ret)
		return -EINVAL;
	*ret = &t->rep;
	return 0;
}

size_t pmc_tables_events(const struct pmc_tables *t, const struct pmc_table_event **ret)
{
	*ret = t ? t->ev : NULL;
	return t ? t->nev : 0;
}

size_t pmc_tables_metrics(const struct pmc_tables *t, const struct pmc_table_metric **ret)
{
	*ret = t ? t->met : NULL;
	return t ? t->nmet : 0;
}
