/* SPDX-License-Identifier: MIT */
/* Writing to a path that may be a FIFO without a reader: open(2) would block for ever, so it is opened O_NONBLOCK
 * (-ENXIO then) and made blocking again once open, so the reader sets the pace. Static inline and libc only: pmctool's
 * -o and -I (output/dest.c) and the region library's report (regions/lib/rg_write.c) share it. */
#ifndef PMC_SYS_FIFO_H
#define PMC_SYS_FIFO_H

#include <errno.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

/* fd blocking again (O_NONBLOCK cleared). 0 or -errno. */
static inline int pmc_fd_unblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ? -errno : 0;
}

/* open(2) with flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, blocking again once open. The fd, or -errno (-ENXIO: a
 * FIFO without a reader). */
static inline int pmc_open_unblocked(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, mode), r;

	if (fd < 0)
		return -errno;
	if ((r = pmc_fd_unblock(fd)) < 0) {
		close(fd);
		return r;
	}
	return fd;
}

#endif
