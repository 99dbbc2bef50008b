/* SPDX-License-Identifier: MIT */
#include "info/tsc.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "info/cpuid.h"
#include "perf/perf.h"

int pmc_tsc_from_cpuid15(uint32_t eax, uint32_t ebx, uint32_t ecx, double *ret_hz)
{
	if (!eax || !ebx || !ecx)
		return -ENODATA;
	*ret_hz = (double)ecx * (double)ebx / (double)eax;
	return 0;
}

int pmc_tsc_from_mult_shift(uint32_t time_mult, uint16_t time_shift, double *ret_hz)
{
	if (!time_mult || time_shift > 63)
		return -EINVAL;
	*ret_hz = 1e9 * ldexp(1.0, time_shift) / (double)time_mult;
	return 0;
}

int pmc_tsc_from_model_name(const char *model_name, double *ret_hz)
{
	const char *at = strrchr(model_name, '@');
	char *end;
	double v;

	if (!at)
		return -ENODATA;
	at++;
	while (*at == ' ')
		at++;
	v = strtod(at, &end);
	if (end == at || !(v > 0) || !isfinite(v))
		return -ENODATA;
	while (*end == ' ')
		end++;
	if (!strncasecmp(end, "GHz", 3))
		v *= 1e9;
	else if (!strncasecmp(end, "MHz", 3))
		v *= 1e6;
	else
		return -ENODATA;
	*ret_hz = v;
	return 0;
}

#if defined(__x86_64__) || defined(__i386__)
static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static int from_cpuid(double *ret_hz)
{
	struct pmc_cpuid_regs r;

	if (!pmc_cpuid(0x15, 0, &r))
		return -ENODATA;
	return pmc_tsc_from_cpuid15(r.eax, r.ebx, r.ecx, ret_hz);
}

static int from_perf_mmap(double *ret_hz)
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

static int from_cpuinfo(double *ret_hz)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];
	int rc = -ENODATA;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			line[strcspn(line, "\n")] = '\0';
			rc = pmc_tsc_from_model_name(line, ret_hz);
			break;
		}
	fclose(f);
	return rc;
}

static uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* 100 ms between two (rdtsc, clock) pairs: enough for ~1e-5 relative error with a ~1 us clock read. */
static int from_calibration(double *ret_hz)
{
	const struct timespec nap = { 0, 100000000 };
	uint64_t t0 = raw_ns(), c0 = rdtsc(), t1, c1;

	nanosleep(&nap, NULL);
	c1 = rdtsc();
	t1 = raw_ns();
	if (t1 <= t0 || c1 <= c0)
		return -ENODEV;
	*ret_hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
	return 0;
}
#endif

int pmc_tsc_hz(double *ret_hz, const char **ret_source)
{
	static double hz;
	static const char *source;

#if defined(__x86_64__) || defined(__i386__)
	if (!source) {
		if (!from_cpuid(&hz))
			source = "cpuid-0x15";
		else if (!from_perf_mmap(&hz))
			source = "perf-mmap";
		else if (!from_cpuinfo(&hz))
			source = "cpuinfo-model-name";
		else if (!from_calibration(&hz))
			source = "calibration";
	}
#endif
	if (!source)
		return -ENODEV;
	*ret_hz = hz;
	if (ret_source)
		*ret_source = source;
	return 0;
}
