/* SPDX-License-Identifier: MIT */
/* --emulate's reading of valgrind's logs (run/emulate.c): lackey's "guest instrs" count and the "Command:", an
 * image without a count (it exec'd) told apart from text that is no log; the valgrind command line it builds. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "run/emulate.h"

static void test_emulate_parse_reads_lackey_count_and_command(void **state)
{
	static const struct {
		const char *text;
		int rc;
		uint64_t count;
		const char *cmd;
	} rows[] = {
		{ "==16770== Lackey, an example Valgrind tool\n==16770== Command: /bin/echo hi\n==16770== Executed:\n"
		  "==16770==   SBs entered:   62,547\n==16770==   guest instrs:  306,651\n==16770==   IRStmts: 2,069,027\n",
		  0, 306651, "/bin/echo hi" },
		{ "==1== Command: ./emu-loop\n==1==   guest instrs:  2,000,005\r\n", 0, 2000005, "./emu-loop" },
		{ "==1== Command: x\n==1==   guest instrs:  18,446,744,073,709,551,615\n", 0, UINT64_MAX, "x" },
		/* An image that exec'd: a command but no count. */
		{ "==16786== Lackey, an example Valgrind tool\n==16786== Command: sh -c exec\\ /bin/true\n"
		  "==16786== Parent PID: 16770\n", -ENODATA, 0, "sh -c exec\\ /bin/true" },
		{ "==1== Command: x\n==1==   guest instrs:  18,446,744,073,709,551,616\n", -ENODATA, 0, "x" }, /* too big */
		{ "==1== Command: x\n==1==   guest instrs:  12a\n", -ENODATA, 0, "x" },
		{ "==1== Command: x\n==1==   guest instrs:\n", -ENODATA, 0, "x" },
		{ "guest instrs: 5\n", -EINVAL, 0, "" },                    /* not lackey's line */
		{ "", -EINVAL, 0, "" },
		{ "summary: 5\n", -EINVAL, 0, "" },                         /* a callgrind file is not a lackey log */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char cmd[64];
		uint64_t v = 0;
		int r = pmc_emulate_parse(rows[i].text, &v, cmd, sizeof(cmd));

		if (r != rows[i].rc || (r == 0 && v != rows[i].count) || strcmp(cmd, rows[i].cmd))
			fail_msg("row %zu: rc %d count %llu cmd '%s'", i, r, (unsigned long long)v, cmd);
	}
}

static void test_emulate_argv_follows_children_and_keeps_valgrind_quiet(void **state)
{
	char *argv[] = { "./prog", "a", "b", NULL }, *words[PMC_EMULATE_MAX_ARGS + 4], store[256];
	size_t n = 0;
	bool trace = false, log = false, out = false;

	(void)state;
	assert_int_equal(pmc_emulate_argv("/usr/bin/valgrind", "/tmp/d", argv, words, PMC_EMULATE_MAX_ARGS + 4, store,
					  sizeof(store)), 0);
	while (words[n])
		n++;
	assert_string_equal(words[0], "/usr/bin/valgrind");
	assert_string_equal(words[n - 3], "./prog");
	assert_string_equal(words[n - 4], "--");
	for (size_t i = 0; i < n; i++) {
		trace |= !strcmp(words[i], "--trace-children=yes");
		log |= !strcmp(words[i], "--log-file=/tmp/d/vg.%p.%n.log");
		out |= !strcmp(words[i], "--basic-counts=yes");
	}
	assert_true(trace && log && out);
	/* Too small an array or store: refused, never overrun. */
	assert_int_equal(pmc_emulate_argv("/v", "/tmp/d", argv, words, 4, store, sizeof(store)), -E2BIG);
	assert_int_equal(pmc_emulate_argv("/v", "/tmp/d", argv, words, PMC_EMULATE_MAX_ARGS + 4, store, 20), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emulate_parse_reads_lackey_count_and_command),
		cmocka_unit_test(test_emulate_argv_follows_children_and_keeps_valgrind_quiet),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
