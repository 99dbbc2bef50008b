/* SPDX-License-Identifier: MIT */
/* The engine: which events, and how they are packed into batches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/fields.h"
#include "info/inventory.h"
#include "sys/sysfs.h"
#include "pmu/hybrid.h"
#include "pmu/uncore.h"

/* perf stat's default set, plus ref-cycles and the TSC (seed 003's minimum four come from it). ref-cycles only where
 * the PMU has it (not AMD's): see skip_default. */
static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults", "cycles",
	"instructions", "ref-cycles", "branches", "branch-misses",
};

/* A kernel runs in pmctool's own thread: the events that say how it ran, no process-level ones. */
static const char *const kernel_default_events[] = {
	"task-clock", "context-switches", "page-faults", "instructions", "cycles", "ref-cycles", "branches",
	"branch-misses",
};

/* -d, -dd, -ddd: perf stat's detailed lists (perf-stat(1)), each level adding to the one before. */
static const char *const detailed_events[3][6] = {
	{ "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses" },
	{ "L1-icache-loads", "L1-icache-load-misses", "dTLB-loads", "dTLB-load-misses", "iTLB-loads",
	  "iTLB-load-misses" },
	{ "L1-dcache-prefetches", "L1-dcache-prefetch-misses" },
};

/* Added to every batch when a measurement needs more than one, so the batches can be checked against each other. */
static const char *const anchor_events[] = { "instructions", "cycles", "ref-cycles", "msr/tsc/" };

/* The limit is on the user's events: the anchors pmctool adds after them (a few per core PMU) never count against it
 * (1,022 events once were refused as "more than 1024" when the batches' anchors came on top). */
int pmc_eng_events_push(struct pmc_engine *se, const struct pmc_event *ev)
{
	if (!(ev->flags & PMC_EVF_ANCHOR) && se->n >= PMC_MAX_EVENTS) {
		pmc_diag_error("too many events (more than %d): split the measurement into several runs",
			PMC_MAX_EVENTS);
		return PMC_EXIT_USAGE;
	}
	if (se->n == se->cap) {
		size_t cap = se->cap ? se->cap * 2 : 16;
		struct pmc_event *p = realloc(se->evs, cap * sizeof(*p));
		if (!p) {
			pmc_diag_error("out of memory");
			return PMC_EXIT_INTERNAL;
		}
		se->evs = p;
		se->cap = cap;
	}
	se->evs[se->n++] = *ev;
	return 0;
}

/* The resolver's message already names the input and carries the nearest valid names. */
static void print_resolve_error(const char *where, const struct pmc_resolve_error *err)
{
	bool no_core = err->code == PMC_RESOLVE_UNKNOWN && err->nsuggest == 0 && !pmc_pmu_core_name();

	pmc_diag_error("%s%s%s", where, err->msg[0] ? err->msg : "cannot resolve event", !no_core ? "" :
		       "\n  note: libpfm4 knows no core PMU for this CPU, so model-specific names (UOPS_ISSUED:ANY) "
		       "cannot be resolved here; raw codes (r53010e) and generic names work, and "
		       "LIBPFM_FORCE_PMU=hsw (or skl, icx, amd64_fam19h_zen3...) encodes for another CPU");
}

/* A vendor table's uncore event (unc_m_cas_count.rd): its family's terms (tspec), opened once per box and summed as
 * any family spelling, the row named as the user (or the metric's formula) wrote it; --no-merge keeps the boxes'
 * own names. */
static int add_table_uncore(struct pmc_engine *se, const char *name, const char *tspec, unsigned flags)
{
	size_t first = se->n;
	int r = pmc_eng_events_add_spec(se, tspec, flags);

	for (size_t i = first; !r && i < se->n; i++)
		if (!se->no_merge || se->n - first == 1)
			snprintf(se->evs[i].name, sizeof(se->evs[i].name), "%s", name);
	return r;
}

