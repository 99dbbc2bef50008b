/* SPDX-License-Identifier: MIT */
/* The engine and the non-core PMUs (pmu/uncore.h): perf's family spellings opened once per box, the boxes' rows
 * summed into one (perf's default; --no-merge keeps them), and the sysfs .scale/.unit of an alias given as a metric
 * (MiB, Joules) with its rate over the counting time (MiB/s, Watts). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "pmu/uncore.h"
#include "report/store.h"

void pmc_eng_uncore_scale(struct pmc_event *ev, const char *spec)
{
	if (!pmc_uncore_spec_scale(spec, &ev->scale, ev->unit, sizeof(ev->unit)))
		ev->scale = 0;
}

int pmc_eng_uncore_add(struct pmc_engine *se, const char *spec, unsigned flags, bool *done)
{
	static char boxes[PMC_UNCORE_MAX_BOXES][PMC_UNCORE_SPEC_MAX];
	int n = pmc_uncore_box_specs(spec, boxes, PMC_UNCORE_MAX_BOXES);

	*done = n != 0;
	if (n < 0) {
		pmc_diag_error("'%s': cannot spell it once per box of its PMU family (%s)", spec, strerror(-n));
		return PMC_EXIT_USAGE;
	}
	for (int b = 0; b < n; b++) {
		struct pmc_event ev;
		struct pmc_resolve_error err;
		int r;

		memset(&err, 0, sizeof(err));
		if (pmc_event_resolve(boxes[b], &ev, &err) < 0) {
			pmc_diag_error("'%s' (box %s): %s", spec, boxes[b], err.msg[0] ? err.msg : "cannot resolve it");
			return PMC_EXIT_USAGE;
		}
		ev.flags |= flags;
		pmc_eng_uncore_scale(&ev, boxes[b]);
		if (!se->no_merge && n > 1) {
			/* One row for the family, as perf shows it: the boxes carry the name as written. */
			snprintf(ev.name, sizeof(ev.name), "%s", spec);
			ev.uncore_box = (unsigned)b + 1;
		}
		r = pmc_eng_events_push(se, &ev);
		if (r)
			return r;
	}
	return 0;
}

static void drop_event(struct pmc_report_event *e)
{
	if (e->samples_cap)
		pmc_store_free(e->samples, e->samples_cap, sizeof(*e->samples));
	else
		free(e->samples);
	e->samples = NULL;
	e->nsamples = 0;
}

static bool same_row(const struct pmc_report_event *a, const struct pmc_report_event *b)
{
	return b->ev.uncore_box && !strcmp(a->ev.name, b->ev.name) && a->scope.kind == b->scope.kind &&
	       a->scope.cpu == b->scope.cpu && a->scope.core == b->scope.core && a->scope.die == b->scope.die &&
	       a->scope.socket == b->scope.socket;
}

/* Box j's samples into the first box's, sample by sample (the boxes are free events: the same runs and batches). */
static void add_box(struct pmc_report_event *to, const struct pmc_report_event *box)
{
	for (size_t s = 0; s < to->nsamples && s < box->nsamples; s++) {
		struct pmc_count *c = &to->samples[s].count;
		const struct pmc_count *d = &box->samples[s].count;

		if (d->status != PMC_COUNT_OK && c->status == PMC_COUNT_OK) {
			*c = *d; /* a box that did not count leaves no sum */
			continue;
		}
		if (c->status == PMC_COUNT_OK)
			c->value += d->value;
	}
}

void pmc_eng_uncore_merge(struct pmc_report *rep)
{
	size_t w = 0;

	for (size_t i = 0; i < rep->nevents; i++) {
		struct pmc_report_event *e = &rep->events[i];

		if (e->ev.uncore_box == 1) {
			for (size_t j = i + 1; j < rep->nevents; j++) {
				struct pmc_report_event *b = &rep->events[j];

				if (b->ev.uncore_box > 1 && same_row(e, b)) {
					add_box(e, b);
					drop_event(b);
					b->ev.uncore_box = 0;
					b->nsamples = SIZE_MAX; /* merged: left out below */
				}
			}
		}
		if (e->nsamples == SIZE_MAX)
			continue;
		rep->events[w++] = *e;
	}
	rep->nevents = w;
}

static void scaled_metric(struct pmc_report *rep, const struct pmc_report_event *e, double secs)
{
	struct pmc_metric_value m = { .valid = e->status == PMC_COUNT_OK };
	double v = e->mean * e->ev.scale;
	bool joules = !strcmp(e->ev.unit, "Joules");

	snprintf(m.name, sizeof(m.name), "%.63s", e->ev.name);
	snprintf(m.unit, sizeof(m.unit), "%s", e->ev.unit);
	snprintf(m.desc, sizeof(m.desc), "count x %.10g (the kernel's .scale for this alias)", e->ev.scale);
	if (m.valid)
		m.value = v;
	else
		snprintf(m.reason, sizeof(m.reason), "%.159s", e->reason[0] ? e->reason : "not counted");
	pmc_report_add_metric(rep, &m);

	/* Its rate over the counting time: Watts for energy, MiB/s for a byte unit. */
	if (!joules && !strstr(e->ev.unit, "B"))
		return;
	snprintf(m.name, sizeof(m.name), "%.50s per second", e->ev.name);
	snprintf(m.unit, sizeof(m.unit), joules ? "Watts" : "%.10s/s", e->ev.unit);
	snprintf(m.desc, sizeof(m.desc), "%.100s over the time counting was on (%.6g s)", e->ev.name, secs);
	if (m.valid && !(secs > 0)) {
		m.valid = false;
		snprintf(m.reason, sizeof(m.reason), "no counting time");
	}
	if (m.valid)
		m.value = v / secs;
	pmc_report_add_metric(rep, &m);
}

void pmc_eng_uncore_metrics(struct pmc_report *rep)
{
	double secs = 0;

	if (pmc_report_get_const(rep, "SECONDS", &secs))
		secs = 0;
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		if (e->ev.scale > 0 && e->scope.kind == PMC_ROW_ALL && !e->nparts)
			scaled_metric(rep, e, secs);
	}
}

bool pmc_eng_uncore_interval(const struct pmc_event *const *evs, size_t n, size_t i, const struct pmc_count *counts,
			     struct pmc_count *c)
{
	if (evs[i]->uncore_box > 1)
		return false; /* summed into its family's first box */
	if (evs[i]->uncore_box != 1)
		return true;
	for (size_t j = 0; j < n; j++) {
		const struct pmc_count *d = &counts[j];

		if (evs[j]->uncore_box <= 1 || strcmp(evs[j]->name, evs[i]->name))
			continue;
		if (d->status != PMC_COUNT_OK && c->status == PMC_COUNT_OK)
			*c = *d;
		else if (c->status == PMC_COUNT_OK)
			c->value += d->value;
	}
	return true;
}
