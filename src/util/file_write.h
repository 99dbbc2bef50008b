/* SPDX-License-Identifier: MIT */
/* Writing a file whole or not at all (libc only: pmctool's -o and the region library's standalone reports). */
#ifndef PMC_UTIL_FILE_WRITE_H
#define PMC_UTIL_FILE_WRITE_H

#include <stddef.h>
#include <sys/stat.h>

/* All of buf to fd (retrying EINTR and short writes). 0 or -errno (-EIO when nothing more can be written). */
int pmc_write_all(int fd, const char *buf, size_t len);

/* A temporary file beside target ("TARGET.pmctool-XXXXXX"): its descriptor and *ret (malloc'd), or -errno. */
int pmc_make_temp(const char *target, char **ret);

/* buf into a temporary file beside target, synced, then renamed over it: a reader or a crash sees the old file or
 * the new one, never a part. old: the target's stat when it exists (its owner and mode are kept), else NULL (the
 * new file is 0666 less the umask). 0 or -errno; the temporary file never stays. */
int pmc_write_renamed(const char *target, const struct stat *old, const char *buf, size_t len);

#endif
