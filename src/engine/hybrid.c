/* SPDX-License-Identifier: MIT */
/* The engine on hybrid CPUs (cpu_core + cpu_atom): which copies of each event to open, and what the report says
 * about them. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/fields.h"
#include "pmu/hybrid.h"

static struct {
	bool read;
	size_t n;
	struct pmc_core_pmu pmus[PMC_MAX_CORE_PMUS];
} core;

static size_t core_pmus(void)
{
	if (!core.read) {
		core.n = pmc_hybrid_core_pmus(core.pmus, PMC_MAX_CORE_PMUS);
		core.read = true;
	}
	return core.n;
}

int pmc_eng_hybrid_pin(struct pmc_engine_opts *o)
{
	if (!core_pmus() || o->cpu >= 0)
		return 0;
	/* The events are chosen for the core type of one CPU: the kernel must then run on that very CPU. */
	o->cpu = sched_getcpu();
	if (o->cpu < 0) {
		pmc_diag_error("this CPU is hybrid and the current CPU is unknown (%s): choose one with " RQ_CPU " N",
			strerror(errno));
		return PMC_EXIT_USAGE;
	}
	if (pmc_hybrid_pmu_of_cpu(core.pmus, core.n, o->cpu) < 0) {
		pmc_diag_error("CPU %d is in no core PMU's cpus list (%s: %s, %s: %s): choose one with " RQ_CPU " N",
			o->cpu, core.pmus[0].name, core.pmus[0].cpus, core.pmus[1].name, core.pmus[1].cpus);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

/* The one core PMU an event may use: -k's CPU, or a CPU-wide event's CPU; -1: every core PMU. */
static int only_pmu(const struct pmc_engine_opts *o, const struct pmc_event *ev)
{
	if (ev->cpu_wide)
		return pmc_hybrid_pmu_of_cpu(core.pmus, core.n, ev->cpu);
	if (o->k)
		return pmc_hybrid_pmu_of_cpu(core.pmus, core.n, o->cpu);
	return -1;
}

int pmc_eng_hybrid_copies(const struct pmc_engine_opts *o, const struct pmc_event *ev, struct pmc_event *out, size_t max)
{
	int only, n;

	if (!core_pmus() || ev->cls == PMC_CLASS_EMULATED) {
		out[0] = *ev;
		return 1;
	}
	only = only_pmu(o, ev);
	if (only == -ENOENT) {
		pmc_diag_error("CPU %d is in no core PMU's cpus list: choose another with " RQ_CPU " N",
			ev->cpu_wide ? ev->cpu : o->cpu);
		return -ENOENT;
	}
	n = pmc_hybrid_expand(ev, core.pmus, core.n, only, out, max);
	if (n == 0) {
		/* It names the other core PMU: say which, and where it counts. */
		int cpu = ev->cpu_wide ? ev->cpu : o->cpu;
		const struct pmc_core_pmu *named = &core.pmus[only ? 0 : 1];
		pmc_diag_error("'%s' counts only on %s CPUs (%s), and CPU %d is a %s CPU: " RQ_CPU " N picks a CPU "
				"of that core type", ev->name, named->name, named->cpus, cpu, core.pmus[only].name);
		return -ENOENT;
	}
	if (n == -ENAMETOOLONG) {
		pmc_diag_error("'%s': name too long to open once per core PMU", ev->name);
		return n;
	}
	if (n < 0)
		return n;
	if (only >= 0) {
		/* One core type only: the copy keeps the event's name and needs no merge. */
		for (int i = 0; i < n; i++) {
			snprintf(out[i].name, sizeof(out[i].name), "%s", ev->name);
			out[i].core_pmu = 0;
		}
	}
	return n;
}

int pmc_eng_hybrid_expand(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	struct pmc_event *old = se->evs;
	size_t n = se->n;

	if (!core_pmus())
		return 0;
	se->evs = NULL;
	se->n = se->cap = 0;
	for (size_t i = 0; i < n; i++) {
		struct pmc_event copies[PMC_MAX_CORE_PMUS];
		int k = pmc_eng_hybrid_copies(o, &old[i], copies, PMC_MAX_CORE_PMUS), r;

		if (k < 0) {
			free(old);
			return PMC_EXIT_USAGE;
		}
		for (int c = 0; c < k; c++) {
			r = pmc_eng_events_push(se, &copies[c]);
			if (r) {
				free(old);
				return r;
			}
		}
	}
	free(old);
	return 0;
}

void pmc_eng_hybrid_report(const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	if (!core_pmus())
		return;
	if (o->k) {
		int p = pmc_hybrid_pmu_of_cpu(core.pmus, core.n, o->cpu);
		if (p >= 0)
			pmc_report_add_check(rep, PMC_CHECK_INFO, "core-type",
					     "the kernel ran on CPU %d, a %s CPU (%s: CPUs %s): only %s events were opened; "
					     "--cpu N runs it on another core type", o->cpu, core.pmus[p].name,
					     pmc_hybrid_label(core.pmus[p].name) ? pmc_hybrid_label(core.pmus[p].name) : "?",
					     core.pmus[p].cpus,
					     core.pmus[p].name);
		return;
	}
	if (o->no_merge) {
		pmc_report_add_check(rep, PMC_CHECK_INFO, "core-type",
				     "hybrid CPU (%s: CPUs %s, %s: CPUs %s): each hardware event was opened once per core "
				     "PMU; a NAME [pmu] row counts the time the workload ran on that core type (never scaled); "
				     "not summed (--no-merge)", core.pmus[0].name, core.pmus[0].cpus, core.pmus[1].name,
				     core.pmus[1].cpus);
		return;
	}
	if (pmc_report_merge_core_pmus(rep) < 0) {
		pmc_report_add_check(rep, PMC_CHECK_WARN, "core-type",
				     "out of memory while summing the per-core-type counts: only the NAME [pmu] rows are "
				     "given");
		return;
	}
	if (rep->mode && !strcmp(rep->mode, "multiplex"))
		pmc_report_add_check(rep, PMC_CHECK_WARN, "core-type-multiplex",
				     "with --batch multiplex, time a per-core-type copy did not run is both time on the "
				     "other core type and multiplexing, which cannot be told apart: the NAME [pmu] rows are "
				     "unscaled counts (low when multiplexed); the merged NAME rows are scaled by the time "
				     "counted on neither core type");
	pmc_report_add_check(rep, PMC_CHECK_INFO, "core-type",
			     "hybrid CPU (%s: CPUs %s, %s: CPUs %s): each hardware event was opened once per core PMU; "
			     "a NAME [pmu] row counts the time the workload ran on that core type (never scaled), NAME "
			     "is their sum", core.pmus[0].name, core.pmus[0].cpus, core.pmus[1].name, core.pmus[1].cpus);
}
