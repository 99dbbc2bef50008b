/* SPDX-License-Identifier: MIT */
/* The metrics tests' injected counts: an event put in a report by hand (no PMU, no syscall), for formulas to read. */
#ifndef PMC_TESTS_INJECTED_REPORT_H
#define PMC_TESTS_INJECTED_REPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* Add an event with one OK sample whose mean is v; flags/attr tweaks by the caller through the returned pointer. */
static struct pmc_report_event *add_event(struct pmc_report *rep, const char *name, double v)
{
	struct pmc_report_event *e;

	rep->events = realloc(rep->events, (rep->nevents + 1) * sizeof(*rep->events));
	assert_non_null(rep->events);
	e = &rep->events[rep->nevents++];
	memset(e, 0, sizeof(*e));
	snprintf(e->ev.name, sizeof(e->ev.name), "%s", name);
	snprintf(e->ev.canonical, sizeof(e->ev.canonical), "%s", name);
	e->ev.fixed_index = -1;
	e->samples = calloc(1, sizeof(*e->samples));
	assert_non_null(e->samples);
	e->nsamples = 1;
	e->samples[0].count.value = (uint64_t)v;
	e->samples[0].count.enabled = e->samples[0].count.running = 1000;
	e->status = PMC_COUNT_OK;
	e->nok = 1;
	e->mean = e->median = e->min = e->max = v;
	e->running_pct = 100;
	e->batch_spread_pct = -1;
	e->batch = 0;
	return e;
}

#endif
