/* SPDX-License-Identifier: MIT */
#include "perf/probe.h"

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "perf/perf.h"

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

enum pmc_bp_fires pmc_bp_probe_judge(int open_result, unsigned long long count, unsigned long long calls)
{
	if (open_result < 0)
		return PMC_BP_UNKNOWN;
	if (count == 0)
		return PMC_BP_NEVER;
	return count == calls ? PMC_BP_FIRE : PMC_BP_INEXACT;
}

/* The probe's target: a function of pmctool's own that the compiler may not inline (the breakpoint is
 * on its address), called through a volatile pointer. */
__attribute__((noinline)) static void bp_probe_target(volatile unsigned *n)
{
	(*n)++;
}

static void (*volatile bp_probe_call)(volatile unsigned *) = bp_probe_target;

static struct pmc_bp_probe bp_probe_run(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_BREAKPOINT, .size = sizeof(a), .bp_type = HW_BREAKPOINT_X,
				     .bp_addr = (uintptr_t)bp_probe_target, .bp_len = sizeof(long),
				     .exclude_kernel = 1, .exclude_hv = 1,
				     .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING };
	struct pmc_bp_probe p = { .calls = PMC_BP_PROBE_CALLS };
	struct pmc_count c = { 0 };
	volatile unsigned n = 0;
	int fd = pmc_perf_open_self(&a, -1, "probe: do breakpoints fire on this machine");

	if (fd >= 0) {
		for (unsigned i = 0; i < PMC_BP_PROBE_CALLS; i++)
			bp_probe_call(&n);
		if (pmc_perf_read(fd, &c) < 0)
			c.value = 0;
		close(fd);
	}
	/* never scheduled (time running 0: every debug register taken, by a debugger say) says nothing of firing */
	if (fd >= 0 && c.running == 0)
		fd = -EBUSY;
	p.count = c.value;
	p.err = fd < 0 ? -fd : 0;
	p.fires = pmc_bp_probe_judge(fd, p.count, p.calls);
	return p;
}

static struct pmc_bp_probe bp_probe_result;
static bool bp_probe_done;

const struct pmc_bp_probe *pmc_perf_probe_breakpoints(void)
{
	if (!bp_probe_done) {
		bp_probe_result = bp_probe_run();
		bp_probe_done = true;
	}
	return &bp_probe_result;
}

const struct pmc_bp_probe *pmc_perf_probe_breakpoints_done(void)
{
	return bp_probe_done ? &bp_probe_result : NULL;
}

void pmc_bp_probe_describe(const struct pmc_bp_probe *p, char *buf, size_t len)
{
	switch (p->fires) {
	case PMC_BP_FIRE:
		snprintf(buf, len, "breakpoints fire: an execute breakpoint on a function of pmctool's own counted %llu "
			 "of %llu call%s", p->count, p->calls, p->calls == 1 ? "" : "s");
		break;
	case PMC_BP_NEVER:
		snprintf(buf, len, "%s (an execute breakpoint on a function of pmctool's own counted 0 of %llu call%s)",
			 PMC_BP_NEVER_REASON, p->calls, p->calls == 1 ? "" : "s");
		break;
	case PMC_BP_INEXACT:
		snprintf(buf, len, "breakpoints fire, but not exactly: an execute breakpoint on a function of pmctool's own "
			 "counted %llu of %llu call%s", p->count, p->calls, p->calls == 1 ? "" : "s");
		break;
	default:
		snprintf(buf, len, "unknown whether breakpoints fire: the probe's breakpoint %s (%s)",
			 p->err == EBUSY ? "was never scheduled" : "does not open", strerror(p->err));
		break;
	}
}

int pmc_perf_probe_cpu(struct perf_event_attr *attr, int cpu, const char *note)
{
	int fd = pmc_perf_open_noted(attr, -1, cpu, -1, 0, note);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
