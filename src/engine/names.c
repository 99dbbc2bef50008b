/* SPDX-License-Identifier: MIT */
/* The engine: perf's -e spellings (groups, modifiers), the notes that go with them, and the checks made on names
 * before anything runs (a group larger than the counters, a set with nothing to count, a forced PMU). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "arch/arch.h"
#include "engine/fields.h"
#include "util/fork.h"

struct add_ctx {
	struct pmc_engine *se;
};

static int add_item(const struct pmc_spec_item *it, void *ctx)
{
	struct pmc_engine *se = ((struct add_ctx *)ctx)->se;
	char why[240];
	int r = pmc_eng_events_add_spec(se, it->spec, 0);

	if (r || !it->group)
		return r;
	se->evs[se->n - 1].group = it->group;
	if (pmc_event_group_mods(it->group_mods, &se->evs[se->n - 1], why, sizeof(why))) {
		pmc_diag_error("group modifiers ':%s' (on '%s'): %s", it->group_mods, it->spec, why);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

int pmc_eng_events_add_lists(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	struct add_ctx c = { se };
	unsigned groups = 0;
	char err[300];

	for (size_t i = 0; i < o->nlists; i++) {
		bool metric = o->metric_list_n && i >= o->metric_list_first && i < o->metric_list_first + o->metric_list_n;
		unsigned before = groups;
		int r = pmc_event_list_walk(o->event_lists[i], &groups, add_item, &c, err, sizeof(err));

		if (r == -EINVAL || r == -E2BIG) {
			pmc_diag_error("bad event list: %s", err);
			return PMC_EXIT_USAGE;
		}
		if (r)
			return r;
		if (metric && groups > before) {
			se->mgroup_lo = se->mgroup_lo ? se->mgroup_lo : before + 1;
			se->mgroup_hi = groups;
		}
	}
	return 0;
}

/* A group's slots of one class, and the first member's name. */
static void group_size(const struct pmc_engine *se, unsigned g, unsigned fixed, unsigned *gp, unsigned *bp,
		       bool *weak, const char **first)
{
	*gp = *bp = 0;
	*weak = false;
	*first = NULL;
	for (size_t i = 0; i < se->n; i++) {
		if (se->evs[i].group != g)
			continue;
		if (!*first)
			*first = se->evs[i].name;
		*gp += pmc_plan_gp_cost(&se->evs[i], fixed);
		*bp += se->evs[i].cls == PMC_CLASS_BREAKPOINT;
		*weak |= !!(se->evs[i].flags & PMC_EVF_WEAK_GROUP);
	}
}

int pmc_eng_groups_check(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	unsigned last = 0;

	if (o->batch == PMC_BATCH_MULTIPLEX)
		return 0; /* one batch: every group is in it */
	for (size_t i = 0; i < se->n; i++) {
		unsigned g = se->evs[i].group, gp, bp;
		const char *first;
		char why[320];
		bool weak;

		if (!g || g == last)
			continue;
		last = g;
		group_size(se, g, se->popts.fixed_slots, &gp, &bp, &weak, &first);
		if (gp <= se->popts.gp_budget && bp <= se->popts.bp_budget)
			continue;
		if (weak) {
			/* perf's :W: the group may be split, as perf opens its members one by one */
			for (size_t j = 0; j < se->n; j++)
				if (se->evs[j].group == g)
					se->evs[j].group = 0;
			continue;
		}
		if (gp > se->popts.gp_budget)
			snprintf(why, sizeof(why), "needs %u programmable counters; a batch has %s.", gp, se->budget_why);
		else
			snprintf(why, sizeof(why), "has %u breakpoints; a batch has %u debug registers.", bp,
				 se->popts.bp_budget);
		pmc_diag_error("the group starting with '%s' %s A group is counted together or not at all: make it "
			       "smaller, let it be split with {...}:W%s", first, why,
			       gp > se->popts.gp_budget ? ", or give " RQ_COUNTERS " N if the PMU has more" : "");
		return PMC_EXIT_USAGE;
	}
	return 0;
}

int pmc_eng_groups_check_plan(const struct pmc_engine *se)
{
	/* the anchors added for several batches take programmable counters where there are no fixed ones (AMD): a
	 * group that fitted alone may not fit next to them, and the kernel would refuse it or it would be cut */
	for (size_t b = 0; b < se->plan.nbatches && !se->popts.multiplex; b++) {
		const struct pmc_batch *bt = &se->plan.batches[b];
		unsigned cost = 0;
		const char *member = NULL;

		for (size_t k = 0; k < bt->n; k++) {
			const struct pmc_event *ev = &se->evs[bt->events[k]];

			cost += pmc_plan_gp_cost(ev, se->popts.fixed_slots);
			if (ev->group && !member && bt->n > 1)
				member = ev->name;
		}
		for (size_t k = 0; k < se->plan.nevery; k++)
			if (pmc_plan_every_in_batch(&se->plan, b, &se->evs[se->plan.every[k]]))
				cost += pmc_plan_gp_cost(&se->evs[se->plan.every[k]], se->popts.fixed_slots);
		if (member && cost > se->popts.gp_budget) {
			pmc_diag_error("the group of '%s' fits %s, but not next to the events counted in every "
					"batch (the anchors instructions and cycles take programmable counters on this "
					"PMU): %u of %u. Use " RQ_NO_ANCHORS ", make the group smaller, or let it be "
					"split with "
					"{...}:W", member, se->budget_why, cost, se->popts.gp_budget);
			return PMC_EXIT_USAGE;
		}
	}
	return 0;
}

