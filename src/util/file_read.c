/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_read.h"

static int fail(int e, char *why, size_t whylen, const char *what)
{
	if (why && whylen)
		snprintf(why, whylen, "%s", what ? what : strerror(e));
	return -e;
}

int pmc_open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		rc = fstat(fd, st) < 0 ? -errno : S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
		close(fd);
		return rc;
	}
	return fd; /* O_NONBLOCK changes nothing for a regular file */
}

const char *pmc_open_regular_why(int rc)
{
	if (rc == -EINVAL)
		return "not a regular file (a FIFO, device or socket): pmctool reads it from a file, never waits for a "
		       "writer; save it to a file first";
	if (rc == -EISDIR)
		return "a directory, not a file";
	return strerror(-rc);
}

int pmc_read_whole_file(const char *path, size_t max, char **ret, size_t *ret_len, char *why, size_t whylen)
{
	struct stat st;
	int fd = pmc_open_regular(path, &st), rc = 0;
	size_t len = 0, cap;
	char *buf;

	if (fd < 0)
		return fail(-fd, why, whylen, pmc_open_regular_why(fd));
	if ((size_t)st.st_size > max) {
		close(fd);
		return fail(EFBIG, why, whylen, "larger than the limit for this file");
	}
	cap = (size_t)st.st_size + 1;
	if (!(buf = malloc(cap + 1))) {
		close(fd);
		return fail(ENOMEM, why, whylen, NULL);
	}
	/* Read to the end (the file may grow meanwhile), one byte past max at most to notice it. */
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;
			if (cap > max) {
				rc = EFBIG;
				break;
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			if (!(nb = realloc(buf, cap + 1))) {
				rc = ENOMEM;
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? errno : 0;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (!rc && len > max)
		rc = EFBIG;
	if (rc) {
		free(buf);
		return fail(rc, why, whylen, rc == EFBIG ? "larger than the limit for this file" : NULL);
	}
	buf[len] = '\0';
	*ret = buf;
	*ret_len = len;
	return 0;
}
