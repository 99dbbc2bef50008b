/* SPDX-License-Identifier: MIT */
#include "run/group.h"

#include <errno.h>
#include <unistd.h>

int pmc_group_open(pmc_group_open_fn open, void *ctx, const struct pmc_event *ev, int leader, struct pmc_count *c,
		   int *ret_fd)
{
	int fd = open(ev, leader, c, ctx), alone;

	if (fd != -EINVAL || leader < 0) {
		*ret_fd = fd;
		return 0;
	}
	/* Does it fail alone too? Then the encoding is bad, not the combination. */
	alone = open(ev, -1, c, ctx);
	if (alone >= 0) {
		close(alone);
		return 1;
	}
	*ret_fd = alone;
	return 0;
}
