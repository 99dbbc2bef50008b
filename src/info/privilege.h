/* SPDX-License-Identifier: MIT */
/* What kernel.perf_event_paranoid and the process's capabilities allow, and how to say so. Pure functions: the
 * caller reads the sysctl and the capabilities (pmc_perf_paranoid, pmc_perf_caps) and passes them in, so
 * every combination can be tested on any machine. pmctool never changes the sysctl itself. */
#ifndef PMC_INFO_PRIVILEGE_H
#define PMC_INFO_PRIVILEGE_H

#include <stdbool.h>
#include <stddef.h>

struct pmc_privilege {
	int paranoid;       /* kernel.perf_event_paranoid, INT_MIN when unreadable */
	bool cap_perfmon;   /* effective CAP_PERFMON */
	bool cap_sys_admin; /* effective CAP_SYS_ADMIN */
	int kernel_err;     /* the kernel's answer to a user-mode counter on this process (pmc_perf_probe_user_counting):
			       0 allowed, else the errno; what is allowed is decided from it, not from the number */
};

enum pmc_privilege_level {
	PMC_PRIV_FULL,      /* user and kernel mode of the command: paranoid < 2 or a capability */
	PMC_PRIV_USER_ONLY, /* the command's user mode only (paranoid 2, or unknown): kernel-mode counts are excluded */
	PMC_PRIV_DENIED,    /* the kernel refused even that (EACCES/EPERM): paranoid >= 3 on Debian, Ubuntu and
			       Android kernels, or a security module; on other kernels 3 behaves like 2 */
};

/* This process's paranoid value and capabilities, read now, and the kernel's answer to one user-mode counter. */
void pmc_privilege_read(struct pmc_privilege *ret);

/* What a process with these privileges may count. */
enum pmc_privilege_level pmc_privilege_level(const struct pmc_privilege *p);

/* A message for the user when the level is PMC_PRIV_DENIED, or for an EACCES/EPERM from perf_event_open: names
 * kernel.perf_event_paranoid, its value, and CAP_PERFMON, and says what to do. Writes "" and returns -EINVAL when
 * err is not a permission error and the level is not DENIED. Otherwise returns 0. */
int pmc_privilege_explain(const struct pmc_privilege *p, int err, char *buf, size_t len);

#endif
