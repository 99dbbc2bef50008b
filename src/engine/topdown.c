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
#include "eventsets/eventset.h"
#include "metrics/topdown.h"
#include "perf/perf.h"
#include "pmu/hybrid.h"
#include "report/regions.h"
#include "report/topdown.h"
#include "sys/sysfs.h"

_Static_assert(PMC_REPORT_TD_NODES >= PMC_TD_MAX_NODES, "report/topdown.h holds every node of a tree");

/* The perf group numbers of level 1 and of the inputs only deeper levels need (above any -e list's groups), two per
 * core type. */
enum { TD_GROUP_L1 = 0x7d01, TD_GROUP_DEEP = 0x7d02, TD_GROUP_FAMILY = 0x7e00 /* + 16 x core type + family */ };

/* One tree and its events: the CPU's, or one core type's on a hybrid CPU. */
struct td_part {
	char pmu[16];                                     /* hybrid: the core PMU ("cpu_atom"); "" otherwise */
	const char *pfm;                                  /* hybrid: its libpfm4 table ("adl_grt"), or NULL */
	unsigned g_l1, g_deep;                            /* its groups' numbers */
	int clock;                                        /* level >= 2 in several batches: the anchor input whose
							     ratio between a batch's run and level 1's scales that
							     batch's inputs (-1 none) */
	size_t l1b;                                       /* level 1's batch, SIZE_MAX with one batch */
	int fam[PMC_TD_MAX_INPUTS];                       /* own anchors: the level-1 node whose children need
							     this deeper input (its group's), -1: the deep group */
	const struct pmc_td_tree *tree;
	const char *why;                                  /* the chooser's reason, or "--topdown-def" */
	bool smt_thread;                                  /* SMT on, the core's tree not countable: the thread's */
	bool core_tree;                                   /* a per-core (SMT) tree: no tree for a CPU's or a task's row */
	int level;
	bool needed[PMC_TD_MAX_INPUTS];
	bool l1[PMC_TD_MAX_INPUTS];                       /* level 1's own group */
	char name[PMC_TD_MAX_INPUTS][PMC_NAME_MAX];       /* the event's name in the report; "" when none */
	char why_not[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN]; /* unresolved input, absent property */
	double prop[PMC_TD_MAX_INPUTS];                   /* PMC_TD_PROPERTY values */
	bool prop_ok[PMC_TD_MAX_INPUTS];
	/* -I: the interval's counts of the inputs (the total), and its tree (kept here: nothing allocated per tick) */
	struct pmc_td_value ival[PMC_TD_MAX_INPUTS];
	bool iseen[PMC_TD_MAX_INPUTS];
	char iwhy[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	char inot[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN]; /* why an input's event could not be opened, for ierr[] */
	int ierr[PMC_TD_MAX_INPUTS];
	struct pmc_td_result ires;
	struct pmc_report_topdown iout;
};

struct pmc_eng_topdown {
	struct td_part part[PMC_MAX_CORE_PMUS];
	size_t n;
	bool hybrid;
};

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
			pmc_diag_error("--topdown-def '%s': no such top-down tree; the trees are: %s", o->topdown_def, names);
			return PMC_EXIT_USAGE;
		}
		return 0;
	}
	pmc_arch_cpu_identify(&cpu);
	in.vendor = cpu.vendor;
	in.pmu = td->pmu[0] ? td->pfm : pmc_pmu_core_name();
	in.smt_on = pmc_sysfs_smt_active() == 1;
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
		pmc_diag_error("--topdown: no top-down tree for this CPU%s%s (%s, libpfm4 PMU %s): %s; --topdown-def NAME "
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

/* Level 2 of a tree whose level 1 fills every programmable counter (AMD Zen 4: six events, six counters): the level-1
 * inputs the level-2 ratios divide by (the clock, the retired ops) are the anchors of the level-2 batches, counted in
 * each of them, in place of pmctool's instructions and cycles (engine/events.c adds no hardware anchor beside
 * them), so every batch has its own clock and retired ops. */
static bool own_anchor_tree(const struct td_part *td)
{
	return td->level >= 2 && !strncmp(td->tree->name, "amd-zen", 7);
}

static bool own_anchor(const struct td_part *td, size_t i)
{
	static const char *const zen[] = { "CYC", "OPS_RETIRED" };

	if (!own_anchor_tree(td))
		return false;
	for (size_t k = 0; k < sizeof(zen) / sizeof(zen[0]); k++)
		if (!strcmp(td->tree->inputs[i].id, zen[k]))
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
	ev.group = td->l1[i] ? td->g_l1 : td->fam[i] >= 0 ? TD_GROUP_FAMILY + 16 * (td->g_l1 - TD_GROUP_L1) / 2 +
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
		pmc_diag_error("--topdown=%d: the tree %s (%s) has level%s 1%s%.0d", level, td->tree->name,
			       td->tree->title, td->tree->max_level > 1 ? "s" : "", td->tree->max_level > 1 ? ".." : "",
			       td->tree->max_level > 1 ? td->tree->max_level : 0);
		return PMC_EXIT_USAGE;
	}
	td->level = level;
	if (pmc_td_level_inputs(td->tree, 1, td->l1) < 0 || pmc_td_level_inputs(td->tree, td->level, td->needed) < 0) {
		pmc_diag_error("--topdown: the tree %s is broken (a bug): its inputs cannot be listed", td->tree->name);
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
		pmc_diag_error("--topdown: libpfm4 could not start: %s", err);
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
		pmc_diag_error("--topdown-def on a hybrid CPU (%s and %s): each core type has its own tree; pmctool "
			       "chooses them (--topdown)", pmus[0].name, pmus[1].name);
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
				pmc_diag_error("--topdown: the hybrid core PMU %s is not one pmctool knows the core type of",
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
			pmc_diag_error("--topdown: level 1 of %s%s%s needs its %u events in one group (every ratio from the "
				       "same counters in the same run), and they do not fit one batch (%s); pmctool does not "
				       "build the tree from counts of different runs: --batch=multiplex estimates it (scaled "
				       "counts), --counters N if the PMU has more", td->tree->name, td->pmu[0] ? " on " : "",
				       td->pmu, n, se->budget_why);
			return PMC_EXIT_USAGE;
		}
	}
	return 0;
}

