/* SPDX-License-Identifier: MIT */
#include "info/privilege.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "info/inventory.h"

void pmc_privilege_read(struct pmc_privilege *ret)
{
	ret->paranoid = pmc_inventory_paranoid();
	pmc_inventory_caps(&ret->cap_perfmon, &ret->cap_sys_admin);
}

enum pmc_privilege_level pmc_privilege_level(const struct pmc_privilege *p)
{
	if (p->cap_perfmon || p->cap_sys_admin)
		return PMC_PRIV_FULL;
	if (p->paranoid == INT_MIN)
		return PMC_PRIV_USER_ONLY; /* unknown: try, and let perf_event_open's errno speak */
	if (p->paranoid >= 3)
		return PMC_PRIV_DENIED;
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
	if (lvl == PMC_PRIV_DENIED) {
		snprintf(buf, len, "kernel.perf_event_paranoid is %s: performance counters are closed to users without "
			 "CAP_PERFMON (or CAP_SYS_ADMIN). Ask an administrator for 'sysctl kernel.perf_event_paranoid=2' "
			 "(each user counts only their own programs, in user mode) or for CAP_PERFMON on pmctool "
			 "(setcap cap_perfmon+ep pmctool); pmctool never changes the setting itself", val);
		return 0;
	}
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