int pmc_eng_events_add_spec(struct pmc_engine *se, const char *spec, unsigned flags)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;
	bool emulated;
	int r = pmc_eng_emulated_resolve(se->emulate, spec, &ev, &emulated);

	if (r)
		return r;
	if (emulated)
		return pmc_eng_events_push(se, &ev);
	memset(&err, 0, sizeof(err));
	if (pmc_event_resolve(spec, &ev, &err) < 0) {
		char tspec[PMC_UNCORE_SPEC_MAX];
		bool done;

		r = pmc_eng_uncore_add(se, spec, flags, &done);
		if (done)
			return r;
		if (pmc_pmu_table_uncore_spec(spec, tspec, sizeof(tspec)) == 0)
			return add_table_uncore(se, spec, tspec, flags);
		print_resolve_error("", &err);
		return PMC_EXIT_USAGE;
	}
	ev.flags |= flags;
	pmc_eng_uncore_scale(&ev, spec);
	return pmc_eng_events_push(se, &ev);
}

/* The logical CPUs of the SMT pair holding 'cpu', for an event set's EVENT@sibling0 / @sibling1. */
static int sibling_cpus(int cpu, int ret[2])
{
	char list[64];
	unsigned n = 0;

	if (pmc_sysfs_smt_siblings(cpu, list, sizeof(list), &n) < 0 || n < 2)
		return -ENODEV;
	if (sscanf(list, "%d%*[,-]%d", &ret[0], &ret[1]) != 2)
		return -EINVAL;
	return 0;
}

static int add_set_events(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	char err[512], base[PMC_NAME_MAX];
	const char *pmu = pmc_pmu_core_model();
	int sib[2] = { -1, -1 };

	if (pmc_eventset_find(o->set_name, &se->set, err, sizeof(err)) < 0) {
		pmc_diag_error("%s\n  'pmctool sets --all' lists the event sets", err);
		return PMC_EXIT_USAGE;
	}
	se->variant = pmc_eventset_select(se->set, pmu);
	if (!se->variant) {
		pmc_diag_error("event set '%s' has no variant for %s%s; 'pmctool sets %s' shows its variants, "
				"and LIBPFM_FORCE_PMU=NAME picks another CPU's", se->set->name, pmu ? "PMU " : "",
			pmu ? pmu : "this CPU (libpfm4 detects no core PMU)", se->set->name);
		return PMC_EXIT_USAGE;
	}
	if (pmc_eng_set_check(se))
		return PMC_EXIT_USAGE;
	for (size_t i = 0; i < se->variant->nevents; i++) {
		const char *spelling = se->variant->events[i].spelling;
		int which = pmc_eventset_event_sibling(spelling, base, sizeof(base));
		struct pmc_event ev;
		struct pmc_resolve_error rerr;
		int r;

		memset(&rerr, 0, sizeof(rerr));
		if (pmc_event_resolve(which >= 0 ? base : spelling, &ev, &rerr) < 0) {
			char where[PMC_NAME_MAX + 64];
			snprintf(where, sizeof(where), "%s:%u: ", se->set->path, se->variant->events[i].line);
			print_resolve_error(where, &rerr);
			return PMC_EXIT_USAGE;
		}
		if (which >= 0) {
			/* --dry-run shows the plan of a machine with SMT (a forced PMU's) on one without */
			if (sib[0] < 0 && sibling_cpus(o->cpu >= 0 ? o->cpu : 0, sib) < 0 && !o->plan_only) {
				int active = pmc_sysfs_smt_active();

				pmc_diag_error("event set '%s' counts on the two SMT siblings of a core, but CPU %d "
						"has no running sibling (%s): see "
						"/sys/devices/system/cpu/cpu%d/topology/core_cpus_list",
					se->set->name, o->cpu >= 0 ? o->cpu : 0,
					active == 0 ? "smt/active is 0: no sibling thread runs"
					: active == 1 ? "smt/active is 1, but not on this CPU's core"
						      : "smt/active is unreadable: this CPU may have no SMT",
					o->cpu >= 0 ? o->cpu : 0);
				return PMC_EXIT_USAGE;
			}
			if (o->k) {
				pmc_diag_error("event set '%s' counts CPU-wide (%s): use it with a command, not "
					       RQ_KERNEL,
					se->set->name, spelling);
				return PMC_EXIT_USAGE;
			}
			ev.cpu_wide = true;
			ev.cpu = sib[which];
			snprintf(ev.name, sizeof(ev.name), "%s", spelling);
		}
		r = pmc_eng_events_push(se, &ev);
		if (r)
			return r;
	}
	return 0;
}