/* How many of the inputs only deeper levels need were planned outside level 1's batch (0 with one batch). */
static unsigned deep_elsewhere(const struct pmc_engine *se, const struct td_part *td)
{
	size_t l1 = SIZE_MAX;
	unsigned n = 0;

	if (se->plan.nbatches < 2 || pmc_plan_group_batch(&se->plan, se->evs, td->g_l1, &l1) < 0)
		return 0;
	for (size_t b = 0; b < se->plan.nbatches; b++)
		for (size_t k = 0; b != l1 && k < se->plan.batches[b].n; k++)
			for (size_t i = 0; i < td->tree->ninputs; i++)
				n += td->needed[i] && !td->l1[i] && td->name[i][0] &&
				     !strcmp(se->evs[se->plan.batches[b].events[k]].name, td->name[i]);
	return n;
}

/* Input i's value from one count (a total, a row's, an interval's): counted, or not counted with the reason. An event
 * that opened and read 0 on a PMU that does not implement it (QEMU's) is not a count. why is the caller's buffer. */
static void count_value(const struct td_part *td, size_t i, const struct pmc_event *ev, bool ok, double value,
			double running_pct, const char *reason, struct pmc_td_value *v, bool *scaled, char *why,
			size_t whylen)
{
	char not_impl[PMC_TD_REASON_LEN];

	(void)td;
	(void)i;
	*v = (struct pmc_td_value){ .counted = false, .reason = reason && reason[0] ? reason : "not counted" };
	if (ok && value == 0 && pmc_arch_event_implemented(&ev->attr, not_impl, sizeof(not_impl)) == 0) {
		snprintf(why, whylen, "it read 0 and %.180s", not_impl);
		v->reason = why;
	} else if (ok) {
		v->counted = true;
		v->value = value;
		*scaled |= running_pct < 100.0;
	}
}

