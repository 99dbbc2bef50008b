/* SPDX-License-Identifier: MIT */
#include "info/privilege.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "sys/perf_access.h"
#include "perf/probe.h"

void pmc_privilege_read(struct pmc_privilege *ret)
{
	ret->paranoid = pmc_perf_paranoid();
	pmc_perf_caps(&ret->cap_perfmon, &ret->cap_sys_admin);
	ret->kernel_err = -pmc_perf_probe_user_counting();
}

static bool refused(int err)
{
	return err == EACCES || err == EPERM;
}

enum pmc_privilege_level pmc_privilege_level(const struct pmc_privilege *p)
{
	if (p->cap_perfmon || p->cap_sys_admin)
		return PMC_PRIV_FULL;
	/* Tried, then explained: the kernel's answer decides, whatever the sysctl's number (3 counts like 2 on kernels
	 * without Debian's patch). */
	if (refused(p->kernel_err))
		return PMC_PRIV_DENIED;
	if (p->paranoid == INT_MIN)
		return PMC_PRIV_USER_ONLY; /* unknown: try, and let perf_event_open's errno speak */
	return p->paranoid >= 2 ? PMC_PRIV_USER_ONLY : PMC_PRIV_FULL;
}

int pmc_privilege_explain(const struct pmc_privilege *p, int err, char *buf, size_t len)
{
	enum pmc_privilege_level lvl = pmc_privilege_level(p);
	char val[16];

	if (p->paranoid == INT_MIN)
		snprintf(val, sizeof(val), "unreadable");
	else
		snprintf(val, sizeof(val), "%d", p->paranoid);
	if (lvl == PMC_PRIV_DENIED && (p->paranoid >= 3 || p->paranoid == INT_MIN)) {
		snprintf(buf, len, "the kernel refused to count (%s) and kernel.perf_event_paranoid is %s: "
			 "performance counters are closed to users without "
			 "CAP_PERFMON (or CAP_SYS_ADMIN). Ask an administrator for 'sysctl kernel.perf_event_paranoid=2' "
			 "(each user counts only their own programs, in user mode) or for CAP_PERFMON on pmctool "
			 "(setcap cap_perfmon+ep pmctool); pmctool never changes the setting itself",
			 p->kernel_err == EPERM ? "EPERM" : "EACCES", val);
		return 0;
	}
	if (lvl == PMC_PRIV_DENIED)
		err = p->kernel_err; /* refused below 3: a security module or a container */
	if (err != EACCES && err != EPERM) {
		if (len)
			buf[0] = '\0';
		return -EINVAL;
	}
	if (lvl == PMC_PRIV_USER_ONLY)
		snprintf(buf, len, "kernel.perf_event_paranoid is %s: without CAP_PERFMON only the user mode of your "
			 "own programs can be counted; use :u, or ask for CAP_PERFMON or "
			 "'sysctl kernel.perf_event_paranoid=1'", val);
	else
		snprintf(buf, len, "perf_event_open was refused (%s) although kernel.perf_event_paranoid is %s%s: a "
			 "security module (SELinux, lockdown) or a container may forbid it", err == EACCES ?
			 "EACCES" : "EPERM", val, p->cap_perfmon || p->cap_sys_admin ? " and CAP_PERFMON is held" : "");
	return 0;
}
