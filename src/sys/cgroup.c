/* SPDX-License-Identifier: MIT */
/* The cgroup a perf event may be restricted to (sys/cgroup.h). */
#include "sys/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* mountinfo's fields: id parent major:minor root mountpoint options [optional...] - fstype source superoptions */
static bool mount_line(const char *line, char *point, size_t len, bool *v2, bool *v1_perf)
{
	char mp[4096], fstype[64], super[1024];
	const char *dash = strstr(line, " - ");

	if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1 ||
	    sscanf(dash + 3, "%63s %*s %1023s", fstype, super) != 2)
		return false;
	*v2 = !strcmp(fstype, "cgroup2");
	*v1_perf = !strcmp(fstype, "cgroup") && strstr(super, "perf_event") != NULL;
	if (!*v2 && !*v1_perf)
		return false;
	snprintf(point, len, "%s", mp);
	return true;
}

int pmc_cgroup_mount(char *buf, size_t len)
{
	char line[8192], point[4096], v2[4096] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");
	bool is_v2, is_v1;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (mount_line(line, point, sizeof(point), &is_v2, &is_v1)) {
			if (is_v1) { /* a v1 perf_event hierarchy holds the controller: v2 then does not */
				fclose(f);
				snprintf(buf, len, "%s", point);
				return 0;
			}
			if (!v2[0])
				snprintf(v2, sizeof(v2), "%s", point);
		}
	fclose(f);
	if (!v2[0])
		return -ENOENT;
	snprintf(buf, len, "%s", v2);
	return 0;
}

int pmc_cgroup_open(const char *name)
{
	char mount[4096], path[8192];
	int fd, r;

	if (!*name || strstr(name, ".."))
		return -EINVAL;
	r = pmc_cgroup_mount(mount, sizeof(mount));
	if (r)
		return r;
	while (*name == '/')
		name++;
	snprintf(path, sizeof(path), "%s/%s", mount, name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
