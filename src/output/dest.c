/* SPDX-License-Identifier: MIT */
/* Where a report goes (-o PATH, --log-fd N): written through the path for anything that is not a regular file, the
 * way perf does, and whole-or-nothing (a temporary file renamed over the target) for regular files. */
#include "output/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_write.h"
#include "util/util.h"

/* "/dev/fd/N", "/proc/self/fd/N", "/dev/stdout", "/dev/stderr": the descriptor N itself, not a reopening of it (a
 * socket cannot be reopened, and a reopened file would start at offset 0). -1 for any other path. */
int pmc_output_path_fd(const char *path)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/" };
	uint64_t n;

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(prefixes); i++) {
		size_t l = strlen(prefixes[i]);
		if (!strncmp(path, prefixes[i], l) && pmc_parse_u64(path + l, 0, INT_MAX, &n) == 0)
			return (int)n;
	}
	return -1;
}

static int fd_writable(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -EBADF;
	return (fl & O_ACCMODE) == O_RDONLY ? -EBADF : 0;
}

/* The file a path names after its symbolic links, also when the last link dangles (then the file is created where it
 * points). *ret is malloc'd. */
static int resolve(const char *path, char **ret)
{
	char *cur = strdup(path);

	for (int hops = 0; cur && hops < 40; hops++) {
		char link[PATH_MAX], *next, *slash;
		ssize_t n;
		struct stat st;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode)) {
			*ret = cur;
			return 0;
		}
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			free(cur);
			return -errno;
		}
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = strdup(link);
		} else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, link) < 0) {
			next = NULL;
		}
		free(cur);
		cur = next;
	}
	if (!cur)
		return -ENOMEM;
	free(cur);
	return -ELOOP;
}

/* How a path is written. */
enum dest_kind { DEST_FD, DEST_THROUGH, DEST_IN_PLACE, DEST_RENAME };

struct dest {
	enum dest_kind kind;
	int fd;       /* DEST_FD */
	char *target; /* the resolved path otherwise */
	struct stat st;
	bool exists;
};

static int dest_plan(const char *path, struct dest *d)
{
	int r;

	memset(d, 0, sizeof(*d));
	d->fd = pmc_output_path_fd(path);
	if (d->fd >= 0) {
		d->kind = DEST_FD;
		return fd_writable(d->fd);
	}
	r = resolve(path, &d->target);
	if (r)
		return r;
	if (stat(d->target, &d->st) == 0) {
		d->exists = true;
		if (S_ISDIR(d->st.st_mode))
			return -EISDIR;
		if (!S_ISREG(d->st.st_mode))
			d->kind = DEST_THROUGH; /* a device, FIFO or socket: write through it, never replace it */
		else if (d->st.st_nlink > 1 || (d->st.st_uid != geteuid() && geteuid() != 0))
			d->kind = DEST_IN_PLACE; /* keep the hard link; keep another user's ownership */
		else
			d->kind = DEST_RENAME;
	} else if (errno == ENOENT) {
		d->kind = DEST_RENAME;
	} else {
		return -errno;
	}
	return 0;
}

int pmc_output_check_path(const char *path)
{
	struct dest d;
	char *tmp = NULL;
	int r = dest_plan(path, &d), fd;

	if (r)
		goto out;
	switch (d.kind) {
	case DEST_FD:
		break;
	case DEST_THROUGH: /* opening a FIFO now would hand its reader an early end of file: ask, do not open */
		if (access(d.target, W_OK))
			r = -errno;
		break;
	case DEST_IN_PLACE:
		fd = open(d.target, O_WRONLY | O_CLOEXEC); /* no O_TRUNC: the old contents stay until the write */
		if (fd < 0)
			r = -errno;
		else
			close(fd);
		break;
	case DEST_RENAME:
		fd = pmc_make_temp(d.target, &tmp);
		if (fd < 0) {
			r = fd;
		} else {
			close(fd);
			unlink(tmp);
		}
		if (!r && d.exists && access(d.target, W_OK))
			r = -errno;
		break;
	}
out:
	free(tmp);
	free(d.target);
	return r;
}

static int write_opened(const struct dest *d, const char *buf, size_t len)
{
	int flags = O_WRONLY | O_CLOEXEC | (d->kind == DEST_IN_PLACE ? O_TRUNC : 0);
	int fd = open(d->target, flags), r;

	if (fd < 0)
		return -errno;
	r = pmc_write_all(fd, buf, len);
	if (!r && d->kind == DEST_IN_PLACE && fsync(fd))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	return r;
}

int pmc_output_write_path(const char *path, const char *buf, size_t len)
{
	struct dest d;
	int r = dest_plan(path, &d);

	if (r)
		goto out;
	switch (d.kind) {
	case DEST_FD:
		if (d.fd == STDOUT_FILENO)
			fflush(stdout);
		r = pmc_write_all(d.fd, buf, len);
		break;
	case DEST_THROUGH:
	case DEST_IN_PLACE:
		r = write_opened(&d, buf, len);
		break;
	case DEST_RENAME:
		r = pmc_write_renamed(d.target, d.exists ? &d.st : NULL, buf, len);
		break;
	}
out:
	free(d.target);
	return r;
}
