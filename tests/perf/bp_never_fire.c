/* SPDX-License-Identifier: MIT */
/*
 * An injected machine whose hardware breakpoints never fire (LD_PRELOAD), as VMs on AMD Zen 5 hosts behave: every
 * PERF_TYPE_BREAKPOINT open the kernel accepts is answered with the software dummy event instead, opened with the same
 * target, group, exclude and enable bits, so it opens, is scheduled (time running > 0) and reads 0. The kernel still
 * judges the breakpoint itself first (a real open, closed at once), so what it refuses stays refused. Every other
 * syscall goes to the kernel unchanged. Used to show, on any host, what pmctool does where breakpoints never fire.
 */
#include <dlfcn.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

static long (*real_syscall)(long, ...);

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
	if (n == SYS_perf_event_open && ((struct perf_event_attr *)a1)->type == PERF_TYPE_BREAKPOINT) {
		struct perf_event_attr dummy = *(struct perf_event_attr *)a1;
		long fd = real_syscall(n, a1, a2, a3, a4, a5, a6);

		if (fd < 0)
			return fd;
		close((int)fd);
		dummy.type = PERF_TYPE_SOFTWARE;
		dummy.config = PERF_COUNT_SW_DUMMY;
		dummy.bp_type = 0;
		dummy.bp_addr = 0;
		dummy.bp_len = 0;
		return real_syscall(n, (long)&dummy, a2, a3, a4, a5, a6);
	}
	return real_syscall(n, a1, a2, a3, a4, a5, a6);
}
