/* SPDX-License-Identifier: MIT */
/*
 * An injected PMU for logic tests (LD_PRELOAD): replaces the kernel's answer to perf_event_open for hardware events
 * (PERF_TYPE_HARDWARE, _HW_CACHE, _RAW) so that what pmctool asks of the kernel can be compared on any host, PMU or
 * not. Every other open goes to the kernel unchanged. A hardware event is opened as the software task-clock with the
 * same exclude, disabled, inherit, enable_on_exec, read_format and group, so permissions (perf_event_paranoid), fds,
 * groups and reads stay real; its counts are task-clock's and mean nothing: tests using this check records and plans,
 * never values. The group check mimics x86 validate_group: more hardware events in one group than
 * PMC_FAKE_PMU_COUNTERS (programmable + fixed, default 7), or two users of the ref-cycles fixed-only encoding (generic
 * ref-cycles or raw 0x0300), is EINVAL. PMC_FAKE_PMU_ZERO=1 answers with the dummy event instead, which reads 0:
 * a virtual PMU that opens every event and counts nothing. PMC_FAKE_PMU_NEVER_RUN_ABOVE=N: a group with more than N
 * hardware events opens but never runs (read() says time_running 0, value 0), as on arm64 where the kernel's group
 * check skips a disabled leader and lets one member too many in (REFERENCE.md section 11).
 * PMC_FAKE_PMU_TYPES=10[,N...] (a hybrid CPU, with the sysfs fixture naming these types) fakes those PMU types too,
 * and, like the kernel on a hybrid CPU, refuses (EINVAL) a group mixing two core PMUs: the PMU of an event is the type
 * in config bits 32-63 of a generic event (0: PERF_TYPE_RAW's), else attr.type.
 * PMC_FAKE_PMU_BAD=0xCONFIG: a raw event (PERF_TYPE_RAW) of that config is refused (EINVAL) in a group and alone, as
 * the kernel refuses an encoding its PMU does not have.
 * PMC_FAKE_PMU_COUNT=N (injected counts): every faked event read alone (read_format ENABLED|RUNNING, no GROUP) reads
 * the value N, its times the kernel's: perf and pmctool then compute their scaled values and metrics from the same
 * chosen counts. PMC_FAKE_PMU_COUNTS=0xCONFIG=N[,0xCONFIG=N...]: such an event of that config reads N instead, so a
 * ratio of two events is not 1; a group's member read alone and a group read (PERF_FORMAT_GROUP) too, each listed
 * member its own N. 0xCONFIG=N/s: N per second of the event's enabled time (counts that grow, for -I).
 */
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "preload_types.h"

#define MAX_FD 4096

struct fake {
	int leader;       /* fd of the group leader (itself for a leader), -1: not a fake hardware event */
	unsigned members; /* leaders: hardware events in the group */
	unsigned refcyc;  /* leaders: users of the ref-cycles fixed counter */
	unsigned pmu;     /* leaders, PMC_FAKE_PMU_TYPES set: the core PMU of the group */
	uint64_t config;  /* the config asked for (PMC_FAKE_PMU_COUNTS) */
	uint64_t read_format;
};

static ssize_t (*real_read)(int, void *, size_t);

static struct fake fakes[MAX_FD];

/* PMC_FAKE_PMU_COUNTS's entry for an event of config, read after enabled_ns of counting: true and *ret (N, or for
 * N/s N per second of enabled time, so that -I intervals see counts that grow), or false. */
static bool listed(uint64_t config, uint64_t enabled_ns, uint64_t *ret)
{
	const char *s = getenv("PMC_FAKE_PMU_COUNTS");
	char *end;

	while (s && *s) {
		uint64_t c = strtoull(s, &end, 0);
		if (*end != '=')
			break;
		uint64_t n = strtoull(end + 1, &end, 0);
		bool rate = !strncmp(end, "/s", 2);
		if (rate)
			end += 2;
		if (c == config) {
			*ret = rate ? (uint64_t)((double)n * (double)enabled_ns / 1e9) : n;
			return true;
		}
		s = *end == ',' ? end + 1 : NULL;
	}
	return false;
}

/* The count injected for an event of config: PMC_FAKE_PMU_COUNTS's entry for it, else PMC_FAKE_PMU_COUNT's. */
static uint64_t injected(uint64_t config, uint64_t enabled_ns, const char *count)
{
	uint64_t n;

	return listed(config, enabled_ns, &n) ? n : strtoull(count, NULL, 0);
}

/* A group read (PERF_FORMAT_GROUP) of leader fd: the members listed in PMC_FAKE_PMU_COUNTS read their count. The
 * members are the fds of the group in opening order (ascending numbers: the group is opened at once). */
static void inject_group(int fd, uint64_t *v, size_t n)
{
	uint64_t rf = fakes[fd].read_format;
	size_t head = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	size_t stride = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t k = 0;

	for (int m = fd; m < MAX_FD && k < v[0] && head + k * stride < n; m++) {
		uint64_t c;

		if (fakes[m].leader != fd)
			continue;
		if (listed(fakes[m].config, rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? v[1] : 0, &c))
			v[head + k * stride] = c;
		k++;
	}
}

