/* SPDX-License-Identifier: MIT */
/* The region library knows every generic perf name pmctool knows, as the same attr: both read one table
 * (sys/perf_generic.h). Before it was shared, the library had its own copy without idle-cycles-frontend,
 * idle-cycles-backend and cgroup-switches. Parsing only: nothing is opened. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "regions/lib/rg_core.c"
#include "sys/perf_generic.h"

static void test_region_library_parses_every_generic_name_as_pmctool_does(void **state)
{
	size_t n = sizeof(pmc_perf_generic_events) / sizeof(pmc_perf_generic_events[0]);
	char why[512];

	(void)state;
	assert_true(n >= 27);
	for (size_t i = 0; i < n; i++) {
		const struct pmc_perf_generic *g = &pmc_perf_generic_events[i];

		if (pmc_rg_parse_events(g->name, why, sizeof(why)))
			fail_msg("%s: %s", g->name, why);
		if (pmc_rg.nev != 1 || pmc_rg.attr[0].type != g->type || pmc_rg.attr[0].config != g->config)
			fail_msg("%s: %d events, type %u config %#llx; expected type %u config %#llx", g->name, pmc_rg.nev,
				 pmc_rg.attr[0].type, (unsigned long long)pmc_rg.attr[0].config, g->type,
				 (unsigned long long)g->config);
	}
}

static void test_region_library_knows_the_names_its_own_copy_lacked(void **state)
{
	static const struct {
		const char *spec;
		uint32_t type;
		uint64_t config;
	} rows[] = {
		{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "idle-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "cgroup-switches", PERF_TYPE_SOFTWARE, 11 },
		{ "Instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	};
	char why[512];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (pmc_rg_parse_events(rows[i].spec, why, sizeof(why)))
			fail_msg("%s: %s", rows[i].spec, why);
		if (pmc_rg.attr[0].type != rows[i].type || pmc_rg.attr[0].config != rows[i].config)
			fail_msg("%s: type %u config %#llx", rows[i].spec, pmc_rg.attr[0].type,
				 (unsigned long long)pmc_rg.attr[0].config);
	}
	assert_int_equal(pmc_rg_parse_events("no-such-generic-name", why, sizeof(why)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_region_library_parses_every_generic_name_as_pmctool_does),
		cmocka_unit_test(test_region_library_knows_the_names_its_own_copy_lacked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
