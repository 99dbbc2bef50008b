/* SPDX-License-Identifier: MIT */
/* Reading a whole file into memory, bounded (libc only). */
#ifndef PMC_UTIL_FILE_READ_H
#define PMC_UTIL_FILE_READ_H

#include <stddef.h>
#include <sys/stat.h>

/* A named file opened to be read whole, the one rule of every reader of one (vendor tables, saved reports, check's
 * files): opened O_NONBLOCK, so a FIFO nobody writes opens at once instead of blocking open(2) for ever, then refused
 * unless regular. The fd (its fstat in *st), or -errno: -EISDIR for a directory, -EINVAL for a FIFO, device or socket
 * (the fd is closed then). pmc_open_regular_why(rc) says it in words, with what to do. */
int pmc_open_regular(const char *path, struct stat *st);
const char *pmc_open_regular_why(int rc);

/* path's contents into *ret (malloc'd, NUL-terminated, *ret_len bytes without the NUL). At most max bytes: -EFBIG
 * beyond; -EINVAL when path is not a regular file; -errno of open/read; -ENOMEM. why (may be NULL) says it in words. */
int pmc_read_whole_file(const char *path, size_t max, char **ret, size_t *ret_len, char *why, size_t whylen);

#endif
