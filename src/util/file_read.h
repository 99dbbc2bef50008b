/* SPDX-License-Identifier: MIT */
/* Reading a whole file into memory, bounded (libc only). */
#ifndef PMC_UTIL_FILE_READ_H
#define PMC_UTIL_FILE_READ_H

#include <stddef.h>

/* path's contents into *ret (malloc'd, NUL-terminated, *ret_len bytes without the NUL). At most max bytes: -EFBIG
 * beyond; -EINVAL when path is not a regular file; -errno of open/read; -ENOMEM. why (may be NULL) says it in words. */
int pmc_read_whole_file(const char *path, size_t max, char **ret, size_t *ret_len, char *why, size_t whylen);

#endif
