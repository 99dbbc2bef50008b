/* SPDX-License-Identifier: MIT */
#include "sys/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pmc_sysfs_root(void)
{
	const char *r = getenv("PMCTOOL_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

int pmc_sysfs_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = '\0';
		fclose(f);
		return 0;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	if (buf[n] != '\n' && strlen(buf) == len - 1)
		return -ENOSPC;
	buf[n] = '\0';
	return 0;
}

int pmc_sysfs_read_long(const char *path, long *ret)
{
	char buf[64], *end;
	long v;
	int rc = pmc_sysfs_read_line(path, buf, sizeof(buf));

	if (rc)
		return rc;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (end == buf || *end || errno)
		return -EINVAL;
	*ret = v;
	return 0;
}

static int read_int_or(const char *dir, const char *file, int dflt)
{
	char path[1024];
	long v;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return dflt;
	return pmc_sysfs_read_long(path, &v) || v < -1 || v > 0x7fffffff ? dflt : (int)v;
}

static unsigned count_events(const char *dir)
{
	char path[1024];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && !strchr(de->d_name, '.'))
			n++;
	closedir(d);
	return n;
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct pmc_sysfs_pmu *)a)->name, ((const struct pmc_sysfs_pmu *)b)->name);
}

int pmc_sysfs_scan_pmus(struct pmc_sysfs_pmu *ret, size_t max, size_t *ret_n)
{
	char base[512], dir[1024];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(base, sizeof(base), "%s/bus/event_source/devices", pmc_sysfs_root());
	d = opendir(base);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max) {
		struct pmc_sysfs_pmu *p = &ret[n];

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(p->name))
			continue;
		memset(p, 0, sizeof(*p));
		strcpy(p->name, de->d_name);
		snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name);
		p->type = read_int_or(dir, "type", -1);
		if (p->type < 0)
			continue; /* not a PMU directory */
		p->is_core = !strcmp(p->name, "cpu") || !strcmp(p->name, "cpu_core") || !strcmp(p->name, "cpu_atom");
		snprintf(dir, sizeof(dir), "%s/%s/caps/pmu_name", base, de->d_name);
		if (pmc_sysfs_read_line(dir, p->pmu_name, sizeof(p->pmu_name)))
			p->pmu_name[0] = '\0';
		snprintf(dir, sizeof(dir), "%s/%s", base, de->d_name);
		p->max_precise = read_int_or(dir, "caps/max_precise", -1);
		p->branches = read_int_or(dir, "caps/branches", -1);
		p->rdpmc = read_int_or(dir, "rdpmc", -1);
		p->nevents = count_events(dir);
		snprintf(dir, sizeof(dir), "%s/%s/cpus", base, de->d_name);
		if (pmc_sysfs_read_line(dir, p->cpus, sizeof(p->cpus)))
			p->cpus[0] = '\0';
		n++;
	}
	closedir(d);
	qsort(ret, n, sizeof(*ret), cmp_pmu);
	*ret_n = n;
	return 0;
}

int pmc_sysfs_smt_active(void)
{
	char path[512];
	long v;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/smt/active", pmc_sysfs_root());
	return pmc_sysfs_read_long(path, &v) ? -1 : v != 0;
}

/* One CPU number at p: digits only, at most PMC_CPULIST_MAX (a saturated strtol is out of range, not a CPU). */
static int cpu_number(const char *p, char **end, long *ret)
{
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	*ret = strtol(p, end, 10);
	return errno == ERANGE || *ret > PMC_CPULIST_MAX ? -ERANGE : 0;
}

int pmc_cpulist_ranges(const char *list, int (*range)(long a, long b, void *ctx), void *ctx)
{
	const char *p = list;

	while (*p) {
		char *end;
		long a, b;
		int r;

		r = cpu_number(p, &end, &a);
		if (r)
			return r;
		b = a;
		if (*end == '-') {
			r = cpu_number(end + 1, &end, &b);
			if (r)
				return r;
		}
		if (b < a || (*end && *end != ','))
			return -EINVAL;
		r = range(a, b, ctx);
		if (r)
			return r;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int count_range(long a, long b, void *ctx)
{
	if (b - a > 65535)
		return -EINVAL;
	*(unsigned *)ctx += (unsigned)(b - a + 1);
	return 0;
}

int pmc_cpulist_count(const char *list, unsigned *ret_count)
{
	unsigned total = 0;
	int r = pmc_cpulist_ranges(list, count_range, &total);

	if (r)
		return r;
	*ret_count = total;
	return 0;
}

static int has_range(long a, long b, void *ctx)
{
	long cpu = *(const int *)ctx;

	return cpu >= a && cpu <= b;
}

bool pmc_cpulist_has(const char *list, int cpu)
{
	if (cpu < 0 || pmc_cpulist_count(list, &(unsigned){ 0 }))
		return false;
	return pmc_cpulist_ranges(list, has_range, &cpu) == 1;
}

int pmc_sysfs_smt_siblings(int cpu, char *buf, size_t len, unsigned *ret_count)
{
	static const char *const names[] = { "core_cpus_list", "thread_siblings_list" };
	char path[512];
	int rc = -ENOENT;

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/topology/%s", pmc_sysfs_root(), cpu,
			 names[i]);
		rc = pmc_sysfs_read_line(path, buf, len);
		if (!rc)
			return pmc_cpulist_count(buf, ret_count);
	}
	return rc;
}
