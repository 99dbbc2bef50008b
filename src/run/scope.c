/* SPDX-License-Identifier: MIT */
#include "run/scope.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "perf/open.h"
#include "pmu/hybrid.h"
#include "run/group.h"

int pmc_scope_init(struct pmc_scope *s, const struct pmc_measure_req *req, const struct pmc_target *targets,
		   size_t ntargets)
{
	size_t n = (req->n ? req->n : 1) * (ntargets ? ntargets : 1);

	memset(s, 0, sizeof(*s));
	s->req = req;
	s->targets = targets;
	s->ntargets = ntargets;
	s->fds = malloc(n * sizeof(*s->fds));
	s->counts = calloc(n, sizeof(*s->counts));
	s->skip = calloc(n, 1);
	s->defer = calloc(req->n ? req->n : 1, 1);
	if (!s->fds || !s->counts || !s->skip || !s->defer) {
		pmc_scope_fini(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		s->fds[i] = -1;
	return 0;
}

static void close_all(struct pmc_scope *s)
{
	for (size_t i = 0; s->fds && i < s->ntargets * s->req->n; i++) {
		if (s->fds[i] >= 0)
			close(s->fds[i]);
		s->fds[i] = -1;
	}
}

static int open_one(const struct pmc_event *ev, const struct pmc_target *t, int group_fd, unsigned flags,
		    struct pmc_count *c)
{
	struct perf_event_attr a = ev->attr;
	bool leader = group_fd < 0;

	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.inherit = t->pid > 0 && (flags & PMC_SCOPE_INHERIT);
	if (a.inherit && (flags & PMC_SCOPE_INHERIT_STAT)) {
		a.inherit_stat = 1;
		a.sample_id_all = 1;
		a.sample_type = PERF_SAMPLE_IDENTIFIER;
	}
	/* Members follow their leader: only leaders (and events alone) start stopped. */
	a.disabled = leader && (flags & PMC_SCOPE_DISABLED);
	a.enable_on_exec = a.disabled && (flags & PMC_SCOPE_ENABLE_ON_EXEC);
	return pmc_perf_open_counting(&a, t->pid, t->cpu, group_fd, pmc_event_open_opts(ev), &c->flags);
}

struct open_ctx {
	const struct pmc_target *t;
	unsigned flags;
};

static int open_in_group(const struct pmc_event *ev, int group_fd, struct pmc_count *c, void *ctx)
{
	const struct open_ctx *oc = ctx;

	return open_one(ev, oc->t, group_fd, oc->flags, c);
}

/* One target's events: its hardware events in one group per core PMU, the others alone. 0, or 1 when a group was
 * refused (EINVAL in the group, accepted alone) at event *at. */
static int open_target(struct pmc_scope *s, size_t t, unsigned flags, int *at)
{
	const struct pmc_measure_req *req = s->req;
	struct open_ctx oc = { &s->targets[t], flags };
	int leaders[PMC_MAX_CORE_PMUS + 1];

	for (size_t k = 0; k <= PMC_MAX_CORE_PMUS; k++)
		leaders[k] = -1;
	for (size_t i = 0; i < req->n; i++) {
		const struct pmc_event *ev = req->events[i];
		struct pmc_count *c = &s->counts[t * req->n + i];
		bool grouped = req->group && (ev->flags & PMC_EVF_HARDWARE);
		int *leader_p = &leaders[ev->core_pmu <= PMC_MAX_CORE_PMUS ? ev->core_pmu : 0];
		int fd;

		memset(c, 0, sizeof(*c));
		if (s->skip[t * req->n + i]) {
			c->status = PMC_COUNT_NOT_COUNTED;
			continue;
		}
		if (s->defer[i]) {
			c->status = PMC_COUNT_NOT_RUN;
			continue;
		}
		if (pmc_group_open(open_in_group, &oc, ev, grouped ? *leader_p : -1, c, &fd)) {
			*at = (int)i;
			return 1;
		}
		if (fd < 0) {
			c->status = PMC_COUNT_NOT_SUPPORTED;
			c->err = -fd;
			continue;
		}
		s->fds[t * req->n + i] = fd;
		if (grouped && *leader_p < 0)
			*leader_p = fd;
	}
	return 0;
}

int pmc_scope_open(struct pmc_scope *s, unsigned flags, int *group_err_index)
{
	for (size_t t = 0; t < s->ntargets; t++) {
		int at = -1;

		if (open_target(s, t, flags, &at)) {
			close_all(s);
			*group_err_index = at;
			return 1;
		}
	}
	return 0;
}

void pmc_scope_enable(struct pmc_scope *s, bool on, const bool *events)
{
	for (size_t t = 0; t < s->ntargets; t++)
		for (size_t i = 0; i < s->req->n; i++) {
			int fd = s->fds[t * s->req->n + i];
			if (fd >= 0 && (!events || events[i]))
				ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
		}
}

void pmc_scope_read(struct pmc_scope *s)
{
	for (size_t k = 0; k < s->ntargets * s->req->n; k++) {
		struct pmc_count *c = &s->counts[k];
		unsigned flags = c->flags;
		int r;

		if (s->fds[k] < 0)
			continue;
		r = pmc_perf_read(s->fds[k], c);
		c->flags = flags;
		if (r < 0) {
			c->status = PMC_COUNT_NOT_COUNTED;
			c->err = -r;
		}
	}
}

void pmc_scope_close_event(struct pmc_scope *s, size_t i)
{
	for (size_t t = 0; t < s->ntargets; t++) {
		int *fd = &s->fds[t * s->req->n + i];
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

void pmc_scope_reopen_event(struct pmc_scope *s, size_t i, unsigned flags)
{
	for (size_t t = 0; t < s->ntargets; t++) {
		size_t k = t * s->req->n + i;
		struct pmc_count *c = &s->counts[k];
		int fd;

		if (s->skip[k] || s->fds[k] >= 0)
			continue;
		memset(c, 0, sizeof(*c));
		fd = open_one(s->req->events[i], &s->targets[t], -1, flags, c);
		if (fd < 0) {
			c->status = PMC_COUNT_NOT_SUPPORTED;
			c->err = -fd;
			continue;
		}
		s->fds[k] = fd;
	}
}

size_t pmc_scope_count_err(const struct pmc_scope *s, int err)
{
	size_t n = 0;

	for (size_t k = 0; k < s->ntargets * s->req->n; k++)
		n += s->counts[k].status == PMC_COUNT_NOT_SUPPORTED && s->counts[k].err == err;
	return n;
}

void pmc_scope_fini(struct pmc_scope *s)
{
	if (s->req)
		close_all(s);
	free(s->fds);
	free(s->counts);
	free(s->skip);
	free(s->defer);
	memset(s, 0, sizeof(*s));
}
