/* SPDX-License-Identifier: MIT */
#include "perf/probe.h"

#include <unistd.h>

#include "sys/perf_open.h"

int pmc_perf_open_self(struct perf_event_attr *attr, int group_fd, const char *note)
{
	return pmc_perf_open_noted(attr, 0, -1, group_fd, 0, note);
}

int pmc_perf_probe_user_counting(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1,
				     .exclude_kernel = 1, .exclude_hv = 1 };
	int fd = pmc_perf_open_self(&a, -1, "probe: may this user count at all");

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int pmc_perf_probe_cpu(struct perf_event_attr *attr, int cpu, const char *note)
{
	int fd = pmc_perf_open_noted(attr, -1, cpu, -1, 0, note);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
