/* SPDX-License-Identifier: MIT */
/* The JSON writer (util/json_write.h): nesting, commas, keys, escapes, invalid UTF-8, numbers, the perf and pretty
 * spellings. Each row is a small program of writer calls and the exact bytes it must write. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <stdio.h>

#include "util/json_read.h"
#include "util/json_write.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* One writer call: o begin/end object, a begin/end array, k key, s string, S string-or-null, n null, b bool,
 * i int, u uint, d number, f fixed (arg decimals), r raw. */
struct op {
	char op;
	const char *s;
	double d;
	long long i;
};

#define OB { 'o', 0, 0, 0 }
#define OE { 'O', 0, 0, 0 }
#define AB { 'a', 0, 0, 0 }
#define AE { 'A', 0, 0, 0 }
#define K(x) { 'k', x, 0, 0 }
#define S(x) { 's', x, 0, 0 }
#define SN(x) { 'S', x, 0, 0 }
#define NUL { 'n', 0, 0, 0 }
#define B(x) { 'b', 0, 0, x }
#define I(x) { 'i', 0, 0, x }
#define U(x) { 'u', 0, 0, x }
#define D(x) { 'd', 0, x, 0 }
#define F(p, x) { 'f', 0, x, p }
#define R(x) { 'r', x, 0, 0 }
#define END { 0, 0, 0, 0 }

struct row {
	int line;
	unsigned flags;
	struct op ops[16];
	const char *want;
	bool err;
};

static char *run_ops(const struct row *r, bool *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pmc_jw w;

	assert_non_null(f);
	pmc_jw_init(&w, f, r->flags);
	for (const struct op *o = r->ops; o->op; o++) {
		switch (o->op) {
		case 'o': pmc_jw_object_begin(&w); break;
		case 'O': pmc_jw_object_end(&w); break;
		case 'a': pmc_jw_array_begin(&w); break;
		case 'A': pmc_jw_array_end(&w); break;
		case 'k': pmc_jw_key(&w, o->s); break;
		case 's': pmc_jw_str(&w, o->s); break;
		case 'S': pmc_jw_str_or_null(&w, o->s); break;
		case 'n': pmc_jw_null(&w); break;
		case 'b': pmc_jw_bool(&w, o->i); break;
		case 'i': pmc_jw_int(&w, o->i); break;
		case 'u': pmc_jw_uint(&w, (unsigned long long)o->i); break;
		case 'd': pmc_jw_num(&w, o->d); break;
		case 'f': pmc_jw_fixed(&w, (int)o->i, o->d); break;
		case 'r': pmc_jw_raw(&w, o->s); break;
		}
	}
	fclose(f);
	*err = w.err;
	return buf;
}

static void check_rows(const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool err;
		char *got = run_ops(&rows[i], &err);

		if (strcmp(got, rows[i].want) || err != rows[i].err)
			fail_msg("line %d: wrote '%s' (err %d), want '%s' (err %d)", rows[i].line, got, err, rows[i].want,
				 rows[i].err);
		free(got);
	}
}

static void test_writer_nests_objects_and_arrays_with_commas_only_between_members(void **s)
{
	static const struct row rows[] = {
		{ __LINE__, 0, { OB, OE, END }, "{}", false },
		{ __LINE__, 0, { AB, AE, END }, "[]", false },
		{ __LINE__, 0, { OB, K("a"), I(1), OE, END }, "{\"a\":1}", false },
		{ __LINE__, 0, { OB, K("a"), I(1), K("b"), I(2), K("c"), I(3), OE, END }, "{\"a\":1,\"b\":2,\"c\":3}", false },
		{ __LINE__, 0, { AB, I(1), I(2), AB, AE, OB, OE, AE, END }, "[1,2,[],{}]", false },
		{ __LINE__, 0, { OB, K("x"), AB, OB, K("y"), NUL, OE, OB, OE, AE, K("z"), B(1), OE, END },
		  "{\"x\":[{\"y\":null},{}],\"z\":true}", false },
		/* top-level values stand alone: JSON lines, one object a line */
		{ __LINE__, 0, { OB, OE, R("\n"), OB, K("a"), B(0), OE, END }, "{}\n{\"a\":false}", false },
		/* an empty container after a full one at the same depth gets no comma inside it */
		{ __LINE__, 0, { AB, AB, I(1), AE, AB, AE, AE, END }, "[[1],[]]", false },
	};
	(void)s;
	check_rows(rows, N(rows));
}

static void test_writer_flags_misuse_and_stops_nesting_past_its_limit(void **s)
{
	static const struct row rows[] = {
		{ __LINE__, 0, { OE, END }, "", true },
		{ __LINE__, 0, { AB, OE, END }, "[}", true },
		{ __LINE__, 0, { AB, K("a"), I(1), AE, END }, "[\"a\":1]", true },
		{ __LINE__, 0, { K("a"), END }, "\"a\":", true },
	};
	bool err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pmc_jw w;

	(void)s;
	check_rows(rows, N(rows));
	assert_non_null(f);
	pmc_jw_init(&w, f, 0);
	for (int i = 0; i < PMC_JW_MAX_DEPTH + 5; i++)
		pmc_jw_array_begin(&w);
	err = w.err;
	fclose(f);
	assert_true(err);
	assert_int_equal(len, PMC_JW_MAX_DEPTH);
	free(buf);
}

