/* SPDX-License-Identifier: MIT */
/* Issue 39 item 1, the decisions on the breakpoint probe (perf/probe.h): its verdict from what it read, which events
 * the engine marks <not counted> (engine/breakpoints.c), what the report says for them, and pmctool check's item. The
 * probe results below are INJECTED (struct values), so both outcomes, breakpoints that fire and breakpoints that never
 * fire, are shown on every host; the last test runs the real probe here and only asserts what holds on any host. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "info/check.h"
#include "perf/probe.h"
#include "report/report.h"

static void test_judge_reads_0_as_never_fires_and_all_calls_as_fire(void **state)
{
	static const struct {
		int line, open_result;
		unsigned long long count, calls;
		enum pmc_bp_fires want;
	} rows[] = {
		{ __LINE__, 3, 2, 2, PMC_BP_FIRE },
		{ __LINE__, 3, 0, 2, PMC_BP_NEVER },
		{ __LINE__, 3, 1, 2, PMC_BP_INEXACT },
		{ __LINE__, 3, 5, 2, PMC_BP_INEXACT },
		{ __LINE__, -EACCES, 0, 2, PMC_BP_UNKNOWN },
		{ __LINE__, -ENOSPC, 0, 2, PMC_BP_UNKNOWN },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (pmc_bp_probe_judge(rows[i].open_result, rows[i].count, rows[i].calls) != rows[i].want)
			fail_msg("row of line %d: verdict %d, want %d", rows[i].line,
				 pmc_bp_probe_judge(rows[i].open_result, rows[i].count, rows[i].calls), rows[i].want);
}

static struct pmc_event event(const char *name, enum pmc_counter_class cls)
{
	struct pmc_event ev;

	memset(&ev, 0, sizeof(ev));
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ev.cls = cls;
	return ev;
}

/* Injected probe results: never fires marks every breakpoint and nothing else; fire, inexact and unknown mark none
 * (and clear an old mark). */
static void test_mark_injected_probe_results_flag_only_breakpoints_only_when_they_never_fire(void **state)
{
	static const struct {
		int line;
		enum pmc_bp_fires fires;
		size_t want;
	} rows[] = {
		{ __LINE__, PMC_BP_NEVER, 2 },
		{ __LINE__, PMC_BP_FIRE, 0 },
		{ __LINE__, PMC_BP_INEXACT, 0 },
		{ __LINE__, PMC_BP_UNKNOWN, 0 },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmc_event evs[4] = { event("mem:0x1000:x", PMC_CLASS_BREAKPOINT), event("task-clock", PMC_CLASS_FREE),
					    event("mem:0x2000:w", PMC_CLASS_BREAKPOINT), event("cycles", PMC_CLASS_FIXED) };
		struct pmc_bp_probe injected = { .fires = rows[r].fires, .calls = PMC_BP_PROBE_CALLS };

		evs[2].flags |= PMC_EVF_BP_NEVER_FIRES; /* left from an earlier probe result */
		if (pmc_eng_breakpoints_mark(evs, 4, &injected) != rows[r].want)
			fail_msg("row of line %d: wrong number marked", rows[r].line);
		for (size_t i = 0; i < 4; i++) {
			bool want = rows[r].want && evs[i].cls == PMC_CLASS_BREAKPOINT;
			if (!!(evs[i].flags & PMC_EVF_BP_NEVER_FIRES) != want)
				fail_msg("row of line %d: %s marked %d", rows[r].line, evs[i].name, !want);
		}
	}
}

/* A marked breakpoint that was never opened (what perf/evlist.c leaves: not counted) is summarized with the reason,
 * never as 0; an unmarked one at 0 is a count. */
static void test_report_gives_the_never_fire_reason_to_a_marked_breakpoint(void **state)
{
	struct pmc_report rep;
	struct pmc_report_event evs[2];
	struct pmc_sample s[2] = { { .count = { .status = PMC_COUNT_NOT_COUNTED } },
				   { .count = { .status = PMC_COUNT_OK, .value = 0, .enabled = 5, .running = 5 } } };

	(void)state;
	memset(&rep, 0, sizeof(rep));
	memset(evs, 0, sizeof(evs));
	evs[0].ev = event("mem:0x1000:x", PMC_CLASS_BREAKPOINT);
	evs[0].ev.flags |= PMC_EVF_BP_NEVER_FIRES;
	evs[0].samples = &s[0];
	evs[0].nsamples = 1;
	evs[1].ev = event("mem:0x2000:x", PMC_CLASS_BREAKPOINT);
	evs[1].samples = &s[1];
	evs[1].nsamples = 1;
	rep.events = evs;
	rep.nevents = 2;
	rep.nruns = 1;
	pmc_report_summarize(&rep);
	assert_int_equal(evs[0].status, PMC_COUNT_NOT_COUNTED);
	assert_string_equal(evs[0].reason, PMC_BP_NEVER_REASON);
	assert_int_equal(evs[1].status, PMC_COUNT_OK);
	assert_true(evs[1].mean == 0);
}

