/* SPDX-License-Identifier: MIT */
/* Why perf_event_open failed, in words for a user: one wording for pmctool and for libpmctool (libc only). */
#include "sys/perf_reason.h"

#include <errno.h>
#include <string.h>

const char *pmc_perf_open_reason(int err, int hardware)
{
	switch (err) {
	case ENOENT:
		return hardware ? "no hardware PMU: the kernel has no driver for this CPU's counters"
				: "the kernel does not know this event";
	case ENODEV:
		return "the PMU does not exist on this CPU";
	case EOPNOTSUPP:
		return "the PMU does not support a feature this event asks for (sampling, exclude bits, AnyThread)";
	case EACCES:
	case EPERM:
		return "not permitted by kernel.perf_event_paranoid: lower it (sysctl kernel.perf_event_paranoid=1) or "
		       "grant CAP_PERFMON; count user mode only with :u";
	case EINVAL:
		return "the kernel rejected the encoding or this combination of events (counter constraints)";
	case EMFILE:
	case ENFILE:
		return "too many open files: raise the limit with ulimit -n";
	case EBUSY:
		return "the counter is held exclusively by another user";
	case E2BIG:
		return "the kernel does not understand this perf_event_attr size";
	default:
		return strerror(err);
	}
}

const char *pmc_perf_hw_reason(int err, int hardware, int core_pmu)
{
	if (err == ENOENT && hardware && core_pmu)
		return "this CPU's PMU does not have this event (the kernel answered ENOENT)";
	return pmc_perf_open_reason(err, hardware);
}

const char *pmc_perf_kernel_side_reason(int user_only)
{
	return user_only ? "the scheduler counts it in kernel mode: in user mode only (:u) it can never count, so it is "
			   "not counted; drop :u"
			 : "the scheduler counts it in kernel mode, which kernel.perf_event_paranoid forbids to this user "
			   "without CAP_PERFMON; in user mode only it can never count, so it is not retried so (sysctl "
			   "kernel.perf_event_paranoid=1, or CAP_PERFMON)";
}
