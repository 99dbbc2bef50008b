/* SPDX-License-Identifier: MIT */
#include "metrics/checks.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

void pmc_check_opts_default(struct pmc_check_opts *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->batch_drift_pct = 2.0;
	ret->descheduled_tol = 0.02;
	ret->utilization_tol = 0.05;
	ret->kernel_share_pct = 1.0;
	ret->short_run_s = 0.001;
	ret->retired_tol_pct = 0.1;
	ret->max_cycles_per_tsc = 6.0;
	ret->max_uops_per_cycle = 8.0;
	ret->zero_count_min_s = 0.001;
}

enum role { R_INSTRUCTIONS, R_CYCLES, R_REF_CYCLES, R_TSC };

/* Names (as written or canonical) that mean the role, besides the attr-based matches below. */
static const char *const role_names[][6] = {
	[R_INSTRUCTIONS] = { "instructions", "inst_retired.any", "inst_retired.any_p", "INST_RETIRED:ANY_P",
			     "INSTRUCTION_RETIRED", "RETIRED_INSTRUCTIONS" },
	[R_CYCLES] = { "cycles", "cpu-cycles", "cpu_clk_unhalted.core_clk", "cpu_clk_unhalted.thread",
		       "CPU_CLK_UNHALTED:THREAD_P", "UNHALTED_CORE_CYCLES" },
	[R_REF_CYCLES] = { "ref-cycles", "cpu_clk_unhalted.ref_tsc", "UNHALTED_REFERENCE_CYCLES", NULL },
	[R_TSC] = { "msr/tsc/", "tsc", NULL },
};

static const unsigned long long role_hw[] = {
	[R_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
	[R_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
	[R_REF_CYCLES] = PERF_COUNT_HW_REF_CPU_CYCLES,
	[R_TSC] = ~0ull,
};

/* The event's name with a trailing ":u" / ":k" (and whitespace) removed, into buf. */
static const char *base_name(const char *name, char *buf, size_t len)
{
	size_t n = strnlen(name, len - 1);

	/* a copy without snprintf: the checks call this for every event and role (a tenth of a short stat's work) */
	memcpy(buf, name, n);
	buf[n] = '\0';
	while (n >= 2 && buf[n - 2] == ':' && strchr("ukUK", buf[n - 1]))
		buf[n -= 2] = '\0';
	return buf;
}

static bool kernel_only(const struct pmc_event *ev)
{
	return ev->attr.exclude_user && !ev->attr.exclude_kernel;
}

static bool has_role(const struct pmc_report_event *e, enum role r)
{
	const struct pmc_event *ev = &e->ev;
	char b1[PMC_NAME_MAX], b2[PMC_NAME_MAX];

	if (r == R_TSC && (ev->flags & PMC_EVF_TSC))
		return true;
	if (r != R_TSC && ev->cls == PMC_CLASS_FIXED && ev->fixed_index == (int)r)
		return true;
	if ((ev->flags & PMC_EVF_HARDWARE) && ev->attr.type == PERF_TYPE_HARDWARE && ev->attr.config == role_hw[r])
		return true;
	base_name(ev->name, b1, sizeof(b1));
	base_name(ev->canonical, b2, sizeof(b2));
	for (size_t i = 0; i < PMC_ARRAY_SIZE(role_names[r]) && role_names[r][i]; i++)
		if (!strcasecmp(b1, role_names[r][i]) || !strcasecmp(b2, role_names[r][i]))
			return true;
	return false;
}

static bool name_kernel_only(const struct pmc_event *ev)
{
	size_t n = strlen(ev->name);

	return n >= 2 && ev->name[n - 2] == ':' && (ev->name[n - 1] == 'k' || ev->name[n - 1] == 'K');
}

/* The counted event with the role; kernel = true: one counting only kernel mode, false: one that counts user mode. */
static const struct pmc_report_event *find_role(const struct pmc_report *rep, enum role r, bool kernel)
{
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		bool k = kernel_only(&e->ev) || name_kernel_only(&e->ev);

		if (e->status == PMC_COUNT_OK && k == kernel && has_role(e, r))
			return e;
	}
	return NULL;
}

/* Join up to a few event names into buf: "a, b, c and 4 more". */
static void name_list_add(char *buf, size_t len, unsigned *n, const char *name)
{
	size_t used = strlen(buf);

	if (*n < 4)
		snprintf(buf + used, len - used, "%s%.40s", *n ? ", " : "", name);
	(*n)++;
}

static void name_list_end(char *buf, size_t len, unsigned n)
{
	size_t used = strlen(buf);

	if (n > 4)
		snprintf(buf + used, len - used, " and %u more", n - 4);
}

static void check_multiplexed(struct pmc_report *rep)
{
	char names[200] = "";
	unsigned n = 0;
	double lowest = 100;

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		if (e->status != PMC_COUNT_OK || e->running_pct >= 100.0 - 1e-9)
			continue;
		name_list_add(names, sizeof(names), &n, e->ev.name);
		lowest = PMC_MIN(lowest, e->running_pct);
	}
	if (!n)
		return;
	name_list_end(names, sizeof(names), n);
	pmc_report_add_check(rep, PMC_CHECK_WARN, "multiplexed",
			     "%u event%s shared counters (counted %.1f%% of the time at worst: %s); their counts are "
			     "scaled estimates. Count fewer events, or let pmctool rerun batches instead of "
			     "multiplexing",
			     n, n == 1 ? "" : "s", lowest, names);
}