/* The value of input i that needs no count (a property; an input with no event), or false: look for its count. */
static bool uncounted_value(const struct td_part *td, size_t i, struct pmc_td_value *v)
{
	*v = (struct pmc_td_value){ .counted = false, .reason = td->why_not[i] };
	if (td->tree->inputs[i].kind == PMC_TD_PROPERTY) {
		v->counted = td->prop_ok[i];
		v->value = td->prop[i];
		return true;
	}
	return !td->name[i][0];
}

/* The mean of e's counted samples in batch b, NAN when none. */
static double batch_mean(const struct pmc_report_event *e, size_t b)
{
	double sum = 0;
	unsigned n = 0;

	for (size_t k = 0; k < e->nsamples; k++)
		if (e->samples[k].batch == b && e->samples[k].count.status == PMC_COUNT_OK) {
			sum += pmc_count_scaled(&e->samples[k].count);
			n++;
		}
	return n ? sum / n : NAN;
}

/* Several batches: e's value as level 1's run saw it. An anchor input (counted in every batch) is its level-1 batch's
 * mean, so level 1's ratios are all from its group; an input of another batch is scaled by the clock anchor's ratio
 * between level 1's run and its own (X x CLK_l1 / CLK_b), so its ratio to the clock is its own run's. Else the mean. */
static double in_level1_run(const struct td_part *td, const struct pmc_report *rep, const struct pmc_report_event *e,
			    const struct pmc_row_scope *scope)
{
	double x;

	if (td->l1b == SIZE_MAX || td->clock < 0)
		return e->mean;
	if (e->in_every_batch)
		return isnan(x = batch_mean(e, td->l1b)) ? e->mean : x;
	if (e->batch < 0 || (size_t)e->batch == td->l1b)
		return e->mean;
	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_report_event *a = &rep->events[k];
		double c1, cb;

		if (strcmp(a->ev.name, td->name[td->clock]) || a->scope.kind != e->scope.kind ||
		    strcmp(a->scope.label, e->scope.label))
			continue;
		c1 = batch_mean(a, td->l1b);
		cb = batch_mean(a, (size_t)e->batch);
		return isnan(c1) || isnan(cb) || cb <= 0 ? e->mean : e->mean * c1 / cb;
	}
	(void)scope;
	return e->mean;
}

/* The report's row of input i (scope: the totals' or a row's): its mean, or not counted with the reason. */
static void input_value(const struct td_part *td, size_t i, const struct pmc_report *rep,
			const struct pmc_row_scope *scope, struct pmc_td_value *v, bool *scaled, char *why,
			size_t whylen)
{
	if (uncounted_value(td, i, v))
		return;
	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_report_event *e = &rep->events[k];

		if (strcmp(e->ev.name, td->name[i]) ||
		    (scope ? e->scope.kind != scope->kind || strcmp(e->scope.label, scope->label)
			   : e->scope.kind != PMC_ROW_ALL))
			continue;
		count_value(td, i, &e->ev, e->status == PMC_COUNT_OK, e->status == PMC_COUNT_OK ? e->max : 0, 100, NULL,
			    v, scaled, why, whylen);
		if (v->counted) {
			v->value = in_level1_run(td, rep, e, scope);
			*scaled |= e->running_pct < 100.0;
		} else if (e->status != PMC_COUNT_OK) {
			v->reason = e->reason[0] ? e->reason : "not counted";
		}
		return;
	}
	v->reason = "its event is not in the report";
}

/* The tree on vals into out (its shown nodes; out's other fields are the caller's), the checks in res. */
static int eval_into(const struct td_part *td, const struct pmc_td_value *vals, struct pmc_td_result *res,
		     struct pmc_report_topdown *out)
{
	int r = pmc_td_eval(td->tree, vals, res);

	if (r)
		return r;
	out->tree = td->tree->name;
	out->title = td->tree->title;
	out->unit = td->tree->unit;
	out->why = td->why;
	out->note = td->tree->note;
	out->level = td->level;
	out->nnodes = 0;
	for (size_t i = 0; i < td->tree->nnodes; i++) {
		const struct pmc_td_node *nd = &td->tree->nodes[i];
		const struct pmc_td_node_result *nr = &res->node[i];
		struct pmc_report_td_node *rn;

		if (nd->level < 1 || nd->level > td->level)
			continue;
		rn = &out->node[out->nnodes++];
		*rn = (struct pmc_report_td_node){ .name = nd->name, .parent = nd->parent, .explain = nd->explain,
						   .level = nd->level, .ok = nr->ok, .value = nr->value, .raw = nr->raw,
						   .clamped = nr->clamped, .bottleneck = nr->bottleneck,
						   .threshold = nd->threshold };
		snprintf(rn->reason, sizeof(rn->reason), "%s", nr->reason);
	}
	return 0;
}

