/* SPDX-License-Identifier: MIT */
/* The one way pmctool opens a counter: every perf_event_open of the program goes through pmc_perf_open, which tells
 * an observer (-v) what was asked and what the kernel answered; pmc_perf_open_counting adds the one
 * perf_event_paranoid fallback that command mode and -k share. No printing here: the observer is the caller's. */
#ifndef PMC_PERF_OPEN_H
#define PMC_PERF_OPEN_H

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

/* pmc_perf_open with a note the observer's record carries (why this open was made). */
int pmc_perf_open_noted(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags,
			const char *note);

enum pmc_open_opts {
	PMC_OPEN_NO_EXCLUDE = 1u << 0, /* the PMU refuses exclude bits (msr): no user-only retry */
	PMC_OPEN_NO_COUNTER = 1u << 1, /* no counter of the core PMU can count it (pmc_event_note says why): not
					  opened, -ENOENT */
};

/* Ask the kernel whether this process may count at all: open (and close) task-clock on itself in user mode only, the
 * least any perf_event_paranoid short of "no perf_event_open for users" allows. 0 when it may, else -errno. The number
 * in the sysctl does not tell: 3 forbids everything only on kernels with Debian's and Android's patch. */
int pmc_perf_probe_user_counting(void);

/*
 * Open a counting event with perf's perf_event_paranoid fallback: when the kernel refuses (EACCES/EPERM) an event
 * that counts kernel mode, retry it with exclude_kernel and exclude_hv, and set PMC_COUNT_USER_ONLY in
 * *ret_count_flags. An event that counts kernel mode only (exclude_user already set) is never retried: user-only it
 * would count nothing, so it fails with the kernel's errno and PMC_COUNT_KERNEL_DENIED. a is updated to what was
 * opened. Returns the fd or -errno.
 */
int pmc_perf_open_counting(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned opts,
			   unsigned *ret_count_flags);
/* The raw open under the fallback, pmc_perf_open_noted's shape; and the fallback over another one (tests play the
 * kernel with it). */
typedef int (*pmc_perf_open_fn)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags,
				const char *note);
int pmc_perf_open_counting_via(pmc_perf_open_fn open_fn, struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
			       unsigned opts, unsigned *ret_count_flags);

#endif
