/* SPDX-License-Identifier: MIT */
/* The reason an open failed, from the errno and the attr, against sysfs fixtures written by the test
 * (PMCTOOL_SYSFS_ROOT): no perf_event_open is made here. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perf/perf.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[256], dir[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
		mkdir(dir, 0755);
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fixture(bool core_pmu)
{
	snprintf(root, sizeof(root), "/tmp/pmc-reason-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("bus/event_source/devices/software/type", "1\n");
	put("bus/event_source/devices/msr/type", "11\n");
	put("bus/event_source/devices/power/type", "22\n");
	put("bus/event_source/devices/power/cpumask", "0\n");
	put("bus/event_source/devices/uncore_imc_0/type", "23\n");
	put("bus/event_source/devices/uncore_imc_0/cpumask", "0,36\n");
	if (core_pmu)
		put("bus/event_source/devices/cpu/type", "4\n");
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	return 0;
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	unsetenv("PMCTOOL_SYSFS_ROOT");
}

static const struct {
	int line;
	bool core_pmu;
	bool privileged; /* CAP_PERFMON or CAP_SYS_ADMIN */
	int err;
	unsigned type;
	bool exclude_user, exclude_kernel;
	int hardware;
	const char *want; /* a substring of the reason */
} cases[] = {
	{ __LINE__, true, false, EACCES, 1, true, false, 0, "counts kernel mode only" },
	{ __LINE__, true, false, EACCES, 4, true, false, 1, "not retried in user mode" },
	{ __LINE__, true, false, EACCES, 4, false, false, 1, "perf_event_paranoid: lower it" },
	/* root refused (ftrace:function under kernel lockdown): the paranoid setting is not blamed */
	{ __LINE__, true, true, EPERM, 2, false, false, 0, "whom kernel.perf_event_paranoid does not restrict" },
	{ __LINE__, true, true, EACCES, 4, true, false, 1, "CAP_PERFMON/CAP_SYS_ADMIN" },
	{ __LINE__, true, false, ENOENT, 4, false, false, 1, "this CPU's PMU does not have this event" },
	{ __LINE__, false, false, ENOENT, 0, false, false, 1, "no hardware PMU" },
	{ __LINE__, true, false, EINVAL, 22, false, false, 0, "needs system-wide counting" },
	{ __LINE__, false, false, EINVAL, 23, false, false, 0, "counts per CPU, not per task" },
	{ __LINE__, true, false, EINVAL, 11, false, false, 0, "counter constraints" },
	{ __LINE__, true, false, EINVAL, 4, false, false, 1, "counter constraints" },
};

static void test_reason_names_the_cause_from_errno_attr_and_sysfs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct perf_event_attr a = { .type = cases[i].type, .exclude_user = cases[i].exclude_user,
					     .exclude_kernel = cases[i].exclude_kernel };
		const char *r;

		assert_int_equal(fixture(cases[i].core_pmu), 0);
		r = pmc_perf_event_reason_for(cases[i].err, &a, cases[i].hardware, cases[i].privileged);
		if (!strstr(r, cases[i].want))
			fail_msg("line %d: reason '%s' lacks '%s'", cases[i].line, r, cases[i].want);
		cleanup();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reason_names_the_cause_from_errno_attr_and_sysfs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
