/* SPDX-License-Identifier: MIT */
/* Writing a file whole or not at all (libc only: pmctool's -o and the region library's standalone reports). */
#ifndef PMC_UTIL_FILE_WRITE_H
#define PMC_UTIL_FILE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* All of buf to fd (retrying EINTR and short writes). 0 or -errno (-EIO when nothing more can be written). */
int pmc_write_all(int fd, const char *buf, size_t len);

/* A new temporary file beside base in dirfd ("BASE.pmctool-XXXXXX", mode 0600, never through a link): its
 * descriptor and *ret (its name in dirfd, malloc'd), or -errno. */
int pmc_make_temp_at(int dirfd, const char *base, char **ret);

/* path's directory opened O_PATH (*ret_dirfd) and its last component (*ret_base, malloc'd). 0 or -errno (-EISDIR
 * when path ends in '/'). */
int pmc_split_dir(const char *path, int *ret_dirfd, char **ret_base);

/* buf into a temporary file beside base in dirfd, synced, then renamed over base: a reader or a crash sees the old
 * file or the new one, never a part. old: base's stat when it exists (its owner and mode are kept), else NULL (the
 * new file is 0666 less the umask). verify: refuse (-EAGAIN) when base no longer names old's file just before the
 * rename. 0 or -errno; the temporary file never stays. */
int pmc_write_renamed_at(int dirfd, const char *base, const struct stat *old, bool verify, const char *buf,
			 size_t len);
/* The same with base and its directory given as one path (its last component is replaced, not followed). */
int pmc_write_renamed(const char *target, const struct stat *old, const char *buf, size_t len);

#endif
