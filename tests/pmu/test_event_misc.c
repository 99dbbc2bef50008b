/* SPDX-License-Identifier: MIT */
/* Errors, suggestions, -e list splitting, breakpoints and the sysfs format parser (hsw forced, fixture sysfs). */
#include <time.h>
#include <linux/hw_breakpoint.h>

#include "sys/pmu_format.h"
#include "pmu_test.h"

static void test_resolve_errors_name_input_and_classify(void **state)
{
	static const struct {
		int line;
		const char *spec;
		enum pmc_resolve_code code;
		const char *suggestion;
	} rows[] = {
		{ __LINE__, "uops_isued.any", PMC_RESOLVE_UNKNOWN, "uops_issued.any" },
		{ __LINE__, "cycels", PMC_RESOLVE_UNKNOWN, "cycles" },
		{ __LINE__, "UOPS_ISSUED:AMY", PMC_RESOLVE_UNKNOWN, "UOPS_ISSUED:ANY" },
		{ __LINE__, "msr/tcs/", PMC_RESOLVE_UNKNOWN, "msr/tsc/" },
		{ __LINE__, "msrr/tsc/", PMC_RESOLVE_UNKNOWN, "msr/" },
		{ __LINE__, "cpu/event=0x0e", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "cpu/event=zz/", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "cpu/event=0x1ff/", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "cpu/event=1/x", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "cpu//", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "cpu/offcore_response/", PMC_RESOLVE_UNSUPPORTED, NULL },
		{ __LINE__, "r12345678901234567", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "cycles:z", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "mem:zz", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "mem:0x1000:q", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "mem:0x1000/3", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "mem:0x1000:xw", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "uops_issued.any>=x", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "uops_issued.any>=256", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "uops_issued.any:q", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "UOPS_ISSUED:ANY:c=300", PMC_RESOLVE_SYNTAX, NULL },
		{ __LINE__, "a b", PMC_RESOLVE_SYNTAX, NULL },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		check_unknown(rows[i].line, rows[i].spec, rows[i].code, rows[i].suggestion);
}

static void test_resolve_rejects_empty_and_too_long_without_writing_ret(void **state)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;
	char big[PMC_NAME_MAX + 10];

	(void)state;
	memset(&ev, 0x5a, sizeof(ev));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_true(pmc_event_resolve(big, &ev, &err) < 0);
	assert_int_equal(err.code, PMC_RESOLVE_TOOLONG);
	assert_true(pmc_event_resolve("", &ev, &err) < 0);
	assert_int_equal(err.code, PMC_RESOLVE_SYNTAX);
	assert_true(pmc_event_resolve(" \t ", &ev, NULL) < 0);
	assert_int_equal(ev.attr.type, 0x5a5a5a5a);
}

static void test_resolve_trims_name_and_is_case_insensitive(void **state)
{
	struct pmc_event ev;

	(void)state;
	assert_int_equal(pmc_event_resolve("  Task-Clock\t", &ev, NULL), 0);
	assert_string_equal(ev.name, "Task-Clock");
	assert_string_equal(ev.canonical, "task-clock");
	assert_true(ev.flags & PMC_EVF_TIME_NS);
}

/* A typo's suggestion, found without a pathological search: the bound is this thread's CPU time, which other
 * processes on a loaded machine do not add to (wall time would), and 25x what it takes here under ASan. */
static void test_suggestion_for_a_typo_costs_little_cpu(void **state)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;
	struct timespec t0, t1;

	(void)state;
	pmc_event_resolve("warm_up_the_list", &ev, &err);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	assert_true(pmc_event_resolve("br_inst_exex.all_branches", &ev, &err) < 0);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	assert_true((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec) < 250000000LL);
	assert_true(err.nsuggest >= 1);
	assert_string_equal(err.suggest[0], "br_inst_exec.all_branches");
}

static void test_breakpoint_fields(void **state)
{
	static const struct {
		int line;
		const char *spec;
		uint64_t addr;
		unsigned type;
		uint64_t len;
	} rows[] = {
		{ __LINE__, "mem:0x401000:x", 0x401000, HW_BREAKPOINT_X, sizeof(long) },
		{ __LINE__, "mem:0x401000", 0x401000, HW_BREAKPOINT_R | HW_BREAKPOINT_W, 4 },
		{ __LINE__, "mem:4096:w/2", 4096, HW_BREAKPOINT_W, 2 },
		{ __LINE__, "mem:0x10/8:r", 0x10, HW_BREAKPOINT_R, 8 },
		{ __LINE__, "MEM:0x10:rw/1", 0x10, HW_BREAKPOINT_R | HW_BREAKPOINT_W, 1 },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_event ev;
		struct pmc_resolve_error err;

		if (pmc_event_resolve(rows[i].spec, &ev, &err))
			fail_msg("line %d: %s", rows[i].line, err.msg);
		assert_int_equal(ev.attr.type, PERF_TYPE_BREAKPOINT);
		assert_int_equal(ev.cls, PMC_CLASS_BREAKPOINT);
		assert_int_equal(ev.attr.bp_addr, rows[i].addr);
		assert_int_equal(ev.attr.bp_type, rows[i].type);
		assert_int_equal(ev.attr.bp_len, rows[i].len);
	}
}

struct split_out {
	char items[8][128];
	int n;
	int stop_at;
};

static int split_cb(const char *spec, void *ctx)
{
	struct split_out *o = ctx;

	if (o->n == o->stop_at)
		return 42;
	snprintf(o->items[o->n++ % 8], sizeof(o->items[0]), "%s", spec);
	return 0;
}

