/* SPDX-License-Identifier: MIT */
#include "sys/perf_access.h"

#include <limits.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/sysfs.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

int pmc_perf_paranoid(void)
{
	long v;

	if (pmc_sysfs_read_long("/proc/sys/kernel/perf_event_paranoid", &v) || v < INT_MIN + 1 || v > INT_MAX)
		return INT_MIN;
	return (int)v;
}

void pmc_perf_caps(bool *ret_perfmon, bool *ret_sys_admin)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	*ret_perfmon = *ret_sys_admin = false;
	if (syscall(SYS_capget, &hdr, data))
		return;
	*ret_sys_admin = data[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32));
	*ret_perfmon = data[CAP_PERFMON / 32].effective & (1u << (CAP_PERFMON % 32));
}
