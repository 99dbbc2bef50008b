/* SPDX-License-Identifier: MIT */
/* pmctool's side of regions (in libpmccore): the batch's events encoded for the program, the program's results read
 * back into the report (report/regions.h), and the checks and metrics that regions make possible. */
#ifndef PMC_ENGINE_RG_COLLECT_H
#define PMC_ENGINE_RG_COLLECT_H

#include <stddef.h>

#include "metrics/metrics.h"
#include "pmu/event.h"
#include "report/regions.h"

/* The value of PMCTOOL_REGIONS_EVENTS for events evs[0..n-1] (channel.h's "@..." form, each attr prepared for
 * in-process reads by the architecture). 0, or -ENOSPC. */
int pmc_regions_encode(const struct pmc_event *const *evs, size_t n, char *buf, size_t len);

/* Merge one execution's results (the channel's text, every process's block) into rep->regions (created on first
 * use). map[k]: the report event of the batch's k-th event; nmap events. launcher: pmctool's pid (the block whose
 * parent it is belongs to the launched program). 0 or -ENOMEM. Malformed text is counted as cut, never trusted. */
int pmc_regions_collect(struct pmc_report *rep, const char *text, size_t len, const size_t *map, size_t nmap,
			int launcher);

/* After the runs: the region checks (calls identical in every execution, top-level regions within the whole
 * program, regions never left, marker overhead, misuse) appended to rep's checks. */
void pmc_regions_checks(struct pmc_report *rep);

/* The report's metric definitions over each region's counts (the region's metrics[]). 0 or -ENOMEM. */
int pmc_regions_metrics(struct pmc_report *rep, const struct pmc_metric_def *defs, size_t ndefs, unsigned flags);

#endif
