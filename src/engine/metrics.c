/* SPDX-License-Identifier: MIT */
/* The engine: derived metrics (an event set's, the defaults, --metric) and the scaling checks of a report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "arch/arch.h"
#include "engine/fields.h"
#include "metrics/checks.h"
#include "metrics/expr.h"
#include "metrics/metrics.h"
#include "metrics/modes.h"
#include "engine/rg_collect.h"

int pmc_eng_metrics_parse(const char *const *args, size_t n, struct pmc_metric_def **ret)
{
	struct pmc_metric_def *defs;
	char err[256];

	*ret = NULL;
	if (!n)
		return 0;
	defs = calloc(n, sizeof(*defs));
	if (!defs)
		return PMC_EXIT_INTERNAL;
	for (size_t i = 0; i < n; i++) {
		if (pmc_metric_def_parse_cli(args[i], &defs[i], err, sizeof(err)) < 0) {
			pmc_diag_error("bad " RQ_METRICS " '%.80s%s': %s", args[i], strlen(args[i]) > 80 ? "..." : "", err);
			free(defs);
			return PMC_EXIT_USAGE;
		}
	}
	*ret = defs;
	return 0;
}

int pmc_eng_metrics_join(const struct pmc_engine_opts *o, struct pmc_metric_def **ret)
{
	struct pmc_metric_def *defs;

	*ret = NULL;
	if (!o->nmetrics && !o->nmetric_defs)
		return 0;
	defs = calloc(o->nmetric_defs + o->nmetrics, sizeof(*defs));
	if (!defs)
		return PMC_EXIT_INTERNAL;
	if (o->nmetric_defs)
		memcpy(defs, o->metric_defs, o->nmetric_defs * sizeof(*defs));
	if (o->nmetrics)
		memcpy(defs + o->nmetric_defs, o->metrics, o->nmetrics * sizeof(*defs));
	*ret = defs;
	return 0;
}

static bool is_metric_name(const struct pmc_metric_def *defs, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(defs[i].name, name))
			return true;
	return false;
}

/* Whether a formula names the TSC rate and all its other inputs are there: counted events, constants, or other
 * metrics of the same list. Only then is the rate worth its cost. */
static bool needs_tsc_rate(const struct pmc_report *rep, const struct pmc_metric_def *defs, size_t ndefs,
			   const struct pmc_metric_def *d)
{
	const struct pmc_expr *e;
	char err[128];
	bool names_rate = false, inputs = true;

	if (!strstr(d->formula, "TSC_HZ") && !strstr(d->formula, "BASE_HZ"))
		return false;
	if (pmc_expr_parse_shared(d->formula, &e, err, sizeof(err)) < 0)
		return false;
	for (size_t i = 0; i < pmc_expr_name_count(e); i++) {
		const char *n = pmc_expr_name(e, i);
		const struct pmc_report_event *ev;

		if (!strcmp(n, "TSC_HZ") || !strcmp(n, "BASE_HZ")) {
			names_rate = true;
			continue;
		}
		ev = pmc_metric_find_event(rep, n, NULL);
		if (ev ? ev->status != PMC_COUNT_OK
		       : !pmc_metric_is_known_const(n) && !is_metric_name(defs, ndefs, n))
			inputs = false;
	}
	return names_rate && inputs;
}

static bool names_tsc_rate(const struct pmc_report *rep, const struct pmc_metric_def *defs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (needs_tsc_rate(rep, defs, n, &defs[i]))
			return true;
	return false;
}

/* The TSC rate costs a calibration on some machines (0.1 s): find it only when a formula can use it. */
static void set_clock_constants(struct pmc_report *rep)
{
	const char *src = NULL;
	double hz = 0, base = 0;

	/* TSC_HZ and BASE_HZ mean the x86 time-stamp counter: another architecture's region timer (arm64 CNTVCT at
	 * CNTFRQ_EL0, tens of MHz) is no stand-in for them, so they stay unknown there (pmc_arch_tsc_hz: -ENODEV). */
	if (pmc_arch_tsc_hz(&hz, &src) < 0 || hz <= 0)
		return;
	rep->tsc_hz = hz;
	rep->tsc_source = src;
	pmc_report_set_const(rep, "TSC_HZ", hz);
	/* The nominal (base) frequency where the CPU reports it (x86 CPUID 0x16); else the TSC rate, which equals the
	 * base frequency on the parts whose REF_XCLK scaling needs it. */
	pmc_report_set_const(rep, "BASE_HZ", pmc_arch_base_hz(&base) ? hz : base);
}

