/* SPDX-License-Identifier: MIT */
/* The exposition of continuously counted events for Prometheus (pmctool serve, --textfile): the OpenMetrics 1.0.0
 * text format, or Prometheus' text format 0.0.4 for scrapers that do not ask for OpenMetrics and for node_exporter's
 * textfile collector. A counter that did not count is absent from its family and flagged in pmctool_event_up with
 * the reason: never written as 0. */
#ifndef PMC_OUTPUT_OPENMETRICS_H
#define PMC_OUTPUT_OPENMETRICS_H

#include <stdbool.h>
#include <stdio.h>

/* One event as counted so far (cumulative since counting started). */
struct pmc_om_event {
	const char *name;    /* the event as the user wrote it (the event="..." label) */
	bool seconds;        /* counts nanoseconds (task-clock, cpu-clock): exposed in seconds, unit "seconds" */
	bool counted;        /* value and running_ratio hold measured numbers; else reason says why not */
	double value;        /* the count (nanoseconds when seconds), summed over the intervals, each scaled */
	double running_ratio; /* time running / time enabled, summed over the intervals (1: never multiplexed) */
	const char *reason;  /* !counted: "not supported: ...", "not counted yet", ... */
};

enum pmc_om_format { PMC_OM_OPENMETRICS, PMC_OM_PROMETHEUS };

/* The Content-Type of each format. */
const char *pmc_om_content_type(enum pmc_om_format fmt);
/* The format a scraper's Accept header asks for (NULL: none given): OpenMetrics when it names
 * application/openmetrics-text, else Prometheus 0.0.4. */
enum pmc_om_format pmc_om_negotiate(const char *accept);
/* The family name of an event: "pmctool_" + the name with every character outside [a-z0-9_] as '_' (upper case
 * folded, runs of '_' as one), "_seconds" when it counts time; never longer than len - 1 (cut). */
void pmc_om_family(const char *event, bool seconds, char *buf, size_t len);
/* Write the exposition of n events (version: pmctool_build_info's). 0, or -errno when f failed. */
int pmc_om_write(FILE *f, enum pmc_om_format fmt, const struct pmc_om_event *ev, size_t n, const char *version);

#endif
