/* SPDX-License-Identifier: MIT */
/* For the LD_PRELOAD PMUs of the tests (tests/perf/fake_pmu.c, tests/metrics/inject_counts.c): which events they
 * answer instead of the kernel, and the syscall() that hands them perf_event_open. Included once per library. */
#ifndef PMC_TESTS_PRELOAD_TYPES_H
#define PMC_TESTS_PRELOAD_TYPES_H

#include <dlfcn.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/syscall.h>

/* type is in the comma-separated list of PMU types held by the environment variable env ("10,11"). */
static inline int preload_type_listed(const char *env, unsigned type)
{
	const char *p = getenv(env);

	while (p && *p) {
		char *end;
		unsigned long t = strtoul(p, &end, 10);
		if (end == p)
			break;
		if (t == type)
			return 1;
		p = *end == ',' ? end + 1 : end;
	}
	return 0;
}

/* A hardware event: generic, cache, raw, or of a PMU type listed in env. */
static inline int preload_is_hw(const struct perf_event_attr *a, const char *env)
{
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW ||
	       preload_type_listed(env, a->type);
}

static long (*real_syscall)(long, ...);

/* Each library's answer to perf_event_open (real_syscall reaches the kernel). */
static long preload_perf_event_open(struct perf_event_attr *a, long pid, long cpu, long group_fd, long flags);

long syscall(long n, ...)
{
	va_list ap;
	long a1, a2, a3, a4, a5, a6;

	va_start(ap, n);
	a1 = va_arg(ap, long);
	a2 = va_arg(ap, long);
	a3 = va_arg(ap, long);
	a4 = va_arg(ap, long);
	a5 = va_arg(ap, long);
	a6 = va_arg(ap, long);
	va_end(ap);
	if (!real_syscall)
		real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (n == SYS_perf_event_open)
		return preload_perf_event_open((struct perf_event_attr *)a1, a2, a3, a4, a5);
	return real_syscall(n, a1, a2, a3, a4, a5, a6);
}

#endif
