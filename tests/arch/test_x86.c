/* SPDX-License-Identifier: MIT */
/* x86's pure CPU facts on any machine (arch/x86_64/ is built everywhere for its decoders): the TSC rate parsers
 * (CPUID 0x15, the model name's "@ 2.40GHz", the kernel's cpuinfo), the perf page's mult/shift, and the region timer
 * rate every architecture gives through pmc_arch_timer_hz. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "arch/x86_64/tsc.h"
#include "sys/perf_time.h"

static void test_tsc_from_cpuid15_mult_shift_and_model_name(void **state)
{
	double hz = 0;

	(void)state;
	assert_int_equal(pmc_tsc_from_cpuid15(2, 176, 24000000, &hz), 0);
	assert_true(hz == 2112000000.0);
	assert_int_equal(pmc_tsc_from_cpuid15(2, 176, 0, &hz), -ENODATA); /* crystal not enumerated */
	assert_int_equal(pmc_tsc_from_cpuid15(0, 176, 24000000, &hz), -ENODATA);
	/* the kernel's mult for a 3 GHz TSC with shift 31 */
	assert_int_equal(pmc_tsc_from_mult_shift(715827883, 31, &hz), 0);
	assert_true(hz > 2999999990.0 && hz < 3000000010.0);
	assert_int_equal(pmc_tsc_from_mult_shift(0, 31, &hz), -EINVAL);
	assert_int_equal(pmc_tsc_from_model_name("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", &hz), 0);
	assert_true(hz == 2.4e9);
	assert_int_equal(pmc_tsc_from_model_name("Genuine CPU @ 800 MHz", &hz), 0);
	assert_true(hz == 8e8);
	assert_int_equal(pmc_tsc_from_model_name("AMD EPYC", &hz), -ENODATA);
	assert_int_equal(pmc_tsc_from_model_name("weird @ fast", &hz), -ENODATA);
}

/* The kernel's rate is taken from cpuinfo's cpu MHz only when tsc_known_freq says the kernel was told it, and no
 * live-frequency source (aperfmperf, a cpufreq driver) may stand behind "cpu MHz" instead. */
static void test_tsc_from_kernel_cpuinfo_only_with_known_freq_and_no_live_clock(void **state)
{
	static const struct {
		int line;
		const char *text;
		bool cpufreq;
		int rc;
		double hz;
	} rows[] = {
		{ __LINE__, "processor\t: 0\ncpu MHz\t\t: 2596.150\nflags\t\t: fpu tsc constant_tsc tsc_known_freq pni\n",
		  false, 0, 2596150000.0 },
		{ __LINE__, "flags\t\t: tsc tsc_known_freq\ncpu MHz\t\t: 2100.000\n", false, 0, 2100000000.0 },
		{ __LINE__, "cpu MHz\t\t: 2596.150\nflags\t\t: fpu tsc constant_tsc pni\n", false, -ENODATA, 0 },
		{ __LINE__, "cpu MHz\t\t: 2596.150\nflags\t\t: tsc_known_freq_x\n", false, -ENODATA, 0 },
		{ __LINE__, "cpu MHz\t\t: 3700.000\nflags\t\t: tsc_known_freq aperfmperf\n", false, -ENODATA, 0 },
		{ __LINE__, "cpu MHz\t\t: 3700.000\nflags\t\t: tsc_known_freq\n", true, -ENODATA, 0 },
		{ __LINE__, "flags\t\t: tsc_known_freq\n", false, -ENODATA, 0 },
		/* only the first processor's block counts */
		{ __LINE__, "flags\t\t: tsc\n\nflags\t\t: tsc_known_freq\ncpu MHz\t\t: 1.0\n", false, -ENODATA, 0 },
	};
	char path[] = "/tmp/pmc-cpuinfo-XXXXXX";
	int fd = mkstemp(path);
	double hz;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		FILE *f = fopen(path, "w");
		int rc;

		assert_non_null(f);
		fputs(rows[i].text, f);
		fclose(f);
		hz = 0;
		rc = pmc_tsc_from_kernel_cpuinfo(path, rows[i].cpufreq, &hz);
		if (rc != rows[i].rc || (!rc && hz != rows[i].hz))
			fail_msg("row at line %d: rc %d hz %.0f", rows[i].line, rc, hz);
	}
	unlink(path);
	assert_int_equal(pmc_tsc_from_kernel_cpuinfo("/nonexistent/cpuinfo", false, &hz), -ENOENT);
}

/* The region timer's rate (pmc_arch_timer_hz): the TSC on x86-64 (100 MHz..10 GHz), CNTFRQ_EL0 on arm64 (tens of
 * MHz to 1 GHz), cached after the first call. */
static void test_region_timer_hz_gives_a_plausible_cached_rate(void **state)
{
	double a = 0, b = 0, lo = strcmp(pmc_arch_timer_name(), "TSC") ? 1e6 : 1e8;
	const char *src = NULL, *src2 = NULL;

	(void)state;
	assert_int_equal(pmc_arch_timer_hz(&a, &src), 0);
	assert_non_null(src);
	assert_true(a >= lo && a < 1e10);
	assert_int_equal(pmc_arch_timer_hz(&b, &src2), 0);
	assert_true(a == b && src == src2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tsc_from_cpuid15_mult_shift_and_model_name),
		cmocka_unit_test(test_tsc_from_kernel_cpuinfo_only_with_known_freq_and_no_live_clock),
		cmocka_unit_test(test_region_timer_hz_gives_a_plausible_cached_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
