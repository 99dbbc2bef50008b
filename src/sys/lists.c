/* SPDX-License-Identifier: MIT */
/* The spellings of who and where to count (sys/lists.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/lists.h"
#include "sys/sysfs.h"

int pmc_parse_id_list(const char *list, int (*cb)(long id, void *ctx), void *ctx)
{
	const char *p = list;

	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		long v;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = strtol(p, &end, 10);
		if (v <= 0 || v > 0x3fffffff || (*end && *end != ','))
			return -EINVAL;
		int r = cb(v, ctx);
		if (r)
			return r;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -EINVAL;
	}
	return 0;
}

struct cpu_each {
	int (*cb)(long cpu, void *ctx);
	void *ctx;
};

static int each_cpu(long a, long b, void *ctx)
{
	const struct cpu_each *e = ctx;

	for (long c = a; c <= b; c++) {
		int r = e->cb(c, e->ctx);
		if (r)
			return r;
	}
	return 0;
}

int pmc_parse_cpu_list(const char *list, int (*cb)(long cpu, void *ctx), void *ctx)
{
	struct cpu_each e = { cb, ctx };
	size_t n = strlen(list);

	/* A user's list is stricter than the kernel's: not empty, no trailing comma. */
	if (!n || list[n - 1] == ',')
		return -EINVAL;
	return pmc_cpulist_ranges(list, each_cpu, &e);
}

int pmc_parse_control(const char *spec, char *ctl, size_t ctl_len, char *ack, size_t ack_len, bool *is_fd)
{
	bool fifo = !strncmp(spec, "fifo:", 5), fd = !strncmp(spec, "fd:", 3);
	const char *p = spec + (fifo ? 5 : 3), *comma;
	size_t n;

	if (!fifo && !fd)
		return -EINVAL;
	comma = strchr(p, ',');
	n = comma ? (size_t)(comma - p) : strlen(p);
	if (!n || n >= ctl_len || (comma && (!comma[1] || strlen(comma + 1) >= ack_len || strchr(comma + 1, ','))))
		return -EINVAL;
	memcpy(ctl, p, n);
	ctl[n] = '\0';
	snprintf(ack, ack_len, "%s", comma ? comma + 1 : "");
	if (fd) {
		for (const char *q = ctl; *q; q++)
			if (*q < '0' || *q > '9')
				return -EINVAL;
		for (const char *q = ack; *q; q++)
			if (*q < '0' || *q > '9')
				return -EINVAL;
		if (strlen(ctl) > 9 || strlen(ack) > 9)
			return -EINVAL;
	}
	*is_fd = fd;
	return 0;
}
