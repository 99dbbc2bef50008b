/* SPDX-License-Identifier: MIT */
#include "perf/evlist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "arch/arch.h"
#include "perf/selfread.h"
#include "pmu/hybrid.h"

struct pmc_evlist {
	const struct pmc_event *const *evs;
	size_t n;
	const struct pmc_target *targets;
	size_t ntargets;
	unsigned flags;
	pmc_perf_open_fn open;
	unsigned (*rule)(const struct perf_event_attr *a);
	int *fds;                 /* ntargets x n, [t * n + i]; -1 when not open */
	struct pmc_count *counts; /* ntargets x n: the caller's or own */
	bool own_counts;
	unsigned char *skip;      /* ntargets x n */
	unsigned char *defer;     /* n */
	struct pmc_selfread *sr;  /* ntargets x n with PMC_EVL_SELFREAD, else NULL */
};

int pmc_evlist_new(const struct pmc_event *const *evs, size_t n, const struct pmc_target *targets, size_t ntargets,
		   const struct pmc_evlist_opts *o, struct pmc_evlist **ret)
{
	size_t cells = (n ? n : 1) * (ntargets ? ntargets : 1);
	struct pmc_evlist *el = calloc(1, sizeof(*el));

	*ret = NULL;
	if (!el)
		return -ENOMEM;
	el->evs = evs;
	el->n = n;
	el->targets = targets;
	el->ntargets = ntargets;
	el->flags = o ? o->flags : 0;
	el->open = o && o->open ? o->open : pmc_perf_open_noted;
	el->rule = o && o->group_rule ? o->group_rule : pmc_arch_group_rule;
	el->fds = malloc(cells * sizeof(*el->fds));
	el->own_counts = !(o && o->counts);
	el->counts = el->own_counts ? calloc(cells, sizeof(*el->counts)) : o->counts;
	el->skip = calloc(cells, 1);
	el->defer = calloc(n ? n : 1, 1);
	if (el->flags & PMC_EVL_SELFREAD) {
		el->sr = calloc(cells, sizeof(*el->sr));
		for (size_t i = 0; el->sr && i < cells; i++)
			el->sr[i].fd = -1;
	}
	if (!el->fds || !el->counts || !el->skip || !el->defer || (!el->sr && (el->flags & PMC_EVL_SELFREAD))) {
		pmc_evlist_delete(el);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cells; i++)
		el->fds[i] = -1;
	*ret = el;
	return 0;
}

void pmc_evlist_skip(struct pmc_evlist *el, size_t t, size_t ev)
{
	el->skip[t * el->n + ev] = 1;
}

bool pmc_evlist_skipped(const struct pmc_evlist *el, size_t t, size_t ev)
{
	return el->skip[t * el->n + ev];
}

void pmc_evlist_defer(struct pmc_evlist *el, size_t ev)
{
	el->defer[ev] = 1;
}

/* Whether ev counts its own CPU rather than the task target t. */
static bool on_own_cpu(const struct pmc_evlist *el, const struct pmc_event *ev, const struct pmc_target *t)
{
	return (el->flags & PMC_EVL_CPU_WIDE) && ev->cpu_wide && t->cpu < 0;
}

/* Open ev on t led by group_fd (-1: a leader, or alone), with the attr bits the set's flags ask for. */
static int open_one(const struct pmc_evlist *el, const struct pmc_event *ev, const struct pmc_target *t, int group_fd,
		    struct pmc_count *c)
{
	struct perf_event_attr a = ev->attr;
	bool leader = group_fd < 0;

	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (el->flags & PMC_EVL_SELFREAD)
		pmc_arch_selfread_attr(&a); /* arm64: the rdpmc format term's bit asks for user-space reads */
	if (on_own_cpu(el, ev, t)) {
		/* CPU-wide events know no exec: they are enabled around the workload (pmc_evlist_toggle_cpu_wide). */
		a.disabled = 1;
		return pmc_perf_open_counting_via(el->open, &a, -1, ev->cpu, -1, pmc_event_open_opts(ev), &c->flags);
	}
	a.inherit = t->pid > 0 && !t->cgroup && (el->flags & PMC_EVL_INHERIT);
	if (a.inherit && (el->flags & PMC_EVL_INHERIT_STAT)) {
		a.inherit_stat = 1;
		a.sample_id_all = 1;
		a.sample_type = PERF_SAMPLE_IDENTIFIER;
	}
	/* Members follow their leader: only leaders (and events alone) start stopped. */
	a.disabled = leader && (el->flags & PMC_EVL_DISABLED);
	a.enable_on_exec = a.disabled && (el->flags & PMC_EVL_ENABLE_ON_EXEC);
	return pmc_perf_open_counting_via(el->open, &a, t->pid, t->cpu, group_fd,
					  pmc_event_open_opts(ev) | (t->cgroup ? PMC_OPEN_CGROUP : 0), &c->flags);
}

