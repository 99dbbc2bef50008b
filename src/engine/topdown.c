/* SPDX-License-Identifier: MIT */
/* stat --topdown (issue 27, doc/topdown.md): choose the tree for this CPU (or --topdown-def), resolve the inputs of
 * levels 1..LEVEL into events, plan level 1 as one group (the slots group rule: perf/evlist.c, plan/plan.c), and
 * after the runs evaluate the tree from the report's counts into rep->topdown. An input that could not be resolved
 * or counted is handed to the evaluation as not counted with its reason: its nodes are n/a, never 0%. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "engine/engine.h"
#include "engine/fields.h"
#include "eventsets/eventset.h"
#include "metrics/topdown.h"
#include "perf/perf.h"
#include "pmu/hybrid.h"
#include "report/regions.h"
#include "report/topdown.h"
#include "sys/sysfs.h"

_Static_assert(PMC_REPORT_TD_NODES >= PMC_TD_MAX_NODES, "report/topdown.h holds every node of a tree");

#include "engine/topdown_int.h"


/* The names --topdown-def accepts, for a message. */
static void tree_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pmc_td_tree_count() && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", pmc_td_tree_at(i)->name);
}

/* Whether the measurement counts whole cores (every CPU, rows no finer than a core), as a per-core (SMT) tree needs:
 * each core's counts are both threads' sums, and AnyThread is allowed wherever -a is (Linux's intel_pmu_hw_config
 * asks perf_allow_cpu() for the ANY bit: perf_event_paranoid <= 0 or CAP_PERFMON, as for CPU-wide counting). */
static bool core_counted(const struct pmc_engine_opts *o)
{
	return o->targets.system_wide && !o->targets.ncgroups &&
	       (o->aggr == PMC_AGGR_GLOBAL || o->aggr == PMC_AGGR_CORE || o->aggr == PMC_AGGR_DIE ||
		o->aggr == PMC_AGGR_SOCKET || o->aggr == PMC_AGGR_NODE);
}

/* The tree for this CPU: the forced or detected libpfm4 PMU, the vendor, SMT. 0 or PMC_EXIT_USAGE (message given). */
static int choose(struct td_part *td, const struct pmc_engine_opts *o)
{
	struct pmc_arch_cpu cpu;
	struct pmc_td_cpu in = { 0 };
	struct pmc_td_choice ch;
	char names[512];

	tree_names(names, sizeof(names));
	if (o->topdown_def) {
		td->tree = pmc_td_tree_find(o->topdown_def);
		td->why = "chosen with --topdown-def";
		if (!td->tree) {
			pmc_diag_error(RQ_TOPDOWN_DEF " '%s': no such top-down tree; the trees are: %s",
				       o->topdown_def, names);
			return PMC_EXIT_USAGE;
		}
		return 0;
	}
	pmc_arch_cpu_identify(&cpu);
	in.vendor = cpu.vendor;
	in.pmu = td->pmu[0] ? td->pfm : pmc_pmu_core_name();
	in.smt_on = pmc_sysfs_smt_active() == 1;
	in.family = cpu.family;
	pmc_td_choose(&in, &ch);
	td->tree = ch.tree;
	td->why = ch.reason;
	if (td->tree && !core_counted(o)) { /* the per-core (AnyThread, SMT) tree needs both threads of each core */
		size_t n = strlen(td->tree->name);
		char base[64];

		if (n > 4 && n < sizeof(base) && !strcmp(td->tree->name + n - 4, "-smt")) {
			snprintf(base, sizeof(base), "%.*s", (int)(n - 4), td->tree->name);
			if (pmc_td_tree_find(base)) {
				td->tree = pmc_td_tree_find(base);
				td->smt_thread = true;
				td->why = "SMT is on, but the core's tree needs both threads of each core counted (-a with "
					  "--per-core, or the total): this is the tree of the threads counted";
			}
		}
	}
	if (!td->tree) {
		pmc_diag_error(RQ_TOPDOWN_LEVEL ": no top-down tree for this CPU%s%s (%s, libpfm4 PMU %s): %s; "
			       RQ_TOPDOWN_DEF " NAME "
			       "picks one anyway (its events may not exist here): %s", td->pmu[0] ? "'s " : "", td->pmu,
			       cpu.vendor[0] ? cpu.vendor : "vendor unknown", in.pmu ? in.pmu : "none", ch.reason, names);
		return PMC_EXIT_USAGE;
	}
	return 0;
}

