/* SPDX-License-Identifier: MIT */
/* Where a report goes (-o PATH, --log-fd N). The kernel opens the path, links and all, exactly as a shell's '>'
 * would (O_CREAT included), so its checks (fs.protected_symlinks, protected_regular, protected_fifos, permissions)
 * decide; pmctool then works only on what was opened, re-checked with fstat. Anything that is not a regular file is
 * written through; a regular file is replaced whole (a temporary file beside it renamed over it), or, when it has
 * several hard links or is another user's, written in place into space reserved first. */
#include "output/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "sys/fifo.h"
#include "util/file_write.h"
#include "util/util.h"

/* How long a FIFO without a reader is waited for after the run, in steps of FIFO_STEP_MS. */
#define FIFO_WAIT_MS 2000
#define FIFO_STEP_MS 20

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

/* -EBADF: not open; -EACCES: open for reading only. */
static int fd_writable(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -EBADF;
	return (fl & O_ACCMODE) == O_RDONLY ? -EACCES : 0;
}

const char *pmc_output_strerror(const char *path, int err)
{
	bool fd = path && pmc_output_path_fd(path) >= 0;
	struct stat st;

	if (fd && err == -EBADF)
		return "the file descriptor is not open";
	if (fd && err == -EACCES)
		return "the file descriptor is open for reading only";
	if (err == -ENXIO && path && stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		return "no process has the FIFO open for reading (start its reader first)";
	if (err == -EINTR)
		return "interrupted while waiting for the FIFO's reader";
	if (err == -EOPNOTSUPP)
		return "no file can be created beside it, and a report replaces a file whole through a temporary file "
		       "renamed over it (a file in /proc or /sys is no place for a report)";
	if (err == -EAGAIN)
		return "the file changed while the report was being written to it; the new file was left alone";
	return strerror(-err);
}

/* How a path is written. */
enum dest_kind { DEST_NONE, DEST_FD, DEST_THROUGH, DEST_IN_PLACE, DEST_RENAME };

struct dest {
	enum dest_kind kind;
	int fd;          /* DEST_FD: the descriptor named; DEST_IN_PLACE, DEST_RENAME: the file opened for writing */
	int dirfd;       /* DEST_RENAME: the directory holding the file, as base names it */
	char *base;      /* DEST_RENAME */
	struct stat st;  /* what fd is */
	bool created;    /* the open made the file (a new path, or the target of a dangling link) */
};

static void dest_fini(struct dest *d)
{
	if (d->kind != DEST_FD && d->fd >= 0)
		close(d->fd);
	if (d->dirfd >= 0)
		close(d->dirfd);
	free(d->base);
}

/* A file this open made is removed again (the check before the run; a report that could not be written). */
static void drop_created(struct dest *d)
{
	struct stat st;

	if (d->created && d->base && fstatat(d->dirfd, d->base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == d->st.st_dev && st.st_ino == d->st.st_ino && st.st_size == 0)
		unlinkat(d->dirfd, d->base, 0);
	d->created = false;
}

/* The directory entry of the regular file d->fd (opened through path): path's own last component when it is not a
 * link, else the name the kernel gives the open file. Trusted only when it names the very file opened. -EOPNOTSUPP
 * when no such entry can be found. */
static int find_entry(const char *path, struct dest *d)
{
	struct stat lst, st;
	char proc[64], real[PATH_MAX];
	const char *name = path;
	ssize_t n;
	int r;

	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", d->fd);
		n = readlink(proc, real, sizeof(real) - 1);
		if (n <= 0 || real[0] != '/')
			return -EOPNOTSUPP;
		real[n] = '\0';
		name = real;
	}
	r = pmc_split_dir(name, &d->dirfd, &d->base);
	if (r)
		return r == -ENOMEM ? r : -EOPNOTSUPP;
	if (fstatat(d->dirfd, d->base, &st, AT_SYMLINK_NOFOLLOW) || st.st_dev != d->st.st_dev ||
	    st.st_ino != d->st.st_ino)
		return -EAGAIN;
	return 0;
}

/* Open path for writing as a shell's '>' would, less O_TRUNC. A FIFO is opened only when write is set (opening it
 * would hand its reader an end of file), and then without blocking: ENXIO while no reader comes. */
static int dest_open(const char *path, bool write, struct dest *d)
{
	struct stat st;
	int r;

	memset(d, 0, sizeof(*d));
	d->fd = d->dirfd = -1;
	d->fd = pmc_output_path_fd(path);
	if (d->fd >= 0) {
		d->kind = DEST_FD;
		return fd_writable(d->fd);
	}
	if (stat(path, &st) == 0) { /* followed by the kernel, under its rules for links */
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (!S_ISREG(st.st_mode)) {
			d->kind = DEST_THROUGH; /* a device, FIFO or socket: written through, never replaced */
			if (!write)
				return access(path, W_OK) ? -errno : 0;
		}
	} else if (errno != ENOENT) {
		return -errno;
	} else {
		d->created = true; /* a new file, or a dangling link's target */
	}
	d->fd = open(path, O_WRONLY | O_CREAT | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0666);
	if (d->fd < 0) {
		d->created = false;
		return -errno;
	}
	if (fstat(d->fd, &d->st))
		return -errno;
	if (d->kind == DEST_THROUGH)
		return S_ISREG(d->st.st_mode) ? -EAGAIN : 0;
	if (!S_ISREG(d->st.st_mode))
		return -EAGAIN; /* it changed between the two looks */
	if (d->st.st_nlink > 1 || (d->st.st_uid != geteuid() && geteuid() != 0)) {
		d->kind = DEST_IN_PLACE; /* keep the hard link; keep another user's ownership */
		return 0;
	}
	d->kind = DEST_RENAME;
	r = find_entry(path, d);
	if (r == -EOPNOTSUPP || r == -EAGAIN)
		d->kind = DEST_IN_PLACE; /* no trustworthy name to rename over (no /proc): write the file opened */
	return r == -ENOMEM ? r : 0;
}

int pmc_output_check_path(const char *path)
{
	struct dest d;
	char *tmp = NULL;
	int r = dest_open(path, false, &d), fd;

	if (!r && d.kind == DEST_RENAME) {
		fd = pmc_make_temp_at(d.dirfd, d.base, &tmp);
		if (fd < 0) {
			r = fd == -ENOENT ? -EOPNOTSUPP : fd;
		} else {
			close(fd);
			unlinkat(d.dirfd, tmp, 0);
		}
	}
	drop_created(&d);
	free(tmp);
	dest_fini(&d);
	return r;
}

/* Sleep one step of a wait; -EINTR when a signal (Ctrl-C) came. */
static int nap(void)
{
	struct timespec ts = { 0, FIFO_STEP_MS * 1000000L };

	return nanosleep(&ts, NULL) ? -EINTR : 0;
}

static int write_through(const char *path, const char *buf, size_t len)
{
	struct dest d;
	int r;

	for (int waited = 0;; waited += FIFO_STEP_MS) {
		r = dest_open(path, true, &d);
		if (r != -ENXIO || waited >= FIFO_WAIT_MS)
			break;
		dest_fini(&d);
		if (nap() < 0)
			return -EINTR;
	}
	if (!r && d.kind != DEST_THROUGH)
		r = -EAGAIN; /* it became a regular file since the first look */
	if (!r)
		r = pmc_fd_unblock(d.fd); /* blocking again once a reader is there: the reader sets the pace now */
	if (!r)
		r = pmc_write_all(d.fd, buf, len);
	dest_fini(&d);
	return r;
}

int pmc_output_open_stream(const char *path)
{
	int fd;

	/* Non-blocking, so a FIFO without a reader is waited for a bounded time (open() would block for ever) */
	for (int waited = 0;; waited += FIFO_STEP_MS) {
		fd = pmc_open_unblocked(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd != -ENXIO || waited >= FIFO_WAIT_MS)
			return fd;
		if (nap() < 0)
			return -EINTR;
	}
}

/* len bytes of space for fd, reserved before the old contents are touched, so a full file system fails here and
 * leaves the file as it was. Where the file system cannot reserve, its free space is counted instead. */
static int reserve(int fd, const struct stat *st, size_t len)
{
	struct statvfs vfs;
	unsigned long long have, need;

	if (!len || fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)len) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	if (fstatvfs(fd, &vfs))
		return -errno;
	have = (unsigned long long)vfs.f_bavail * vfs.f_frsize + (unsigned long long)st->st_blocks * 512;
	need = len + (unsigned long long)vfs.f_frsize;
	return have >= need ? 0 : -ENOSPC;
}

