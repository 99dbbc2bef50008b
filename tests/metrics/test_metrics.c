/* SPDX-License-Identifier: MIT */
/* Metrics over hand-built reports (exact values, n/a reasons, seed 000's SMT algebra), --metric parsing, checks. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eventsets/eventset.h"
#include "metrics/checks.h"
#include "metrics/metrics.h"
#include "injected_report.h"

static const struct pmc_metric_value *metric(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nmetrics; i++)
		if (!strcmp(rep->metrics[i].name, name))
			return &rep->metrics[i];
	fail_msg("no metric %s", name);
	return NULL;
}

static void build_core_report(struct pmc_report *rep)
{
	struct pmc_report_event *e;

	memset(rep, 0, sizeof(*rep));
	rep->nbatches = rep->nruns = 1;
	add_event(rep, "msr/tsc/", 4e9)->ev.flags = PMC_EVF_TSC;
	add_event(rep, "instructions", 6e9);
	add_event(rep, "cycles", 5e9);
	add_event(rep, "ref-cycles", 3.6e9);
	e = add_event(rep, "instructions:k", 3e6);
	e->ev.attr.exclude_user = 1;
	e = add_event(rep, "cycles:k", 1e9);
	e->ev.attr.exclude_user = 1;
	pmc_report_set_const(rep, "TSC_HZ", 2e9);
	pmc_report_set_const(rep, "SECONDS", 2.0);
}

static void test_core_set_metrics_are_exact(void **state)
{
	struct pmc_report rep;
	struct pmc_eventset *set;
	const struct pmc_eventset_variant *v;
	char err[512];

	(void)state;
	build_core_report(&rep);
	{
		char path[4096];
		snprintf(path, sizeof(path), "%s/events/core.set", getenv("PMC_SOURCE_DIR"));
		if (pmc_eventset_load(path, &set, err, sizeof(err)))
			fail_msg("%s", err);
	}
	v = pmc_eventset_select(set, "hsw");
	assert_non_null(v);
	assert_int_equal(pmc_metrics_eval(&rep, v->metrics, v->nmetrics, 0), 0);
	assert_true(metric(&rep, "IPC")->valid);
	assert_true(metric(&rep, "IPC")->value == 1.2);
	assert_true(metric(&rep, "utilization")->value == 0.9);
	assert_true(fabs(metric(&rep, "unhalted_GHz")->value - 5e9 / 3.6e9 * 2.0) < 1e-12);
	assert_true(metric(&rep, "net_GHz")->value == 2.5);
	assert_true(metric(&rep, "kernel_instructions_pct")->value == 0.05);
	assert_true(metric(&rep, "kernel_cycles_pct")->value == 20);
	assert_string_equal(metric(&rep, "net_GHz")->unit, "GHz");
	/* No EXPECTED_INSTRUCTIONS outside kernels: n/a with the reason, value untouched at 0. */
	assert_false(metric(&rep, "retired_vs_expected")->valid);
	assert_non_null(strstr(metric(&rep, "retired_vs_expected")->reason, "built-in kernels"));
	pmc_report_set_const(&rep, "EXPECTED_INSTRUCTIONS", 6e9);
	free(rep.metrics);
	rep.metrics = NULL;
	rep.nmetrics = 0;
	assert_int_equal(pmc_metrics_eval(&rep, v->metrics, v->nmetrics, 0), 0);
	assert_true(metric(&rep, "retired_vs_expected")->valid);
	assert_true(metric(&rep, "retired_vs_expected")->value == 1.0);
	pmc_eventset_free(set);
	pmc_report_fini(&rep);
}

static void test_metric_na_names_uncounted_event_and_reason(void **state)
{
	struct pmc_report rep;
	struct pmc_metric_def d = { "IPC", "instructions / cycles", "", "", "" };
	struct pmc_metric_def z = { "ratio", "instructions / {ref-cycles}", "", "", "" };
	struct pmc_metric_def bad = { "broken", "instructions /", "", "", "" };

	(void)state;
	build_core_report(&rep);
	rep.events[2].status = PMC_COUNT_NOT_COUNTED;
	snprintf(rep.events[2].reason, sizeof(rep.events[2].reason), "never scheduled");
	rep.events[3].mean = 0;
	assert_int_equal(pmc_metrics_eval(&rep, &d, 1, 0), 0);
	assert_int_equal(pmc_metrics_eval(&rep, &z, 1, 0), 0);
	assert_int_equal(pmc_metrics_eval(&rep, &bad, 1, 0), 0);
	assert_false(rep.metrics[0].valid);
	assert_string_equal(rep.metrics[0].reason, "event cycles was not counted: never scheduled");
	assert_false(rep.metrics[1].valid);
	assert_string_equal(rep.metrics[1].reason, "division by zero: {ref-cycles} is 0");
	assert_false(rep.metrics[2].valid);
	assert_non_null(strstr(rep.metrics[2].reason, "formula error: column 15"));
	pmc_report_fini(&rep);
}