/* Breakpoint hits per batch (the sum of the mean counts of each batch's own breakpoints): each hit traps into the
 * kernel, so a batch's own breakpoints change the time its runs take. Returns how many batches hold any; *lo and *hi
 * get the fewest and most hits of a batch, *nlo and *nhi the batches (1-based). */
static unsigned breakpoint_hits(const struct pmc_report *rep, double *lo, double *hi, unsigned *nlo, unsigned *nhi)
{
	unsigned with = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	*nlo = *nhi = 0;
	for (unsigned b = 0; b < rep->nbatches; b++) {
		double hits = 0;
		bool any = false;

		for (size_t i = 0; i < rep->nevents; i++) {
			const struct pmc_report_event *e = &rep->events[i];
			if (e->ev.cls != PMC_CLASS_BREAKPOINT || e->in_every_batch || e->batch != (int)b ||
			    e->scope.kind != PMC_ROW_ALL)
				continue;
			any = true;
			hits += e->status == PMC_COUNT_OK ? e->mean : 0;
		}
		with += any;
		if (hits < *lo) {
			*lo = hits;
			*nlo = b + 1;
		}
		if (hits > *hi) {
			*hi = hits;
			*nhi = b + 1;
		}
	}
	return with;
}

static void check_batch_drift(struct pmc_report *rep, const struct pmc_check_opts *o)
{
	char names[200] = "";
	unsigned n = 0, blo, bhi;
	double worst = 0, lo, hi;

	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		/* Only the anchors (fixed counters and the TSC) are meant to repeat exactly; software events such as
		 * task-clock vary with the machine's noise and are not a sign that the batches saw different work. */
		if (!e->in_every_batch || !(e->ev.flags & PMC_EVF_ANCHOR) || e->status != PMC_COUNT_OK ||
		    e->batch_spread_pct <= o->batch_drift_pct)
			continue;
		name_list_add(names, sizeof(names), &n, e->ev.name);
		worst = PMC_MAX(worst, e->batch_spread_pct);
	}
	if (!n)
		return;
	name_list_end(names, sizeof(names), n);
	/* Batches whose own breakpoints are hit a different number of times do different work by design: every hit is
	 * a trap into the kernel, in every run. That is what the measurement does, not noise more runs would average. */
	if (breakpoint_hits(rep, &lo, &hi, &blo, &bhi) && hi > lo) {
		pmc_report_add_check(rep, PMC_CHECK_INFO, "batch-drift",
				     "%s differ between batches by up to %.2f%%: the batches' own breakpoints trap on "
				     "every hit, in every run (batch %u: %.0f hits, batch %u: %.0f), so the batches take "
				     "different time by design, not noise; time-like counts follow the batch and more runs "
				     "will not remove it", names, worst, bhi, hi, blo, lo);
		return;
	}
	pmc_report_add_check(rep, PMC_CHECK_WARN, "batch-drift",
			     "events counted in every batch differ between batches by up to %.2f%% (limit %.2f%%: %s): "
			     "the batches did not see the same work, so counts from different batches do not compare; "
			     "use more runs (-r) or a quieter machine", worst, o->batch_drift_pct, names);
}

