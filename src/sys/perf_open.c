/* SPDX-License-Identifier: MIT */
#include "sys/perf_open.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static pmc_perf_observer observer;
static void *observer_ctx;

void pmc_perf_set_observer(pmc_perf_observer fn, void *ctx)
{
	observer = fn;
	observer_ctx = ctx;
}

int pmc_perf_open_noted(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags,
			const char *note)
{
	struct pmc_open_record rec;
	long fd;
	int r;

	attr->size = sizeof(*attr);
	flags |= PERF_FLAG_FD_CLOEXEC;
	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
	r = fd < 0 ? -errno : (int)fd;
	if (observer) {
		rec = (struct pmc_open_record){ attr, pid, cpu, group_fd, flags, r, note };
		observer(&rec, observer_ctx);
	}
	return r;
}

int pmc_perf_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	return pmc_perf_open_noted(attr, pid, cpu, group_fd, flags, NULL);
}

int pmc_perf_record_format(const struct pmc_open_record *rec, char *buf, size_t len)
{
	const struct perf_event_attr *a = rec->attr;
	const char *ename = rec->result < 0 ? strerrorname_np(-rec->result) : NULL;
	int n;

	n = snprintf(buf, len,
		     "perf_event_open(type=%u config=%#llx config1=%#llx config2=%#llx exclude_user=%u exclude_kernel=%u "
		     "exclude_hv=%u exclude_guest=%u exclude_host=%u disabled=%u inherit=%u enable_on_exec=%u "
		     "read_format=%#llx pinned=%u, pid=%d, cpu=%d, group_fd=%d, flags=%#lx) = %d%s%s%s%s%s",
		     a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
		     (unsigned long long)a->config2, a->exclude_user, a->exclude_kernel, a->exclude_hv, a->exclude_guest,
		     a->exclude_host, a->disabled, a->inherit, a->enable_on_exec, (unsigned long long)a->read_format,
		     a->pinned, (int)rec->pid, rec->cpu, rec->group_fd, rec->flags, rec->result, ename ? " " : "",
		     ename ? ename : "", rec->note ? " [" : "", rec->note ? rec->note : "", rec->note ? "]" : "");
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}
