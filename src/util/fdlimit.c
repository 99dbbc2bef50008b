/* SPDX-License-Identifier: MIT */
#include "util/fdlimit.h"

#include <errno.h>
#include <sys/resource.h>

int pmc_fd_limit_plan(size_t need, size_t soft, size_t hard, size_t *ret_soft)
{
	if (soft >= need)
		return 0;
	if (hard < need)
		return -EMFILE;
	/* Raise to what is needed with room to spare, not to the hard limit: an "unlimited" hard limit would make
	 * later code that loops over every possible descriptor slow. */
	*ret_soft = need * 2 < hard ? need * 2 : hard;
	return 1;
}

int pmc_fd_limit_ensure(size_t need, size_t *ret_limit)
{
	struct rlimit rl;
	size_t soft;
	int r;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	soft = rl.rlim_cur == RLIM_INFINITY ? (size_t)-1 : (size_t)rl.rlim_cur;
	*ret_limit = soft;
	r = pmc_fd_limit_plan(need, soft, rl.rlim_max == RLIM_INFINITY ? (size_t)-1 : (size_t)rl.rlim_max, &soft);
	if (r <= 0)
		return r;
	rl.rlim_cur = (rlim_t)soft;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		return -errno;
	*ret_limit = soft;
	return 0;
}