/* --all-user / --all-kernel on one event, as perf does it: the user/kernel filters set whatever the modifiers said
 * (exclude_hv as they left it), on the events whose PMU filters by privilege: the core PMU's (hardware), perf's
 * generic types (hardware, cache, raw, software, tracepoint, breakpoint). msr/tsc/, uncore and power events refuse
 * the filters and count as they are. */
void pmc_eng_priv_override(const struct pmc_engine_opts *o, struct pmc_event *ev)
{
	if (o->priv == PMC_PRIV_AS_GIVEN || (ev->attr.type >= PERF_TYPE_MAX && !(ev->flags & PMC_EVF_HARDWARE)))
		return;
	ev->attr.exclude_kernel = o->priv == PMC_PRIV_ALL_USER;
	ev->attr.exclude_user = o->priv == PMC_PRIV_ALL_KERNEL;
}

/* -d: the detailed levels' events the user did not name already. 0 or an exit status. */
static int add_detailed(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	for (unsigned l = 0; l < o->detailed && l < 3; l++)
		for (size_t i = 0; i < PMC_ARRAY_SIZE(detailed_events[l]) && detailed_events[l][i]; i++) {
			bool have = false;
			int r;

			for (size_t k = 0; k < se->n && !have; k++)
				have = !strcmp(se->evs[k].name, detailed_events[l][i]);
			if (!have && (r = pmc_eng_events_add_spec(se, detailed_events[l][i], 0)))
				return r;
		}
	return 0;
}

/* Defaults and anchors are the events the PMU has: AMD has no ref-cycles (the kernel would answer ENOENT, and it
 * would cost a programmable counter in every batch). */
static bool skip_default(const char *name)
{
	return !strcmp(name, "ref-cycles") && !pmc_pmu_has_ref_cycles();
}

static int collect_events(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	int r;

	if (o->null_run)
		return 0; /* -n: one empty batch, the command run and timed, nothing opened */

	if (o->set_name) {
		r = add_set_events(se, o);
		if (r)
			return r;
	}

	r = pmc_eng_events_add_lists(se, o);
	if (r)
		return r;
	if (se->n || o->set_name)
		return add_detailed(se, o);
	if (o->emulate)
		return pmc_eng_events_add_spec(se, "instructions:u", 0); /* the one event an emulator counts */
	{
		const char *const *list = o->k ? kernel_default_events : default_events;
		size_t n = o->k ? PMC_ARRAY_SIZE(kernel_default_events) : PMC_ARRAY_SIZE(default_events);
		for (size_t i = 0; i < n; i++) {
			if (skip_default(list[i]) || (o->perf_defaults && !strcmp(list[i], "ref-cycles")))
				continue;
			r = pmc_eng_events_add_spec(se, list[i], 0);
			if (r)
				return r;
		}
	}
	r = add_detailed(se, o);
	if (r)
		return r;
	/* The TSC only where the kernel has the msr PMU; quietly left out elsewhere (and in perf's list). */
	if (!o->perf_defaults) {
		struct pmc_event ev;
		if (pmc_event_resolve("msr/tsc/", &ev, NULL) == 0)
			return pmc_eng_events_push(se, &ev);
	}
	return 0;
}

int pmc_eng_events_from_opts(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	int r;

	se->emulate = o->emulate;
	se->no_merge = o->no_merge;
	r = collect_events(se, o);

	if (!r)
		r = pmc_eng_uncore_for_command(se, o);
	for (size_t i = 0; !r && i < se->n; i++)
		pmc_eng_priv_override(o, &se->evs[i]);
	return r ? r : pmc_eng_hybrid_expand(se, o);
}

bool pmc_eng_same_event(const struct pmc_event *a, const struct pmc_event *b)
{
	return a->attr.type == b->attr.type && a->attr.config == b->attr.config &&
	       a->attr.config1 == b->attr.config1 && a->attr.config2 == b->attr.config2 &&
	       a->attr.exclude_user == b->attr.exclude_user && a->attr.exclude_kernel == b->attr.exclude_kernel;
}

/* Anchors the user did not ask for are added; an event the user asked for that equals an anchor becomes one; an
 * anchor already there on the same fixed counter (--topdown's core clocks, engine/topdown.c) stands for it. */
