/* SPDX-License-Identifier: MIT */
/* The open-file limit of pmctool's own process: every counter is a file descriptor. */
#ifndef PMC_UTIL_FDLIMIT_H
#define PMC_UTIL_FDLIMIT_H

#include <stddef.h>

/* Make sure this process may hold `need` descriptors: raise the soft RLIMIT_NOFILE up to the hard limit when it is
 * lower (this process only, not a system setting). 0 when the limit is enough; -EMFILE when even the hard limit is
 * too low; other -errno from setrlimit. *ret_limit gets the soft limit in force afterwards. */
int pmc_fd_limit_ensure(size_t need, size_t *ret_limit);

/* The same decision on given limits, without system calls: 0 and *ret_soft unchanged when soft >= need; 1 and
 * *ret_soft = the new soft limit when raising helps; -EMFILE when hard < need. */
int pmc_fd_limit_plan(size_t need, size_t soft, size_t hard, size_t *ret_soft);

#endif
