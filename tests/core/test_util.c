/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/json_write.h"
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

static void test_edit_distance_is_case_insensitive_capped_and_counts_a_swap_once(void **s)
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
		/* two neighbours swapped are one typo (optimal string alignment); a swap after a row that reached the cap
		 * still counts, and a swap does not undo other edits */
		{ __LINE__, "jsno", "json", 10, 1 },        { __LINE__, "instrcutions", "instructions", 2, 1 },
		{ __LINE__, "ab", "ba", 2, 1 },             { __LINE__, "abc", "ca", 10, 3 },
		{ __LINE__, "metirc", "metric", 3, 1 },     { __LINE__, "xjsno", "json", 2, 2 },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		unsigned d = pmc_edit_distance(rows[i].a, rows[i].b, rows[i].cap);
		if (d != rows[i].want)
			fail_msg("line %d: %s/%s gave %u want %u", rows[i].line, rows[i].a, rows[i].b, d, rows[i].want);
	}
}

/* Every JSON writer goes through pmc_json_string: what it writes is valid UTF-8 whatever bytes it is given. */
static void test_json_string_replaces_each_byte_that_is_not_utf8_and_keeps_valid_utf8(void **s)
{
	static const struct {
		int line;
		const char *in, *want;
	} rows[] = {
		{ __LINE__, "plain", "\"plain\"" },
		{ __LINE__, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		{ __LINE__, "\xff\xfe", "\"\\ufffd\\ufffd\"" },                     /* never UTF-8 */
		{ __LINE__, "a\x80z", "\"a\\ufffdz\"" },                            /* a continuation byte alone */
		{ __LINE__, "\xc3", "\"\\ufffd\"" },                                /* cut short by the end */
		{ __LINE__, "\xc3(", "\"\\ufffd(\"" },                              /* cut short by ASCII */
		{ __LINE__, "\xc0\xaf", "\"\\ufffd\\ufffd\"" },                     /* overlong '/' */
		{ __LINE__, "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },          /* overlong, 3 bytes */
		{ __LINE__, "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },          /* a UTF-16 surrogate */
		{ __LINE__, "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* past U+10FFFF */
		{ __LINE__, "q\"b\\\n\t\x1b\x7f", "\"q\\\"b\\\\\\n\\t\\u001b\\u007f\"" },
		{ __LINE__, NULL, "\"\"" },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		pmc_json_string(f, rows[i].in);
		assert_int_equal(fclose(f), 0);
		if (strcmp(buf, rows[i].want))
			fail_msg("line %d: wrote %s, want %s", rows[i].line, buf, rows[i].want);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_u64_accepts_decimal_and_hex_in_range_and_rejects_the_rest),
		cmocka_unit_test(test_parse_dec_u64_reads_leading_zeros_as_decimal_and_rejects_hex),
		cmocka_unit_test(test_edit_distance_is_case_insensitive_capped_and_counts_a_swap_once),
		cmocka_unit_test(test_json_string_replaces_each_byte_that_is_not_utf8_and_keeps_valid_utf8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
