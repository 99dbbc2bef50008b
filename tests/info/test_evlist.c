/* SPDX-License-Identifier: MIT */
/* pmctool list's library: the PATTERN matcher and event enumeration (libpfm4 forced to hsw, a fixture sysfs). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "info/evlist.h"
#include "info/pattern.h"
#include "util/util.h"

static void test_pattern_substring_and_glob_case_insensitive(void **state)
{
	static const struct {
		int line;
		const char *pattern, *text;
		bool match;
	} rows[] = {
		{ __LINE__, "uops", "UOPS_ISSUED", true },
		{ __LINE__, "issued", "UOPS_ISSUED", true },
		{ __LINE__, "", "anything", true },
		{ __LINE__, "retired", "UOPS_ISSUED", false },
		{ __LINE__, "uops_*", "UOPS_ISSUED", true },
		{ __LINE__, "*issued", "UOPS_ISSUED", true },
		{ __LINE__, "uops", "", false },
		{ __LINE__, "issued*", "UOPS_ISSUED", false }, /* a glob covers the whole text */
		{ __LINE__, "u?ps_issued", "UOPS_ISSUED", true },
		{ __LINE__, "?", "", false },
		{ __LINE__, "*", "", true },
		{ __LINE__, "a*b*c", "aXXbYYc", true },
		{ __LINE__, "a*b*c", "aXXbYY", false },
		{ __LINE__, "*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
		{ __LINE__, "msr/tsc", "msr/tsc/", true },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		if (pmc_pattern_match(rows[i].pattern, rows[i].text) != rows[i].match)
			fail_msg("row at line %d: '%s' vs '%s'", rows[i].line, rows[i].pattern, rows[i].text);
	assert_false(pmc_pattern_match("x", NULL));
}

struct seen {
	unsigned n;
	char names[64][128];
	bool found_default_any;
};

static int collect(const struct pmc_list_event *ev, void *ctx)
{
	struct seen *s = ctx;
	struct pmc_list_attr a;

	if (s->n < 64)
		snprintf(s->names[s->n], sizeof(s->names[0]), "%s", ev->spelling);
	s->n++;
	for (unsigned i = 0; i < ev->nattrs; i++)
		if (!pmc_list_event_attr(ev, i, &a) && a.type == PMC_LIST_UMASK && a.is_dfl && !strcmp(a.name, "ANY"))
			s->found_default_any = true;
	return 0;
}

static bool has(const struct seen *s, const char *name)
{
	for (unsigned i = 0; i < s->n && i < 64; i++)
		if (!strcmp(s->names[i], name))
			return true;
	return false;
}

static void test_list_forced_hsw_pattern_finds_uops_issued_with_default_umask(void **state)
{
	struct pmc_list_query q = { .pattern = "uops_issued" };
	struct seen s = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.names[0], "UOPS_ISSUED");
	assert_true(s.found_default_any);
}

static void test_list_pattern_matches_umask_names(void **state)
{
	struct pmc_list_query q = { .pmu = "hsw", .pattern = "STALL_CYCLES" };
	struct seen s = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), 0);
	assert_true(has(&s, "UOPS_ISSUED"));
}

static void test_list_forced_pmu_by_name_is_bare_others_explain_the_force(void **state)
{
	struct pmc_list_query q = { .pmu = "HSW", .pattern = "UOPS_ISSUED" };
	struct seen s = { 0 };
	char err[512];

	(void)state;
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), 0);
	assert_true(has(&s, "UOPS_ISSUED"));
	q.pmu = "skl";
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "LIBPFM_FORCE_PMU=hsw"));
}

static void test_list_sysfs_fixture_msr_sorted_and_generic_groups(void **state)
{
	struct pmc_list_query q = { .pmu = "msr" };
	struct seen s = { 0 };
	char err[256], root[1024];

	(void)state;
	snprintf(root, sizeof(root), "%s/tests/info/sysfs", getenv("PMC_SOURCE_DIR"));
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.names[0], "msr/aperf/");
	assert_string_equal(s.names[3], "msr/tsc/");
	memset(&s, 0, sizeof(s));
	q.pmu = "cpu";
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3); /* .scale companions are not events */
	memset(&s, 0, sizeof(s));
	q.pmu = "software";
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), 0);
	assert_true(has(&s, "task-clock") && has(&s, "page-faults"));
	unsetenv("PMCTOOL_SYSFS_ROOT");
}

static void test_list_unknown_pmu_is_enoent_with_suggestion(void **state)
{
	struct pmc_list_query q = { .pmu = "hsx" };
	struct seen s = { 0 };
	char err[512];

	(void)state;
	assert_int_equal(pmc_list_events(&q, collect, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "'hsx'"));
	assert_int_equal(s.n, 0);
}

static int stop_after_two(const struct pmc_list_event *ev, void *ctx)
{
	(void)ev;
	return ++*(unsigned *)ctx == 2 ? 42 : 0;
}

static void test_list_callback_return_stops_the_walk(void **state)
{
	struct pmc_list_query q = { 0 };
	unsigned n = 0;
	char err[256];

	(void)state;
	assert_int_equal(pmc_list_events(&q, stop_after_two, &n, err, sizeof(err)), 42);
	assert_int_equal(n, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_substring_and_glob_case_insensitive),
		cmocka_unit_test(test_list_forced_hsw_pattern_finds_uops_issued_with_default_umask),
		cmocka_unit_test(test_list_pattern_matches_umask_names),
		cmocka_unit_test(test_list_forced_pmu_by_name_is_bare_others_explain_the_force),
		cmocka_unit_test(test_list_sysfs_fixture_msr_sorted_and_generic_groups),
		cmocka_unit_test(test_list_unknown_pmu_is_enoent_with_suggestion),
		cmocka_unit_test(test_list_callback_return_stops_the_walk),
	};

	/* Before libpfm4 initializes: deterministic tables on any machine. */
	setenv("LIBPFM_FORCE_PMU", "hsw", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
