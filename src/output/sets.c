/* SPDX-License-Identifier: MIT */
/* pmctool sets' output (output/sets.h): one set in full, or the list of sets, as text or JSON. */
#include <stdio.h>
#include <string.h>

#include "output/sets.h"

static void print_list(FILE *f, char *const *items, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s\n", prefix, items[i]);
}

int pmc_set_table(FILE *f, const struct pmc_eventset *s, const char *pmu)
{
	const struct pmc_eventset_variant *v = pmc_eventset_select(s, pmu);

	fprintf(f, "set %s (%s)\n%s\n", s->name, s->path, s->description);
	if (s->topdown_level) /* its events are the tree's: stat --topdown's plan */
		fprintf(f, "\nthis set is stat --topdown=%d: its events, groups and formulas are this CPU's top-down tree's "
		       "(pmctool-topdown(7))\n", s->topdown_level);
	fprintf(f, "\nprovenance:\n");
	print_list(f, s->provenance, s->nprovenance, "  ");
	if (s->nnotes) {
		fprintf(f, "\ncautions:\n");
		print_list(f, s->notes, s->nnotes, "  ");
	}
	fprintf(f, "\nvariants:");
	for (size_t i = 0; i < s->nvariants; i++) {
		fprintf(f, "%s %s [", i ? ";" : "", s->variants[i].name);
		for (size_t k = 0; k < s->variants[i].npmus; k++)
			fprintf(f, "%s%s", k ? " " : "", s->variants[i].pmus[k]);
		fprintf(f, "]");
	}
	fprintf(f, "\n");
	if (!v) {
		fprintf(f, "\nno variant applies to PMU %s: this set cannot be measured here\n", pmu ? pmu : "(none)");
		return 0;
	}
	fprintf(f, "\nvariant %s, for PMU %s\n", v->name, pmu ? pmu : "(none)");
	if (v->nnotes) {
		fprintf(f, "\ncautions for this variant:\n");
		print_list(f, v->notes, v->nnotes, "  ");
	}
	fprintf(f, "\nevents (%zu):\n", v->nevents);
	for (size_t i = 0; i < v->nevents; i++)
		fprintf(f, "  %-40s batch %u\n", v->events[i].spelling, v->events[i].batch);
	fprintf(f, "\nmetrics (%zu):\n", v->nmetrics);
	for (size_t i = 0; i < v->nmetrics; i++)
		fprintf(f, "  %-24s %-7s = %s\n  %-32s %s\n", v->metrics[i].name, v->metrics[i].unit, v->metrics[i].formula,
		       "", v->metrics[i].desc);
	fprintf(f, "\nchecks (%zu):\n", v->nchecks);
	for (size_t i = 0; i < v->nchecks; i++)
		fprintf(f, "  %-24s when %s\n  %-24s %s\n", v->checks[i].name, v->checks[i].cond, "", v->checks[i].msg);
	return 0;
}

static void json_strings(struct pmc_jw *w, const char *key, char *const *items, size_t n)
{
	pmc_jw_karray_begin(w, key);
	for (size_t i = 0; i < n; i++)
		pmc_jw_str(w, items[i]);
	pmc_jw_array_end(w);
}

static void json_variant(struct pmc_jw *w, const struct pmc_eventset_variant *v)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", v->name);
	json_strings(w, "pmus", v->pmus, v->npmus);
	json_strings(w, "cautions", v->notes, v->nnotes);
	pmc_jw_karray_begin(w, "events");
	for (size_t i = 0; i < v->nevents; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "spelling", v->events[i].spelling);
		pmc_jw_kuint(w, "batch", v->events[i].batch);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "metrics");
	for (size_t i = 0; i < v->nmetrics; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", v->metrics[i].name);
		pmc_jw_kstr_or_null(w, "unit", v->metrics[i].unit);
		pmc_jw_kstr(w, "formula", v->metrics[i].formula);
		pmc_jw_kstr_or_null(w, "description", v->metrics[i].desc);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "checks");
	for (size_t i = 0; i < v->nchecks; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", v->checks[i].name);
		pmc_jw_kstr(w, "when", v->checks[i].cond);
		pmc_jw_kstr(w, "message", v->checks[i].msg);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

/* sets --json SET: the set, and the variant for this PMU in full (null when none applies). */
int pmc_set_json(FILE *f, const struct pmc_eventset *s, const char *pmu)
{
	const struct pmc_eventset_variant *v = pmc_eventset_select(s, pmu);
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, 0);
	pmc_json_header(w, "set");
	pmc_jw_kstr(w, "name", s->name);
	pmc_jw_kstr(w, "path", s->path);
	pmc_jw_kstr(w, "description", s->description);
	json_strings(w, "provenance", s->provenance, s->nprovenance);
	json_strings(w, "cautions", s->notes, s->nnotes);
	pmc_jw_karray_begin(w, "variants");
	for (size_t i = 0; i < s->nvariants; i++) {
		pmc_jw_object_begin(w);
		pmc_jw_kstr(w, "name", s->variants[i].name);
		json_strings(w, "pmus", s->variants[i].pmus, s->variants[i].npmus);
		pmc_jw_object_end(w);
	}
	pmc_jw_array_end(w);
	pmc_jw_kstr_or_null(w, "pmu", pmu);
	if (v) {
		pmc_jw_key(w, "variant");
		json_variant(w, v);
	} else {
		pmc_jw_knull(w, "variant");
	}
	pmc_jw_object_end(w);
	fputc('\n', f);
	return 0;
}

/* The sets shown: those with a variant for l->pmu, or all with l->all. */
static bool listed(const struct pmc_sets_listing *l, size_t i, const struct pmc_eventset_variant **ret_v)
{
	*ret_v = pmc_eventset_select(l->sets[i], l->pmu);
	return *ret_v || l->all;
}

int pmc_sets_table(FILE *f, const struct pmc_sets_listing *l)
{
	const struct pmc_eventset_variant *v;
	int shown = 0;

	if (!l->names)
		fprintf(f, "%-14s %-18s %s (PMU %s)\n", "SET", "VARIANT", "DESCRIPTION", l->pmu ? l->pmu : "none detected");
	for (size_t i = 0; i < l->n; i++) {
		const struct pmc_eventset *s = l->sets[i];

		if (!listed(l, i, &v))
			continue;
		shown++;
		if (l->names)
			fprintf(f, "%s\n", s->name);
		else
			fprintf(f, "%-14s %-18s %.*s%s\n", s->name, v ? v->name : "(not for this PMU)", 72, s->description,
				strlen(s->description) > 72 ? "..." : "");
	}
	return shown;
}

int pmc_sets_json(FILE *f, const struct pmc_sets_listing *l)
{
	const struct pmc_eventset_variant *v;
	struct pmc_jw w;
	int shown = 0;

	pmc_jw_init(&w, f, 0);
	pmc_json_header(&w, "sets");
	pmc_jw_kstr_or_null(&w, "pmu", l->pmu);
	pmc_jw_karray_begin(&w, "sets");
	for (size_t i = 0; i < l->n; i++) {
		if (!listed(l, i, &v))
			continue;
		shown++;
		pmc_jw_object_begin(&w);
		pmc_jw_kstr(&w, "name", l->sets[i]->name);
		pmc_jw_kstr_or_null(&w, "variant", v ? v->name : NULL);
		pmc_jw_kstr(&w, "description", l->sets[i]->description);
		pmc_jw_kstr(&w, "path", l->sets[i]->path);
		pmc_jw_object_end(&w);
	}
	pmc_jw_array_end(&w);
	pmc_jw_object_end(&w);
	fputc('\n', f);
	return shown;
}