static void test_default_metrics_skip_absent_events(void **state)
{
	struct pmc_report rep;
	size_t n;
	const struct pmc_metric_def *defs = pmc_metrics_default(&n);

	(void)state;
	memset(&rep, 0, sizeof(rep));
	add_event(&rep, "instructions", 300);
	add_event(&rep, "cycles", 100);
	add_event(&rep, "task-clock", 50);
	assert_int_equal(pmc_metrics_eval(&rep, defs, n, PMC_METRICS_SKIP_ABSENT), 0);
	assert_int_equal(rep.nmetrics, 2); /* IPC, GHz: everything else names an absent event or constant */
	assert_true(metric(&rep, "IPC")->value == 3);
	assert_true(metric(&rep, "GHz")->value == 2);
	pmc_report_fini(&rep);
}

static void test_metrics_reference_earlier_metrics_and_fallback_constants(void **state)
{
	struct pmc_report rep;
	const struct pmc_metric_def defs[] = {
		{ "FLOPs", "2 * fma", "FLOP", "", "" },
		{ "FLOP_per_s", "FLOPs / SECONDS", "FLOP/s", "", "" },
		{ "hz", "TSC_HZ", "", "", "" },
	};

	(void)state;
	memset(&rep, 0, sizeof(rep));
	add_event(&rep, "fma", 4e9);
	rep.wall_ns_mean = 2e9;
	rep.tsc_hz = 3e9;
	assert_int_equal(pmc_metrics_eval(&rep, defs, 3, 0), 0);
	assert_true(metric(&rep, "FLOP_per_s")->value == 4e9);
	assert_true(metric(&rep, "hz")->value == 3e9);
	pmc_report_fini(&rep);
}

/* A wall time that is noise (--subtract-overhead left less than it took) makes CPUs n/a with that reason: shown, not
 * skipped as absent, and never a number (CI once printed "CPUs 6.000" for one thread). */
static void test_cpus_na_with_reason_when_wall_time_unresolved(void **state)
{
	struct pmc_report rep;
	size_t n;
	const struct pmc_metric_def *defs = pmc_metrics_default(&n);
	const struct pmc_metric_value *m;

	(void)state;
	memset(&rep, 0, sizeof(rep));
	add_event(&rep, "task-clock", 60);
	rep.wall_ns_mean = 10;
	pmc_report_set_const(&rep, "SECONDS", 10e-9);
	snprintf(rep.wall_unresolved, sizeof(rep.wall_unresolved), "the wall time is below the overhead");
	assert_int_equal(pmc_metrics_eval(&rep, defs, n, PMC_METRICS_SKIP_ABSENT), 0);
	m = metric(&rep, "CPUs");
	assert_false(m->valid);
	assert_string_equal(m->reason, "the wall time is below the overhead");
	pmc_report_fini(&rep);
}

static const struct {
	int line;
	const char *arg;
	int rc;
	const char *name, *unit, *formula, *err_has;
} cli_rows[] = {
	{ __LINE__, "IPC=instructions/cycles", 0, "IPC", "", "instructions/cycles", NULL },
	{ __LINE__, "GHz[GHz]=cycles/{task-clock}", 0, "GHz", "GHz", "cycles/{task-clock}", NULL },
	{ __LINE__, "x = 1 == 1", 0, "x", "", " 1 == 1", NULL },
	{ __LINE__, "instructions/cycles", -EINVAL, NULL, NULL, NULL, "expected NAME=FORMULA" },
	{ __LINE__, "=1", -EINVAL, NULL, NULL, NULL, "must start with a letter" },
	{ __LINE__, "2x=1", -EINVAL, NULL, NULL, NULL, "must start with a letter" },
	{ __LINE__, "a[b=1", -EINVAL, NULL, NULL, NULL, "unit goes in brackets" },
	{ __LINE__, "a=1+", -EINVAL, NULL, NULL, NULL, "column 3" },
};