/* LIBPFM_FORCE_PMU names a PMU other than this CPU's while the kernel counts on real hardware: the encodings are
 * another CPU's. 1 and msg, or 0. */
static int forced_pmu_differs(char *msg, size_t len)
{
	const char *forced = getenv("LIBPFM_FORCE_PMU");
	char here[64];

	if (!forced || !*forced)
		return 0;
	pmc_pmu_detected_core(forced, here, sizeof(here));
	if (!here[0])
		return 0;
	snprintf(msg, len, "LIBPFM_FORCE_PMU=%s encodes the events for that PMU, but this CPU's is %s%s", forced,
		 here,
		 pmc_arch_has_core_pmu() ? ": the counts are what those event codes count on this CPU, which may "
						"be another event or nothing" : " (and the kernel has no hardware PMU "
						"here: a plan only)");
	return 1;
}

void pmc_eng_names_notes(const struct pmc_engine *se, void (*emit)(void *ctx, bool warn, const char *name,
								  const char *msg), void *ctx)
{
	char msg[PMC_NAME_MAX + 420], note[400];
	unsigned weak_split = 0;

	if (forced_pmu_differs(msg, sizeof(msg)))
		emit(ctx, true, "forced-pmu", msg);
	for (size_t i = 0; i < se->n; i++) {
		const struct pmc_event *ev = &se->evs[i];

		int kind = pmc_event_note(ev, note, sizeof(note));

		if (kind) {
			snprintf(msg, sizeof(msg), "'%s': %s", ev->name, note);
			emit(ctx, kind == 2, kind < 2 ? "modifier" : (ev->flags & PMC_EVF_ABSENT) ? "not-supported"
			     : "encoding", msg);
		}
		if ((ev->flags & PMC_EVF_WEAK_GROUP) && !ev->group)
			weak_split++;
	}
	for (size_t i = 0; i < se->n; i++)
		if (se->evs[i].cpu_wide && se->evs[i].cpu < 0) {
			emit(ctx, true, "no-smt", "this CPU has no SMT sibling: the @sibling events are planned (--dry-run) "
			     "but cannot be counted here");
			break;
		}
	if (se->mgroup_merged) {
		snprintf(msg, sizeof(msg), "-M: the %u table-metric groups are counted as one group of %u events (they fit "
			 "the counters together): every metric's ratio is of counts from one group and one run",
			 se->mgroup_merged, se->mgroup_events);
		emit(ctx, false, "metric-group", msg);
	}
	if (se->mgroup_no_gp_anchors)
		emit(ctx, false, "metric-group", "-M: the table metrics' group needs the programmable counters the "
		     "anchors instructions and cycles would take in its batch: they are not added, the group stays whole, "
		     "and the batch check uses what the group has and the anchors left (msr/tsc/)");
	if (weak_split) {
		snprintf(msg, sizeof(msg), "a weak group ({...}:W) of %u events does not fit the counters: its events "
			 "are planned one by one, not counted together", weak_split);
		emit(ctx, false, "weak-group", msg);
	}
	if (se->set)
		for (size_t i = 0; i < se->set->nnotes; i++)
			emit(ctx, false, "set-note", se->set->notes[i]);
	if (se->variant)
		for (size_t i = 0; i < se->variant->nnotes; i++)
			emit(ctx, false, "set-note", se->variant->notes[i]);
}

static void report_note(void *ctx, bool warn, const char *name, const char *msg)
{
	pmc_report_add_check(ctx, warn ? PMC_CHECK_WARN : PMC_CHECK_INFO, name, "%s", msg);
}

void pmc_eng_names_report(const struct pmc_engine *se, struct pmc_report *rep)
{
	pmc_eng_names_notes(se, report_note, rep);
}

int pmc_eng_set_check(const struct pmc_engine *se)
{
	if (se->variant->nevents || se->set->topdown_level) /* a top-down set: its events are the tree's */
		return 0;
	char notes[1536] = "";
	size_t off = 0;

	for (size_t i = 0; i < se->variant->nnotes && off < sizeof(notes); i++)
		off += (size_t)snprintf(notes + off, sizeof(notes) - off, "\n  %s", se->variant->notes[i]);
	pmc_diag_error("event set '%s' has nothing to count on this CPU (variant '%s'):%s", se->set->name,
		       se->variant->name, notes);
	return PMC_EXIT_USAGE;
}

const char *pmc_eng_enoent_why(const char *prog)
{
	static char why[PATH_MAX + 160];
	const char *path = getenv("PATH");
	char file[PATH_MAX];

	if (strchr(prog, '/')) {
		if (access(prog, F_OK))
			return " (no such file)";
		return " (the file exists: the interpreter on its #! line, or its dynamic loader, is missing)";
	}
	for (const char *p = path ? path : ""; *p;) {
		size_t n = strcspn(p, ":");

		if (n && n + strlen(prog) + 2 <= sizeof(file)) {
			snprintf(file, sizeof(file), "%.*s/%s", (int)n, p, prog);
			if (!access(file, F_OK)) {
				snprintf(why, sizeof(why), " (found as %s: the interpreter on its #! line, or its dynamic "
					 "loader, is missing)", file);
				return why;
			}
		}
		p += n + (p[n] == ':');
	}
	if (!strcmp(prog, "record") || !strcmp(prog, "report"))
		return " (not found in PATH; perf's 'perf stat record' and 'perf stat report' are not pmctool's: it keeps a "
		       "measurement as 'pmctool stat --json -o FILE -- COMMAND' and reads it back with 'pmctool report FILE')";
	return " (not found in PATH)";
}
