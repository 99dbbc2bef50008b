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

#include "arch/arch.h"
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

/* Whether the space-separated list holds word. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ' || p[-1] == '\t') && (p[n] == '\0' || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

int pmc_tsc_from_kernel_cpuinfo(const char *cpuinfo, bool has_cpufreq, double *ret_hz)
{
	FILE *f = fopen(cpuinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	double mhz = 0;
	bool known = false, aperf = false, have_flags = false;

	if (!f)
		return -errno;
	/* The first processor's block is enough: the fields are per CPU but the flags and cpu_khz are global. */
	while (getline(&line, &cap, f) > 0 && line[0] != '\n') {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "flags", 5) && strspn(line + 5, " \t") == (size_t)(colon - line - 5)) {
			have_flags = true;
			known = has_word(colon + 1, "tsc_known_freq");
			aperf = has_word(colon + 1, "aperfmperf");
		} else if (!strncmp(line, "cpu MHz", 7)) {
			mhz = strtod(colon + 1, NULL);
		}
	}
	free(line);
	fclose(f);
	/* "cpu MHz" is the kernel's cpu_khz only when neither APERF/MPERF nor a cpufreq driver give a live frequency;
	 * with tsc_known_freq (CPUID or the hypervisor told the kernel the rate) cpu_khz is tsc_khz. */
	if (!have_flags || !known || aperf || has_cpufreq || !(mhz > 0) || !isfinite(mhz))
		return -ENODATA;
	*ret_hz = mhz * 1e6;
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

int pmc_tsc_hz(double *ret_hz, const char **ret_source)
{
	return pmc_arch_timer_hz(ret_hz, ret_source);
}
