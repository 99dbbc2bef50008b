/* SPDX-License-Identifier: MIT */
#include "perf/perf.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "sys/perf_access.h"
#include "sys/sysfs.h"

int pmc_perf_read(int fd, struct pmc_count *ret)
{
	uint64_t buf[3];
	ssize_t n;

	do
		n = read(fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(buf))
		return -EIO;
	ret->value = buf[0];
	ret->enabled = buf[1];
	ret->running = buf[2];
	ret->err = 0;
	ret->status = buf[2] == 0 ? PMC_COUNT_NOT_COUNTED : PMC_COUNT_OK;
	return 0;
}

double pmc_count_scaled(const struct pmc_count *c)
{
	if (c->running == 0 || c->running >= c->enabled)
		return (double)c->value;
	return (double)c->value * ((double)c->enabled / (double)c->running);
}

/* The PMU of this dynamic type counts per CPU only: uncore, RAPL (power), cstate and the like show a cpumask. */
static bool per_cpu_pmu(unsigned type)
{
	char base[512], path[1024];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (type <= PERF_TYPE_BREAKPOINT)
		return false;
	snprintf(base, sizeof(base), "%s/bus/event_source/devices", pmc_sysfs_root());
	d = opendir(base);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		long t;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", base, de->d_name);
		if (pmc_sysfs_read_long(path, &t) || t != (long)type)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpumask", base, de->d_name);
		found = access(path, F_OK) == 0;
		break;
	}
	closedir(d);
	return found;
}

const char *pmc_perf_event_reason_for(int err, const struct perf_event_attr *a, int hardware, bool privileged)
{
	bool refused = err == EACCES || err == EPERM;

	if (pmc_perf_kernel_side_only(a) && (a->exclude_kernel || (refused && !privileged)))
		return a->exclude_kernel ? "the scheduler counts it in kernel mode: in user mode only (:u) it can never "
					   "count, so it is not counted; drop :u"
					 : "the scheduler counts it in kernel mode, which kernel.perf_event_paranoid forbids "
					   "to this user without CAP_PERFMON; in user mode only it can never count, so it is "
					   "not retried so (sysctl kernel.perf_event_paranoid=1, or CAP_PERFMON)";
	if (refused && a->exclude_user && !a->exclude_kernel && !privileged)
		return "counts kernel mode only, which kernel.perf_event_paranoid forbids to this user without "
		       "CAP_PERFMON; not retried in user mode, where it would count nothing";
	/* CAP_PERFMON or CAP_SYS_ADMIN (root) passes every perf_event_paranoid check: the refusal is not its */
	if (refused && privileged)
		return "the kernel refused it to a user with CAP_PERFMON/CAP_SYS_ADMIN, whom kernel.perf_event_paranoid "
		       "does not restrict: a rule of the kernel's own for this event (as for ftrace:function) or a "
		       "security module such as kernel lockdown; pmctool cannot lift it";
	if (err == EINVAL && per_cpu_pmu(a->type))
		return "this PMU counts per CPU, not per task (uncore, RAPL, cstate): the kernel refuses it for a "
		       "workload; it needs system-wide counting";
	return pmc_perf_hw_reason(err, hardware, err == ENOENT && hardware && pmc_arch_has_core_pmu());
}

const char *pmc_perf_event_reason(int err, const struct perf_event_attr *a, int hardware)
{
	bool perfmon = false, sys_admin = false;

	if (err == EACCES || err == EPERM)
		pmc_perf_caps(&perfmon, &sys_admin);
	return pmc_perf_event_reason_for(err, a, hardware, perfmon || sys_admin);
}