static int add_anchor(struct pmc_engine *se, struct pmc_event *ev)
{
	for (size_t i = 0; i < se->n; i++) {
		const struct pmc_event *e = &se->evs[i];

		if ((e->flags & PMC_EVF_ANCHOR) && e->cls == PMC_CLASS_FIXED && ev->cls == PMC_CLASS_FIXED &&
		    e->fixed_index >= 0 && e->fixed_index == ev->fixed_index && e->core_pmu == ev->core_pmu)
			return 0;
		if (pmc_eng_same_event(&se->evs[i], ev)) {
			se->evs[i].flags |= PMC_EVF_ANCHOR;
			return 0;
		}
	}
	ev->flags |= PMC_EVF_ANCHOR;
	return pmc_eng_events_push(se, ev);
}

/* The modifier the hardware anchors take: ":u" when every hardware event asked for counts user mode only. The
 * anchors compare batches, so they count what the events count: kernel-inclusive anchors would differ between
 * batches by the kernel's own noise where the events themselves are exact (user-only counts repeat exactly). */
static const char *anchor_modifier(const struct pmc_engine *se)
{
	size_t nhw = 0;

	for (size_t i = 0; i < se->n; i++) {
		const struct perf_event_attr *a = &se->evs[i].attr;

		if (!(se->evs[i].flags & PMC_EVF_HARDWARE))
			continue;
		if (a->exclude_user || !a->exclude_kernel)
			return "";
		nhw++;
	}
	return nhw ? ":u" : "";
}

/* The programmable counters the hardware anchors not yet in se would take in each batch. */
static unsigned hardware_anchors_gp(const struct pmc_engine *se, const char *mod)
{
	unsigned gp = 0;

	for (size_t a = 0; a < PMC_ARRAY_SIZE(anchor_events); a++) {
		struct pmc_event ev;
		char spec[32];
		bool have = false;

		if (strchr(anchor_events[a], '/') || skip_default(anchor_events[a]))
			continue;
		snprintf(spec, sizeof(spec), "%s%s", anchor_events[a], mod);
		if (pmc_event_resolve(spec, &ev, NULL) < 0)
			continue;
		for (size_t i = 0; i < se->n && !have; i++)
			have = pmc_eng_same_event(&se->evs[i], &ev);
		gp += have ? 0 : pmc_plan_gp_cost(&ev, se->popts.fixed_slots);
	}
	return gp;
}

static int add_anchors(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	const char *mod = anchor_modifier(se);
	bool own = false; /* anchors of the measurement's own on programmable counters (--topdown=2 on AMD Zen 4) */

	for (size_t i = 0; i < se->n; i++)
		own |= (se->evs[i].flags & PMC_EVF_ANCHOR) && se->evs[i].cls == PMC_CLASS_GP;
	/* -M's table metrics counted as one group that would not fit beside the programmable anchors: the group stays
	 * whole, and the batches are compared by what is left (msr/tsc/), said in the notes (engine/mgroups.c) */
	if (!own && pmc_eng_metric_group_crowded(se, hardware_anchors_gp(se, mod)))
		own = se->mgroup_no_gp_anchors = true;
	for (size_t a = 0; a < PMC_ARRAY_SIZE(anchor_events); a++) {
		if (own && !strchr(anchor_events[a], '/')) /* they compare the batches: no hardware anchor beside them */
			continue;
		struct pmc_event ev, copies[PMC_MAX_CORE_PMUS];
		char spec[32];
		int n;

		if (skip_default(anchor_events[a]))
			continue;
		/* msr/tsc/ refuses exclude bits: only the hardware anchors take the modifier */
		snprintf(spec, sizeof(spec), "%s%s", anchor_events[a], strchr(anchor_events[a], '/') ? "" : mod);
		if (pmc_event_resolve(spec, &ev, NULL) < 0)
			continue; /* msr/tsc/ where there is no msr PMU */
		pmc_eng_priv_override(o, &ev);
		n = pmc_eng_hybrid_copies(o, &ev, copies, PMC_MAX_CORE_PMUS);
		for (int c = 0; c < n; c++) {
			int r = add_anchor(se, &copies[c]);
			if (r)
				return r;
		}
	}
	return 0;
}