/* A hardware event, or one of a listed hybrid core PMU type (PMC_FAKE_PMU_TYPES). */
static int is_hw(const struct perf_event_attr *a)
{
	return preload_is_hw(a, "PMC_FAKE_PMU_TYPES");
}

static unsigned core_pmu_of(const struct perf_event_attr *a)
{
	unsigned ext = (unsigned)(a->config >> 32);

	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE)
		return ext ? ext : PERF_TYPE_RAW;
	return a->type;
}

static int is_refcycles(const struct perf_event_attr *a)
{
	return (a->type == PERF_TYPE_HARDWARE && a->config == PERF_COUNT_HW_REF_CPU_CYCLES) ||
	       (a->type == PERF_TYPE_RAW && (a->config & 0xffff) == 0x0300);
}


/* PMC_FAKE_PMU_BAD names an encoding refused even alone. */
static int is_bad(const struct perf_event_attr *a)
{
	const char *env = getenv("PMC_FAKE_PMU_BAD");

	return env && *env && a->type == PERF_TYPE_RAW && a->config == strtoull(env, NULL, 0);
}

static long fake_open(struct perf_event_attr *a, long pid, long cpu, long group_fd, long flags)
{
	struct perf_event_attr sw;
	const char *env = getenv("PMC_FAKE_PMU_COUNTERS");
	unsigned limit = env ? (unsigned)atoi(env) : 7;
	struct fake *g = NULL;
	long fd;

	if (group_fd >= 0 && group_fd < MAX_FD && fakes[group_fd].leader == group_fd &&
	    fakes[group_fd].members)
		g = &fakes[group_fd];
	if (is_bad(a)) {
		errno = EINVAL;
		return -1;
	}
	if (g && (g->members + 1 > limit || (is_refcycles(a) && g->refcyc) ||
		  (getenv("PMC_FAKE_PMU_TYPES") && g->pmu != core_pmu_of(a)))) {
		errno = EINVAL;
		return -1;
	}
	sw = *a;
	sw.type = PERF_TYPE_SOFTWARE;
	sw.config = getenv("PMC_FAKE_PMU_ZERO") ? PERF_COUNT_SW_DUMMY : PERF_COUNT_SW_TASK_CLOCK;
	sw.config1 = sw.config2 = 0;
	fd = real_syscall(SYS_perf_event_open, &sw, pid, cpu, group_fd, flags);
	if (fd < 0 || fd >= MAX_FD)
		return fd;
	fakes[fd] = (struct fake){ .leader = g ? (int)group_fd : (int)fd, .config = a->config,
				   .read_format = a->read_format };
	if (!g) {
		g = &fakes[fd];
		g->pmu = core_pmu_of(a);
	}
	g->members++;
	g->refcyc += is_refcycles(a);
	return fd;
}

/* A member of a group too big to ever run reads as never scheduled (read_format ENABLED|RUNNING, no GROUP). */
ssize_t read(int fd, void *buf, size_t len)
{
	const char *env = getenv("PMC_FAKE_PMU_NEVER_RUN_ABOVE");
	const char *count = getenv("PMC_FAKE_PMU_COUNT");
	ssize_t n;

	if (!real_read)
		real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	n = real_read(fd, buf, len);
	if (env && n == 3 * (ssize_t)sizeof(uint64_t) && fd >= 0 && fd < MAX_FD && fakes[fd].leader >= 0 &&
	    fakes[fakes[fd].leader].members > (unsigned)atoi(env)) {
		uint64_t *v = buf;
		v[0] = 0;
		v[2] = 0;
	}
	if (count && *count && n == 3 * (ssize_t)sizeof(uint64_t) && fd >= 0 && fd < MAX_FD && fakes[fd].leader >= 0 &&
	    fakes[fd].members == 1 && fakes[fd].leader == fd)
		*(uint64_t *)buf = injected(fakes[fd].config, ((uint64_t *)buf)[1], count);
	uint64_t listed_n;
	/* a member read alone (an inherited group has no group read) */
	if (n == 3 * (ssize_t)sizeof(uint64_t) && fd >= 0 && fd < MAX_FD && fakes[fd].leader >= 0 &&
	    !(fakes[fd].read_format & PERF_FORMAT_GROUP) && listed(fakes[fd].config, ((uint64_t *)buf)[1], &listed_n))
		*(uint64_t *)buf = listed_n;
	if (getenv("PMC_FAKE_PMU_COUNTS") && n > 0 && fd >= 0 && fd < MAX_FD && fakes[fd].leader == fd &&
	    (fakes[fd].read_format & PERF_FORMAT_GROUP))
		inject_group(fd, buf, (size_t)n / sizeof(uint64_t));
	return n;
}

static long preload_perf_event_open(struct perf_event_attr *a, long pid, long cpu, long group_fd, long flags)
{
	long fd;

	if (is_hw(a))
		return fake_open(a, pid, cpu, group_fd, flags);
	/* a real open may reuse the number of a closed fake */
	fd = real_syscall(SYS_perf_event_open, a, pid, cpu, group_fd, flags);
	if (fd >= 0 && fd < MAX_FD)
		fakes[fd] = (struct fake){ .leader = -1 };
	return fd;
}
