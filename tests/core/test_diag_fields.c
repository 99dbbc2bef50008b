/* SPDX-License-Identifier: MIT */
/* The engine's messages name request fields (util/diag.h: PMC_FIELD): a sink gets each spelled by the process's
 * speller (the command line's flags, cli/fields.c) or, with none, as the field's own word; an error's first field is
 * the thread's subject. Every field the engine names (engine/fields.h) has a command-line spelling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/fields.h"
#include "engine/fields.h"
#include "util/diag.h"

static char got[4096];

static void catch_msg(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	(void)ctx;
	(void)kind;
	snprintf(got, sizeof(got), "%s", msg);
}

static void test_fields_spelled_as_flags_by_the_cli_and_as_words_without_it(void **state)
{
	static const struct {
		int line;
		bool cli;
		enum pmc_diag_kind kind;
		const char *msg, *want, *subject;
	} rows[] = {
		{ __LINE__, true, PMC_DIAG_ERROR, "bad " RQ_METRICS " 'x': y", "bad --metric 'x': y", "metrics" },
		{ __LINE__, false, PMC_DIAG_ERROR, "bad " RQ_METRICS " 'x': y", "bad metrics 'x': y", "metrics" },
		{ __LINE__, true, PMC_DIAG_ERROR, RQ_BATCHING "=rotate needs " RQ_INTERVAL_MS " MS",
		  "--batch=rotate needs -I MS", "batching" },
		{ __LINE__, false, PMC_DIAG_ERROR, RQ_BATCHING "=rotate needs " RQ_INTERVAL_MS " MS",
		  "batching=rotate needs interval_ms MS", "batching" },
		{ __LINE__, true, PMC_DIAG_ERROR, "no field here", "no field here", "" },
		{ __LINE__, true, PMC_DIAG_NOTE, "a note on " RQ_COUNTERS, "a note on --counters", "" },
		{ __LINE__, true, PMC_DIAG_ERROR, "unknown \x1d" "no_such_field\x1e" " kept", "unknown no_such_field kept",
		  "no_such_field" },
		{ __LINE__, true, PMC_DIAG_ERROR, "unterminated \x1d" "field", "unterminated \x1d" "field", "" },
		{ __LINE__, true, PMC_DIAG_ERROR, RQ_PIDS "/" RQ_TIDS, "-p/-t", "pids" },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmc_diag_sink prev = pmc_diag_exchange((struct pmc_diag_sink){ catch_msg, NULL });

		pmc_diag_set_speller(rows[r].cli ? pmc_cli_field_flag : NULL);
		pmc_diag(rows[r].kind, "%s", rows[r].msg);
		pmc_diag_exchange(prev);
		if (strcmp(got, rows[r].want))
			fail_msg("line %d: got '%s', want '%s'", rows[r].line, got, rows[r].want);
		if (rows[r].kind == PMC_DIAG_ERROR && strcmp(pmc_diag_subject(), rows[r].subject))
			fail_msg("line %d: subject '%s', want '%s'", rows[r].line, pmc_diag_subject(), rows[r].subject);
	}
	pmc_diag_set_speller(NULL);
}

/* A message far longer than the buffer with fields at its end: cut, terminated, never overrun. */
static void test_long_message_with_fields_is_cut_not_overrun(void **state)
{
	char big[3000];
	struct pmc_diag_sink prev;

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pmc_diag_set_speller(pmc_cli_field_flag);
	prev = pmc_diag_exchange((struct pmc_diag_sink){ catch_msg, NULL });
	pmc_diag_error("%s " RQ_CGROUPS_EACH " " RQ_CGROUPS_EACH, big);
	pmc_diag_exchange(prev);
	pmc_diag_set_speller(NULL);
	assert_true(strlen(got) < 2048);
	assert_null(strchr(got, '\x1e'));
}

static void test_every_engine_field_has_a_flag(void **state)
{
	static const char *const fields[] = {
		RQ_EVENTS, RQ_KERNEL, RQ_METRICS, RQ_RUNS, RQ_BATCHING, RQ_COUNTERS, RQ_NO_ANCHORS, RQ_CPU, RQ_REGIONS,
		RQ_EMULATE, RQ_PRE_CMD, RQ_POST_CMD, RQ_PIDS, RQ_TIDS, RQ_SYSTEM_WIDE, RQ_CPUS, RQ_CGROUPS,
		RQ_CGROUPS_EACH, RQ_AGGR, RQ_AGGR_CPU, RQ_AGGR_CORE, RQ_AGGR_DIE, RQ_AGGR_SOCKET, RQ_AGGR_NODE,
		RQ_AGGR_CACHE, RQ_AGGR_THREAD, RQ_INTERVAL_MS, RQ_INTERVAL_COUNT, RQ_DELAY_MS, RQ_TIMEOUT_MS,
		RQ_CONTROL, RQ_TOPDOWN_LEVEL, RQ_TOPDOWN_DEF,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char word[32];
		const char *flag;

		snprintf(word, sizeof(word), "%.*s", (int)strlen(fields[i]) - 2, fields[i] + 1);
		flag = pmc_cli_field_flag(word);
		if (!flag || flag[0] != '-')
			fail_msg("field '%s' has no command-line spelling", word);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields_spelled_as_flags_by_the_cli_and_as_words_without_it),
		cmocka_unit_test(test_long_message_with_fields_is_cut_not_overrun),
		cmocka_unit_test(test_every_engine_field_has_a_flag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
