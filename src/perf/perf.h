/* SPDX-License-Identifier: MIT */
/* perf_event_open and reading counts. No printing here: callers report. */
#ifndef PMC_PERF_H
#define PMC_PERF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf/reason.h"
#include "sys/perf_fallback.h"
#include "sys/perf_open.h"

enum pmc_count_status {
	PMC_COUNT_OK = 0,
	PMC_COUNT_NOT_COUNTED,   /* opened, but never ran (time_running == 0): never reported as 0 */
	PMC_COUNT_NOT_SUPPORTED, /* could not be opened: err holds the errno */
	PMC_COUNT_NOT_RUN,       /* the measurement did not reach this event (interrupted before its batch) */
};

/* One event's result from one run of one batch. */
struct pmc_count {
	uint64_t value;   /* raw count as read (not scaled) */
	uint64_t enabled; /* time_enabled, ns */
	uint64_t running; /* time_running, ns */
	enum pmc_count_status status;
	int err;          /* errno of the failed open when status is PMC_COUNT_NOT_SUPPORTED */
	unsigned flags;   /* enum pmc_count_flags */
};

enum pmc_count_flags {
	PMC_COUNT_USER_ONLY = 1u << 0,     /* kernel mode was excluded by pmctool (perf_event_paranoid fallback) */
	PMC_COUNT_KERNEL_DENIED = 1u << 1, /* a kernel-only event perf_event_paranoid refused: never retried user-only */
};

/* read() one event opened with read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING (no GROUP). Fills ret and its
 * status (OK or NOT_COUNTED). 0 or -errno. */
int pmc_perf_read(int fd, struct pmc_count *ret);

/* Value scaled to the full enabled time: value * enabled / running (exact when running == enabled).
 * Only meaningful when status is OK. */
double pmc_count_scaled(const struct pmc_count *c);

/* The reason for an open failure of the event with attr a: like pmc_perf_open_reason, and more exact where the attr
 * tells more (a kernel-only event refused by perf_event_paranoid, a per-CPU PMU asked to count a task, a hardware event
 * that a working PMU lacks). Returns a static string. */
const char *pmc_perf_event_reason(int err, const struct perf_event_attr *a, int hardware);
/* The same for a user who is privileged (CAP_PERFMON or CAP_SYS_ADMIN: a refusal is then not perf_event_paranoid's)
 * or not, as given. */
const char *pmc_perf_event_reason_for(int err, const struct perf_event_attr *a, int hardware, bool privileged);

#endif
