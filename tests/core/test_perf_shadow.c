/* SPDX-License-Identifier: MIT */
/* -x SEP's fields 6 and 7 hold perf's metric beside each event (output/perf_shadow.c): for a report with perf's
 * generic events, each row gets perf 6.1's words and value, worked out from the counts as perf does; a metric placed
 * beside its event is not printed again on a line of its own. */
#include <linux/perf_event.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/perf_shadow.h"

#define CACHE(id, op, res) ((id) | ((op) << 8) | ((res) << 16))

static const struct {
	const char *name;
	unsigned type;
	unsigned long long config;
	bool user_only;
	double mean;
	const char *value, *unit; /* what perf prints beside it; unit NULL: nothing */
} rows[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false, 2e6, "0.500", "CPUs utilized" },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false, 150, "75.000", "K/sec" },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false, 1, "500.000", "/sec" },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, 6e6, "3.000", "GHz" },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false, 9e6, "1.50", "insn per cycle" },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false, 4e6, "2.000", "G/sec" },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, false, 1e5, "2.50", "of all branches" },
	{ "L1-dcache-loads", PERF_TYPE_HW_CACHE, CACHE(0, 0, 0), false, 3e6, "1.500", "G/sec" },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, CACHE(0, 0, 1), false, 3e4, "1.00", "of all L1-dcache accesses" },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE, CACHE(3, 0, 1), false, 10, "", "of all dTLB cache accesses" },
	/* instructions:u pairs with cycles:u only: no cycles:u here, so perf names the metric without a value */
	{ "instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true, 8e6, "", "insn per cycle" },
	{ "mem:0x401000:x", PERF_TYPE_BREAKPOINT, 0, false, 2500, "1.250", "M/sec" },
};

static void build(struct pmc_report *rep, struct pmc_report_event *evs)
{
	memset(rep, 0, sizeof(*rep));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&evs[i], 0, sizeof(evs[i]));
		snprintf(evs[i].ev.name, sizeof(evs[i].ev.name), "%s", rows[i].name);
		evs[i].ev.attr.type = rows[i].type;
		evs[i].ev.attr.config = rows[i].config;
		evs[i].ev.attr.exclude_kernel = rows[i].user_only;
		evs[i].status = PMC_COUNT_OK;
		evs[i].mean = rows[i].mean;
	}
	rep->events = evs;
	rep->nevents = sizeof(rows) / sizeof(rows[0]);
	rep->nruns = 1;
	rep->wall_ns_mean = 4e6; /* task-clock 2 ms over 4 ms: 0.5 CPUs */
}

static void test_each_generic_event_gets_perfs_metric_words_and_value(void **st)
{
	struct pmc_report_event evs[sizeof(rows) / sizeof(rows[0])];
	struct pmc_report rep;

	(void)st;
	build(&rep, evs);
	for (size_t i = 0; i < rep.nevents; i++) {
		struct pmc_perf_shadow s;
		bool have = pmc_perf_shadow(&rep, &evs[i], &s);

		if (have != (rows[i].unit != NULL) || (have && (strcmp(s.unit, rows[i].unit) || strcmp(s.value, rows[i].value))))
			fail_msg("%s: got %s '%s' '%s', want '%s' '%s'", rows[i].name, have ? "metric" : "none", s.value, s.unit,
				 rows[i].value, rows[i].unit ? rows[i].unit : "(none)");
	}
}

static void test_uncounted_events_and_a_missing_clock_leave_the_fields_empty(void **st)
{
	struct pmc_report_event evs[sizeof(rows) / sizeof(rows[0])];
	struct pmc_report rep;
	struct pmc_perf_shadow s;

	(void)st;
	build(&rep, evs);
	evs[1].status = PMC_COUNT_NOT_SUPPORTED;
	assert_false(pmc_perf_shadow(&rep, &evs[1], &s)); /* <not supported>: ",," as perf */
	evs[0].status = PMC_COUNT_NOT_COUNTED;          /* no clock: no rates, no GHz value */
	assert_false(pmc_perf_shadow(&rep, &evs[2], &s));
	assert_true(pmc_perf_shadow(&rep, &evs[3], &s));
	assert_string_equal(s.value, "");
	assert_string_equal(s.unit, "GHz");
}

static void test_a_metric_beside_its_event_is_not_repeated_on_its_own_line(void **st)
{
	struct pmc_report_event evs[sizeof(rows) / sizeof(rows[0])];
	struct pmc_report rep;
	struct pmc_metric_value ipc = { .name = "IPC", .valid = true, .value = 1.5 };
	struct pmc_metric_value util = { .name = "utilization", .valid = true, .value = 0.9 };

	(void)st;
	build(&rep, evs);
	assert_true(pmc_perf_shadow_placed(&rep, &ipc));
	assert_false(pmc_perf_shadow_placed(&rep, &util));
	evs[3].status = PMC_COUNT_NOT_SUPPORTED; /* without cycles IPC is nowhere beside instructions */
	assert_false(pmc_perf_shadow_placed(&rep, &ipc));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_generic_event_gets_perfs_metric_words_and_value),
		cmocka_unit_test(test_uncounted_events_and_a_missing_clock_leave_the_fields_empty),
		cmocka_unit_test(test_a_metric_beside_its_event_is_not_repeated_on_its_own_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
