/* SPDX-License-Identifier: MIT */
/* perf_event_open(2), called once in pmctool: every open of the program goes through pmc_perf_open, which tells an
 * observer (-v) what was asked and what the kernel answered. The perf_event_paranoid fallback is perf/open.h's
 * pmc_perf_open_counting (its rule: sys/perf_fallback.h). No printing here: the observer is the caller's. */
#ifndef PMC_SYS_PERF_OPEN_H
#define PMC_SYS_PERF_OPEN_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <sys/types.h>

/* One perf_event_open as the kernel saw it. */
struct pmc_open_record {
	const struct perf_event_attr *attr;
	pid_t pid;
	int cpu;
	int group_fd;
	unsigned long flags;  /* as passed to the kernel (PERF_FLAG_FD_CLOEXEC included) */
	int result;           /* the fd, or -errno */
	const char *note;     /* why this open was made (a fallback retry), or NULL */
};

typedef void (*pmc_perf_observer)(const struct pmc_open_record *rec, void *ctx);

/* Call fn after every perf_event_open of this process (NULL: none). Not thread-safe: set it before measuring. */
void pmc_perf_set_observer(pmc_perf_observer fn, void *ctx);

/*
 * One line describing rec (no newline), the format -v prints and tests compare:
 *   perf_event_open(type=T config=0xC config1=0xC1 config2=0xC2 exclude_user=U exclude_kernel=K exclude_hv=H
 *   exclude_guest=G exclude_host=O disabled=D inherit=I enable_on_exec=E read_format=0xR pinned=P, pid=PID,
 *   cpu=CPU, group_fd=FD, flags=0xF) = RESULT[ ERRNAME][ [NOTE]]
 * Always every field, in this order. 0, or -ENOSPC when truncated.
 */
int pmc_perf_record_format(const struct pmc_open_record *rec, char *buf, size_t len);

/* perf_event_open(2). PERF_FLAG_FD_CLOEXEC is always added. Returns the fd, or -errno. attr->size is set here. */
int pmc_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags);

/* pmc_perf_open with a note the observer's record carries (why this open was made). */
int pmc_perf_open_noted(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags,
			const char *note);

#endif
