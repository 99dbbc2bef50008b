/* SPDX-License-Identifier: MIT */
/* The machine the ceilings belong to: its caches (the stream kernel's working sets) and its fingerprint (the cache
 * key: ceilings measured on another CPU, kernel or CPU count are never reused). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roofline/roofline.h"
#include "sys/sysfs.h"

#define KIB UINT64_C(1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)

/* "48K", "2048K", "32M" as sysfs writes cache sizes: bytes, 0 when malformed. */
static uint64_t parse_size(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || v > (1ull << 40))
		return 0;
	switch (*end) {
	case 'K': return v * KIB;
	case 'M': return v * MIB;
	case 'G': return v * GIB;
	case '\0': return v;
	default: return 0;
	}
}

void pmc_rf_caches_read(struct pmc_rf_caches *ret)
{
	memset(ret, 0, sizeof(*ret));
	for (int i = 0; i < 16; i++) {
		char path[512], buf[128];
		long level;
		unsigned shared = 1;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/level", pmc_sysfs_root(), i);
		if (pmc_sysfs_read_long(path, &level) < 0)
			break;
		if (level < 1 || level > 3)
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/type", pmc_sysfs_root(), i);
		if (pmc_sysfs_read_line(path, buf, sizeof(buf)) < 0 || !strcmp(buf, "Instruction"))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/size", pmc_sysfs_root(), i);
		if (pmc_sysfs_read_line(path, buf, sizeof(buf)) < 0)
			continue;
		ret->size[level - 1] = parse_size(buf);
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/coherency_line_size",
			 pmc_sysfs_root(), i);
		long line;
		if (pmc_sysfs_read_long(path, &line) == 0 && line >= 16 && line <= 1024)
			ret->line[level - 1] = (unsigned)line;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/shared_cpu_list", pmc_sysfs_root(),
			 i);
		if (pmc_sysfs_read_line(path, buf, sizeof(buf)) == 0 && pmc_cpulist_count(buf, &shared) == 0 && shared)
			ret->shared[level - 1] = shared;
		else
			ret->shared[level - 1] = 1;
	}
}

uint64_t pmc_rf_footprint(const struct pmc_rf_caches *c, enum pmc_rf_level level, unsigned threads)
{
	uint64_t last = 0, f;

	if (threads < 1)
		threads = 1;
	if (level == PMC_RF_MEM) {
		for (int i = 0; i < PMC_RF_MEM; i++)
			if (c->size[i])
				last = c->size[i];
		f = 8 * last < 256 * MIB ? 256 * MIB : 8 * last;
		f /= threads;
		f = f < 64 * MIB ? 64 * MIB : f;
		return f > GIB ? GIB : f;
	}
	if (!c->size[level])
		return 0;
	f = c->size[level] / 2;
	/* A shared cache holds the working sets of every thread that shares it. */
	if (c->shared[level] > 1 && threads > 1)
		f /= threads < c->shared[level] ? threads : c->shared[level];
	f &= ~(KIB - 1);
	return f < 4 * KIB ? 4 * KIB : f;
}

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

void pmc_rf_fingerprint(const char *env_text, struct pmc_rf_ceilings *ret)
{
	struct pmc_rf_caches c;
	cpu_set_t set;
	char text[512];
	int ncpus = 0;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		ncpus = CPU_COUNT(&set);
	pmc_rf_caches_read(&c);
	snprintf(text, sizeof(text), "%s; %d CPUs; caches %lluK/%lluK/%lluK", env_text ? env_text : "", ncpus,
		 (unsigned long long)(c.size[0] / KIB), (unsigned long long)(c.size[1] / KIB),
		 (unsigned long long)(c.size[2] / KIB));
	snprintf(ret->fingerprint, sizeof(ret->fingerprint), "%016llx",
		 (unsigned long long)fnv1a(0xcbf29ce484222325ull, text));
	snprintf(ret->machine, sizeof(ret->machine), "%.*s", (int)sizeof(ret->machine) - 1, text);
}
