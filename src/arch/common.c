/* SPDX-License-Identifier: MIT */
/* Helpers every architecture's hooks share: /proc/cpuinfo fields, the core PMU's sysfs directory. */
#include "arch/common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "info/sysfs.h"

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