/* Input in as an event of td's PMU: the libpfm4 spelling under the core PMU (a hybrid core type's table), then perf's
 * (under a hybrid core PMU: its sysfs alias), then the raw code. 0, or -ENOENT with the last resolver's message in
 * why. */
static int resolve(const struct td_part *td, const struct pmc_td_input *in, struct pmc_event *ev, char *why,
		   size_t len)
{
	const char *pmu = td->pmu[0] ? td->pfm : pmc_pmu_core_name();
	char spec[3][PMC_NAME_MAX + 40];
	size_t n = 0;
	struct pmc_resolve_error err;

	if (in->pfm && pmu)
		snprintf(spec[n++], sizeof(spec[0]), "%s::%s", pmu, in->pfm);
	else if (in->pfm && !td->pmu[0])
		snprintf(spec[n++], sizeof(spec[0]), "%s", in->pfm);
	if (in->perf && td->pmu[0])
		snprintf(spec[n++], sizeof(spec[0]), "%s/%s/", td->pmu, in->perf);
	else if (in->perf)
		snprintf(spec[n++], sizeof(spec[0]), "%s", in->perf);
	if (in->raw && strchr(in->raw, '=')) { /* in the core PMU's sysfs terms: "event=0x00,umask=0x84" */
		char dir[512];
		const char *base = td->pmu[0] ? td->pmu
				   : pmc_arch_core_pmu_dir(dir, sizeof(dir)) == 0 && strrchr(dir, '/') ? strrchr(dir, '/') + 1
													   : "cpu";

		snprintf(spec[n++], sizeof(spec[0]), "%.40s/%.120s/", base, in->raw);
	} else if (in->raw && !td->pmu[0]) {
		snprintf(spec[n++], sizeof(spec[0]), "%s", in->raw);
	}
	{
		char own[sizeof(td->pmu)];

		memcpy(own, td->pmu, sizeof(own));
		snprintf(why, len, "no spelling of it is known%s%s", own[0] ? " for " : "", own);
	}
	for (size_t k = 0; k < n; k++) {
		memset(&err, 0, sizeof(err));
		if (pmc_event_resolve(spec[k], ev, &err) == 0)
			return 0;
		snprintf(why, len, "cannot be encoded here: %.170s", err.msg[0] ? err.msg : spec[k]);
	}
	return -ENOENT;
}

/* A PMC_TD_PROPERTY input: Arm's slots per cycle from the core PMU's caps/slots. */
static void property(struct td_part *td, size_t i)
{
	char dir[512], path[600];
	long v = 0;
	int r;

	if (strcmp(td->tree->inputs[i].id, "SLOTS_PER_CYCLE")) {
		snprintf(td->why_not[i], sizeof(td->why_not[i]), "pmctool cannot read this property");
		return;
	}
	if (pmc_arch_core_pmu_dir(dir, sizeof(dir)) < 0) {
		snprintf(td->why_not[i], sizeof(td->why_not[i]), "the kernel has no core PMU here (no sysfs caps/slots)");
		return;
	}
	snprintf(path, sizeof(path), "%s/caps/slots", dir);
	r = pmc_sysfs_read_long(path, &v);
	if (r < 0 || v <= 0) {
		snprintf(td->why_not[i], sizeof(td->why_not[i]), "%.120s: %.60s", path, r < 0 ? strerror(-r) : "not positive");
		return;
	}
	td->prop[i] = (double)v;
	td->prop_ok[i] = true;
}