static void test_event_list_split_keeps_commas_inside_pmu_terms(void **state)
{
	static const struct {
		int line;
		const char *list;
		int rc;
		int n;
		const char *first, *last;
	} rows[] = {
		{ __LINE__, "cycles,instructions", 0, 2, "cycles", "instructions" },
		{ __LINE__, " cycles , cpu/event=0x0e,umask=0x01/u ,msr/tsc/", 0, 3, "cycles", "msr/tsc/" },
		{ __LINE__, "cpu/event=1,umask=2/,mem:0x1000/8:x,task-clock", 0, 3, "cpu/event=1,umask=2/",
		  "task-clock" },
		{ __LINE__, "cycles", 0, 1, "cycles", "cycles" },
		{ __LINE__, "a,,b", -EINVAL, -1, NULL, NULL },
		{ __LINE__, "a,", -EINVAL, -1, NULL, NULL },
		{ __LINE__, "", -EINVAL, -1, NULL, NULL },
		{ __LINE__, "cpu/event=1,umask=2", -EINVAL, -1, NULL, NULL },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct split_out o = { .stop_at = -1 };
		int rc = pmc_event_list_split(rows[i].list, split_cb, &o);

		if (rc != rows[i].rc)
			fail_msg("line %d: rc %d", rows[i].line, rc);
		if (rows[i].n < 0)
			continue;
		assert_int_equal(o.n, rows[i].n);
		assert_string_equal(o.items[0], rows[i].first);
		assert_string_equal(o.items[o.n - 1], rows[i].last);
	}
}

static void test_event_list_split_stops_at_callback_error_and_limits_length(void **state)
{
	struct split_out o = { .stop_at = 1 };
	char *big = malloc(PMC_MAX_SPEC_LEN + 2);

	(void)state;
	assert_int_equal(pmc_event_list_split("a,b,c", split_cb, &o), 42);
	assert_int_equal(o.n, 1);
	memset(big, 'a', PMC_MAX_SPEC_LEN + 1);
	big[PMC_MAX_SPEC_LEN + 1] = '\0';
	assert_int_equal(pmc_event_list_split(big, split_cb, &o), -E2BIG);
	free(big);
}

static void test_sysfs_format_parse_table(void **state)
{
	static const struct {
		int line;
		const char *text;
		int rc;
		int field;
		unsigned nranges;
		uint64_t value, expect; /* value deposited into a zero config */
	} rows[] = {
		{ __LINE__, "config:0-7", 0, 0, 1, 0x3c, 0x3c },
		{ __LINE__, "config:24-31\n", 0, 0, 1, 2, 0x2000000 },
		{ __LINE__, "config1:0-63", 0, 1, 1, ~0ull, ~0ull },
		{ __LINE__, "config:0-7,32-35", 0, 0, 2, 0x1c0, 0x1000000c0 },
		{ __LINE__, "config:21", 0, 0, 1, 1, 1ull << 21 },
		{ __LINE__, "config2:3", 0, 2, 1, 1, 8 },
		{ __LINE__, "config:", -EINVAL, 0, 0, 0, 0 },
		{ __LINE__, "config:8-7", -EINVAL, 0, 0, 0, 0 },
		{ __LINE__, "config:64", -EINVAL, 0, 0, 0, 0 },
		{ __LINE__, "conf:1", -EINVAL, 0, 0, 0, 0 },
		{ __LINE__, "config:0-7,", -EINVAL, 0, 0, 0, 0 },
		{ __LINE__, "config:0-63,0-1", -EINVAL, 0, 0, 0, 0 },
		{ __LINE__, "config:1x", -EINVAL, 0, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_sysfs_format f;
		uint64_t cfg[3] = { 0, 0, 0 };
		int rc = pmc_sysfs_format_parse(rows[i].text, &f);

		if (rc != rows[i].rc)
			fail_msg("line %d: rc %d", rows[i].line, rc);
		if (rc)
			continue;
		assert_int_equal(f.field, rows[i].field);
		assert_int_equal(f.nranges, rows[i].nranges);
		assert_int_equal(pmc_sysfs_format_apply(&f, rows[i].value, cfg), 0);
		assert_int_equal(cfg[f.field], rows[i].expect);
	}
}

static void test_sysfs_format_apply_rejects_values_too_wide(void **state)
{
	struct pmc_sysfs_format f;
	uint64_t cfg[3] = { 0, 0, 0 };

	(void)state;
	assert_int_equal(pmc_sysfs_format_parse("config:0-7,32-35", &f), 0);
	assert_int_equal(pmc_sysfs_format_apply(&f, 0x1000, cfg), -ERANGE);
	assert_int_equal(cfg[0], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_errors_name_input_and_classify),
		cmocka_unit_test(test_resolve_rejects_empty_and_too_long_without_writing_ret),
		cmocka_unit_test(test_resolve_trims_name_and_is_case_insensitive),
		cmocka_unit_test(test_suggestion_for_a_typo_costs_little_cpu),
		cmocka_unit_test(test_breakpoint_fields),
		cmocka_unit_test(test_event_list_split_keeps_commas_inside_pmu_terms),
		cmocka_unit_test(test_event_list_split_stops_at_callback_error_and_limits_length),
		cmocka_unit_test(test_sysfs_format_parse_table),
		cmocka_unit_test(test_sysfs_format_apply_rejects_values_too_wide),
	};
	int rc;

	test_force("hsw", "sysfs");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pmc_pmu_fini();
	return rc;
}