static const struct pmc_check_item *find_item(const struct pmc_check_result *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->item[i].name, name))
			return &r->item[i];
	return NULL;
}

/* pmctool check's breakpoints item from injected probe results, on a machine without a PMU (nothing is measured):
 * degraded with the reason where they never fire, trustworthy where they fire, absent when not probed. */
static void test_check_item_from_injected_probe_results(void **state)
{
	static const struct {
		int line;
		bool probed;
		enum pmc_bp_fires fires;
		unsigned long long count;
		enum pmc_check_verdict want;
		const char *words;
	} rows[] = {
		{ __LINE__, true, PMC_BP_NEVER, 0, PMC_CHECK_DEGRADED, "accept breakpoints but never trigger them" },
		{ __LINE__, true, PMC_BP_FIRE, 2, PMC_CHECK_TRUSTWORTHY, "counted 2 of 2 calls" },
		{ __LINE__, true, PMC_BP_INEXACT, 1, PMC_CHECK_DEGRADED, "not exactly: an execute breakpoint on a function of pmctool's own counted 1 of 2 calls" },
		{ __LINE__, true, PMC_BP_UNKNOWN, 0, PMC_CHECK_UNAVAILABLE, "does not open" },
		{ __LINE__, false, PMC_BP_UNKNOWN, 0, PMC_CHECK_TRUSTWORTHY, NULL },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		static struct pmc_check_result res;
		struct pmc_check_env env;
		const struct pmc_check_item *it;

		memset(&env, 0, sizeof(env));
		env.pmu.verdict = PMC_VERDICT_UNAVAILABLE;
		env.bp_probed = rows[r].probed;
		env.bp = (struct pmc_bp_probe){ .fires = rows[r].fires, .count = rows[r].count,
						.calls = 2, .err = rows[r].fires == PMC_BP_UNKNOWN ? EACCES : 0 };
		pmc_check_run(&env, NULL, &res);
		it = find_item(&res, "breakpoints");
		if (!rows[r].words) {
			if (it)
				fail_msg("row of line %d: an item without a probe", rows[r].line);
			continue;
		}
		if (!it || it->verdict != rows[r].want || !strstr(it->detail, rows[r].words))
			fail_msg("row of line %d: %s: %s", rows[r].line, it ? pmc_check_verdict_name(it->verdict) : "missing",
				 it ? it->detail : "");
		for (size_t i = 0; i < res.n; i++)
			if (rows[r].fires != PMC_BP_FIRE && strstr(res.item[i].detail, "breakpoints still count"))
				fail_msg("row of line %d: item %s claims breakpoints count", rows[r].line, res.item[i].name);
	}
}

/* The real probe, once per process: the second call returns the first result, and the result is consistent. */
static void test_real_probe_runs_once_and_is_consistent(void **state)
{
	const struct pmc_bp_probe *a, *b;
	char line[300];

	(void)state;
	assert_null(pmc_perf_probe_breakpoints_done());
	a = pmc_perf_probe_breakpoints();
	b = pmc_perf_probe_breakpoints();
	assert_ptr_equal(a, b);
	assert_ptr_equal(pmc_perf_probe_breakpoints_done(), a);
	assert_int_equal(a->calls, PMC_BP_PROBE_CALLS);
	assert_int_equal(a->fires, pmc_bp_probe_judge(a->err ? -a->err : 3, a->count, a->calls));
	pmc_bp_probe_describe(a, line, sizeof(line));
	print_message("this host: %s\n", line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_reads_0_as_never_fires_and_all_calls_as_fire),
		cmocka_unit_test(test_mark_injected_probe_results_flag_only_breakpoints_only_when_they_never_fire),
		cmocka_unit_test(test_report_gives_the_never_fire_reason_to_a_marked_breakpoint),
		cmocka_unit_test(test_check_item_from_injected_probe_results),
		cmocka_unit_test(test_real_probe_runs_once_and_is_consistent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
