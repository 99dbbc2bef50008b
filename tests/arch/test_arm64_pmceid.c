/* SPDX-License-Identifier: MIT */
/* arm64's "is this common event implemented" (arch/aarch64/pmceid.c, pure, built on every host) against the armv8
 * sysfs fixture (tests/pmu/sysfs-armv8): the driver lists only the common events the CPU's PMCEID says it has. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/aarch64/pmceid.h"

static void test_arm64_event_listed_follows_sysfs_events_table(void **state)
{
	static const struct {
		int line;
		uint64_t event;
		int want;
	} rows[] = {
		{ __LINE__, 0x11, 1 },   /* cpu_cycles: listed */
		{ __LINE__, 0x08, 1 },   /* inst_retired */
		{ __LINE__, 0x00, 1 },   /* sw_incr: event=0x0000 */
		{ __LINE__, 0x23, 0 },   /* stall_frontend: a common event the fixture's PMU does not list */
		{ __LINE__, 0x24, 0 },   /* stall_backend */
		{ __LINE__, 0x3f, 0 },   /* stall_slot */
		{ __LINE__, 0x4004, 0 }, /* the second PMCEID range */
		{ __LINE__, 0x40, -1 },  /* IMPLEMENTATION DEFINED: the driver does not judge it */
		{ __LINE__, 0x3fff, -1 },
	};
	const char *src = getenv("PMC_SOURCE_DIR");
	char dir[4096], why[256];

	(void)state;
	assert_non_null(src);
	snprintf(dir, sizeof(dir), "%s/tests/pmu/sysfs-armv8/bus/event_source/devices/armv8_pmuv3_0", src);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int got;

		why[0] = '\0';
		got = pmc_arm64_event_listed(dir, rows[i].event, why, sizeof(why));
		if (got != rows[i].want)
			fail_msg("row at line %d: event %#llx: got %d, want %d (%s)", rows[i].line,
				 (unsigned long long)rows[i].event, got, rows[i].want, why);
		if (got == 0 && !strstr(why, "PMCEID"))
			fail_msg("row at line %d: the reason does not say why: '%s'", rows[i].line, why);
	}
	snprintf(dir, sizeof(dir), "%s/tests/pmu/sysfs-armv8/no-such-pmu", src);
	assert_int_equal(pmc_arm64_event_listed(dir, 0x23, why, sizeof(why)), -1); /* no events/: unknown */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm64_event_listed_follows_sysfs_events_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