/* Whether ev joins its core PMU's group on t. */
static bool grouped(const struct pmc_evlist *el, const struct pmc_event *ev, const struct pmc_target *t)
{
	return (el->flags & PMC_EVL_GROUP) && (ev->flags & PMC_EVF_HARDWARE) && !on_own_cpu(el, ev, t) &&
	       !(el->rule(&ev->attr) & PMC_GROUP_NEVER);
}

/* Keep fd as counter k; with PMC_EVL_SELFREAD map its page (no page: read() still works). */
static void keep_fd(struct pmc_evlist *el, size_t k, int fd)
{
	el->fds[k] = fd;
	if (el->sr)
		(void)pmc_selfread_map(&el->sr[k], fd);
}

/* Close counter k (and unmap its page). */
static void close_fd(struct pmc_evlist *el, size_t k)
{
	if (el->sr)
		pmc_selfread_unmap(&el->sr[k]);
	if (el->fds[k] >= 0)
		close(el->fds[k]);
	el->fds[k] = -1;
}

/* Whether ev must lead its group on t (PMC_GROUP_MUST_LEAD): opened in the first pass of open_target. */
static bool leads(const struct pmc_evlist *el, const struct pmc_event *ev, const struct pmc_target *t)
{
	return grouped(el, ev, t) && (el->rule(&ev->attr) & PMC_GROUP_MUST_LEAD);
}

/* One target's events: its hardware events in one group per core PMU (with PMC_EVL_GROUP), the others alone; events
 * that must lead their group open first (pass 0), the rest after in order (pass 1). 0, or 1 when a group was refused
 * (EINVAL in the group, accepted alone) at event *at. */
static int open_target(struct pmc_evlist *el, size_t t, size_t *at)
{

	const struct pmc_target *tg = &el->targets[t];
	int leaders[PMC_MAX_CORE_PMUS + 1];

	for (size_t k = 0; k <= PMC_MAX_CORE_PMUS; k++)
		leaders[k] = -1;
	for (size_t step = 0; step < 2 * el->n; step++) {
		size_t i = step % el->n;
		const struct pmc_event *ev = el->evs[i];
		struct pmc_count *c = &el->counts[t * el->n + i];
		bool in_group = grouped(el, ev, tg);
		int *leader_p = &leaders[ev->core_pmu <= PMC_MAX_CORE_PMUS ? ev->core_pmu : 0];
		int leader = in_group ? *leader_p : -1, fd;

		if (leads(el, ev, tg) != (step < el->n))
			continue;

		memset(c, 0, sizeof(*c));
		if (el->skip[t * el->n + i] || (ev->flags & PMC_EVF_BP_NEVER_FIRES)) {
			c->status = PMC_COUNT_NOT_COUNTED;
			continue;
		}
		if (el->defer[i]) {
			c->status = PMC_COUNT_NOT_RUN;
			continue;
		}
		fd = open_one(el, ev, tg, leader, c);
		if (fd == -EINVAL && leader >= 0 && !(el->rule(&ev->attr) & PMC_GROUP_MUST_GROUP)) {
			/* Does it fail alone too? Then the encoding is bad, not the combination. */
			int alone = open_one(el, ev, tg, -1, c);

			if (alone >= 0) {
				close(alone);
				*at = i;
				return 1;
			}
			fd = alone;
		}
		if (fd < 0) {
			c->status = PMC_COUNT_NOT_SUPPORTED;
			c->err = -fd;
			continue;
		}
		keep_fd(el, t * el->n + i, fd);
		if (in_group && *leader_p < 0)
			*leader_p = fd;
	}
	return 0;
}

int pmc_evlist_open(struct pmc_evlist *el, struct pmc_evlist_fail *ret_fail)
{
	for (size_t t = 0; t < el->ntargets; t++) {
		size_t at = 0;

		if (open_target(el, t, &at)) {
			pmc_evlist_close(el);
			if (ret_fail)
				*ret_fail = (struct pmc_evlist_fail){ .index = at, .err = EINVAL };
			return PMC_EVL_SPLIT;
		}
	}
	return 0;
}

static void set_enabled(struct pmc_evlist *el, bool on, const bool *which, bool cpu_wide_only)
{
	for (size_t t = 0; t < el->ntargets; t++)
		for (size_t i = 0; i < el->n; i++) {
			int fd = el->fds[t * el->n + i];

			if (fd < 0 || (which && !which[i]))
				continue;
			if (cpu_wide_only && !on_own_cpu(el, el->evs[i], &el->targets[t]))
				continue;
			ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
		}
}

void pmc_evlist_enable(struct pmc_evlist *el, const bool *which)
{
	set_enabled(el, true, which, false);
}