static void test_metric_cli_parse_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cli_rows) / sizeof(cli_rows[0]); i++) {
		struct pmc_metric_def d;
		char err[512] = "";
		int rc = pmc_metric_def_parse_cli(cli_rows[i].arg, &d, err, sizeof(err));

		if (rc != cli_rows[i].rc)
			fail_msg("line %d: rc %d (%s), want %d", cli_rows[i].line, rc, err, cli_rows[i].rc);
		if (rc) {
			if (!strstr(err, cli_rows[i].err_has))
				fail_msg("line %d: '%s' lacks '%s'", cli_rows[i].line, err, cli_rows[i].err_has);
			continue;
		}
		assert_string_equal(d.name, cli_rows[i].name);
		assert_string_equal(d.unit, cli_rows[i].unit);
		assert_string_equal(d.formula, cli_rows[i].formula);
	}
}

/* Seed 000: from TSC, each sibling's ref-cycles and the AnyThread REF_XCLK (scaled), four parts summing to TSC. */
static void test_smt_split_sums_to_tsc_for_each_generation(void **state)
{
	static const struct {
		int line;
		const char *pmu, *anyev;
		double scale; /* TSC ticks per count */
	} rows[] = {
		{ __LINE__, "nhm", "CPU_CLK_UNHALTED:REF_P:t=1@sibling0", 1 },
		{ __LINE__, "hsw", "CPU_CLK_UNHALTED:REF_XCLK:t=1@sibling0", 27 },    /* base 2.7 GHz / 100 MHz */
		{ __LINE__, "skx", "CPU_CLK_UNHALTED:REF_XCLK:t=1@sibling0", 4 * 27 }, /* 4 x base ratio, seed 000 */
	};
	char path[4096], err[512];
	struct pmc_eventset *set;

	(void)state;
	snprintf(path, sizeof(path), "%s/events/smt.set", getenv("PMC_SOURCE_DIR"));
	if (pmc_eventset_load(path, &set, err, sizeof(err)))
		fail_msg("%s", err);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pmc_eventset_variant *v = pmc_eventset_select(set, rows[i].pmu);
		struct pmc_report rep;
		/* 1e9 TSC ticks: neither 1e8, only t0 3e8, only t1 2e8, both 4e8 -> ref0 7e8, ref1 6e8, any 9e8. */
		double tsc = 1e9, ref0 = 7e8, ref1 = 6e8, any = 9e8, sum = 0;

		assert_non_null(v);
		memset(&rep, 0, sizeof(rep));
		add_event(&rep, "msr/tsc/@sibling0", tsc);
		add_event(&rep, "ref-cycles@sibling0", ref0);
		add_event(&rep, "ref-cycles@sibling1", ref1);
		add_event(&rep, rows[i].anyev, any / rows[i].scale);
		add_event(&rep, v->events[4].spelling, ref0 / rows[i].scale);
		pmc_report_set_const(&rep, "BASE_HZ", 2.7e9);
		assert_int_equal(pmc_metrics_eval(&rep, v->metrics, v->nmetrics, 0), 0);
		if (!metric(&rep, "neither")->valid)
			fail_msg("line %d: %s", rows[i].line, metric(&rep, "neither")->reason);
		assert_true(fabs(metric(&rep, "xclk_scale")->value - rows[i].scale) < 1e-9);
		assert_true(fabs(metric(&rep, "xclk_scale_measured")->value - rows[i].scale) < 1e-9);
		assert_true(fabs(metric(&rep, "neither")->value - 1e8) < 1);
		assert_true(fabs(metric(&rep, "only_t0")->value - 3e8) < 1);
		assert_true(fabs(metric(&rep, "only_t1")->value - 2e8) < 1);
		assert_true(fabs(metric(&rep, "both")->value - 4e8) < 1);
		sum = metric(&rep, "neither")->value + metric(&rep, "only_t0")->value +
		      metric(&rep, "only_t1")->value + metric(&rep, "both")->value;
		assert_true(fabs(sum - tsc) < 1);
		assert_true(fabs(metric(&rep, "both_pct")->value - 40) < 1e-9);
		pmc_checks_run_defs(&rep, v->checks, v->nchecks);
		assert_int_equal(rep.nchecks, 0);
		pmc_report_fini(&rep);
	}
	pmc_eventset_free(set);
}

