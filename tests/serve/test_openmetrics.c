/* SPDX-License-Identifier: MIT */
/* The OpenMetrics / Prometheus exposition (output/openmetrics.c): family names, escaping, an event that did not
 * count absent from the counters and flagged, the formats' differences, the Accept negotiation; rows (an event's
 * rows in one family), metric and top-down gauges absent and flagged when they have no value, the info series. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/openmetrics.h"

static char *expose_doc(enum pmc_om_format fmt, const struct pmc_om_doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pmc_om_write_doc(f, fmt, d), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* n events alone (the build info's version 9.9.9). */
static char *expose(enum pmc_om_format fmt, const struct pmc_om_event *ev, size_t n)
{
	const struct pmc_om_doc d = { .ev = ev, .nev = n, .version = "9.9.9" };

	return expose_doc(fmt, &d);
}

static void test_family_names_fold_to_prometheus_names(void **state)
{
	static const struct {
		int line;
		const char *event;
		bool seconds;
		size_t len;
		const char *want;
	} rows[] = {
		{ __LINE__, "task-clock", true, 160, "pmctool_task_clock_seconds" },
		{ __LINE__, "page-faults", false, 160, "pmctool_page_faults" },
		{ __LINE__, "cycles:u", false, 160, "pmctool_cycles_u" },
		{ __LINE__, "msr/tsc/", false, 160, "pmctool_msr_tsc" },
		{ __LINE__, "L1-DCACHE-Loads", false, 160, "pmctool_l1_dcache_loads" },
		{ __LINE__, "sched:sched_switch", false, 160, "pmctool_sched_sched_switch" },
		{ __LINE__, "task-clock", true, 20, "pmctool_tas_seconds" }, /* cut, the unit kept */
	};
	char buf[160];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		pmc_om_family(rows[i].event, rows[i].seconds, buf, rows[i].len);
		if (strcmp(buf, rows[i].want))
			fail_msg("line %d: '%s' folded to '%s', expected '%s'", rows[i].line, rows[i].event, buf, rows[i].want);
	}
}

static void test_uncounted_event_is_absent_from_counters_and_flagged_with_reason(void **state)
{
	const struct pmc_om_event ev[] = {
		{ .name = "task-clock", .seconds = true, .counted = true, .value = 1500000000.0, .running_ratio = 1 },
		{ .name = "cycles", .counted = false, .reason = "no hardware PMU" },
		{ .name = "page-faults", .counted = true, .value = 42, .running_ratio = 0.5 },
	};
	char *om = expose(PMC_OM_OPENMETRICS, ev, 3);

	(void)state;
	assert_non_null(strstr(om, "# TYPE pmctool_task_clock_seconds counter\n# UNIT pmctool_task_clock_seconds seconds\n"));
	assert_non_null(strstr(om, "\npmctool_task_clock_seconds_total{event=\"task-clock\"} 1.500000000\n"));
	assert_non_null(strstr(om, "\npmctool_page_faults_total{event=\"page-faults\"} 42\n"));
	assert_non_null(strstr(om, "\npmctool_event_running_ratio{event=\"page-faults\"} 0.5\n"));
	assert_null(strstr(om, "pmctool_cycles"));
	assert_null(strstr(om, "running_ratio{event=\"cycles\"}"));
	assert_non_null(strstr(om, "\npmctool_event_up{event=\"cycles\",reason=\"no hardware PMU\"} 0\n"));
	assert_non_null(strstr(om, "\npmctool_event_up{event=\"task-clock\"} 1\n"));
	assert_non_null(strstr(om, "# TYPE pmctool_build info\n"));
	assert_non_null(strstr(om, "\npmctool_build_info{version=\"9.9.9\"} 1\n# EOF\n"));
	assert_int_equal(strlen(strstr(om, "# EOF\n")), 6); /* the last line */
	free(om);
}

static void test_prometheus_format_names_families_with_suffix_and_has_no_eof(void **state)
{
	const struct pmc_om_event ev[] = {
		{ .name = "task-clock", .seconds = true, .counted = true, .value = 1e9, .running_ratio = 1 },
	};
	char *p = expose(PMC_OM_PROMETHEUS, ev, 1);

	(void)state;
	assert_non_null(strstr(p, "# TYPE pmctool_task_clock_seconds_total counter\n"));
	assert_non_null(strstr(p, "# TYPE pmctool_build_info gauge\n"));
	assert_null(strstr(p, "# UNIT"));
	assert_null(strstr(p, "# EOF"));
	free(p);
}

static void test_label_values_are_escaped(void **state)
{
	const struct pmc_om_event ev[] = {
		{ .name = "a\"b\\c", .counted = false, .reason = "line\nbreak \"quoted\"" },
	};
	char *om = expose(PMC_OM_OPENMETRICS, ev, 1);

	(void)state;
	assert_non_null(strstr(om, "pmctool_event_up{event=\"a\\\"b\\\\c\",reason=\"line\\nbreak \\\"quoted\\\"\"} 0\n"));
	free(om);
}

