/* SPDX-License-Identifier: MIT */
#include "perf/keep.h"

#include <stdlib.h>
#include <unistd.h>

#include "perf/perf.h"
#include "perf/probe.h"

bool pmc_keep_wanted(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_TRACEPOINT)
		return true;
	if (a->type != PERF_TYPE_SOFTWARE)
		return false;
	/* cpu-clock and task-clock are hrtimers, dummy and bpf-output touch no static key; the rest are swevents whose
	 * perf_swevent_enabled[] key goes off with the last one. */
	switch (a->config) {
	case PERF_COUNT_SW_CPU_CLOCK:
	case PERF_COUNT_SW_TASK_CLOCK:
	case PERF_COUNT_SW_DUMMY:
	case PERF_COUNT_SW_BPF_OUTPUT:
		return false;
	default:
		return a->config < PERF_COUNT_SW_MAX;
	}
}

static bool seen_before(const struct pmc_event *evs, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (evs[j].attr.type == evs[i].attr.type && evs[j].attr.config == evs[i].attr.config)
			return true;
	return false;
}

size_t pmc_keep_open(struct pmc_keep *k, const struct pmc_event *evs, size_t n, size_t max)
{
	k->fds = NULL;
	k->n = 0;
	for (size_t i = 0; i < n && k->n < max; i++) {
		struct perf_event_attr a = { 0 };
		int fd;

		if (!pmc_keep_wanted(&evs[i].attr) || seen_before(evs, i))
			continue;
		if (!k->fds) {
			k->fds = malloc(n * sizeof(*k->fds));
			if (!k->fds)
				return 0;
		}
		a.type = evs[i].attr.type;
		a.config = evs[i].attr.config;
		a.disabled = 1;
		a.exclude_kernel = 1; /* counts nothing anyway; asks for no privilege */
		a.exclude_hv = 1;
		fd = pmc_perf_open_self(&a, -1, "kept open, disabled, for the whole measurement");
		if (fd >= 0)
			k->fds[k->n++] = fd;
	}
	if (!k->n) {
		free(k->fds);
		k->fds = NULL;
	}
	return k->n;
}

void pmc_keep_close(struct pmc_keep *k)
{
	for (size_t i = 0; i < k->n; i++)
		close(k->fds[i]);
	free(k->fds);
	k->fds = NULL;
	k->n = 0;
}
