/* SPDX-License-Identifier: MIT */
/* The TSC's rate from what the CPU and the kernel write down: pure parsers, built on every architecture so their
 * unit tests run anywhere (arch.c of x86_64 strings them together in pmc_arch_timer_hz). */
#include "arch/x86_64/tsc.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int pmc_tsc_from_cpuid15(uint32_t eax, uint32_t ebx, uint32_t ecx, double *ret_hz)
{
	if (!eax || !ebx || !ecx)
		return -ENODATA;
	*ret_hz = (double)ecx * (double)ebx / (double)eax;
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
