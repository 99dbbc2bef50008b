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

int pmc_read_whole_file(const char *path, size_t max, char **ret, size_t *ret_len, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	struct stat st;
	size_t len = 0, cap;
	char *buf;

	if (fd < 0)
		return fail(errno, why, whylen, NULL);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = fstat(fd, &st) < 0 ? errno : EINVAL;
		close(fd);
		return fail(rc, why, whylen, rc == EINVAL ? "not a regular file" : NULL);
	}
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
