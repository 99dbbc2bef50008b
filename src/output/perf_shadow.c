/* SPDX-License-Identifier: MIT */
/* perf stat's metric beside an event (its "shadow" metric), for -x SEP's fields 6 and 7: what perf 6.1 prints there
 * for the same events, worked out the way perf does from the report's counts. Events are matched as perf matches them,
 * by their generic type and config (pmctool's own names for an encoding do not matter), within one row and one
 * privilege level (cycles:u pairs with instructions:u); the clock (task-clock, cpu-clock) with any. */
#include "output/perf_shadow.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>

/* A generic cache event's config: cache id | op << 8 | result << 16. */
#define CACHE(id, op, res) ((id) | ((op) << 8) | ((res) << 16))
#define LOAD_ACCESS(id) CACHE(id, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS)
#define LOAD_MISS(id) CACHE(id, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)

/* A miss event and the event its share is of, with perf's words for it. */
static const struct miss_share {
	unsigned type;
	unsigned long long miss, of;
	const char *unit;
	const char *metric; /* pmctool's metric that says the same (not printed again on a line of its own) */
} miss_shares[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "of all branches",
	  "branch_miss_pct" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, PERF_COUNT_HW_CACHE_REFERENCES, "of all cache refs",
	  "cache_miss_pct" },
	{ PERF_TYPE_HW_CACHE, LOAD_MISS(PERF_COUNT_HW_CACHE_L1D), LOAD_ACCESS(PERF_COUNT_HW_CACHE_L1D),
	  "of all L1-dcache accesses", "L1_dcache_miss_pct" },
	{ PERF_TYPE_HW_CACHE, LOAD_MISS(PERF_COUNT_HW_CACHE_L1I), LOAD_ACCESS(PERF_COUNT_HW_CACHE_L1I),
	  "of all L1-icache accesses", "L1_icache_miss_pct" },
	{ PERF_TYPE_HW_CACHE, LOAD_MISS(PERF_COUNT_HW_CACHE_LL), LOAD_ACCESS(PERF_COUNT_HW_CACHE_LL),
	  "of all LL-cache accesses", "LLC_miss_pct" },
	{ PERF_TYPE_HW_CACHE, LOAD_MISS(PERF_COUNT_HW_CACHE_DTLB), LOAD_ACCESS(PERF_COUNT_HW_CACHE_DTLB),
	  "of all dTLB cache accesses", "dTLB_miss_pct" },
	{ PERF_TYPE_HW_CACHE, LOAD_MISS(PERF_COUNT_HW_CACHE_ITLB), LOAD_ACCESS(PERF_COUNT_HW_CACHE_ITLB),
	  "of all iTLB cache accesses", "iTLB_miss_pct" },
};

/* The generic (type, config) of an event, its PMU's extended-type bits (hybrid copies) cleared; false when it is no
 * generic event. */
static bool generic(const struct pmc_event *ev, unsigned type, unsigned long long config)
{
	return ev->attr.type == type && (ev->attr.config & 0xffffffffull) == config;
}

static bool is_clock(const struct pmc_event *ev)
{
	return generic(ev, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK) ||
	       generic(ev, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
}

static bool same_row(const struct pmc_report_event *a, const struct pmc_report_event *b)
{
	return a->scope.kind == b->scope.kind && !strcmp(a->scope.label, b->scope.label);
}

/* The counted event of type/config in e's row (and e's privilege level unless any_level); NULL when none. */
static const struct pmc_report_event *find(const struct pmc_report *rep, const struct pmc_report_event *e,
					   unsigned type, unsigned long long config, bool any_level)
{
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *x = &rep->events[i];

		if (x->status == PMC_COUNT_OK && same_row(x, e) && generic(&x->ev, type, config) &&
		    (any_level || (x->ev.attr.exclude_user == e->ev.attr.exclude_user &&
				   x->ev.attr.exclude_kernel == e->ev.attr.exclude_kernel)))
			return x;
	}
	return NULL;
}

static const struct pmc_report_event *find_clock(const struct pmc_report *rep, const struct pmc_report_event *e)
{
	const struct pmc_report_event *c = find(rep, e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true);

	return c ? c : find(rep, e, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true);
}

static void put(struct pmc_perf_shadow *s, const char *fmt, double v, const char *unit)
{
	if (fmt)
		snprintf(s->value, sizeof(s->value), fmt, v);
	else
		s->value[0] = '\0';
	s->v = fmt ? v : 0;
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
	s->have = true;
}

bool pmc_perf_shadow(const struct pmc_report *rep, const struct pmc_report_event *e, struct pmc_perf_shadow *s)
{
	const struct pmc_report_event *x;
	double wall;

	memset(s, 0, sizeof(*s));
	if (e->status != PMC_COUNT_OK)
		return false;
	if (is_clock(&e->ev)) {
		wall = pmc_report_counting_ns(rep);
		if (wall > 0)
			put(s, "%.3f", e->mean / wall, "CPUs utilized");
		s->metric = "CPUs";
		return s->have;
	}
	if (generic(&e->ev, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)) {
		x = find(rep, e, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false);
		put(s, x && x->mean > 0 ? "%.2f" : NULL, x && x->mean > 0 ? e->mean / x->mean : 0, "insn per cycle");
		s->metric = "IPC";
		return true;
	}
	if (generic(&e->ev, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		x = find_clock(rep, e);
		put(s, x && x->mean > 0 ? "%.3f" : NULL, x && x->mean > 0 ? e->mean / x->mean : 0, "GHz");
		s->metric = "GHz";
		return true;
	}
	for (size_t i = 0; i < sizeof(miss_shares) / sizeof(miss_shares[0]); i++) {
		const struct miss_share *m = &miss_shares[i];

		if (!generic(&e->ev, m->type, m->miss))
			continue;
		x = find(rep, e, m->type, m->of, false);
		put(s, x && x->mean > 0 ? "%.2f" : NULL, x && x->mean > 0 ? 100.0 * e->mean / x->mean : 0, m->unit);
		s->metric = m->metric;
		return true;
	}
	/* Anything else: a rate per second of the clock's time, when the clock was counted (K, M, G as perf scales) */
	x = find_clock(rep, e);
	if (x && x->mean > 0) {
		double r = 1e9 * e->mean / x->mean;
		const char *unit = r > 1e9 ? "G/sec" : r > 1e6 ? "M/sec" : r > 1e3 ? "K/sec" : "/sec";

		put(s, "%.3f", r > 1e9 ? r / 1e9 : r > 1e6 ? r / 1e6 : r > 1e3 ? r / 1e3 : r, unit);
	}
	return s->have;
}

bool pmc_perf_shadow_placed(const struct pmc_report *rep, const struct pmc_metric_value *m)
{
	for (size_t i = 0; i < rep->nevents; i++) {
		const struct pmc_report_event *e = &rep->events[i];
		struct pmc_perf_shadow s;

		if (strcmp(e->scope.label, m->scope) || !pmc_perf_shadow(rep, e, &s) || !s.metric)
			continue;
		if (!strcmp(s.metric, m->name) && s.value[0])
			return true;
	}
	return false;
}
