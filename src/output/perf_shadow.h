/* SPDX-License-Identifier: MIT */
/* perf stat's metric beside an event ("insn per cycle", "CPUs utilized", "GHz", "of all branches", "K/sec"), for -x
 * SEP's fields 6 and 7 (output/perf_shadow.c). */
#ifndef PMC_OUTPUT_PERF_SHADOW_H
#define PMC_OUTPUT_PERF_SHADOW_H

#include <stdbool.h>

#include "report/report.h"

struct pmc_perf_shadow {
	bool have;
	char value[48];     /* as perf prints it ("1.25", "74.221"); "" when perf names the metric but has no value */
	double v;           /* the value itself (0 when value is "") */
	char unit[40];      /* perf's words ("insn per cycle", "K/sec") */
	const char *metric; /* pmctool's metric of the same meaning ("IPC"), NULL when none */
};

/* e's metric as perf prints it beside e (a counted event; never for <not supported> / <not counted>). */
bool pmc_perf_shadow(const struct pmc_report *rep, const struct pmc_report_event *e, struct pmc_perf_shadow *s);
/* Whether metric m is printed beside an event already (so not again on a line of its own). */
bool pmc_perf_shadow_placed(const struct pmc_report *rep, const struct pmc_metric_value *m);

#endif
