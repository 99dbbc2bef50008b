/* SPDX-License-Identifier: MIT */
/* Intel's fixed counters and their pseudo-encodings (arch/x86_64/fixed.c, a pure function built on every
 * architecture): which counter each encoding takes, which fit only it, and the encodings no counter can take or that
 * cannot be what their libpfm4 name says (issue 22 item 15: libpfm4 4.13's icl/spr TOPDOWN:BACKEND_BOUND_SLOTS =
 * 0x200, Intel's pseudo-encoding of fixed counter 1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/x86_64/fixed.h"

static void test_x86_fixed_placement_of_every_pseudo_encoding(void **state)
{
	static const struct {
		int line;
		uint64_t config, config1;
		unsigned nfixed;
		const char *name;
		int verdict, index;
		bool only;
		const char *why; /* part of the reason, NULL: none */
	} rows[] = {
		/* the architectural encodings: fixed counters 0 and 1, also fit a programmable counter */
		{ __LINE__, 0x00c0, 0, 3, "", 0, 0, false, NULL },
		{ __LINE__, 0x5300c0, 0, 3, "", 0, 0, false, NULL }, /* USR/OS/EN bits ignored */
		{ __LINE__, 0x003c, 0, 3, "", 0, 1, false, NULL },
		{ __LINE__, 0x003c, 0, 1, "", 0, -1, false, NULL },
		{ __LINE__, 0x10000c0, 0, 4, "", 0, -1, false, NULL },  /* cmask: not the fixed counter's */
		{ __LINE__, 0x01c0, 0, 4, "", 0, -1, false, NULL },
		{ __LINE__, 0x00c0, 0x1, 4, "", 0, -1, false, NULL },   /* config1 */
		/* 0x0300: reference cycles, fixed counter 2 only, on every Intel PMU with 3 */
		{ __LINE__, 0x0300, 0, 3, "", 0, 2, true, NULL },
		{ __LINE__, 0x0300, 0, 3, "skl::CPU_CLK_UNHALTED:REF_TSC", 0, 2, true, NULL },
		/* Ice Lake on (4 or more fixed counters): 0x0N00 is fixed counter N-1, that counter only */
		{ __LINE__, 0x0100, 0, 4, "icl::INST_RETIRED:PREC_DIST", 0, 0, true, NULL },
		{ __LINE__, 0x0200, 0, 4, "spr::CPU_CLK_UNHALTED:THREAD:e=0:i=0", 0, 1, true, NULL },
		{ __LINE__, 0x0400, 0, 4, "icl::TOPDOWN:SLOTS", 0, 3, true, NULL },
		{ __LINE__, 0x0500, 0, 7, "", 0, 4, true, NULL },
		{ __LINE__, 0x0800, 0, 8, "", 0, 7, true, NULL },
		/* a table error: counted on fixed counter 1, warned, naming the table and the event */
		{ __LINE__, 0x0200, 0, 4, "icl::TOPDOWN:BACKEND_BOUND_SLOTS:e=0:i=0:c=0", 1, 1, true,
		  "libpfm4's icl table gives TOPDOWN:BACKEND_BOUND_SLOTS this encoding (0x200), Intel's pseudo-encoding "
		  "of fixed counter 1" },
		{ __LINE__, 0x0200, 0, 4, "spr::TOPDOWN:BACKEND_BOUND_SLOTS", 1, 1, true, "spr table" },
		/* no counter can take it: the fixed counter is missing, or modifiers on a pseudo-encoding */
		{ __LINE__, 0x0100, 0, 3, "", -1, -1, false, "fixed counter 0, which this PMU (3 fixed counters)" },
		{ __LINE__, 0x0200, 0, 3, "skl::X:Y", -1, -1, false, "libpfm4's skl table gives X:Y" },
		{ __LINE__, 0x0500, 0, 4, "", -1, -1, false, "fixed counter 4" },
		{ __LINE__, 0x0900, 0, 8, "", -1, -1, false, "no event" },
		{ __LINE__, 0x0000, 0, 4, "", -1, -1, false, "no event" },
		{ __LINE__, 0x1000300, 0, 4, "", -1, -1, false, "with these modifiers" },
		/* the top-down metrics (read through TOPDOWN.SLOTS) and AMD (no fixed counters): left alone */
		{ __LINE__, 0x8000, 0, 4, "", 0, -1, false, NULL },
		{ __LINE__, 0x0300, 0, 0, "", 0, -1, false, NULL },
		{ __LINE__, 0x0000, 0, 0, "", 0, -1, false, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_arch_placement pl;
		char why[600] = "";
		int v = pmc_x86_fixed_placement(rows[i].config, rows[i].config1, rows[i].nfixed, rows[i].name, &pl,
						why, sizeof(why));

		if (v != rows[i].verdict || pl.fixed_index != rows[i].index || pl.fixed_only != rows[i].only)
			fail_msg("line %d: %#llx on %u fixed counters: verdict %d, counter %d, only %d; expected %d %d %d",
				 rows[i].line, (unsigned long long)rows[i].config, rows[i].nfixed, v, pl.fixed_index,
				 pl.fixed_only, rows[i].verdict, rows[i].index, rows[i].only);
		if (rows[i].why && !strstr(why, rows[i].why))
			fail_msg("line %d: why '%s' lacks '%s'", rows[i].line, why, rows[i].why);
		if (!rows[i].why && v == 0 && why[0])
			fail_msg("line %d: a reason where there is none: '%s'", rows[i].line, why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_fixed_placement_of_every_pseudo_encoding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
