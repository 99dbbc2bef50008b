/* SPDX-License-Identifier: MIT */
/* Whole-or-nothing file writes (file_write.h). */
#include "util/file_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int pmc_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int pmc_make_temp(const char *target, char **ret)
{
	int fd;

	if (asprintf(ret, "%s.pmctool-XXXXXX", target) < 0) {
		*ret = NULL;
		return -ENOMEM;
	}
	fd = mkstemp(*ret);
	if (fd < 0) {
		fd = -errno;
		free(*ret);
		*ret = NULL;
	}
	return fd;
}

int pmc_write_renamed(const char *target, const struct stat *old, const char *buf, size_t len)
{
	char *tmp = NULL;
	int fd = pmc_make_temp(target, &tmp), r = 0;

	if (fd < 0)
		return fd;
	if (old) {
		if (fchown(fd, old->st_uid, old->st_gid) && geteuid() == 0)
			r = -errno;
		if (!r && fchmod(fd, old->st_mode & 07777))
			r = -errno;
	} else {
		mode_t um = umask(0);
		umask(um);
		if (fchmod(fd, 0666 & ~um))
			r = -errno;
	}
	if (!r)
		r = pmc_write_all(fd, buf, len);
	if (!r && fsync(fd))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	if (!r && rename(tmp, target))
		r = -errno;
	if (r)
		unlink(tmp);
	free(tmp);
	return r;
}