/* The checks of one tree into the report; scope names whose tree it is ("" for the total). */
static void add_checks(struct pmc_report *rep, const struct pmc_td_result *res, const char *scope)
{
	for (size_t c = 0; c < res->nchecks; c++)
		pmc_report_add_check(rep, PMC_CHECK_WARN,
				     res->check[c].kind == PMC_TD_CHECK_SUM	 ? "topdown-sum"
				     : res->check[c].kind == PMC_TD_CHECK_CHILDREN ? "topdown-children"
										   : "topdown-range",
				     "%s%s%s", scope[0] ? scope : "", scope[0] ? ": " : "", res->check[c].msg);
}

/* One tree from the report's counts of scope (NULL: the totals) appended to rep's chain. 0 or -ENOMEM. */
static int eval_scope(const struct td_part *td, struct pmc_report *rep, const struct pmc_row_scope *scope,
		      struct pmc_td_result *res, bool *scaled)
{
	struct pmc_td_value vals[PMC_TD_MAX_INPUTS];
	char why[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	struct pmc_report_topdown *out = calloc(1, sizeof(*out)), **tail = &rep->topdown;
	int r;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < td->tree->ninputs; i++)
		input_value(td, i, rep, scope, &vals[i], scaled, why[i], sizeof(why[i]));
	r = eval_into(td, vals, res, out);
	if (r) {
		free(out);
		return r;
	}
	snprintf(out->scope, sizeof(out->scope), "%.15s%s%.47s", td->pmu, td->pmu[0] && scope ? " " : "",
		 scope ? scope->label : "");
	while (*tail)
		tail = &(*tail)->next;
	*tail = out;
	add_checks(rep, res, out->scope);
	return 0;
}

/* --regions: input i in region rg, from the program's own counts of it (merged over threads, mean per execution). */
static void region_value(const struct td_part *td, size_t i, const struct pmc_report *rep,
			 const struct pmc_report_region *rg, struct pmc_td_value *v, bool *scaled, char *why,
			 size_t whylen)
{
	const struct pmc_report_regions *rr = rep->regions;

	if (uncounted_value(td, i, v))
		return;
	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_report_event *e = &rep->events[k];
		double x;

		if (strcmp(e->ev.name, td->name[i]) || e->scope.kind != PMC_ROW_ALL)
			continue;
		x = pmc_region_value(&rg->all, k);
		if (x != x) { /* NAN: no execution counted it in this region */
			if (rr->open_err && rr->open_err_index == k)
				snprintf(why, whylen, "the program could not open it: %.160s",
					 pmc_perf_event_reason(rr->open_err, &e->ev.attr, !!(e->ev.flags & PMC_EVF_HARDWARE)));
			else if (e->status != PMC_COUNT_OK && e->reason[0])
				snprintf(why, whylen, "the program counted it in no execution of this region (nor pmctool: "
					 "%.100s)", e->reason);
			else
				snprintf(why, whylen, "the program counted it in no execution of this region");
			*v = (struct pmc_td_value){ .counted = false, .reason = why };
			return;
		}
		count_value(td, i, &e->ev, true, x, 100, NULL, v, scaled, why, whylen);
		return;
	}
	v->reason = "its event is not in the report";
}

/* --regions: one tree per region from the program's counts, appended to rep's chain; the note says how the program
 * counted and read them. 0 or -ENOMEM. */