static void check_utilization(struct pmc_report *rep, const struct pmc_check_opts *o)
{
	const struct pmc_report_event *ref = find_role(rep, R_REF_CYCLES, false), *tsc = find_role(rep, R_TSC, false);
	double u;

	if (!ref || !tsc || tsc->mean <= 0)
		return;
	u = ref->mean / tsc->mean;
	if (u < 1.0 - o->utilization_tol)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "utilization",
				     "ref-cycles / TSC = %.4f: the core was halted %.1f%% of the time (frequency "
				     "changes, SIMD power-up, idle or waiting); times and rates include the halts",
				     u, 100.0 * (1.0 - u));
	else if (u > 1.0 + o->utilization_tol)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "utilization",
				     "ref-cycles / TSC = %.4f exceeds 1: the two were not counted over the same time "
				     "(several threads, or different batches); the ratio is not a utilization", u);
}

static double run_seconds(const struct pmc_report *rep)
{
	double s;

	if (rep->wall_unresolved[0])
		return -1;
	if (!pmc_report_get_const(rep, "SECONDS", &s))
		return s;
	return rep->wall_ns_mean > 0 ? rep->wall_ns_mean / 1e9 : -1;
}

static void kernel_share_one(struct pmc_report *rep, const struct pmc_check_opts *o, enum role r, const char *what)
{
	const struct pmc_report_event *all = find_role(rep, r, false), *k = find_role(rep, r, true);
	double secs = run_seconds(rep), share;

	if (!all || !k || all->mean <= 0)
		return;
	share = 100.0 * k->mean / all->mean;
	if (secs >= 0 && secs < o->short_run_s && k->mean > 0)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "kernel-share",
				     "%s in kernel mode: %.0f (%.3f%%) in a run of %.3g ms; a run shorter than %.3g ms "
				     "should have none: an interrupt or system call landed in it, discard this run",
				     what, k->mean, share, secs * 1e3, o->short_run_s * 1e3);
	else if (share > o->kernel_share_pct)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "kernel-share",
				     "%s in kernel mode: %.2f%% of all (limit %.2f%%): system calls, page faults or "
				     "interrupts are part of what was measured", what, share, o->kernel_share_pct);
}

static void check_retired(struct pmc_report *rep, const struct pmc_check_opts *o)
{
	const struct pmc_report_event *ins = find_role(rep, R_INSTRUCTIONS, false);
	double expected, ratio;

	if (!ins || pmc_report_get_const(rep, "EXPECTED_INSTRUCTIONS", &expected) || expected <= 0)
		return;
	ratio = ins->mean / expected;
	if (fabs(ratio - 1.0) * 100.0 > o->retired_tol_pct)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "retired-vs-expected",
				     "instructions retired / expected = %.6f (%.0f vs %.0f; tolerance %.3g%%): %s",
				     ratio, ins->mean, expected, o->retired_tol_pct,
				     ratio > 1 ? "something else ran in the measured region (interrupts, another "
						 "thread on this CPU, measurement overhead)"
					       : "fewer instructions than the code holds: the count is wrong or the "
						 "region was cut short");
}

/* Intel and AMD keep the counter mask in config bits 24-31: such an event counts cycles, never more than cycles. */
static bool counts_cycles(const struct pmc_event *ev)
{
	if (ev->attr.type == PERF_TYPE_RAW && ((ev->attr.config >> 24) & 0xff))
		return true;
	return strstr(ev->name, ">=") || strchr(ev->name, '<') || strcasestr(ev->name, ":c=") ||
	       strcasestr(ev->canonical, ":c=");
}

