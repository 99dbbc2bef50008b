/* SPDX-License-Identifier: MIT */
/* Privilege and open-file-limit decisions, on injected paranoid values, capabilities and limits (no sysctl is read
 * or changed). */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "info/privilege.h"
#include "util/fdlimit.h"
#include "util/util.h"

/* The sysctl's value is an injected read and the kernel's answer to a user-mode counter an injected errno: no sysctl
 * is read or changed. Issue 22 item 10: 3 is refused only where the kernel refuses (Debian's patch); on a kernel that
 * counts at 3 as at 2, 3 means user mode only. */
static void test_privilege_level_from_injected_sysctl_read_and_injected_kernel_answer(void **s)
{
	static const struct {
		int line;
		int paranoid;
		bool perfmon, sys_admin;
		int kernel_err;
		enum pmc_privilege_level want;
	} rows[] = {
		{ __LINE__, -1, false, false, 0, PMC_PRIV_FULL },
		{ __LINE__, 1, false, false, 0, PMC_PRIV_FULL },
		{ __LINE__, 2, false, false, 0, PMC_PRIV_USER_ONLY },
		{ __LINE__, 2, true, false, 0, PMC_PRIV_FULL },
		/* 3 on a kernel without Debian's patch: it counts user mode, as at 2 (was refused before asking) */
		{ __LINE__, 3, false, false, 0, PMC_PRIV_USER_ONLY },
		{ __LINE__, 4, false, false, 0, PMC_PRIV_USER_ONLY },
		/* 3 where the kernel refuses */
		{ __LINE__, 3, false, false, EACCES, PMC_PRIV_DENIED },
		{ __LINE__, 4, false, false, EPERM, PMC_PRIV_DENIED },
		{ __LINE__, 3, true, false, EACCES, PMC_PRIV_FULL },
		{ __LINE__, 3, false, true, EACCES, PMC_PRIV_FULL },
		/* refused below 3 (a security module): refused */
		{ __LINE__, 2, false, false, EACCES, PMC_PRIV_DENIED },
		/* another error is no refusal: try, and let each event's errno speak */
		{ __LINE__, 3, false, false, ENOENT, PMC_PRIV_USER_ONLY },
		{ __LINE__, INT_MIN, false, false, 0, PMC_PRIV_USER_ONLY },
		{ __LINE__, INT_MIN, false, false, EACCES, PMC_PRIV_DENIED },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_privilege p = { rows[i].paranoid, rows[i].perfmon, rows[i].sys_admin, rows[i].kernel_err };
		enum pmc_privilege_level got = pmc_privilege_level(&p);
		if (got != rows[i].want)
			fail_msg("line %d: level %d, expected %d", rows[i].line, got, rows[i].want);
	}
}

static void test_privilege_explain_names_the_sysctl_its_value_and_cap_perfmon(void **s)
{
	static const struct {
		int line;
		int paranoid;
		bool perfmon;
		int kernel_err;
		int err;
		int rc;
		const char *must[3];
	} rows[] = {
		{ __LINE__, 3, false, EACCES, 0, 0, { "kernel.perf_event_paranoid is 3", "CAP_PERFMON", "sysctl" } },
		{ __LINE__, 3, false, EACCES, 0, 0, { "the kernel refused to count (EACCES)", NULL, NULL } },
		{ __LINE__, 4, false, EPERM, EACCES, 0, { "kernel.perf_event_paranoid is 4", "CAP_PERFMON", "never changes" } },
		/* 3 that the kernel allows: the user-mode advice of 2, never "closed" */
		{ __LINE__, 3, false, 0, EACCES, 0, { "kernel.perf_event_paranoid is 3", "user mode", ":u" } },
		{ __LINE__, 3, false, 0, 0, -EINVAL, { NULL, NULL, NULL } },
		{ __LINE__, 2, false, 0, EACCES, 0, { "kernel.perf_event_paranoid is 2", "user mode", ":u" } },
		{ __LINE__, 2, false, 0, EPERM, 0, { "CAP_PERFMON", NULL, NULL } },
		/* refused at 2: not the sysctl */
		{ __LINE__, 2, false, EACCES, 0, 0, { "security module", "is 2", NULL } },
		{ __LINE__, -1, false, 0, EACCES, 0, { "security module", "is -1", NULL } },
		{ __LINE__, 3, true, 0, EPERM, 0, { "CAP_PERFMON is held", "EPERM", NULL } },
		{ __LINE__, INT_MIN, false, 0, EACCES, 0, { "unreadable", NULL, NULL } },
		{ __LINE__, 2, false, 0, ENOENT, -EINVAL, { NULL, NULL, NULL } },
		{ __LINE__, 1, false, 0, 0, -EINVAL, { NULL, NULL, NULL } },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_privilege p = { rows[i].paranoid, rows[i].perfmon, false, rows[i].kernel_err };
		char buf[512];
		int rc = pmc_privilege_explain(&p, rows[i].err, buf, sizeof(buf));
		if (rc != rows[i].rc)
			fail_msg("line %d: rc %d, expected %d", rows[i].line, rc, rows[i].rc);
		if (rc && buf[0])
			fail_msg("line %d: a message for a non-permission error: %s", rows[i].line, buf);
		for (size_t k = 0; k < 3 && rows[i].must[k]; k++)
			if (!strstr(buf, rows[i].must[k]))
				fail_msg("line %d: '%s' lacks '%s'", rows[i].line, buf, rows[i].must[k]);
	}
}

static void test_fd_limit_plan_raises_the_soft_limit_only_when_the_hard_limit_allows(void **s)
{
	static const struct {
		int line;
		size_t need, soft, hard;
		int rc;
		size_t want_soft;
	} rows[] = {
		{ __LINE__, 100, 1024, 4096, 0, 1024 },
		{ __LINE__, 1024, 1024, 4096, 0, 1024 },
		{ __LINE__, 1100, 1024, 4096, 1, 2200 },
		{ __LINE__, 3000, 1024, 4096, 1, 4096 },
		{ __LINE__, 4096, 64, 4096, 1, 4096 },
		{ __LINE__, 4097, 64, 4096, -EMFILE, 64 },
		{ __LINE__, 600, 64, 64, -EMFILE, 64 },
		{ __LINE__, 600, 64, SIZE_MAX, 1, 1200 },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		size_t soft = rows[i].soft;
		int rc = pmc_fd_limit_plan(rows[i].need, rows[i].soft, rows[i].hard, &soft);
		if (rc != rows[i].rc || soft != rows[i].want_soft)
			fail_msg("line %d: rc %d soft %zu, expected %d %zu", rows[i].line, rc, soft, rows[i].rc,
				 rows[i].want_soft);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_privilege_level_from_injected_sysctl_read_and_injected_kernel_answer),
		cmocka_unit_test(test_privilege_explain_names_the_sysctl_its_value_and_cap_perfmon),
		cmocka_unit_test(test_fd_limit_plan_raises_the_soft_limit_only_when_the_hard_limit_allows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
