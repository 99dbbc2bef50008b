/* SPDX-License-Identifier: MIT */
/* The OpenMetrics / Prometheus exposition (output/openmetrics.c): family names, escaping, an event that did not
 * count absent from the counters and flagged, the formats' differences, the Accept negotiation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/openmetrics.h"

static char *expose(enum pmc_om_format fmt, const struct pmc_om_event *ev, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pmc_om_write(f, fmt, ev, n, "9.9.9"), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
