/* SPDX-License-Identifier: MIT */
/* The perf mmap page's time conversion: the rate the kernel calibrated for the clock it extrapolates (the TSC). */
#ifndef PMC_SYS_PERF_TIME_H
#define PMC_SYS_PERF_TIME_H

#include <stdint.h>

/* The rate the kernel calibrated for the perf mmap page's time conversion (a software event's page):
 * 1e9 x 2^time_shift / time_mult. -ENODATA when the page has no cap_user_time, else -errno. */
int pmc_tsc_from_perf_page(double *ret_hz);

/* perf mmap page: 1e9 x 2^time_shift / time_mult. -EINVAL when mult is 0 or shift is out of range. */
int pmc_tsc_from_mult_shift(uint32_t time_mult, uint16_t time_shift, double *ret_hz);

#endif