/* Level 2 of a tree whose level 1 fills every programmable counter (AMD Zen 4: six events, six counters): the tree's
 * anchors (tree->anchors: the level-1 inputs the level-2 ratios divide by, the clock and the retired ops) are the
 * anchors of the level-2 batches, counted in each of them, in place of pmctool's instructions and cycles
 * (engine/events.c adds no hardware anchor beside them), so every batch has its own clock and retired ops. */
static bool own_anchor_tree(const struct td_part *td)
{
	return td->level >= 2 && td->tree->anchors;
}

static bool own_anchor(const struct td_part *td, size_t i)
{
	if (!own_anchor_tree(td))
		return false;
	for (size_t k = 0; td->tree->anchors[k]; k++)
		if (!strcmp(td->tree->inputs[i].id, td->tree->anchors[k]))
			return true;
	return false;
}

/* With own anchors: each deeper input's family, the level-1 node whose children's formulas need it (a tree of level 1
 * and that node's children, asked for its inputs), so each family is a group of its own: the split of a parent is
 * counted in one group, beside the anchors it divides by, and the families fit the counters the anchors leave. */
static void families(struct td_part *td)
{
	struct pmc_td_node nodes[PMC_TD_MAX_NODES];
	int fam = 0;

	for (size_t i = 0; i < td->tree->ninputs; i++)
		td->fam[i] = -1;
	if (!own_anchor_tree(td))
		return;
	for (size_t p = 0; p < td->tree->nnodes; p++) {
		struct pmc_td_tree t = *td->tree;
		bool need[PMC_TD_MAX_INPUTS] = { false };
		size_t n = 0;

		if (td->tree->nodes[p].level != 1)
			continue;
		for (size_t k = 0; k < td->tree->nnodes; k++)
			if (td->tree->nodes[k].level <= 1 ||
			    (td->tree->nodes[k].parent && !strcmp(td->tree->nodes[k].parent, td->tree->nodes[p].name)))
				nodes[n++] = td->tree->nodes[k];
		t.nodes = nodes;
		t.nnodes = n;
		if (pmc_td_level_inputs(&t, 2, need) >= 0)
			for (size_t i = 0; i < td->tree->ninputs; i++)
				if (need[i] && !td->l1[i] && td->fam[i] < 0)
					td->fam[i] = fam;
		fam++;
	}
}

/* Add input i as an event of the measurement (the leader's group first: pmc_eng_topdown_prepare orders them). */
static int add_input(struct pmc_engine *se, struct td_part *td, size_t i)
{
	const struct pmc_td_input *in = &td->tree->inputs[i];
	struct pmc_event ev;
	int r;

	if (in->kind == PMC_TD_ABSENT) {
		snprintf(td->why_not[i], sizeof(td->why_not[i]), "%s", in->source ? in->source : "absent on this CPU");
		return 0;
	}
	if (in->kind == PMC_TD_PROPERTY) {
		property(td, i);
		return 0;
	}
	if (resolve(td, in, &ev, td->why_not[i], sizeof(td->why_not[i])))
		return 0;
	if (in->perf && strlen(in->perf) + strlen(td->pmu) + 3 < sizeof(ev.name)) { /* perf's spelling, whatever resolved
											    it; a core type's as hybrid copies */
		size_t off = (size_t)snprintf(ev.name, sizeof(ev.name), "%s", in->perf);

		if (td->pmu[0] && off + strlen(td->pmu) + 3 < sizeof(ev.name))
			snprintf(ev.name + off, sizeof(ev.name) - off, " [%.15s]", td->pmu);
	}
	/* PERF_METRICS (a tree with a leader): every level's metric events are fields of the one slots group (Sapphire
	 * Rapids' level 2 too); a group of metrics without slots leading it is refused by the kernel. Other inputs of
	 * deeper levels stay out of it (older kernels allow nothing else there). The fields are the tree's topdown-*
	 * inputs (the kernel's names for them), whatever CPU the plan is made on (a forced PMU's too). */
	ev.group = td->l1[i] || (td->tree->leader && in->perf && !strncmp(in->perf, "topdown-", 8)) ? td->g_l1
		   : td->fam[i] >= 0 ? TD_GROUP_FAMILY + 16 * (td->g_l1 - TD_GROUP_L1) / 2 +
										(unsigned)td->fam[i]
							 : td->g_deep;
	ev.flags |= PMC_EVF_WEAK_GROUP; /* a group too large is ungrouped by the check; pmc_eng_topdown_plan says so */
	/* On a fixed counter (Intel's core clocks): counted in every batch, and the anchor of that counter when the
	 * level needs several batches (no second user of the counter, which would cost a programmable one). */
	if ((ev.cls == PMC_CLASS_FIXED && ev.fixed_index >= 0) || own_anchor(td, i))
		ev.flags |= PMC_EVF_ANCHOR;
	snprintf(td->name[i], sizeof(td->name[i]), "%s", ev.name);
	r = pmc_eng_events_push(se, &ev);
	td->why_not[i][0] = '\0';
	return r;
}