static int write_in_place(struct dest *d, const char *buf, size_t len)
{
	int r = reserve(d->fd, &d->st, len);

	if (!r)
		r = pmc_write_all(d->fd, buf, len);
	if (!r && ftruncate(d->fd, (off_t)len))
		r = -errno;
	if (!r && fsync(d->fd))
		r = -errno;
	return r;
}

/* --append into the regular file d->fd: space for len reserved after its end first, the write at its end, the file
 * cut back to its old length when the write fails part way. */
static int append_in_place(struct dest *d, const char *buf, size_t len)
{
	off_t end = d->st.st_size;
	int r = 0;

	if (len && fallocate(d->fd, FALLOC_FL_KEEP_SIZE, end, (off_t)len) && errno != EOPNOTSUPP && errno != ENOSYS)
		return -errno;
	if (lseek(d->fd, end, SEEK_SET) < 0)
		return -errno;
	r = pmc_write_all(d->fd, buf, len);
	if (!r && fsync(d->fd))
		r = -errno;
	if (r)
		(void)!ftruncate(d->fd, end); /* the file as it was; r says why the report is not in it */
	return r;
}

static int write_path(const char *path, const char *buf, size_t len, bool append)
{
	struct dest d;
	int r = dest_open(path, false, &d);

	if (r && d.kind != DEST_THROUGH)
		goto out;
	switch (d.kind) {
	case DEST_NONE:
		break;
	case DEST_FD:
		if (d.fd == STDOUT_FILENO)
			fflush(stdout);
		r = pmc_write_all(d.fd, buf, len);
		break;
	case DEST_THROUGH:
		dest_fini(&d);
		return write_through(path, buf, len);
	case DEST_IN_PLACE:
		r = append ? append_in_place(&d, buf, len) : write_in_place(&d, buf, len);
		break;
	case DEST_RENAME:
		if (append) { /* appended where it is: nothing to replace */
			r = append_in_place(&d, buf, len);
			break;
		}
		r = pmc_write_renamed_at(d.dirfd, d.base, &d.st, true, buf, len);
		if (r == -ENOENT)
			r = -EOPNOTSUPP;
		break;
	}
out:
	if (r)
		drop_created(&d);
	dest_fini(&d);
	return r;
}

int pmc_output_write_path(const char *path, const char *buf, size_t len)
{
	return write_path(path, buf, len, false);
}

int pmc_output_append_path(const char *path, const char *buf, size_t len)
{
	return write_path(path, buf, len, true);
}