bool pmc_eng_nmi_watchdog_on(void)
{
	FILE *f = fopen("/proc/sys/kernel/nmi_watchdog", "re");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v != 0;
}

void pmc_eng_metrics_eval(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
		       struct pmc_report *rep)
{
	const struct pmc_metric_def *defs;
	size_t ndefs = 0;
	unsigned flags = 0;

	if (se->variant) {
		defs = se->variant->metrics;
		ndefs = se->variant->nmetrics;
	} else {
		defs = pmc_metrics_default(&ndefs);
		flags = PMC_METRICS_SKIP_ABSENT; /* only the defaults whose events were asked for */
	}
	if (names_tsc_rate(rep, defs, ndefs) || names_tsc_rate(rep, cli, ncli))
		set_clock_constants(rep);
	pmc_metrics_eval(rep, defs, ndefs, flags);
	if (ncli)
		pmc_metrics_eval(rep, cli, ncli, 0);
	/* --regions: the same formulas over each region's counts, and the checks regions make possible. */
	pmc_regions_metrics(rep, defs, ndefs, flags);
	if (ncli)
		pmc_regions_metrics(rep, cli, ncli, 0);
}

void pmc_eng_metrics_apply(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli,
			struct pmc_report *rep)
{
	struct pmc_check_opts co;

	pmc_eng_metrics_eval(se, cli, ncli, rep);
	pmc_check_opts_default(&co);
	co.nmi_watchdog = se->nmi_known ? se->nmi_on : pmc_eng_nmi_watchdog_on();
	pmc_checks_run(rep, &co);
	pmc_regions_checks(rep); /* --regions: the checks regions make possible */
	if (se->variant && se->variant->nchecks)
		pmc_checks_run_defs(rep, se->variant->checks, se->variant->nchecks);
}

/* A formula name is known when it is an event of the measurement, a constant, or another metric. */
static bool known_name(const struct pmc_engine *se, const struct pmc_metric_def *defs, size_t ndefs,
		       const struct pmc_metric_def *cli, size_t ncli, const char *n)
{
	for (size_t i = 0; i < se->n; i++)
		if (pmc_metric_name_matches(&se->evs[i], n))
			return true;
	return pmc_metric_is_known_const(n) || is_metric_name(defs, ndefs, n) || is_metric_name(cli, ncli, n);
}

int pmc_eng_metrics_check(const struct pmc_engine *se, const struct pmc_metric_def *cli, size_t ncli)
{
	const struct pmc_metric_def *defs = NULL;
	size_t ndefs = 0;
	int rc = 0;

	if (se->variant) {
		defs = se->variant->metrics;
		ndefs = se->variant->nmetrics;
	}
	for (size_t m = 0; m < ncli && !rc; m++) {
		struct pmc_expr *e;
		char err[200];

		if (pmc_expr_parse(cli[m].formula, &e, err, sizeof(err)) < 0) {
			pmc_diag_error("bad " RQ_METRICS " %s: %s", cli[m].name, err);
			return PMC_EXIT_USAGE;
		}
		for (size_t i = 0; i < pmc_expr_name_count(e) && !rc; i++) {
			const char *n = pmc_expr_name(e, i);
			/* A metric is evaluated after those before it: it can use them, not itself or a later one
			 * (which would run, then print n/a). */
			if (known_name(se, defs, ndefs, cli, m, n))
				continue;
			if (is_metric_name(cli + m, ncli - m, n)) {
				if (!strcasecmp(cli[m].name, n))
					pmc_diag_error(RQ_METRICS " %s uses itself ('%s'): a metric cannot be defined "
						       "by its own value (nothing was run)", cli[m].name, n);
				else
					pmc_diag_error(RQ_METRICS " %s uses metric '%s', which is defined after it: "
						       "give " RQ_METRICS
						       " %s first (nothing was run)", cli[m].name, n, n);
				rc = PMC_EXIT_USAGE;
				continue;
			}
			pmc_diag_error(RQ_METRICS " %s uses '%s', which is not an event of this measurement, a "
					"constant or a metric: add the event with " RQ_EVENTS "; names with '-' or ':' "
					"go in braces, "
					"{page-faults} (nothing was run)", cli[m].name, n);
			rc = PMC_EXIT_USAGE;
		}
		pmc_expr_free(e);
	}
	return rc;
}
