/* SPDX-License-Identifier: MIT */
#include "arch/aarch64/pmceid.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/pmu_format.h"
#include "sys/sysfs.h"

static int event_term(const char *name, const char *value, void *ctx)
{
	if (value && !strcmp(name, "event")) {
		char *end;
		unsigned long long v = strtoull(value, &end, 0);

		if (*end == '\0')
			*(long long *)ctx = (long long)v;
	}
	return 0;
}

int pmc_arm64_event_listed(const char *pmu_dir, uint64_t event, char *why, size_t len)
{
	char path[1024], text[256];
	DIR *d;
	struct dirent *de;
	int found = 0;

	if (!(event <= 0x3f || (event >= 0x4000 && event <= 0x403f)))
		return -1;
	snprintf(path, sizeof(path), "%s/events", pmu_dir);
	d = opendir(path);
	if (!d)
		return -1;
	while (!found && (de = readdir(d))) {
		long long ev = -1;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", pmu_dir, de->d_name);
		if (pmc_sysfs_read_line(path, text, sizeof(text)) == 0 && pmc_sysfs_terms_parse(text, event_term, &ev) == 0 &&
		    ev == (long long)event)
			found = 1;
	}
	closedir(d);
	if (!found && why)
		snprintf(why, len, "event %#llx is not in %.120s/events: the CPU's PMCEID registers say it is not implemented",
			 (unsigned long long)event, pmu_dir);
	return found;
}