static void test_nothing_counted_gives_no_counter_families(void **state)
{
	const struct pmc_om_event ev[] = { { .name = "cycles", .counted = false, .reason = "not counted yet" } };
	char *om = expose(PMC_OM_OPENMETRICS, ev, 1);

	(void)state;
	assert_null(strstr(om, "_total"));
	assert_null(strstr(om, " counter\n"));
	assert_null(strstr(om, "running_ratio"));
	free(om);
}

static void test_two_spellings_of_one_name_get_two_families(void **state)
{
	const struct pmc_om_event ev[] = {
		{ .name = "a-b", .counted = true, .value = 1, .running_ratio = 1 },
		{ .name = "a_b", .counted = true, .value = 2, .running_ratio = 1 },
	};
	char *om = expose(PMC_OM_OPENMETRICS, ev, 2);

	(void)state;
	assert_non_null(strstr(om, "\npmctool_a_b_total{event=\"a-b\"} 1\n"));
	assert_non_null(strstr(om, "\npmctool_a_b_1_total{event=\"a_b\"} 2\n"));
	free(om);
}

static void test_accept_header_chooses_the_format(void **state)
{
	(void)state;
	assert_int_equal(pmc_om_negotiate(NULL), PMC_OM_PROMETHEUS);
	assert_int_equal(pmc_om_negotiate("*/*"), PMC_OM_PROMETHEUS);
	assert_int_equal(pmc_om_negotiate("text/plain;version=0.0.4"), PMC_OM_PROMETHEUS);
	assert_int_equal(pmc_om_negotiate("application/openmetrics-text;version=1.0.0,text/plain;q=0.5"),
			 PMC_OM_OPENMETRICS);
	assert_string_equal(pmc_om_content_type(PMC_OM_OPENMETRICS),
			    "application/openmetrics-text; version=1.0.0; charset=utf-8");
}

/* The lines of s that start with prefix, in order, each ending in '\n', into out (a buffer of len). */
static void lines_with(const char *s, const char *prefix, char *out, size_t len)
{
	size_t off = 0;

	out[0] = '\0';
	for (const char *l = s; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		size_t n = strcspn(l, "\n");
		if (!strncmp(l, prefix, strlen(prefix)) && off + n + 2 < len) {
			memcpy(out + off, l, n);
			off += n;
			out[off++] = '\n';
			out[off] = '\0';
		}
	}
}

static void test_rows_of_one_event_are_labelled_and_together_in_its_family(void **state)
{
	/* the report's order: row 0's events, then row 1's */
	const struct pmc_om_event ev[] = {
		{ .name = "task-clock", .row = { "cpu", "0" }, .seconds = true, .counted = true, .value = 1e9, .running_ratio = 1 },
		{ .name = "page-faults", .row = { "cpu", "0" }, .counted = true, .value = 10, .running_ratio = 1 },
		{ .name = "task-clock", .row = { "cpu", "1" }, .seconds = true, .counted = true, .value = 2e9, .running_ratio = 1 },
		{ .name = "page-faults", .row = { "cpu", "1" }, .counted = false, .reason = "not counted" },
	};
	const struct pmc_om_doc d = { .ev = ev, .nev = 4, .version = "9" };
	char *om = expose_doc(PMC_OM_OPENMETRICS, &d);
	const char *tc = strstr(om, "# TYPE pmctool_task_clock_seconds counter\n");

	(void)state;
	assert_non_null(tc);
	/* task-clock's two rows follow its metadata, before the next family */
	assert_non_null(strstr(tc, "# HELP pmctool_task_clock_seconds task-clock counted by pmctool (perf_event_open) since "
				   "it started, per cpu, in seconds\n"
				   "pmctool_task_clock_seconds_total{event=\"task-clock\",cpu=\"0\"} 1.000000000\n"
				   "pmctool_task_clock_seconds_total{event=\"task-clock\",cpu=\"1\"} 2.000000000\n# TYPE"));
	assert_non_null(strstr(om, "\npmctool_page_faults_total{event=\"page-faults\",cpu=\"0\"} 10\n# TYPE"));
	assert_null(strstr(om, "pmctool_page_faults_total{event=\"page-faults\",cpu=\"1\"}"));
	assert_non_null(strstr(om, "\npmctool_event_up{event=\"page-faults\",cpu=\"1\",reason=\"not counted\"} 0\n"));
	assert_non_null(strstr(om, "\npmctool_event_running_ratio{event=\"task-clock\",cpu=\"1\"} 1\n"));
	free(om);
}