static int eval_regions(const struct td_part *td, struct pmc_report *rep, struct pmc_td_result *res)
{
	const struct pmc_report_regions *rr = rep->regions;
	struct pmc_td_value vals[PMC_TD_MAX_INPUTS];
	char why[PMC_TD_MAX_INPUTS][PMC_TD_REASON_LEN];
	bool scaled = false;

	for (size_t r = 0; rr && r < rr->n; r++) {
		struct pmc_report_topdown *out = calloc(1, sizeof(*out)), **tail = &rep->topdown;
		int rc;

		if (!out)
			return -ENOMEM;
		for (size_t i = 0; i < td->tree->ninputs; i++)
			region_value(td, i, rep, &rr->r[r], &vals[i], &scaled, why[i], sizeof(why[i]));
		rc = eval_into(td, vals, res, out);
		if (rc) {
			free(out);
			return rc;
		}
		snprintf(out->scope, sizeof(out->scope), "%.15s%sregion %.40s", td->pmu, td->pmu[0] ? " " : "",
			 rr->r[r].name);
		while (*tail)
			tail = &(*tail)->next;
		*tail = out;
		add_checks(rep, res, out->scope);
	}
	if (rr && rr->n)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-regions",
				     "each region's tree is from the program's own counters (libpmctool), opened one by one "
				     "beside pmctool's group (read: %s); the tree of the whole program is pmctool's group",
				     pmc_regions_read_method(rr));
	return 0;
}

/* Rows (-A, --per-core, --per-socket, --per-thread...): a tree per row, in the report's order. A per-core (SMT) tree
 * has none for a row finer than a core (a CPU, a task, a cgroup): the note says so. 0 or -ENOMEM. */
static int eval_rows(const struct td_part *td, struct pmc_report *rep, struct pmc_td_result *res,
		     bool *scaled)
{
	size_t skipped = 0;

	for (size_t k = 0; k < rep->nevents; k++) {
		const struct pmc_row_scope *sc = &rep->events[k].scope;
		bool seen = false;
		int r;

		if (sc->kind == PMC_ROW_ALL)
			continue;
		for (size_t j = 0; j < k && !seen; j++)
			seen = rep->events[j].scope.kind == sc->kind && !strcmp(rep->events[j].scope.label, sc->label);
		if (seen)
			continue;
		if (td->core_tree && sc->kind != PMC_ROW_CORE && sc->kind != PMC_ROW_DIE && sc->kind != PMC_ROW_SOCKET &&
		    sc->kind != PMC_ROW_NODE) {
			skipped++;
			continue;
		}
		r = eval_scope(td, rep, sc, res, scaled);
		if (r)
			return r;
	}
	if (skipped)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-rows",
				     "%zu row%s (a CPU, a task or a cgroup) ha%s no tree: %s is the core's (SMT on: both "
				     "threads' counts); --per-core gives a tree per core", skipped, skipped == 1 ? "" : "s",
				     skipped == 1 ? "s" : "ve", td->tree->name);
	return 0;
}

/* One part's trees (total, rows, regions) and checks. 0 or -ENOMEM. */
static int eval_part(const struct pmc_engine *se, const struct td_part *td, const struct pmc_engine_opts *o,
		     struct pmc_report *rep)
{
	struct pmc_td_result *res = calloc(1, sizeof(*res));
	bool scaled = false;
	int r = res ? eval_scope(td, rep, NULL, res, &scaled) : -ENOMEM;

	if (!r)
		r = eval_rows(td, rep, res, &scaled);
	if (!r)
		r = eval_regions(td, rep, res);
	free(res);
	if (r)
		return r;
	if (deep_elsewhere(se, td))
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-batches",
				     "%s%slevel 1 was counted as one group; %u input%s of level 2 did not fit its batch and "
				     "were counted in other runs of the workload (the anchors compare those runs)%s: a "
				     "level-2 node's share of its parent mixes runs", td->pmu, td->pmu[0] ? ": " : "",
				     deep_elsewhere(se, td), deep_elsewhere(se, td) == 1 ? "" : "s",
				     td->clock >= 0 ? ", each scaled by the clock anchor's ratio between level 1's run and "
						      "its own (its ratio to the clock is its run's)" : "");
	if (td->smt_thread)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "topdown-smt",
				     "SMT is on: the tree (%s) is the counted threads' share of their cores' slots, not the "
				     "cores' answer (the sibling threads' work is not in it); the core's tree needs both "
				     "threads of each core: pmctool stat -a --per-core --topdown", td->tree->name);
	if (scaled || o->batch == PMC_BATCH_MULTIPLEX)
		pmc_report_add_check(rep, PMC_CHECK_WARN, "topdown-multiplexed",
				     "%s%sthe top-down tree is built from scaled estimates: its events were multiplexed%s",
				     td->pmu, td->pmu[0] ? ": " : "", o->batch == PMC_BATCH_MULTIPLEX ? " (--batch=multiplex)" : "");
	return 0;
}

