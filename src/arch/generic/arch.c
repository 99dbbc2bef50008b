/* SPDX-License-Identifier: MIT */
/* An architecture pmctool has no port for: its name and no kernels; every other hook is arch/default.c's (read()
 * only, no in-process counter reads, the timer is CLOCK_MONOTONIC_RAW). */
#include "arch/arch.h"

#include <stdio.h>
#include <sys/utsname.h>

const char *pmc_arch_name(void)
{
	static struct utsname u;

	if (!u.machine[0] && uname(&u))
		snprintf(u.machine, sizeof(u.machine), "this architecture");
	return u.machine;
}

/* No assembly kernels (not a weak default: see arch/default.c). */
const struct pmc_kernel *pmc_arch_kernels(size_t *ret_n)
{
	*ret_n = 0;
	return NULL;
}
