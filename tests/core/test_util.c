/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/util.h"

static void test_parse_u64_accepts_decimal_and_hex_in_range_and_rejects_the_rest(void **s)
{
	static const struct {
		int line;
		const char *in;
		uint64_t min, max;
		int rc;
		uint64_t want;
	} rows[] = {
		{ __LINE__, "1", 1, 10, 0, 1 },          { __LINE__, "10", 1, 10, 0, 10 },
		{ __LINE__, "0x10", 0, 100, 0, 16 },     { __LINE__, "11", 1, 10, -ERANGE, 0 },
		{ __LINE__, "0", 1, 10, -ERANGE, 0 },    { __LINE__, "-1", 0, 10, -EINVAL, 0 },
		{ __LINE__, "", 0, 10, -EINVAL, 0 },     { __LINE__, "5x", 0, 10, -EINVAL, 0 },
		{ __LINE__, " 5", 0, 10, -EINVAL, 0 },   { __LINE__, "+5", 0, 10, -EINVAL, 0 },
		{ __LINE__, "99999999999999999999999", 0, UINT64_MAX, -ERANGE, 0 },
		{ __LINE__, "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		uint64_t v = 0;
		int rc = pmc_parse_u64(rows[i].in, rows[i].min, rows[i].max, &v);
		if (rc != rows[i].rc || (rc == 0 && v != rows[i].want))
			fail_msg("line %d: '%s' gave rc %d value %llu", rows[i].line, rows[i].in, rc, (unsigned long long)v);
	}
}

static void test_parse_dec_u64_reads_leading_zeros_as_decimal_and_rejects_hex(void **s)
{
	static const struct {
		int line;
		const char *in;
		uint64_t min, max;
		int rc;
		uint64_t want;
	} rows[] = {
		{ __LINE__, "010", 1, 100, 0, 10 },      { __LINE__, "0x10", 0, 100, -EINVAL, 0 },
		{ __LINE__, "5", 1, 10, 0, 5 },          { __LINE__, "0005", 1, 10, 0, 5 },
		{ __LINE__, "11", 1, 10, -ERANGE, 0 },   { __LINE__, "-1", 0, 10, -EINVAL, 0 },
		{ __LINE__, "", 0, 10, -EINVAL, 0 },     { __LINE__, "1e3", 0, 10000, -EINVAL, 0 },
		{ __LINE__, " 5", 0, 10, -EINVAL, 0 },   { __LINE__, "+5", 0, 10, -EINVAL, 0 },
		{ __LINE__, "99999999999999999999999", 0, UINT64_MAX, -ERANGE, 0 },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		uint64_t v = 0;
		int rc = pmc_parse_dec_u64(rows[i].in, rows[i].min, rows[i].max, &v);
		if (rc != rows[i].rc || (rc == 0 && v != rows[i].want))
			fail_msg("line %d: '%s' gave rc %d value %llu", rows[i].line, rows[i].in, rc, (unsigned long long)v);
	}
}

static void test_edit_distance_is_case_insensitive_and_capped(void **s)
{
	static const struct {
		int line;
		const char *a, *b;
		unsigned cap, want;
	} rows[] = {
		{ __LINE__, "cycles", "cycles", 10, 0 },    { __LINE__, "CYCLES", "cycles", 10, 0 },
		{ __LINE__, "cycle", "cycles", 10, 1 },     { __LINE__, "task-clok", "task-clock", 10, 1 },
		{ __LINE__, "abc", "xyz", 10, 3 },          { __LINE__, "a", "abcdefgh", 3, 3 },
		{ __LINE__, "", "abc", 10, 3 },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		unsigned d = pmc_edit_distance(rows[i].a, rows[i].b, rows[i].cap);
		if (d != rows[i].want)
			fail_msg("line %d: %s/%s gave %u want %u", rows[i].line, rows[i].a, rows[i].b, d, rows[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64_accepts_decimal_and_hex_in_range_and_rejects_the_rest),
		cmocka_unit_test(test_parse_dec_u64_reads_leading_zeros_as_decimal_and_rejects_hex),
		cmocka_unit_test(test_edit_distance_is_case_insensitive_and_capped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
