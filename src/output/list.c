/* SPDX-License-Identifier: MIT */
/* pmctool list's listing (output/list.h): the text, CSV, JSON and --names writers, an event at a time. */
#include <stdio.h>
#include <string.h>

#include "output/format.h"
#include "output/list.h"
#include "util/util.h"

void pmc_list_table_event(struct pmc_list_out *o, const struct pmc_list_event *ev)
{
	struct pmc_list_attr a;
	bool mods = false;

	if (!o->have_pmu || strcmp(o->last_pmu, ev->pmu)) {
		fprintf(o->f, "%s%s (%s%s%s):\n", o->have_pmu ? "\n" : "", ev->pmu, ev->source,
			ev->cpus ? "; hybrid core PMU of CPUs " : "", ev->cpus ? ev->cpus : "");
		snprintf(o->last_pmu, sizeof(o->last_pmu), "%s", ev->pmu);
		o->have_pmu = true;
	}
	fprintf(o->f, "  %-40s %s\n", ev->spelling, ev->desc);
	if (!(o->flags & PMC_LIST_LONG))
		return;
	if (ev->file)
		fprintf(o->f, "      %s %s (%s)\n", ev->metric ? "formula" : "encoding", ev->encoding, ev->file);
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK)
			fprintf(o->f, "      :%-34s %s%s\n", a.name, a.is_dfl ? "[default] " : "", a.desc);
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type != PMC_LIST_UMASK) {
			fprintf(o->f, "%s%s%s", mods ? " " : "      modifiers: ", a.name,
				a.type == PMC_LIST_MOD_INTEGER ? "=N" : "");
			mods = true;
		}
	if (mods)
		fputc('\n', o->f);
}

void pmc_list_csv_event(struct pmc_list_out *o, const struct pmc_list_event *ev)
{
	char umasks[4096] = "", dfl[256] = "", mods[512] = "";
	size_t ul = 0, ml = 0;
	struct pmc_list_attr a;

	for (unsigned i = 0; i < ev->nattrs; i++) {
		if (pmc_list_event_attr(ev, i, &a))
			continue;
		if (a.type == PMC_LIST_UMASK) {
			ul += (size_t)snprintf(umasks + ul, sizeof(umasks) - PMC_MIN(ul, sizeof(umasks)), "%s%s",
					       ul ? ";" : "", a.name);
			if (a.is_dfl && !dfl[0])
				snprintf(dfl, sizeof(dfl), "%s", a.name);
		} else {
			ml += (size_t)snprintf(mods + ml, sizeof(mods) - PMC_MIN(ml, sizeof(mods)), "%s%s",
					       ml ? ";" : "", a.name);
		}
		ul = PMC_MIN(ul, sizeof(umasks) - 1);
		ml = PMC_MIN(ml, sizeof(mods) - 1);
	}
	const char *fields[] = { ev->pmu, ev->source, ev->name, ev->spelling, ev->desc, umasks, dfl, mods };
	for (size_t i = 0; i < PMC_ARRAY_SIZE(fields); i++) {
		if (i)
			fputc(',', o->f);
		pmc_csv_field(o->f, fields[i]);
	}
	fputs("\r\n", o->f);
}

static void json_attr(struct pmc_jw *w, const struct pmc_list_attr *a)
{
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", a->name);
	pmc_jw_kstr(w, "description", a->desc);
	if (a->type == PMC_LIST_UMASK) {
		pmc_jw_kbool(w, "default", a->is_dfl);
		pmc_jw_kuint(w, "code", a->code);
	} else {
		pmc_jw_kstr(w, "type", a->type == PMC_LIST_MOD_INTEGER ? "integer" : "bool");
	}
	pmc_jw_object_end(w);
}

void pmc_list_json_event(struct pmc_list_out *o, const struct pmc_list_event *ev)
{
	struct pmc_jw *w = &o->w;
	struct pmc_list_attr a;

	pmc_jw_break(w, "\n");
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "pmu", ev->pmu);
	pmc_jw_kstr(w, "source", ev->source);
	pmc_jw_kstr(w, "name", ev->name);
	pmc_jw_kstr(w, "spelling", ev->spelling);
	pmc_jw_kstr(w, "description", ev->desc);
	pmc_jw_kstr_or_null(w, "encoding", ev->encoding);
	if (ev->file) {
		pmc_jw_kstr(w, "file", ev->file);
		pmc_jw_kbool(w, "metric", ev->metric);
	}
	pmc_jw_karray_begin(w, "umasks");
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK)
			json_attr(w, &a);
	pmc_jw_array_end(w);
	pmc_jw_karray_begin(w, "modifiers");
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type != PMC_LIST_UMASK)
			json_attr(w, &a);
	pmc_jw_array_end(w);
	pmc_jw_object_end(w);
}

static void names_event(struct pmc_list_out *o, const struct pmc_list_event *ev)
{
	struct pmc_list_attr a;

	/* Syntax templates (mem:ADDR...) and probe PMUs are not names -e takes as written, nor metrics. */
	if (ev->metric || strchr(ev->spelling, '[') || (!strcmp(ev->source, "sysfs") && !strchr(ev->spelling, '/')))
		return;
	/* The bare name only where -e takes it: an event without umasks, or one with a default umask (libpfm4 refuses
	 * an event whose umasks are all optional-but-required, such as Zen 3's L1_ITLB_FETCH_HIT). */
	bool umasks = false, dfl = false;

	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK) {
			umasks = true;
			dfl |= a.is_dfl;
		}
	if (!umasks || dfl)
		fprintf(o->f, "%s\n", ev->spelling);
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK)
			fprintf(o->f, "%s:%s\n", ev->spelling, a.name);
}

void pmc_list_csv_begin(struct pmc_list_out *o)
{
	fputs("pmu,source,name,spelling,description,umasks,default_umask,modifiers\r\n", o->f);
}

void pmc_list_json_begin(struct pmc_list_out *o)
{
	pmc_json_header(&o->w, "list");
	pmc_jw_karray_begin(&o->w, "events");
}

void pmc_list_json_end(struct pmc_list_out *o)
{
	pmc_jw_break(&o->w, "\n");
	pmc_jw_array_end(&o->w);
	pmc_jw_object_end(&o->w);
	fputc('\n', o->f);
}

void pmc_list_write_begin(struct pmc_list_out *o, FILE *f, unsigned flags, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);

	*o = (struct pmc_list_out){ .f = f, .flags = flags, .fmt = e->list_event ? e : &pmc_format_table };
	pmc_jw_init(&o->w, f, 0);
	if (!(flags & PMC_LIST_NAMES) && o->fmt->list_begin)
		o->fmt->list_begin(o);
}

void pmc_list_write_event(struct pmc_list_out *o, const struct pmc_list_event *ev)
{
	if (o->flags & PMC_LIST_NAMES)
		names_event(o, ev);
	else
		o->fmt->list_event(o, ev);
	o->count++;
}

void pmc_list_write_end(struct pmc_list_out *o)
{
	if (!(o->flags & PMC_LIST_NAMES) && o->fmt->list_end)
		o->fmt->list_end(o);
}