/* One part: its tree, its level's inputs as events (level 1 one group, the leader first). 0 or an exit status. */
static int prepare_part(struct pmc_engine *se, struct td_part *td, const struct pmc_engine_opts *o, int level)
{
	int r = choose(td, o), lead;

	if (r)
		return r;
	{
		size_t n = strlen(td->tree->name);

		td->core_tree = n > 4 && !strcmp(td->tree->name + n - 4, "-smt");
	}
	if (level < 1 || level > td->tree->max_level) {
		pmc_diag_error(RQ_TOPDOWN_LEVEL "=%d: the tree %s (%s) has level%s 1%s%.0d", level, td->tree->name,
			       td->tree->title, td->tree->max_level > 1 ? "s" : "", td->tree->max_level > 1 ? ".." : "",
			       td->tree->max_level > 1 ? td->tree->max_level : 0);
		return PMC_EXIT_USAGE;
	}
	td->level = level;
	if (pmc_td_level_inputs(td->tree, 1, td->l1) < 0 || pmc_td_level_inputs(td->tree, td->level, td->needed) < 0) {
		pmc_diag_error(RQ_TOPDOWN_LEVEL ": the tree %s is broken (a bug): its inputs cannot be listed",
			       td->tree->name);
		return PMC_EXIT_INTERNAL;
	}
	families(td);
	lead = td->tree->leader ? pmc_td_input_index(td->tree, td->tree->leader) : -1;
	if (lead >= 0 && (r = add_input(se, td, (size_t)lead)))
		return r;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < td->tree->ninputs; i++)
			if (td->needed[i] && (int)i != lead && td->l1[i] == (pass == 0) && (r = add_input(se, td, i)))
				return r;
	return 0;
}

int pmc_eng_topdown_prepare(struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	struct pmc_eng_topdown *td;
	struct pmc_core_pmu pmus[PMC_MAX_CORE_PMUS];
	const struct pmc_arch_hybrid *types = NULL;
	size_t npmus, ntypes;
	char err[256];
	int r, level = o->topdown_level ? o->topdown_level : 1; /* --topdown-def alone: level 1 */

	if (!o->topdown_level && !o->topdown_def && !(level = pmc_eventset_topdown_level(o->set_name)))
		return 0;
	if (pmc_pmu_init(err, sizeof(err)) < 0) {
		pmc_diag_error(RQ_TOPDOWN_LEVEL ": libpfm4 could not start: %s", err);
		return PMC_EXIT_INTERNAL;
	}
	td = calloc(1, sizeof(*td));
	if (!td)
		return PMC_EXIT_INTERNAL;
	se->topdown = td;
	/* A hybrid CPU: a tree per core type, each from its own PMU's events (doc/topdown.md); never one of both */
	npmus = pmc_hybrid_core_pmus(pmus, PMC_MAX_CORE_PMUS);
	ntypes = npmus > 1 ? pmc_arch_hybrid_pmus(&types) : 0;
	if (npmus > 1 && o->topdown_def) {
		pmc_diag_error(RQ_TOPDOWN_DEF " on a hybrid CPU (%s and %s): each core type has its own tree; pmctool "
			       "chooses them (" RQ_TOPDOWN_LEVEL ")", pmus[0].name, pmus[1].name);
		return PMC_EXIT_USAGE;
	}
	for (size_t k = 0; k < (npmus > 1 ? npmus : 1); k++) {
		struct td_part *p = &td->part[td->n++];

		p->l1b = SIZE_MAX;
		p->clock = -1;
		p->g_l1 = TD_GROUP_L1 + 2 * (unsigned)k;
		p->g_deep = TD_GROUP_DEEP + 2 * (unsigned)k;
		if (npmus > 1) {
			memcpy(p->pmu, pmus[k].name, sizeof(p->pmu) - 1);
			for (size_t t = 0; t < ntypes; t++)
				if (!strcmp(types[t].pmu, pmus[k].name))
					p->pfm = types[t].pfm;
			if (!p->pfm) {
				pmc_diag_error(RQ_TOPDOWN_LEVEL ": the hybrid core PMU %s is not one pmctool knows the "
					       "core type of",
					       pmus[k].name);
				return PMC_EXIT_USAGE;
			}
		}
		r = prepare_part(se, p, o, level);
		if (r)
			return r;
	}
	td->hybrid = npmus > 1;
	return 0;
}

