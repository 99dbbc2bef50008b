/* SPDX-License-Identifier: MIT */
/* The never-ran rule as the engine applies it to a run's counts (engine/measure.c: the counter set's
 * pmc_evlist_never_ran over the counts a command or a kernel read, one task target, PMC_EVL_GROUP |
 * PMC_EVL_CPU_WIDE), on injected counts (no counter is opened): a group whose every opened member has time_running 0
 * while one was enabled never ran; a counted member, a lone event, nothing enabled, or a CPU-wide event (counted
 * apart, no member) is not that (issue 11 item 5). The rows came with the rule from plan's pmc_group_never_ran. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "perf/evlist.h"

enum { OK, NC, NS }; /* PMC_COUNT_OK, NOT_COUNTED (opened, read nothing yet), NOT_SUPPORTED (never opened) */
enum { SW, HW, CW }; /* software, hardware, hardware counting its own CPU (cpu_wide) */

static void test_group_never_ran_decided_from_injected_counts(void **state)
{
	static const struct {
		int line;
		uint64_t ena[3], run[3];
		int st[3];
		int kind[3];
		bool want;
	} rows[] = {
		{ __LINE__, { 900, 900, 900 }, { 0, 0, 0 }, { NC, NC, NC }, { HW, HW, HW }, true },
		{ __LINE__, { 900, 900, 900 }, { 0, 0, 900 }, { NC, NC, OK }, { HW, HW, HW }, false },
		{ __LINE__, { 0, 0, 0 }, { 0, 0, 0 }, { NC, NC, NC }, { HW, HW, HW }, false },
		{ __LINE__, { 900, 900, 900 }, { 0, 0, 500 }, { NC, NC, OK }, { HW, HW, SW }, true }, /* software: no member */
		{ __LINE__, { 900, 0, 0 }, { 0, 0, 0 }, { NC, NS, NS }, { HW, HW, HW }, false }, /* one opened: alone */
		{ __LINE__, { 900, 900, 0 }, { 0, 0, 0 }, { NC, NC, NS }, { HW, HW, HW }, true },  /* one failed to open */
		{ __LINE__, { 900, 900, 900 }, { 0, 0, 900 }, { NC, NC, OK }, { HW, HW, CW }, true }, /* CPU-wide: apart */
		{ __LINE__, { 900, 900, 900 }, { 0, 900, 0 }, { NC, OK, NC }, { HW, HW, CW }, false },
		{ __LINE__, { 900, 900, 900 }, { 0, 0, 0 }, { NC, NC, NC }, { HW, CW, CW }, false }, /* one member left */
	};
	const struct pmc_target task = { .pid = 0, .cpu = -1 };

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_event evs[3];
		const struct pmc_event *pev[3];
		struct pmc_count c[3];
		struct pmc_evlist_opts o = { .flags = PMC_EVL_GROUP | PMC_EVL_CPU_WIDE, .counts = c };
		struct pmc_evlist *el;

		for (int k = 0; k < 3; k++) {
			memset(&evs[k], 0, sizeof(evs[k]));
			evs[k].flags = rows[i].kind[k] == SW ? 0 : PMC_EVF_HARDWARE;
			evs[k].cpu_wide = rows[i].kind[k] == CW;
			pev[k] = &evs[k];
			memset(&c[k], 0, sizeof(c[k]));
			c[k].enabled = rows[i].ena[k];
			c[k].running = rows[i].run[k];
			c[k].status = rows[i].st[k] == NC   ? PMC_COUNT_NOT_COUNTED
				    : rows[i].st[k] == NS ? PMC_COUNT_NOT_SUPPORTED
							  : PMC_COUNT_OK;
		}
		assert_int_equal(pmc_evlist_new(pev, 3, &task, 1, &o, &el), 0);
		if (pmc_evlist_never_ran(el, NULL) != rows[i].want)
			fail_msg("row at line %d: wanted %d", rows[i].line, rows[i].want);
		pmc_evlist_delete(el);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_never_ran_decided_from_injected_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