static void test_uops_histogram_from_seed001_counts(void **state)
{
	char path[4096], err[512];
	struct pmc_eventset *set;
	const struct pmc_eventset_variant *v;
	struct pmc_report rep;
	/* Seed 001, Haswell FMA loop (counts from several batches; cycles of the first). */
	const double c = 5305920785.0, lt1 = 1311417889.0, ge[7] = { 0, 4000292290.0, 4000229358.0, 4000156998.0,
								   4000110067.0, 0, 0 };

	(void)state;
	snprintf(path, sizeof(path), "%s/events/uops.set", getenv("PMC_SOURCE_DIR"));
	if (pmc_eventset_load(path, &set, err, sizeof(err)))
		fail_msg("%s", err);
	v = pmc_eventset_select(set, "hsw");
	assert_non_null(v);
	memset(&rep, 0, sizeof(rep));
	for (size_t i = 0; i < v->nevents; i++)
		add_event(&rep, v->events[i].spelling, 0);
	for (size_t i = 0; i < rep.nevents; i++) {
		struct pmc_report_event *e = &rep.events[i];
		int k;
		if (!strcmp(e->ev.name, "cycles"))
			e->mean = c;
		else if (!strcmp(e->ev.name, "UOPS_ISSUED:ANY"))
			e->mean = 16000811079.0;
		else if (!strcmp(e->ev.name, "UOPS_ISSUED:ANY:c=1:i=1"))
			e->mean = lt1;
		else if (sscanf(e->ev.name, "UOPS_ISSUED:ANY:c=%d", &k) == 1)
			e->mean = ge[k];
	}
	assert_int_equal(pmc_metrics_eval(&rep, v->metrics, v->nmetrics, 0), 0);
	assert_true(fabs(metric(&rep, "uops_issued_0")->value - 100 * lt1 / c) < 1e-9);
	assert_true(fabs(metric(&rep, "uops_issued_4")->value - 100 * 4000110067.0 / c) < 1e-9);
	assert_true(fabs(metric(&rep, "uops_issued_1")->value - 100 * (ge[1] - ge[2]) / c) < 1e-9);
	assert_true(metric(&rep, "uops_issued_6plus")->value == 0);
	pmc_checks_run_defs(&rep, v->checks, v->nchecks);
	for (size_t i = 0; i < rep.nchecks; i++) /* issued series consistent; executed/retired (all 0) n/a */
		assert_true(strncmp(rep.checks[i].name, "uops_issued", 11));
	pmc_report_fini(&rep);
	pmc_eventset_free(set);
}

/* Issue 22 item 2: a metric's events share their modifiers. Each row measures some spellings of instructions and
 * cycles (u: exclude_kernel, k: exclude_user, "": all modes; '-' marks an event not counted) and evaluates one
 * formula: the value must come from events of one privilege level, or be n/a saying they differ. */
