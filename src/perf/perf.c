/* SPDX-License-Identifier: MIT */
#include "perf/perf.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

int pmc_perf_read(int fd, struct pmc_count *ret)
{
	uint64_t buf[3];
	ssize_t n;

	do
		n = read(fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(buf))
		return -EIO;
	ret->value = buf[0];
	ret->enabled = buf[1];
	ret->running = buf[2];
	ret->err = 0;
	ret->status = buf[2] == 0 ? PMC_COUNT_NOT_COUNTED : PMC_COUNT_OK;
	return 0;
}

double pmc_count_scaled(const struct pmc_count *c)
{
	if (c->running == 0 || c->running >= c->enabled)
		return (double)c->value;
	return (double)c->value * ((double)c->enabled / (double)c->running);
}

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