/* Input i's event is still in group g of the plan (not ungrouped as too large for a batch). */
static bool in_group(const struct pmc_engine *se, const struct td_part *td, size_t i, unsigned g)
{
	for (size_t k = 0; k < se->n; k++)
		if (!strcmp(se->evs[k].name, td->name[i]))
			return se->evs[k].group == g;
	return false;
}

/* Level 1 is whole in one batch; then its batch and the clock anchor are kept for the evaluation. */
static bool whole_plan(const struct pmc_engine *se, struct td_part *td, unsigned n, unsigned whole)
{
	size_t b = SIZE_MAX;

	if (whole < n || (n && pmc_plan_group_batch(&se->plan, se->evs, td->g_l1, &b) < 0))
		return false;
	td->l1b = se->plan.nbatches > 1 ? b : SIZE_MAX;
	td->clock = -1;
	for (size_t i = 0; i < td->tree->ninputs && td->l1b != SIZE_MAX; i++)
		for (size_t k = 0; k < se->n && td->clock < 0 && td->l1[i] && td->name[i][0]; k++)
			if (!strcmp(se->evs[k].name, td->name[i]) && se->plan.in_every[k] &&
			    (se->evs[k].flags & PMC_EVF_ANCHOR))
				td->clock = (int)i; /* the first anchor among the inputs: the clock */
	return true;
}

int pmc_eng_topdown_plan(const struct pmc_engine *se, const struct pmc_engine_opts *o)
{
	for (size_t k = 0; se->topdown && k < se->topdown->n && o->batch != PMC_BATCH_MULTIPLEX; k++) {
		const struct td_part *td = &se->topdown->part[k];
		unsigned n = 0, whole = 0;

		for (size_t i = 0; i < td->tree->ninputs; i++)
			if (td->l1[i] && td->name[i][0]) {
				n++;
				whole += in_group(se, td, i, td->g_l1);
			}
		if (!whole_plan(se, &se->topdown->part[k], n, whole)) {
			pmc_diag_error(RQ_TOPDOWN_LEVEL ": level 1 of %s%s%s needs its %u events in one group (every "
				       "ratio from the same counters in the same run), and they do not fit one batch "
				       "(%s); pmctool does not build the tree from counts of different runs: "
				       RQ_BATCHING "=multiplex estimates it (scaled counts), " RQ_COUNTERS " N if the "
				       "PMU has more", td->tree->name, td->pmu[0] ? " on " : "", td->pmu, n,
				       se->budget_why);
			return PMC_EXIT_USAGE;
		}
	}
	return 0;
}

void pmc_eng_topdown_fini(struct pmc_engine *se)
{
	free(se->topdown);
	se->topdown = NULL;
}