static void check_impossible(struct pmc_report *rep, const struct pmc_check_opts *o)
{
	const struct pmc_report_event *cyc = find_role(rep, R_CYCLES, false), *tsc = find_role(rep, R_TSC, false);

	if (!cyc)
		return;
	if (tsc && tsc->mean > 0 && cyc->mean > tsc->mean * o->max_cycles_per_tsc)
		pmc_report_add_check(rep, PMC_CHECK_BAD, "impossible-count",
				     "cycles (%.0f) exceed TSC ticks (%.0f) x %.3g: no core runs that fast; the counts "
				     "are wrong (counter wrap, mis-scaling, events from different runs)",
				     cyc->mean, tsc->mean, o->max_cycles_per_tsc);
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];

		if (e == cyc || e->status != PMC_COUNT_OK || (e->ev.flags & PMC_EVF_TSC))
			continue;
		/* 2% slack: the event and cycles may come from different batches. */
		if (counts_cycles(&e->ev) && e->mean > cyc->mean * 1.02 + 1000)
			pmc_report_add_check(rep, PMC_CHECK_BAD, "impossible-count",
					     "%s counts cycles (a counter-mask event) but its count %.0f exceeds the "
					     "cycles, %.0f: the counts do not describe the same work or are wrong",
					     e->ev.name, e->mean, cyc->mean);
		else if (!counts_cycles(&e->ev) && strcasestr(e->ev.name, "uops") &&
			 e->mean > cyc->mean * o->max_uops_per_cycle * 1.02 + 1000)
			pmc_report_add_check(rep, PMC_CHECK_BAD, "impossible-count",
					     "%s = %.0f is more than %.3g uops per cycle over %.0f cycles: no x86 core "
					     "does that; the counts are wrong", e->ev.name, e->mean,
					     o->max_uops_per_cycle,
					     cyc->mean);
	}
}

static bool any_hardware(const struct pmc_report *rep)
{
	for (size_t i = 0; i < rep->nevents; i++)
		if (rep->events[i].ev.flags & PMC_EVF_HARDWARE)
			return true;
	return false;
}

/* A kernel runs on one pinned thread: if that thread ran for less of the region than the wall clock, something else
 * had the CPU (seed 003: counts then grow randomly), so the run should be discarded. Commands are not checked: they
 * may sleep, or run several threads. */
static void check_descheduled(struct pmc_report *rep, const struct pmc_check_opts *o)
{
	const struct pmc_report_event *tc = pmc_report_find_event(rep, "task-clock");
	double iters, ran, allow;

	if (!tc || tc->status != PMC_COUNT_OK || pmc_report_get_const(rep, "ITERATIONS", &iters) < 0 ||
	    rep->wall_ns_mean <= 0 || rep->wall_unresolved[0])
		return;
	ran = tc->mean / rep->wall_ns_mean;
	/* The wall window contains the counter reads, task-clock runs between them: a short region legitimately misses
	 * up to the reads' own wall time (REGION_OVERHEAD_WALL_NS, from the kernel runner's empty regions). */
	if (pmc_report_get_const(rep, "REGION_OVERHEAD_WALL_NS", &allow) < 0)
		allow = 0;
	if (ran < 1.0 - o->descheduled_tol && rep->wall_ns_mean - tc->mean > allow)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "descheduled",
				     "the kernel's thread ran %.1f%% of the measured region (task-clock / wall time): it was "
				     "descheduled or interrupted, so its counts include other work; run on an idle CPU "
				     "(--cpu) and discard this run",
				     100.0 * ran);
}

static void check_nmi_watchdog(struct pmc_report *rep, const struct pmc_check_opts *o)
{
	if (!o->nmi_watchdog || !any_hardware(rep))
		return;
	pmc_report_add_check(rep, PMC_CHECK_INFO, "nmi-watchdog",
			     "the NMI watchdog holds one counter, so one fewer is free and groups that need all of "
			     "them may never run; as root: sysctl kernel.nmi_watchdog=0 (restore it afterwards)");
}