static void test_writer_escapes_strings_and_repairs_invalid_utf8(void **s)
{
	static const struct row rows[] = {
		{ __LINE__, 0, { S("plain"), END }, "\"plain\"", false },
		{ __LINE__, 0, { S(NULL), END }, "\"\"", false },
		{ __LINE__, 0, { SN(NULL), END }, "null", false },
		{ __LINE__, 0, { SN(""), END }, "null", false },
		{ __LINE__, 0, { S("q\"b\\"), END }, "\"q\\\"b\\\\\"", false },
		{ __LINE__, 0, { S("a\nb\tc"), END }, "\"a\\nb\\tc\"", false },
		{ __LINE__, 0, { S("\x01\x1f\x7f\r"), END }, "\"\\u0001\\u001f\\u007f\\u000d\"", false },
		{ __LINE__, 0, { S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), END },
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", false },
		/* each byte that is not UTF-8 is one U+FFFD: stray continuation, overlong, truncated, surrogate, > U+10FFFF */
		{ __LINE__, 0, { S("a\x80z"), END }, "\"a\\ufffdz\"", false },
		{ __LINE__, 0, { S("\xc0\xaf"), END }, "\"\\ufffd\\ufffd\"", false },
		{ __LINE__, 0, { S("\xe2\x82"), END }, "\"\\ufffd\\ufffd\"", false },
		{ __LINE__, 0, { S("\xed\xa0\x80"), END }, "\"\\ufffd\\ufffd\\ufffd\"", false },
		{ __LINE__, 0, { S("\xf4\x90\x80\x80"), END }, "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", false },
		{ __LINE__, 0, { S("\xff"), END }, "\"\\ufffd\"", false },
		/* keys are escaped the same way */
		{ __LINE__, 0, { OB, K("k\"\xff"), I(0), OE, END }, "{\"k\\\"\\ufffd\":0}", false },
	};
	(void)s;
	check_rows(rows, N(rows));
}

static void test_writer_numbers_are_shortest_round_trip_and_null_when_not_finite(void **s)
{
	static const struct row rows[] = {
		{ __LINE__, 0, { D(0), END }, "0", false },
		{ __LINE__, 0, { D(-0.0), END }, "-0", false },
		{ __LINE__, 0, { D(42), END }, "42", false },
		{ __LINE__, 0, { D(1234567890123), END }, "1234567890123", false },
		{ __LINE__, 0, { D(0.1), END }, "0.1", false },
		{ __LINE__, 0, { D(1.0 / 3), END }, "0.3333333333333333", false },
		{ __LINE__, 0, { D(2.5e-9), END }, "2.5e-09", false },
		{ __LINE__, 0, { D(1e300), END }, "1e+300", false },
		{ __LINE__, 0, { D(9007199254740993.0), END }, "9007199254740992", false },
		{ __LINE__, 0, { D(NAN), END }, "null", false },
		{ __LINE__, 0, { D(INFINITY), END }, "null", false },
		{ __LINE__, 0, { D(-INFINITY), END }, "null", false },
		{ __LINE__, 0, { F(2, 12.345), END }, "12.35", false },
		{ __LINE__, 0, { F(6, 1), END }, "1.000000", false },
		{ __LINE__, 0, { F(0, 2.5), END }, "2", false },
		{ __LINE__, 0, { F(2, NAN), END }, "null", false },
		{ __LINE__, 0, { I(-5), U(18446744073709551615ull), END }, "-518446744073709551615", false },
		{ __LINE__, 0, { AB, I(-5), U(-1), AE, END }, "[-5,18446744073709551615]", false },
	};
	(void)s;
	check_rows(rows, N(rows));
}

static void test_writer_perf_and_pretty_spellings(void **s)
{
	static const struct row rows[] = {
		{ __LINE__, PMC_JW_PERF, { OB, K("counter-value"), S("1.000000"), K("unit"), S(""), OE, END },
		  "{\"counter-value\" : \"1.000000\", \"unit\" : \"\"}", false },
		{ __LINE__, PMC_JW_PRETTY, { OB, K("a"), I(1), K("b"), AB, I(2), I(3), AE, K("c"), OB, OE, OE, END },
		  "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ],\n  \"c\": {}\n}", false },
	};
	(void)s;
	check_rows(rows, N(rows));
}

/* Whatever bytes a string holds, the writer's document parses back, and the string comes back as it was with each
 * invalid byte replaced. */
static void test_writer_document_parses_back_with_the_strings_it_was_given(void **s)
{
	static const char *const strs[] = { "", "a", "\x01\x02\x1f", "q\"\\/", "\xe2\x82\xac", "\xff\xfe", "x\xc3" };
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pmc_jw w;
	struct pmc_jvalue *v;

	(void)s;
	assert_non_null(f);
	pmc_jw_init(&w, f, 0);
	pmc_jw_array_begin(&w);
	for (size_t i = 0; i < N(strs); i++)
		pmc_jw_str(&w, strs[i]);
	pmc_jw_array_end(&w);
	fclose(f);
	assert_false(w.err);
	assert_int_equal(pmc_json_parse(buf, len, &v, err, sizeof(err)), 0);
	assert_int_equal(pmc_json_len(v), N(strs));
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(pmc_json_at(v, i)->str, strs[i]);
	assert_string_equal(pmc_json_at(v, 5)->str, "\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(pmc_json_at(v, 6)->str, "x\xef\xbf\xbd");
	pmc_json_free(v);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writer_nests_objects_and_arrays_with_commas_only_between_members),
		cmocka_unit_test(test_writer_flags_misuse_and_stops_nesting_past_its_limit),
		cmocka_unit_test(test_writer_escapes_strings_and_repairs_invalid_utf8),
		cmocka_unit_test(test_writer_numbers_are_shortest_round_trip_and_null_when_not_finite),
		cmocka_unit_test(test_writer_perf_and_pretty_spellings),
		cmocka_unit_test(test_writer_document_parses_back_with_the_strings_it_was_given),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