static void test_metric_events_share_their_modifiers_never_mixing_privilege_levels(void **state)
{
	static const struct {
		int line;
		const char *events[4]; /* "name=value", a leading '-' for an event not counted */
		const char *formula;
		bool valid;
		double want;
		const char *text; /* in the reason (n/a) or the note of the events used (valid) */
	} rows[] = {
		/* The case: user-mode IPC, not all-mode instructions over user cycles (1.056 before). */
		{ __LINE__, { "instructions:u=1000", "cycles:u=1000", "instructions=1056" }, "instructions / cycles", true,
		  1.0, "instructions:u, cycles:u (user mode)" },
		{ __LINE__, { "instructions=1056", "instructions:u=1000", "cycles:u=1000" }, "instructions / cycles", true,
		  1.0, "instructions:u" },
		/* Both pairs measured: the first listed event's mode. */
		{ __LINE__, { "instructions=900", "cycles=600", "instructions:u=1000", "cycles:u=1000" },
		  "instructions / cycles", true, 1.5, "" },
		/* No pair in one mode: n/a naming what each counts, never a mix. */
		{ __LINE__, { "instructions=1056", "cycles:u=1000" }, "instructions / cycles", false, 0,
		  "different privilege levels (instructions (user and kernel mode), cycles:u (user mode))" },
		{ __LINE__, { "instructions:k=50", "cycles:u=1000" }, "instructions / cycles", false, 0, "modifiers" },
		/* Names written with modifiers mean those events exactly. */
		{ __LINE__, { "instructions:u=1000", "cycles:u=500", "instructions=1056" }, "{instructions:u} / {cycles:u}",
		  true, 2.0, "" },
		{ __LINE__, { "instructions:u=1000", "cycles:u=500", "instructions=1056" }, "{instructions:k} / {cycles:u}",
		  false, 0, "neither a measured event" },
		/* The kernel's share: a name with modifiers is that event; the bare name is still the all-mode one. */
		{ __LINE__, { "instructions:k=50", "instructions=1000" }, "100 * {instructions:k} / instructions", true,
		  5.0, "" },
		{ __LINE__, { "instructions:k=50", "instructions:u=950", "instructions=1000" },
		  "100 * {instructions:k} / instructions", true, 5.0, "" },
		/* The all-mode instructions not counted and no all-mode cycles: the user-mode pair. */
		{ __LINE__, { "-instructions=0", "instructions:u=800", "cycles:u=400" }, "instructions / cycles", true, 2.0,
		  "user mode" },
		/* Both all-mode events measured, one not counted: n/a for that reason, not another mode's pair. */
		{ __LINE__, { "instructions=900", "-cycles=0", "instructions:u=800", "cycles:u=400" },
		  "instructions / cycles", false, 0, "cycles was not counted" },
		/* task-clock counts task time whatever its modifiers: it goes with any mode. */
		{ __LINE__, { "cycles:u=2000", "task-clock=1000" }, "cycles / {task-clock}", true, 2.0, "cycles:u" },
		/* One event: nothing to mix. */
		{ __LINE__, { "instructions:u=1000" }, "instructions * 2", true, 2000.0, "instructions:u" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_report rep;
		struct pmc_metric_def d = { .name = "M" };
		const struct pmc_metric_value *m;

		memset(&rep, 0, sizeof(rep));
		rep.nbatches = rep.nruns = 1;
		for (size_t k = 0; k < 4 && rows[i].events[k]; k++) {
			const char *spec = rows[i].events[k], *eq = strchr(spec, '=');
			bool dead = spec[0] == '-';
			char name[64];
			struct pmc_report_event *e;
			size_t n;

			snprintf(name, sizeof(name), "%.*s", (int)(eq - spec - dead), spec + dead);
			e = add_event(&rep, name, atof(eq + 1));
			n = strlen(name);
			e->ev.attr.exclude_kernel = e->ev.attr.exclude_hv = n > 2 && !strcmp(name + n - 2, ":u");
			e->ev.attr.exclude_user = n > 2 && !strcmp(name + n - 2, ":k");
			if (!strcmp(name, "task-clock")) {
				e->ev.attr.type = PERF_TYPE_SOFTWARE;
				e->ev.attr.config = PERF_COUNT_SW_TASK_CLOCK;
			} else {
				e->ev.attr.type = PERF_TYPE_HARDWARE;
				/* canonical as the generic resolver writes it: the bare name */
				snprintf(e->ev.canonical, sizeof(e->ev.canonical), "%.*s", (int)strcspn(name, ":"), name);
			}
			if (dead) {
				e->status = PMC_COUNT_NOT_COUNTED;
				e->samples[0].count.status = PMC_COUNT_NOT_COUNTED;
				snprintf(e->reason, sizeof(e->reason), "counters busy");
			}
		}
		snprintf(d.formula, sizeof(d.formula), "%s", rows[i].formula);
		assert_int_equal(pmc_metrics_eval(&rep, &d, 1, 0), 0);
		m = metric(&rep, "M");
		if (m->valid != rows[i].valid || (m->valid && fabs(m->value - rows[i].want) > 1e-9))
			fail_msg("line %d: valid %d value %g (%s), expected valid %d value %g", rows[i].line, m->valid,
				 m->value, m->reason, rows[i].valid, rows[i].want);
		if (!strstr(m->valid ? m->desc : m->reason, rows[i].text))
			fail_msg("line %d: '%s' lacks '%s'", rows[i].line, m->valid ? m->desc : m->reason, rows[i].text);
		if (m->valid && !rows[i].text[0] && strstr(m->desc, "[over"))
			fail_msg("line %d: a note where the names say it all: %s", rows[i].line, m->desc);
		pmc_report_fini(&rep);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_set_metrics_are_exact),
		cmocka_unit_test(test_metric_na_names_uncounted_event_and_reason),
		cmocka_unit_test(test_default_metrics_skip_absent_events),
		cmocka_unit_test(test_metrics_reference_earlier_metrics_and_fallback_constants),
		cmocka_unit_test(test_cpus_na_with_reason_when_wall_time_unresolved),
		cmocka_unit_test(test_metric_cli_parse_rows),
		cmocka_unit_test(test_smt_split_sums_to_tsc_for_each_generation),
		cmocka_unit_test(test_uops_histogram_from_seed001_counts),
		cmocka_unit_test(test_metric_events_share_their_modifiers_never_mixing_privilege_levels),
	};
	if (!getenv("PMC_SOURCE_DIR")) {
		fprintf(stderr, "PMC_SOURCE_DIR is not set: run through meson test\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
