/* SPDX-License-Identifier: MIT */
/*
 * Injected counts (LD_PRELOAD) for the metric agreement test (REFERENCE.md section 12): every hardware event
 * (PERF_TYPE_HARDWARE, _HW_CACHE, _RAW, and the PMU types listed in PMC_INJECT_TYPES=T[,T...], e.g. a fixture's
 * msr type) is opened as the software task-clock with the same group, flags and read_format, so fds, groups and
 * time_enabled/time_running stay the kernel's; read() then replaces each such event's value with a count chosen from
 * its encoding alone (type, config, config1; PMC_INJECT_SEED varies the choice). Two tools that open the same
 * encodings therefore read the same counts, whatever they group or how often they read: Linux perf and pmctool can
 * evaluate the same metric formulas on the same numbers. PMC_INJECT_LOG=FILE appends one line per hardware open:
 * "type config config1 group_fd". Nothing here measures anything.
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../perf/preload_types.h"

#define MAX_FD 4096
#define MAX_MEMBERS 64

struct slot {
	int used;         /* 1: an injected hardware event, 2: a real event that is a member of an injected group */
	int leader;       /* fd of its group leader (itself for a leader) */
	uint64_t value;   /* the injected count (used == 1) */
	uint64_t format;  /* attr.read_format */
	int members[MAX_MEMBERS]; /* leaders: the group in open order, the leader first */
	int nmembers;
};

static struct slot slots[MAX_FD];
static ssize_t (*real_read)(int, void *, size_t);

static int injected(const struct perf_event_attr *a)
{
	return preload_is_hw(a, "PMC_INJECT_TYPES");
}

/* The count of an encoding: splitmix64 of type, config and config1, scaled to 1e5 .. 1e9. */
static uint64_t count_of(const struct perf_event_attr *a)
{
	const char *s = getenv("PMC_INJECT_SEED");
	uint64_t x = (s ? strtoull(s, NULL, 0) : 0) ^ ((uint64_t)a->type << 56) ^ a->config ^ (a->config1 * 0x9e37ULL);

	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return 100000 + x % 1000000000ULL;
}

static void remember(long fd, long group_fd, const struct perf_event_attr *a, int used)
{
	int leader = group_fd >= 0 && group_fd < MAX_FD ? (int)group_fd : (int)fd;

	if (fd < 0 || fd >= MAX_FD)
		return;
	slots[fd] = (struct slot){ .used = used, .leader = leader, .format = a->read_format };
	if (used == 1)
		slots[fd].value = count_of(a);
	if (slots[leader].nmembers < MAX_MEMBERS)
		slots[leader].members[slots[leader].nmembers++] = (int)fd;
	if (used == 1 && getenv("PMC_INJECT_LOG")) {
		FILE *f = fopen(getenv("PMC_INJECT_LOG"), "a");
		if (f) {
			fprintf(f, "%u %#llx %#llx %ld\n", a->type, (unsigned long long)a->config,
				(unsigned long long)a->config1, group_fd);
			fclose(f);
		}
	}
}

ssize_t read(int fd, void *buf, size_t len)
{
	ssize_t n;

	if (!real_read)
		real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	n = real_read(fd, buf, len);
	if (n <= 0 || fd < 0 || fd >= MAX_FD || !slots[fd].used)
		return n;
	uint64_t *v = buf, f = slots[fd].format;
	size_t words = (size_t)n / sizeof(uint64_t);
	if (!(f & PERF_FORMAT_GROUP)) {
		if (slots[fd].used == 1 && words >= 1)
			v[0] = slots[fd].value;
		return n;
	}
	/* nr, [enabled], [running], then nr x (value, [id], [lost]) in the group's order: the leader, then its members */
	size_t at = 1 + !!(f & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(f & PERF_FORMAT_TOTAL_TIME_RUNNING);
	size_t stride = 1 + !!(f & PERF_FORMAT_ID) + !!(f & PERF_FORMAT_LOST);
	const struct slot *g = &slots[slots[fd].leader];
	for (size_t i = 0; words && i < v[0] && i < (size_t)g->nmembers && at + i * stride < words; i++) {
		const struct slot *m = &slots[g->members[i]];
		if (m->used == 1)
			v[at + i * stride] = m->value;
	}
	return n;
}

/* A closed fd's number may come back as a file: it is no injected event any more. */
int close(int fd)
{
	static int (*real_close)(int);

	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd < MAX_FD)
		slots[fd] = (struct slot){ 0 };
	return real_close(fd);
}

static long preload_perf_event_open(struct perf_event_attr *a, long pid, long cpu, long group_fd, long flags)
{
	struct perf_event_attr sw;
	long fd;

	if (!injected(a)) {
		fd = real_syscall(SYS_perf_event_open, a, pid, cpu, group_fd, flags);
		if (fd >= 0 && fd < MAX_FD)
			slots[fd] = (struct slot){ 0 };
		if (fd >= 0 && group_fd >= 0 && group_fd < MAX_FD && slots[group_fd].used)
			remember(fd, group_fd, a, 2);
		return fd;
	}
	sw = *a;
	sw.type = PERF_TYPE_SOFTWARE;
	sw.config = PERF_COUNT_SW_TASK_CLOCK;
	sw.config1 = sw.config2 = 0;
	sw.precise_ip = 0;
	sw.exclude_guest = sw.exclude_host = 0;
	fd = real_syscall(SYS_perf_event_open, &sw, pid, cpu, group_fd, flags);
	if (fd >= 0)
		remember(fd, group_fd, a, 1);
	return fd;
}
