/* SPDX-License-Identifier: MIT */
/* Helpers every architecture's hooks share: /proc/cpuinfo fields, the core PMU's sysfs directory. */
#include "arch/common.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"

#include "sys/sysfs.h"

int pmc_arch_cpuinfo_field(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path ? path : "/proc/cpuinfo", "re");
	size_t klen = strlen(key);
	char line[512];
	int rc = -ENOENT;

	if (len)
		buf[0] = '\0';
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		size_t n;

		if (!colon || strncmp(line, key, klen))
			continue;
		/* The key, then only blanks up to the colon ("model name\t: ..."). */
		n = strspn(line + klen, " \t");
		if (line + klen + n != colon)
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

int pmc_arch_pmu_dir(const char *name, char *buf, size_t len)
{
	char path[600];
	long type;

	snprintf(buf, len, "%s/bus/event_source/devices/%s", pmc_sysfs_root(), name);
	snprintf(path, sizeof(path), "%s/type", buf);
	return pmc_sysfs_read_long(path, &type);
}

bool pmc_arch_pmu_dir_is_core(const char *dir)
{
	char path[1100];
	long type;

	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/type", dir);
	if (!pmc_sysfs_read_long(path, &type) && type == PERF_TYPE_RAW)
		return true;
	snprintf(path, sizeof(path), "%s/cpus", dir);
	return access(path, F_OK) == 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int pmc_arch_pmu_find(bool (*match)(const char *name, const char *dir, void *ctx), void *ctx, char *buf, size_t len)
{
	char root[600], dir[900];
	struct dirent **ents;
	int n, rc = -ENODEV;

	snprintf(root, sizeof(root), "%s/bus/event_source/devices", pmc_sysfs_root());
	n = scandir(root, &ents, NULL, by_name);
	if (n < 0)
		return -ENODEV;
	for (int i = 0; i < n; i++) {
		if (rc && ents[i]->d_name[0] != '.' && strlen(ents[i]->d_name) < 200) {
			snprintf(dir, sizeof(dir), "%s/%s", root, ents[i]->d_name);
			if (match(ents[i]->d_name, dir, ctx) && !pmc_arch_pmu_dir(ents[i]->d_name, buf, len))
				rc = 0;
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

static bool core_match(const char *name, const char *dir, void *ctx)
{
	(void)ctx;
	return pmc_arch_core_pmu(name, dir);
}

int pmc_arch_core_pmu_scan(char *buf, size_t len)
{
	return pmc_arch_pmu_find(core_match, NULL, buf, len);
}

/* Asked once per failed hardware open and by several stages: the answer is kept for the sysfs root it came from
 * (PMCTOOL_SYSFS_ROOT, which tests change between cases). */
bool pmc_arch_has_core_pmu(void)
{
	static char root[512];
	static bool known, has;
	char dir[512];

	if (known && !strcmp(root, pmc_sysfs_root()))
		return has;
	has = pmc_arch_core_pmu_dir(dir, sizeof(dir)) == 0;
	snprintf(root, sizeof(root), "%s", pmc_sysfs_root());
	known = true;
	return has;
}

void pmc_arch_fact_text(struct pmc_arch_fact *ret, size_t max, size_t *n, const char *label, const char *fmt, ...)
{
	va_list ap;

	if (*n >= max)
		return;
	ret[*n] = (struct pmc_arch_fact){ .label = label };
	va_start(ap, fmt);
	vsnprintf(ret[*n].text, sizeof(ret[*n].text), fmt, ap);
	va_end(ap);
	(*n)++;
}

void pmc_arch_fact_json(struct pmc_arch_fact *ret, size_t max, size_t *n, const char *key, bool top, bool string,
			const char *fmt, ...)
{
	va_list ap;

	if (*n >= max)
		return;
	ret[*n] = (struct pmc_arch_fact){ .key = key, .top = top, .json_string = string };
	va_start(ap, fmt);
	vsnprintf(ret[*n].json, sizeof(ret[*n].json), fmt, ap);
	va_end(ap);
	(*n)++;
}

bool pmc_arch_fact_json_begin(struct pmc_arch_fact *ret, size_t max, size_t *n, const char *key, bool top,
			      struct pmc_jw *w)
{
	FILE *f;

	if (*n >= max)
		return false;
	ret[*n] = (struct pmc_arch_fact){ .key = key, .top = top };
	/* one byte kept for the NUL that fmemopen writes at the end of what was written */
	if (!(f = fmemopen(ret[*n].json, sizeof(ret[*n].json) - 1, "w")))
		return false;
	pmc_jw_init(w, f, 0);
	return true;
}

void pmc_arch_fact_json_end(struct pmc_jw *w, size_t *n)
{
	fclose(w->f);
	(*n)++;
}

size_t pmc_arch_describe_midr(const struct pmc_arch_cpu *c, const char *model_name, struct pmc_arch_fact *ret,
			      size_t max)
{
	size_t n = 0;

	pmc_arch_fact_text(ret, max, &n, "architecture", "%s", pmc_arch_name());
	if (!c->source) {
		pmc_arch_fact_text(ret, max, &n, "identity", "unknown: neither midr_el1 in sysfs nor /proc/cpuinfo names "
				   "the CPU");
	} else {
		pmc_arch_fact_text(ret, max, &n, "vendor", "%s", c->vendor);
		pmc_arch_fact_text(ret, max, &n, "model", "%s", c->name);
		pmc_arch_fact_text(ret, max, &n, "MIDR_EL1", "%#010x (implementer %#x, part %#x, variant %u, revision %u; "
				   "from %s)", c->midr, c->implementer, c->part, c->variant, c->revision, c->source);
	}
	pmc_arch_fact_json(ret, max, &n, "vendor", false, true, "%s", "");
	pmc_arch_fact_json(ret, max, &n, "model_name", false, true, "%s", model_name);
	pmc_arch_fact_json(ret, max, &n, "family", false, false, "0");
	pmc_arch_fact_json(ret, max, &n, "model", false, false, "0");
	pmc_arch_fact_json(ret, max, &n, "stepping", false, false, "0");
	pmc_arch_fact_json(ret, max, &n, "hypervisor", false, false, "%s", c->hypervisor ? "true" : "false");
	pmc_arch_fact_json(ret, max, &n, "architecture", false, false, "\"%s\"", pmc_arch_name());
	pmc_arch_fact_json(ret, max, &n, "name", false, true, "%s", c->name);
	if (c->midr)
		pmc_arch_fact_json(ret, max, &n, "midr", false, false, "\"%#010x\"", c->midr);
	else
		pmc_arch_fact_json(ret, max, &n, "midr", false, false, "null");
	pmc_arch_fact_json(ret, max, &n, "cpuid_arch_perfmon", true, false, "null");
	pmc_arch_fact_json(ret, max, &n, "amd_perfmon", true, false, "null");
	return n;
}