int pmc_eng_topdown_eval(const struct pmc_engine *se, const struct pmc_engine_opts *o, struct pmc_report *rep)
{
	const struct pmc_eng_topdown *td = se->topdown;

	for (size_t k = 0; td && k < td->n; k++) {
		int r = eval_part(se, &td->part[k], o, rep);

		if (r)
			return r;
	}
	if (td && td->hybrid)
		pmc_report_add_check(rep, PMC_CHECK_INFO, "topdown-hybrid",
				     "one tree per core type (%s: %s, %s: %s), each from its own PMU's events while the "
				     "workload ran there; no merged tree: the core types' slots differ in width and in what "
				     "a slot is, so a sum of their slots would be no core's answer",
				     td->part[0].pmu, td->part[0].tree->name, td->part[1].pmu, td->part[1].tree->name);
	return 0;
}

/* -I: the total's count of one interval, kept until the interval ends. */
void pmc_eng_topdown_record(const struct pmc_engine *se, const struct pmc_interval_record *r)
{
	for (size_t k = 0; se->topdown && k < se->topdown->n && !r->scope; k++) {
		struct td_part *td = &se->topdown->part[k];

		for (size_t i = 0; i < td->tree->ninputs; i++)
			if (td->name[i][0] && !strcmp(td->name[i], r->ev->name)) {
				const struct pmc_count *c = &r->count;
				bool ok = c->status == PMC_COUNT_OK, scaled = false;

				if (c->status == PMC_COUNT_NOT_SUPPORTED && td->ierr[i] != c->err) { /* once: it may ask
													 the kernel */
					td->ierr[i] = c->err;
					snprintf(td->inot[i], sizeof(td->inot[i]), "%s",
						 pmc_perf_event_reason(c->err, &r->ev->attr,
								       !!(r->ev->flags & PMC_EVF_HARDWARE)));
				}
				count_value(td, i, r->ev, ok, ok ? pmc_count_scaled(c) : 0,
					    c->enabled && ok ? 100.0 * (double)c->running / (double)c->enabled : 100.0,
					    c->status == PMC_COUNT_NOT_SUPPORTED ? td->inot[i]
										 : "its event did not run in this interval",
					    &td->ival[i], &scaled, td->iwhy[i], sizeof(td->iwhy[i]));
				td->iseen[i] = true;
			}
	}
}

/* -I: the interval's trees to the sink, from the counts pmc_eng_topdown_record kept; then they are forgotten. */
void pmc_eng_topdown_interval(const struct pmc_engine *se, const struct pmc_interval_sink *sink, unsigned n,
			      double start_s, double end_s)
{
	for (size_t k = 0; se->topdown && k < se->topdown->n && sink->topdown; k++) {
		struct td_part *td = &se->topdown->part[k];

		for (size_t i = 0; i < td->tree->ninputs; i++)
			if (!td->iseen[i] && !uncounted_value(td, i, &td->ival[i]))
				td->ival[i] = (struct pmc_td_value){ .counted = false,
								     .reason = "its event was not counted in this interval" };
		if (eval_into(td, td->ival, &td->ires, &td->iout) == 0) {
			memcpy(td->iout.scope, td->pmu, sizeof(td->pmu));
			td->iout.interval = n;
			td->iout.start_s = start_s;
			td->iout.end_s = end_s;
			sink->topdown(sink->ctx, &td->iout);
		}
		memset(td->iseen, 0, sizeof(td->iseen));
	}
}

void pmc_eng_topdown_fini(struct pmc_engine *se)
{
	free(se->topdown);
	se->topdown = NULL;
}
