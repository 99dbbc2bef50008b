/* SPDX-License-Identifier: MIT */
/* Whole-or-nothing file writes (file_write.h). */
#include "util/file_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
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

int pmc_make_temp_at(int dirfd, const char *base, char **ret)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	if (asprintf(ret, "%s.pmctool-XXXXXX", base) < 0) {
		*ret = NULL;
		return -ENOMEM;
	}
	for (int tries = 0; tries < 100; tries++) {
		char *x = *ret + strlen(*ret) - 6;
		unsigned char rnd[6];
		int fd;

		if (getentropy(rnd, sizeof(rnd)))
			break;
		for (int i = 0; i < 6; i++)
			x[i] = digits[rnd[i] % (sizeof(digits) - 1)];
		fd = openat(dirfd, *ret, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			fd = -errno;
			free(*ret);
			*ret = NULL;
			return fd;
		}
	}
	free(*ret);
	*ret = NULL;
	return -EEXIST;
}

/* The rename's target in dirfd still names the file old describes (not a link, not another file put there). */
static bool still_there(int dirfd, const char *base, const struct stat *old)
{
	struct stat st;

	return fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == old->st_dev &&
	       st.st_ino == old->st_ino;
}

int pmc_write_renamed_at(int dirfd, const char *base, const struct stat *old, bool verify, const char *buf,
			 size_t len)
{
	char *tmp = NULL;
	int fd = pmc_make_temp_at(dirfd, base, &tmp), r = 0;

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
	if (!r && verify && old && !still_there(dirfd, base, old))
		r = -EAGAIN; /* replaced while the report was written: leave the new file alone */
	if (!r && renameat(dirfd, tmp, dirfd, base))
		r = -errno;
	if (r)
		unlinkat(dirfd, tmp, 0);
	free(tmp);
	return r;
}

int pmc_split_dir(const char *path, int *ret_dirfd, char **ret_base)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	*ret_base = NULL;
	if (slash && !slash[1])
		return -EISDIR;
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	*ret_base = strdup(slash ? slash + 1 : path);
	if (!dir || !*ret_base) {
		free(dir);
		free(*ret_base);
		*ret_base = NULL;
		return -ENOMEM;
	}
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0) {
		fd = -errno;
		free(*ret_base);
		*ret_base = NULL;
		return fd;
	}
	*ret_dirfd = fd;
	return 0;
}

int pmc_write_renamed(const char *target, const struct stat *old, const char *buf, size_t len)
{
	char *base;
	int dirfd, r = pmc_split_dir(target, &dirfd, &base);

	if (r)
		return r;
	r = pmc_write_renamed_at(dirfd, base, old, false, buf, len);
	close(dirfd);
	free(base);
	return r;
}