void pmc_evlist_disable(struct pmc_evlist *el, const bool *which)
{
	set_enabled(el, false, which, false);
}

void pmc_evlist_toggle_cpu_wide(struct pmc_evlist *el, bool on)
{
	set_enabled(el, on, NULL, true);
}

void pmc_evlist_read(struct pmc_evlist *el)
{
	for (size_t k = 0; k < el->ntargets * el->n; k++) {
		struct pmc_count *c = &el->counts[k];
		unsigned flags = c->flags;
		int r;

		if (el->fds[k] < 0)
			continue;
		r = pmc_perf_read(el->fds[k], c);
		c->flags = flags;
		if (r < 0) {
			c->status = PMC_COUNT_NOT_COUNTED;
			c->err = -r;
		}
	}
}

struct pmc_count *pmc_evlist_counts(const struct pmc_evlist *el)
{
	return el->counts;
}

bool pmc_evlist_never_ran(const struct pmc_evlist *el, struct pmc_evlist_fail *ret_fail)
{
	if (!(el->flags & PMC_EVL_GROUP))
		return false;
	for (size_t t = 0; t < el->ntargets; t++) {
		const struct pmc_count *counts = &el->counts[t * el->n];
		size_t members = 0, first = 0;
		bool enabled = false, ran = false;

		for (size_t i = 0; i < el->n && !ran; i++) {
			if (!grouped(el, el->evs[i], &el->targets[t]))
				continue;
			if (counts[i].status != PMC_COUNT_OK && counts[i].status != PMC_COUNT_NOT_COUNTED)
				continue; /* never opened */
			ran = counts[i].running > 0;
			enabled |= counts[i].enabled > 0;
			if (!members++)
				first = i;
		}
		if (!ran && members > 1 && enabled) { /* one event alone is never refused as a group */
			if (ret_fail)
				*ret_fail = (struct pmc_evlist_fail){ .index = first, .never_ran = true };
			return true;
		}
	}
	return false;
}

size_t pmc_evlist_count_err(const struct pmc_evlist *el, int err)
{
	size_t n = 0;

	for (size_t k = 0; k < el->ntargets * el->n; k++)
		n += el->counts[k].status == PMC_COUNT_NOT_SUPPORTED && el->counts[k].err == err;
	return n;
}

void pmc_evlist_close_event(struct pmc_evlist *el, size_t ev)
{
	for (size_t t = 0; t < el->ntargets; t++)
		close_fd(el, t * el->n + ev);
}

void pmc_evlist_reopen_event(struct pmc_evlist *el, size_t ev, unsigned flags)
{
	unsigned saved = el->flags;

	el->flags = flags;
	for (size_t t = 0; t < el->ntargets; t++) {
		size_t k = t * el->n + ev;
		struct pmc_count *c = &el->counts[k];
		int fd;

		if (el->skip[k] || el->fds[k] >= 0 || (el->evs[ev]->flags & PMC_EVF_BP_NEVER_FIRES))
			continue;
		memset(c, 0, sizeof(*c));
		fd = open_one(el, el->evs[ev], &el->targets[t], -1, c);
		if (fd < 0) {
			c->status = PMC_COUNT_NOT_SUPPORTED;
			c->err = -fd;
			continue;
		}
		keep_fd(el, k, fd);
	}
	el->flags = saved;
}

const int *pmc_evlist_fds(const struct pmc_evlist *el, size_t t)
{
	return &el->fds[t * el->n];
}

struct pmc_selfread *pmc_evlist_selfread(const struct pmc_evlist *el, size_t t, size_t ev)
{
	struct pmc_selfread *s = el->sr ? &el->sr[t * el->n + ev] : NULL;

	return s && s->page ? s : NULL;
}

size_t pmc_evlist_nevents(const struct pmc_evlist *el)
{
	return el->n;
}

const struct pmc_event *pmc_evlist_event(const struct pmc_evlist *el, size_t ev)
{
	return el->evs[ev];
}

void pmc_evlist_close(struct pmc_evlist *el)
{
	for (size_t k = 0; el->fds && k < el->ntargets * el->n; k++)
		close_fd(el, k);
}

void pmc_evlist_delete(struct pmc_evlist *el)
{
	if (!el)
		return;
	pmc_evlist_close(el);
	free(el->fds);
	if (el->own_counts)
		free(el->counts);
	free(el->skip);
	free(el->defer);
	free(el->sr);
	free(el);
}

/* The architecture's default group rule: anything goes. Weak, so an arch/<name>/ definition wins; it moves to
 * arch/default.c with the other weak defaults. */
__attribute__((weak)) unsigned pmc_arch_group_rule(const struct perf_event_attr *a)
{
	(void)a;
	return PMC_GROUP_ANY;
}
