/* SPDX-License-Identifier: MIT */
/* The spellings of who and where to count, parsed (pure: no system state). The CLI turns the user's text into a
 * request's data with these; the engine never sees the text. */
#ifndef PMC_SYS_LISTS_H
#define PMC_SYS_LISTS_H

#include <stdbool.h>
#include <stddef.h>

/* "1234,5678": each id (> 0, at most 0x3fffffff) to cb in order. 0, -EINVAL when malformed (empty, a trailing comma,
 * anything but digits and commas), or cb's first non-zero return. */
int pmc_parse_id_list(const char *list, int (*cb)(long id, void *ctx), void *ctx);
/* "0,2-3": each CPU to cb in order (ranges ascending). Stricter than the kernel's lists: not empty, no trailing comma.
 * 0, -EINVAL when malformed, -ERANGE above PMC_CPULIST_MAX, or cb's first non-zero return. */
int pmc_parse_cpu_list(const char *list, int (*cb)(long cpu, void *ctx), void *ctx);
/* perf's control channel "fifo:CTL[,ACK]" or "fd:CTL[,ACK]": the paths (or descriptor numbers as text, at most 9
 * digits) into ctl and ack ("" when none); *is_fd says which form. 0 or -EINVAL. */
int pmc_parse_control(const char *spec, char *ctl, size_t ctl_len, char *ack, size_t ack_len, bool *is_fd);

#endif
