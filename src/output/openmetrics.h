/* SPDX-License-Identifier: MIT */
/* The exposition of continuously counted events for Prometheus (pmctool serve, --textfile): the OpenMetrics 1.0.0
 * text format, or Prometheus' text format 0.0.4 for scrapers that do not ask for OpenMetrics and for node_exporter's
 * textfile collector. A counter that did not count is absent from its family and flagged in pmctool_event_up with
 * the reason: never written as 0. */
#ifndef PMC_OUTPUT_OPENMETRICS_H
#define PMC_OUTPUT_OPENMETRICS_H

#include <stdbool.h>
#include <stdio.h>

/* A label of a series beside its own: a row's (cpu="3", socket="0", cgroup="/x"), or an info series' (name NULL: none). */
struct pmc_om_label {
	const char *name, *value;
};

/* One event as counted so far (cumulative since counting started), over everything counted or in one row. */
struct pmc_om_event {
	const char *name;    /* the event as the user wrote it (the event="..." label) */
	struct pmc_om_label row; /* the row's label (name NULL: the total over every CPU or task counted) */
	bool seconds;        /* counts nanoseconds (task-clock, cpu-clock): exposed in seconds, unit "seconds" */
	bool counted;        /* value and running_ratio hold measured numbers; else reason says why not */
	double value;        /* the count (nanoseconds when seconds), summed over the intervals, each scaled */
	double running_ratio; /* time running / time enabled, summed over the intervals (1: never multiplexed) */
	const char *reason;  /* !counted: "not supported: ...", "not counted yet", ... */
};

/* A gauge: a metric's value (-g, -M, --metric) or a top-down node's fraction of the slots (--topdown). */
struct pmc_om_gauge {
	const char *name;    /* the metric="..." or node="..." label */
	const char *unit;    /* a metric's unit ("GHz", "%"; "" none): its unit="..." label */
	int level;           /* a top-down node's level (its level="..." label), 0 for a metric */
	struct pmc_om_label row;
	bool valid;          /* value is measured; else absent, and its _up series says why (reason) */
	double value;
	const char *reason;
};

/* Everything one exposition holds. */
struct pmc_om_doc {
	const struct pmc_om_event *ev;
	size_t nev;
	const struct pmc_om_gauge *metrics, *nodes;
	size_t nmetrics, nnodes;
	const char *version;               /* pmctool_build_info's version label */
	const struct pmc_om_label *env;    /* pmctool_environment_info's labels (values "" are left out) */
	size_t nenv;
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
/* Write the whole exposition: the events' counter families (an event's rows together in its family), the running
 * ratios, pmctool_event_up, then the metrics (pmctool_metric, pmctool_metric_up), the top-down nodes
 * (pmctool_topdown_fraction, pmctool_topdown_up), pmctool_build_info and pmctool_environment_info. A gauge without a
 * value is absent from its family and its _up series is 0 with the reason. 0, or -errno when f failed. */
int pmc_om_write_doc(FILE *f, enum pmc_om_format fmt, const struct pmc_om_doc *doc);

#endif
