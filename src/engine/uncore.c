/* SPDX-License-Identifier: MIT */
/* The engine and the non-core PMUs (pmu/uncore.h): perf's family spellings opened once per box, the boxes' rows
 * summed into one (perf's default; --no-merge keeps them), and the sysfs .scale/.unit of an alias given as a metric
 * (MiB, Joules) with its rate over the counting time (MiB/s, Watts). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "pmu/uncore.h"
#include "report/store.h"
#include "sys/perf_access.h"

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
		} else if (n == 1) {
			/* a family of one box (arm_cmn_0, amd_df): the row is still named as written, so that a metric's
			 * formula (hnf_cache_miss, arm_cmn@hnf_cache_miss@) finds it, as a table name's row does */
			snprintf(ev.name, sizeof(ev.name), "%s", spec);
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

				if (b->ev.uncore_box == 1 && same_row(e, b))
					break; /* the same spelling given twice: its own boxes follow */
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
	for (size_t j = i + 1; j < n; j++) {
		const struct pmc_count *d = &counts[j];

		if (strcmp(evs[j]->name, evs[i]->name))
			continue;
		if (evs[j]->uncore_box == 1)
			break; /* the same spelling given twice: its own boxes follow */
		if (!evs[j]->uncore_box)
			continue;
		if (d->status != PMC_COUNT_OK && c->status == PMC_COUNT_OK)
			*c = *d;
		else if (c->status == PMC_COUNT_OK)
			c->value += d->value;
	}
	return true;
}

static struct {
	char cpus[128];  /* the cpumask of the last family counted for a command, "" when none */
	char names[512]; /* the events, as written */
} for_command;

/* The family whose boxes have PMU type type, or NULL. */
static const struct pmc_uncore_family *family_of_type(const struct pmc_uncore *u, unsigned type)
{
	for (size_t i = 0; i < u->n; i++)
		for (unsigned b = 0; b < u->fam[i].nboxes; b++)
			if (u->fam[i].type[b] >= 0 && (unsigned)u->fam[i].type[b] == type)
				return &u->fam[i];
	return NULL;
}

/* ev once per cpumask CPU of its family, each counting that CPU system-wide while the command runs. */
static int push_per_cpu(struct pmc_engine *se, const struct pmc_event *ev, const struct pmc_uncore_family *f)
{
	for (unsigned c = 0; c < f->ncpus; c++) {
		struct pmc_event e = *ev;
		int r;

		e.cpu_wide = true;
		e.cpu = f->cpus[c];
		if (f->ncpus > 1)
			e.uncore_box = (ev->uncore_box ? ev->uncore_box - 1 : 0) * f->ncpus + c + 1;
		r = pmc_eng_events_push(se, &e);
		if (r)
			return r;
	}
	return 0;
}

static void say_for_command(void)
{
	int paranoid = pmc_perf_paranoid();
	bool perfmon, admin, allowed;

	pmc_perf_caps(&perfmon, &admin);
	allowed = (paranoid != INT_MIN && paranoid <= 0) || perfmon || admin;
	pmc_diag_note("%s: uncore counts the whole socket while the command runs (system-wide on CPU%s %s, the PMU's "
		      "cpumask, as perf does), not only the command; this needs perf_event_paranoid <= 0 or CAP_PERFMON "
		      "(perf_event_paranoid is %d here%s)", for_command.names, strchr(for_command.cpus, ',') ||
		      strchr(for_command.cpus, '-') ? "s" : "", for_command.cpus, paranoid,
		      allowed ? (paranoid != INT_MIN && paranoid <= 0 ? ": allowed" : ": allowed, the capability is held") : ": the opens will be refused; run as root or ask for CAP_PERFMON");
}

int pmc_eng_uncore_for_command(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	struct pmc_uncore *u;
	struct pmc_event *old = se->evs;
	size_t n = se->n;
	int r = 0;

	bool dynamic = false;

	if (pmc_target_req_tasks(&o->targets) || pmc_target_req_cpus(&o->targets) || o->k || !n)
		return 0;
	for (size_t i = 0; i < n && !dynamic; i++)
		dynamic = !old[i].cpu_wide && old[i].attr.type >= PERF_TYPE_MAX;
	if (!dynamic)
		return 0; /* only kernel-numbered types: no PMU of sysfs to look up (the common case) */
	u = calloc(1, sizeof(*u));
	if (!u || pmc_uncore_scan(u) < 0 || !u->n) {
		free(u);
		return 0;
	}
	se->evs = NULL;
	se->n = se->cap = 0;
	for (size_t i = 0; i < n && !r; i++) {
		const struct pmc_uncore_family *f = old[i].cpu_wide || old[i].attr.type < PERF_TYPE_MAX ? NULL
						    : family_of_type(u, old[i].attr.type);

		if (!f || !f->ncpus) {
			r = pmc_eng_events_push(se, &old[i]);
			continue;
		}
		snprintf(for_command.cpus, sizeof(for_command.cpus), "%s", f->cpumask);
		if (!strstr(for_command.names, old[i].name)) {
			size_t len = strlen(for_command.names);

			snprintf(for_command.names + len, sizeof(for_command.names) - len, "%s%.100s", len ? ", " : "",
				 old[i].name);
		}
		r = push_per_cpu(se, &old[i], f);
	}
	free(old);
	free(u);
	if (!r && for_command.cpus[0])
		say_for_command();
	return r;
}

void pmc_eng_uncore_note(struct pmc_report *rep)
{
	if (for_command.cpus[0])
		pmc_report_add_check(rep, PMC_CHECK_INFO, "uncore-system-wide",
				     "%.150s: uncore counts the whole socket while the command runs (CPU %s system-wide, "
				     "the PMU's cpumask), not only the command's share", for_command.names,
				     for_command.cpus);
}