/* Nothing hardware can be counted here: splitting would only rerun the workload for nothing. */
static bool no_pmu_budget(struct pmc_engine *se)
{
	if (getenv("LIBPFM_FORCE_PMU") || pmc_arch_has_core_pmu())
		return false;
	se->popts.gp_budget = 64;
	snprintf(se->budget_why, sizeof(se->budget_why),
		 "no hardware PMU, so hardware events are not split into batches (--counters N to plan anyway)");
	return true;
}

/* The forced libpfm4 PMU's table, read as budget.c reads any static table. */
static int forced_pmu_budget(unsigned *ret_n, char *why, size_t whylen)
{
	const char *core = pmc_pmu_core_name();
	int table = pmc_pmu_core_table_counters();

	if (!core || table <= 0)
		return -ENODEV;
	return pmc_forced_pmu_budget(core, pmc_pmu_has_intel_fixed(), (unsigned)table, ret_n, why, whylen);
}

static void detect_budget(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	unsigned n = 0;
	char why[200] = "";
	bool all_free = true;

	se->popts.bp_budget = PMC_BREAKPOINT_SLOTS;
	for (size_t i = 0; i < se->n; i++)
		all_free &= se->evs[i].cls == PMC_CLASS_FREE;
	if (all_free && !o->counters) {
		/* Software and msr events only: one batch, no anchors, no counter to budget, and no reason to start
		 * libpfm4 (a CPUID per PMU it knows: milliseconds in a VM) to find out how many there are. */
		se->popts.fixed_slots = 0;
		se->popts.gp_budget = 64;
		snprintf(se->budget_why, sizeof(se->budget_why), "no event needs a counter");
		return;
	}
	se->popts.fixed_slots = pmc_pmu_fixed_counters();
	/* arm64: the cycle counter, fixed counter 1 in the plan (cycles events are classed so) */
	if (pmc_pmu_cycle_counter() && se->popts.fixed_slots < 2)
		se->popts.fixed_slots = 2;
	if (o->counters) {
		se->popts.gp_budget = o->counters;
		snprintf(se->budget_why, sizeof(se->budget_why), "%u programmable counters (--counters)", o->counters);
		return;
	}
	/* Checked first because the live count below starts libpfm4, and says the same without a PMU. */
	if (no_pmu_budget(se))
		return;
	/* A forced PMU where the kernel has none: the host cannot say, so plan for the forced PMU's counters. */
	if (getenv("LIBPFM_FORCE_PMU") && !pmc_arch_has_core_pmu() && forced_pmu_budget(&n, why, sizeof(why)) == 0) {
		se->popts.gp_budget = n;
		snprintf(se->budget_why, sizeof(se->budget_why), "%u programmable counters: %s", n, why);
		return;
	}
	if (pmc_inventory_gp_counters(&n, why, sizeof(why)) == 0 && n > 0) {
		se->popts.gp_budget = n;
		snprintf(se->budget_why, sizeof(se->budget_why), "%u programmable counters: %s", n, why);
		return;
	}
	/* A PMU that did not say: 4 is what every Intel core since Nehalem gives one thread with SMT on. */
	se->popts.gp_budget = 4;
	snprintf(se->budget_why, sizeof(se->budget_why),
		 "4 programmable counters assumed (no live count for this PMU; --counters N to change)");
}

int pmc_eng_events_plan(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	int r;

	detect_budget(se, o);
	if (o->regions)
		pmc_eng_regions_budget(se);
	r = pmc_eng_groups_check(se, o);
	if (r)
		return r;
	se->popts.multiplex = o->batch == PMC_BATCH_MULTIPLEX;
	r = pmc_eng_metric_groups_merge(se);
	if (r)
		return r;
	r = pmc_plan_build(se->evs, se->n, &se->popts, &se->plan);
	if (r == 0 && se->plan.nbatches > 1 && !se->popts.multiplex && !o->no_anchors) {
		pmc_plan_fini(&se->plan);
		r = add_anchors(se, o);
		if (r)
			return r;
		r = pmc_plan_build(se->evs, se->n, &se->popts, &se->plan);
	}
	if (r) {
		pmc_diag_error("cannot plan the batches: %s", strerror(-r));
		return PMC_EXIT_INTERNAL;
	}
	return pmc_eng_groups_check_plan(se);
}

void pmc_eng_events_fini(struct pmc_engine *se)
{
	pmc_plan_fini(&se->plan);
	pmc_eventset_free(se->set);
	free(se->evs);
	memset(se, 0, sizeof(*se));
}
