/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs: the merged row of an event opened once per core PMU (cpu_core, cpu_atom). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* Length of NAME in a copy's "NAME [pmu]", or 0 when e is not such a copy. */
static size_t base_len(const struct pmc_report_event *e)
{
	const char *open = strrchr(e->ev.name, '[');
	size_t n = strlen(e->ev.name);

	if (!e->ev.core_pmu || !open || open == e->ev.name || open[-1] != ' ' || e->ev.name[n - 1] != ']')
		return 0;
	return (size_t)(open - 1 - e->ev.name);
}

static bool same_base(const struct pmc_report_event *a, size_t alen, const struct pmc_report_event *b)
{
	return base_len(b) == alen && !strncmp(a->ev.name, b->ev.name, alen);
}

/* The sample of part p that goes with sample s of the first part: same run and batch, else the same run. */
static const struct pmc_sample *matching(const struct pmc_report_event *p, const struct pmc_sample *s)
{
	const struct pmc_sample *same_run = NULL;

	for (size_t i = 0; i < p->nsamples; i++) {
		if (p->samples[i].run != s->run)
			continue;
		if (p->samples[i].batch == s->batch)
			return &p->samples[i];
		if (!same_run)
			same_run = &p->samples[i];
	}
	return same_run;
}

/* Sum the copies for one sample of the first copy. Time enabled is the workload's (the same for every copy); time
 * running adds up over the core types, so running < enabled is left only by time on no counter. */
static void merge_sample(const struct pmc_report *rep, const struct pmc_report_event *m, const struct pmc_sample *s0,
			 struct pmc_sample *out)
{
	bool any_ok = false, any_unsupported = false;
	struct pmc_count *c = &out->count;

	memset(out, 0, sizeof(*out));
	out->run = s0->run;
	out->batch = s0->batch;
	c->status = s0->count.status;
	c->err = s0->count.err;
	for (unsigned k = 0; k < m->nparts; k++) {
		const struct pmc_sample *s = k ? matching(&rep->events[m->parts[k]], s0) : s0;

		if (!s)
			continue;
		if (s->count.enabled > c->enabled)
			c->enabled = s->count.enabled;
		if (s->count.status == PMC_COUNT_NOT_SUPPORTED && !any_unsupported) {
			any_unsupported = true;
			c->err = s->count.err;
		}
		if (s->count.status != PMC_COUNT_OK)
			continue;
		any_ok = true;
		c->value += s->count.value;
		c->running += s->count.running;
		c->flags |= s->count.flags;
	}
	/* The copies share the task's enabled time and split its running time: a sum above it is rounding */
	if (c->running > c->enabled)
		c->running = c->enabled;
	if (any_ok)
		c->status = PMC_COUNT_OK;
	else if (any_unsupported)
		c->status = PMC_COUNT_NOT_SUPPORTED;
}

static int build_merged(struct pmc_report *rep, struct pmc_report_event *m)
{
	const struct pmc_report_event *first = &rep->events[m->parts[0]];

	m->samples = calloc(first->nsamples ? first->nsamples : 1, sizeof(*m->samples));
	if (!m->samples)
		return -ENOMEM;
	m->nsamples = first->nsamples;
	for (size_t i = 0; i < first->nsamples; i++)
		merge_sample(rep, m, &first->samples[i], &m->samples[i]);
	return 0;
}

struct group {
	size_t parts[PMC_REPORT_MAX_PARTS];
	unsigned nparts;
	size_t last;
};

/* Find the events opened once per core PMU: groups of copies "NAME [pmu]" with one NAME. */
static size_t find_groups(const struct pmc_report *rep, struct group *g, bool *taken)
{
	size_t ng = 0;

	for (size_t i = 0; i < rep->nevents; i++) {
		size_t len = base_len(&rep->events[i]);
		struct group *cur = &g[ng];
		uint64_t seen;

		if (!len || taken[i])
			continue;
		memset(cur, 0, sizeof(*cur));
		cur->parts[cur->nparts++] = i;
		cur->last = i;
		seen = 1ull << (rep->events[i].ev.core_pmu & 63);
		/* one copy per core PMU: an event asked for twice makes two merged rows */
		for (size_t j = i + 1; j < rep->nevents && cur->nparts < PMC_REPORT_MAX_PARTS; j++) {
			uint64_t bit = 1ull << (rep->events[j].ev.core_pmu & 63);

			if (taken[j] || (seen & bit) || !same_base(&rep->events[i], len, &rep->events[j]))
				continue;
			seen |= bit;
			taken[j] = true;
			cur->parts[cur->nparts++] = j;
			cur->last = j;
		}
		if (cur->nparts >= 2)
			ng++;
	}
	return ng;
}

static void init_merged(struct pmc_report_event *m, const struct pmc_report_event *first)
{
	memset(m, 0, sizeof(*m));
	m->ev = first->ev;
	m->ev.name[base_len(first)] = '\0';
	m->ev.core_pmu = 0;
	/* The event as written, on no particular core PMU: generic code without a PMU type, raw code as PERF_TYPE_RAW. */
	snprintf(m->ev.canonical, sizeof(m->ev.canonical), "%s", m->ev.name);
	if (m->ev.attr.type == PERF_TYPE_HARDWARE || m->ev.attr.type == PERF_TYPE_HW_CACHE)
		m->ev.attr.config &= PERF_HW_EVENT_MASK;
	else
		m->ev.attr.type = PERF_TYPE_RAW;
	m->in_every_batch = first->in_every_batch;
	m->batch = first->batch;
}

int pmc_report_merge_core_pmus(struct pmc_report *rep)
{
	size_t n = rep->nevents, ng, r = 0;
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	bool *taken = calloc(n ? n : 1, sizeof(*taken));
	size_t *pos = calloc(n ? n : 1, sizeof(*pos));
	struct pmc_report_event *res = NULL;
	int rc = -ENOMEM;

	if (!g || !taken || !pos)
		goto out;
	ng = find_groups(rep, g, taken);
	if (!ng) {
		rc = 0;
		goto out;
	}
	res = calloc(n + ng, sizeof(*res));
	if (!res)
		goto out;
	/* Copies keep their order; each merged row follows the last copy of its event. */
	for (size_t i = 0; i < n; i++) {
		pos[i] = r;
		res[r++] = rep->events[i];
		for (size_t k = 0; k < ng; k++) {
			struct pmc_report_event *m;

			if (g[k].last != i)
				continue;
			m = &res[r++];
			init_merged(m, &rep->events[g[k].parts[0]]);
			m->nparts = g[k].nparts;
			for (unsigned p = 0; p < g[k].nparts; p++)
				m->parts[p] = pos[g[k].parts[p]];
		}
	}
	free(rep->events);
	rep->events = res;
	rep->nevents = r;
	rc = 0;
	for (size_t i = 0; i < rep->nevents && !rc; i++)
		if (rep->events[i].nparts)
			rc = build_merged(rep, &rep->events[i]);
out:
	free(g);
	free(taken);
	free(pos);
	return rc;
}