static void test_gauges_without_a_value_are_absent_and_flagged_never_zero(void **state)
{
	static const struct {
		int line;
		bool metric;            /* else a top-down node */
		struct pmc_om_gauge g;
		const char *present;    /* a line that must be there */
		const char *absent;     /* a text that must not be */
	} rows[] = {
		{ __LINE__, true, { .name = "CPUs", .valid = true, .value = 1.5 },
		  "\npmctool_metric{metric=\"CPUs\"} 1.5\n", "pmctool_metric_up{metric=\"CPUs\",reason" },
		{ __LINE__, true, { .name = "GHz", .unit = "GHz", .valid = false, .reason = "event cycles is not supported" },
		  "\npmctool_metric_up{metric=\"GHz\",unit=\"GHz\",reason=\"event cycles is not supported\"} 0\n",
		  "pmctool_metric{metric=\"GHz\"" },
		{ __LINE__, true, { .name = "IPC", .row = { "socket", "0" }, .valid = true, .value = 2 },
		  "\npmctool_metric_up{metric=\"IPC\",socket=\"0\"} 1\n", "pmctool_metric{metric=\"IPC\"}" },
		{ __LINE__, false, { .name = "retiring", .level = 1, .valid = true, .value = 0.25 },
		  "\npmctool_topdown_fraction{node=\"retiring\",level=\"1\"} 0.25\n", "node=\"retiring\",level=\"1\",reason" },
		{ __LINE__, false, { .name = "fetch_latency", .level = 2, .valid = false, .reason = "input not counted" },
		  "\npmctool_topdown_fraction_up{node=\"fetch_latency\",level=\"2\",reason=\"input not counted\"} 0\n",
		  "pmctool_topdown_fraction{node=\"fetch_latency\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_om_doc d = { .version = "9" };
		char *om;

		if (rows[i].metric) {
			d.metrics = &rows[i].g;
			d.nmetrics = 1;
		} else {
			d.nodes = &rows[i].g;
			d.nnodes = 1;
		}
		om = expose_doc(PMC_OM_OPENMETRICS, &d);
		if (!strstr(om, rows[i].present) || strstr(om, rows[i].absent))
			fail_msg("line %d: expected '%s' and no '%s' in:\n%s", rows[i].line, rows[i].present, rows[i].absent, om);
		free(om);
	}
}

static void test_nothing_valued_gives_no_gauge_family_only_its_up(void **state)
{
	const struct pmc_om_gauge g[] = { { .name = "GHz", .valid = false, .reason = "no cycles" } };
	const struct pmc_om_doc d = { .metrics = g, .nmetrics = 1, .version = "9" };
	char *om = expose_doc(PMC_OM_OPENMETRICS, &d), lines[512];

	(void)state;
	lines_with(om, "# TYPE", lines, sizeof(lines));
	assert_string_equal(lines, "# TYPE pmctool_event_up gauge\n# TYPE pmctool_metric_up gauge\n"
				   "# TYPE pmctool_build info\n");
	free(om);
}

static void test_environment_is_one_info_series_without_empty_labels(void **state)
{
	const struct pmc_om_label env[] = { { "cpu", "Some \"CPU\"" }, { "microcode", "" }, { "kernel", "6.1.0" } };
	const struct pmc_om_doc d = { .version = "9", .env = env, .nenv = 3 };
	char *om = expose_doc(PMC_OM_OPENMETRICS, &d), *p = expose_doc(PMC_OM_PROMETHEUS, &d);

	(void)state;
	assert_non_null(strstr(om, "# TYPE pmctool_environment info\n"));
	assert_non_null(strstr(om, "\npmctool_environment_info{cpu=\"Some \\\"CPU\\\"\",kernel=\"6.1.0\"} 1\n# EOF\n"));
	assert_non_null(strstr(p, "# TYPE pmctool_environment_info gauge\n"));
	assert_non_null(strstr(p, "\npmctool_environment_info{cpu=\"Some \\\"CPU\\\"\",kernel=\"6.1.0\"} 1\n"));
	free(om);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family_names_fold_to_prometheus_names),
		cmocka_unit_test(test_uncounted_event_is_absent_from_counters_and_flagged_with_reason),
		cmocka_unit_test(test_prometheus_format_names_families_with_suffix_and_has_no_eof),
		cmocka_unit_test(test_label_values_are_escaped),
		cmocka_unit_test(test_nothing_counted_gives_no_counter_families),
		cmocka_unit_test(test_two_spellings_of_one_name_get_two_families),
		cmocka_unit_test(test_accept_header_chooses_the_format),
		cmocka_unit_test(test_rows_of_one_event_are_labelled_and_together_in_its_family),
		cmocka_unit_test(test_gauges_without_a_value_are_absent_and_flagged_never_zero),
		cmocka_unit_test(test_nothing_valued_gives_no_gauge_family_only_its_up),
		cmocka_unit_test(test_environment_is_one_info_series_without_empty_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