/* A hardware event at exactly 0 over milliseconds of work: instructions, cycles and ref-cycles cannot be 0 (a virtual
 * PMU that opens events and never counts them reads 0: some hypervisors' do); any other event may be rare, but the
 * same PMU would read 0 for it too. A breakpoint at 0 is named apart: its address may never run, but debug registers
 * that never fire read 0 too (the engine's probe catches those before they count; a report read back from a file may
 * still hold one). The reads themselves are wrap-safe (read() sums in 64 bits, the mmap path adds
 * the 64-bit offset): no count is near any width. */
static void check_zero_count(struct pmc_report *rep, const struct pmc_check_opts *o)
{
	char sure[256] = "", maybe[256] = "";
	unsigned nsure = 0, nmaybe = 0;
	double ms = rep->wall_ns_mean / 1e6;
	char bps[256] = "";
	unsigned nbp = 0;

	if (rep->wall_ns_mean < o->zero_count_min_s * 1e9)
		return;
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		bool core = !kernel_only(&e->ev) && (has_role(e, R_INSTRUCTIONS) || has_role(e, R_CYCLES) ||
						     has_role(e, R_REF_CYCLES));

		if (!(e->ev.flags & PMC_EVF_HARDWARE) && e->ev.cls != PMC_CLASS_BREAKPOINT)
			continue;
		if (e->status != PMC_COUNT_OK || e->mean != 0 || e->max != 0)
			continue;
		if (e->ev.cls == PMC_CLASS_BREAKPOINT) {
			if (e->scope.kind == PMC_ROW_ALL) /* a thread or CPU of its own may well never reach it */
				name_list_add(bps, sizeof(bps), &nbp, e->ev.name);
		} else if (core) {
			name_list_add(sure, sizeof(sure), &nsure, e->ev.name);
		} else {
			name_list_add(maybe, sizeof(maybe), &nmaybe, e->ev.name);
		}
	}
	name_list_end(sure, sizeof(sure), nsure);
	name_list_end(maybe, sizeof(maybe), nmaybe);
	name_list_end(bps, sizeof(bps), nbp);
	if (nsure)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "zero-count",
				     "%s counted 0 while the workload ran %.1f ms, which cannot be right: the PMU opens "
				     "events but does not count them (some hypervisors' virtual PMUs do this), so no zero "
				     "in this report can be trusted%s%s",
				     sure, ms, nmaybe ? "; also 0: " : "", nmaybe ? maybe : "");
	else if (nmaybe)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "zero-count",
				     "%s counted 0 while the workload ran %.1f ms: possible for a rare event, but also what "
				     "a PMU that does not count reads; count instructions or cycles beside it to tell",
				     maybe, ms);
	if (nbp)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "zero-count",
				     "%s counted 0 while the workload ran %.1f ms: the address was never reached, or this "
				     "machine's debug registers never fire ('pmctool check' probes them)",
				     bps, ms);
}

void pmc_checks_run(struct pmc_report *rep, const struct pmc_check_opts *opts)
{
	struct pmc_check_opts def;

	if (!opts) {
		pmc_check_opts_default(&def);
		opts = &def;
	}
	check_multiplexed(rep);
	check_batch_drift(rep, opts);
	check_utilization(rep, opts);
	kernel_share_one(rep, opts, R_INSTRUCTIONS, "instructions");
	kernel_share_one(rep, opts, R_CYCLES, "cycles");
	check_retired(rep, opts);
	check_impossible(rep, opts);
	check_nmi_watchdog(rep, opts);
	check_zero_count(rep, opts);
	check_descheduled(rep, opts);
}

void pmc_checks_run_defs(struct pmc_report *rep, const struct pmc_check_def *defs, size_t ndefs)
{
	for (size_t i = 0; i < ndefs; i++) {
		char reason[200];
		double v;
		int rc = pmc_metrics_eval_formula(rep, defs[i].cond, &v, reason, sizeof(reason));

		if (rc == -EINVAL)
			pmc_report_add_check(rep, PMC_CHECK_WARN, defs[i].name, "the check's condition '%.100s' does "
					     "not parse: %s", defs[i].cond, reason);
		else if (rc == 0 && v != 0)
			pmc_report_add_check(rep, defs[i].severity, defs[i].name, "%s", defs[i].msg);
	}
}
