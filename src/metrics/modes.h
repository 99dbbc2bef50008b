/* SPDX-License-Identifier: MIT */
/* Which measured event each name of a formula means: one privilege level (modifiers) for all of a metric's events. */
#ifndef PMC_METRICS_MODES_H
#define PMC_METRICS_MODES_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/expr.h"
#include "report/report.h"

/* The privilege levels a formula's events are read in (exclude_user / exclude_kernel / guest / host bits). */
struct pmc_metric_modes {
	bool chosen;    /* false: no event name in the formula (or only mode-neutral ones: task-clock, msr/tsc/) */
	unsigned mode;
};

/* Whether name ends in perf modifiers (":u", "/u" after a PMU's terms). */
bool pmc_metric_name_has_modifiers(const char *name);

/* Whether a formula's name means this event: its name or canonical spelling; a bare name ("instructions") also
 * means every spelling with modifiers ("instructions:u"). A name with modifiers means exactly that event. */
bool pmc_metric_name_matches(const struct pmc_event *ev, const char *name);

/* The one mode every event name of e can be read in: the first, in the report's order, in which every name has a
 * counted event (else one measured at all). -1 with a reason naming each event and what it counts when there is
 * none (a metric of mixed privilege levels is n/a, never computed); else 0. */
int pmc_metric_pick_modes(const struct pmc_report *rep, const struct pmc_expr *e, struct pmc_metric_modes *ret,
			  char *reason, size_t len);

/* The report's event name means in mode mm (NULL: the first that matches); NULL when none. */
const struct pmc_report_event *pmc_metric_find_event(const struct pmc_report *rep, const char *name,
						     const struct pmc_metric_modes *mm);

/* "instructions:u, cycles:u (user mode)" when the events read are not the names as written; else "". */
void pmc_metric_modes_note(const struct pmc_report *rep, const struct pmc_expr *e, const struct pmc_metric_modes *mm,
			   char *buf, size_t len);

#endif
