/* SPDX-License-Identifier: MIT */
/* The rate of the clock the kernel's perf mmap page converts (the TSC on x86): read from a software event's page. */
#include "sys/perf_time.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perf/perf.h"

int pmc_tsc_from_mult_shift(uint32_t time_mult, uint16_t time_shift, double *ret_hz)
{
	if (!time_mult || time_shift > 63)
		return -EINVAL;
	*ret_hz = 1e9 * ldexp(1.0, time_shift) / (double)time_mult;
	return 0;
}

int pmc_tsc_from_perf_page(double *ret_hz)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
					.config = PERF_COUNT_SW_DUMMY, .exclude_kernel = 1, .exclude_hv = 1 };
	long page = sysconf(_SC_PAGESIZE);
	volatile struct perf_event_mmap_page *pg;
	uint32_t seq, mult = 0;
	uint16_t shift = 0;
	bool cap = false;
	int fd, rc;

	fd = pmc_perf_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return fd;
	pg = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		rc = -errno;
		close(fd);
		return rc;
	}
	for (int tries = 0; tries < 100; tries++) {
		seq = pg->lock;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		cap = pg->cap_user_time;
		mult = pg->time_mult;
		shift = pg->time_shift;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (pg->lock == seq)
			break;
	}
	munmap((void *)pg, (size_t)page);
	close(fd);
	if (!cap)
		return -ENODATA;
	return pmc_tsc_from_mult_shift(mult, shift, ret_hz);
}
