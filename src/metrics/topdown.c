/* SPDX-License-Identifier: MIT */
/*
 * Evaluating a top-down tree (topdown_trees.c) from counts, marking the bottleneck, checking the sums, and choosing
 * the tree for a CPU from its libpfm4 PMU name. Nodes reference each other by name; they are evaluated on demand,
 * in any order, through the formula language's lookup callback, and an n/a node passes on the reason of the input
 * that made it n/a, so a report never shows a missing count as 0%.
 */
#include "metrics/topdown.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "metrics/expr.h"

const struct pmc_td_tree *pmc_td_tree_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < pmc_td_tree_count(); i++)
		if (!strcmp(pmc_td_tree_at(i)->name, name))
			return pmc_td_tree_at(i);
	return NULL;
}

int pmc_td_input_index(const struct pmc_td_tree *tree, const char *id)
{
	for (size_t i = 0; tree && id && i < tree->ninputs; i++)
		if (!strcmp(tree->inputs[i].id, id))
			return (int)i;
	return -1;
}

int pmc_td_node_index(const struct pmc_td_tree *tree, const char *name)
{
	for (size_t i = 0; tree && name && i < tree->nnodes; i++)
		if (!strcmp(tree->nodes[i].name, name))
			return (int)i;
	return -1;
}

/* ---- evaluation ---- */

enum { ST_TODO, ST_BUSY, ST_DONE };

struct eval_ctx {
	const struct pmc_td_tree *tree;
	const struct pmc_td_value *values;
	struct pmc_td_result *res;
	unsigned char state[PMC_TD_MAX_NODES];
	int err; /* a definition error (cycle, parse failure) or -ENOMEM: the whole evaluation fails */
};

static void eval_node(struct eval_ctx *c, int i);

static const char *input_spelling(const struct pmc_td_input *in)
{
	if (in->perf)
		return in->perf;
	if (in->pfm)
		return in->pfm;
	return in->raw ? in->raw : in->id;
}

static int lookup(const char *name, void *vctx, double *ret, char *reason, size_t reasonlen)
{
	struct eval_ctx *c = vctx;
	const struct pmc_td_tree *t = c->tree;
	int i;

	if (!strcmp(name, "WIDTH")) {
		if (t->width > 0) {
			*ret = t->width;
			return 0;
		}
		snprintf(reason, reasonlen, "tree %s has no fixed width", t->name);
		return -ENODATA;
	}
	i = pmc_td_input_index(t, name);
	if (i >= 0) {
		const struct pmc_td_input *in = &t->inputs[i];
		const struct pmc_td_value *v = &c->values[i];

		if (in->kind == PMC_TD_ABSENT) {
			snprintf(reason, reasonlen, "input %s does not exist on this CPU: %s", in->id, in->source);
			return -ENODATA;
		}
		if (!v->counted) {
			snprintf(reason, reasonlen, "input %s (%s) was not counted: %s", in->id, input_spelling(in),
				 v->reason ? v->reason : "no reason given");
			return -ENODATA;
		}
		if (!isfinite(v->value) || v->value < 0) {
			snprintf(reason, reasonlen, "input %s (%s) has an impossible value %g", in->id, input_spelling(in),
				 v->value);
			return -ENODATA;
		}
		*ret = v->value;
		return 0;
	}
	i = pmc_td_node_index(t, name);
	if (i < 0) {
		snprintf(reason, reasonlen, "tree %s: unknown name %s", t->name, name);
		c->err = -EINVAL;
		return -ENODATA;
	}
	eval_node(c, i);
	if (c->err)
		return -ENODATA;
	if (!c->res->node[i].ok) {
		snprintf(reason, reasonlen, "%s", c->res->node[i].reason);
		return -ENODATA;
	}
	/* Formulas build on the published (unclamped) values; clamping is for display and is warned about. */
	*ret = c->res->node[i].raw;
	return 0;
}

static void eval_node(struct eval_ctx *c, int i)
{
	struct pmc_td_node_result *r = &c->res->node[i];
	struct pmc_expr *e = NULL;
	char err[128];
	double v;
	int rc;

	if (c->state[i] == ST_DONE)
		return;
	if (c->state[i] == ST_BUSY) {
		c->err = -EINVAL; /* a cycle: pmc_td_tree_validate reports it with names */
		return;
	}
	c->state[i] = ST_BUSY;
	rc = pmc_expr_parse(c->tree->nodes[i].formula, &e, err, sizeof(err));
	if (rc) {
		c->err = rc == -ENOMEM ? -ENOMEM : -EINVAL;
		return;
	}
	rc = pmc_expr_eval(e, lookup, c, &v, r->reason, sizeof(r->reason));
	pmc_expr_free(e);
	if (c->err)
		return;
	if (rc == 0) {
		r->ok = true;
		r->raw = v;
		r->value = v;
	}
	c->state[i] = ST_DONE;
}

static void add_check(struct pmc_td_result *res, enum pmc_td_check_kind kind, int node, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add_check(struct pmc_td_result *res, enum pmc_td_check_kind kind, int node, const char *fmt, ...)
{
	struct pmc_td_check *ck;
	va_list ap;

	if (res->nchecks >= PMC_TD_MAX_CHECKS)
		return;
	ck = &res->check[res->nchecks++];
	ck->kind = kind;
	ck->node = node;
	va_start(ap, fmt);
	vsnprintf(ck->msg, sizeof(ck->msg), fmt, ap);
	va_end(ap);
}

/* Values within this of [0, 1] are floating-point noise of 1 - (a + b + c), not a clamp worth a warning. */
#define RANGE_EPS 1e-9

static void clamp_nodes(struct pmc_td_result *res)
{
	const struct pmc_td_tree *t = res->tree;

	for (size_t i = 0; i < t->nnodes; i++) {
		struct pmc_td_node_result *r = &res->node[i];

		if (t->nodes[i].level == 0 || !r->ok || (r->raw >= 0 && r->raw <= 1))
			continue;
		r->value = r->raw < 0 ? 0 : 1;
		if (fabs(r->raw - r->value) <= RANGE_EPS)
			continue;
		r->clamped = true;
		add_check(res, PMC_TD_CHECK_RANGE, (int)i,
			  "%s came out at %.2f%% of %s, outside [0, 100%%]: shown as %.0f%%, the tree is not renormalised",
			  t->nodes[i].name, 100 * r->raw, t->unit, 100 * r->value);
	}
}

static void check_sums(struct pmc_td_result *res)
{
	const struct pmc_td_tree *t = res->tree;
	double sum = 0;
	bool all = true;

	for (size_t i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].level != 1)
			continue;
		if (!res->node[i].ok)
			all = false;
		else
			sum += res->node[i].value;
	}
	if (all && fabs(sum - 1) > PMC_TD_SUM_TOL)
		add_check(res, PMC_TD_CHECK_SUM, -1, "level 1 sums to %.2f%% of %s, not 100%% (within %.0f%%)",
			  100 * sum, t->unit, 100 * PMC_TD_SUM_TOL);

	for (size_t p = 0; p < t->nnodes; p++) {
		double csum = 0;
		size_t n = 0;
		bool ok = res->node[p].ok && t->nodes[p].level > 0;

		for (size_t i = 0; ok && i < t->nnodes; i++) {
			if (!t->nodes[i].parent || strcmp(t->nodes[i].parent, t->nodes[p].name))
				continue;
			n++;
			if (!res->node[i].ok)
				ok = false;
			csum += res->node[i].value;
		}
		if (ok && n && fabs(csum - res->node[p].value) > PMC_TD_SUM_TOL)
			add_check(res, PMC_TD_CHECK_CHILDREN, (int)p,
				  "the children of %s sum to %.2f%%, their parent is %.2f%% of %s",
				  t->nodes[p].name, 100 * csum, 100 * res->node[p].value, t->unit);
	}
}

/* toplev's rule: at each level, under the marked parent, the largest node over its threshold. */
static void mark_bottlenecks(struct pmc_td_result *res)
{
	const struct pmc_td_tree *t = res->tree;
	const char *parent = NULL;

	for (int level = 1; level <= t->max_level; level++) {
		int best = -1;

		for (size_t i = 0; i < t->nnodes; i++) {
			const struct pmc_td_node *n = &t->nodes[i];

			if (n->level != level || !res->node[i].ok || res->node[i].value <= n->threshold)
				continue;
			if (level > 1 && (!n->parent || strcmp(n->parent, parent)))
				continue;
			if (best < 0 || res->node[i].value > res->node[best].value)
				best = (int)i;
		}
		if (best < 0)
			return;
		res->node[best].bottleneck = true;
		parent = t->nodes[best].name;
	}
}

int pmc_td_eval(const struct pmc_td_tree *tree, const struct pmc_td_value *values, struct pmc_td_result *ret)
{
	struct eval_ctx c;

	if (!tree || !values || !ret || tree->nnodes > PMC_TD_MAX_NODES || tree->ninputs > PMC_TD_MAX_INPUTS)
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	memset(ret, 0, sizeof(*ret));
	ret->tree = tree;
	c.tree = tree;
	c.values = values;
	c.res = ret;
	for (size_t i = 0; i < tree->nnodes && !c.err; i++)
		eval_node(&c, (int)i);
	if (c.err) {
		memset(ret, 0, sizeof(*ret));
		return c.err;
	}
	clamp_nodes(ret);
	check_sums(ret);
	mark_bottlenecks(ret);
	return 0;
}

/* ---- definitions: which inputs a level needs, and a tree's consistency ---- */

/* Marks node i and everything its formula names (inputs into needed, nodes recursively). */
static int reach(const struct pmc_td_tree *t, int i, unsigned char *seen, bool *needed)
{
	struct pmc_expr *e = NULL;
	char err[128];
	int rc;

	if (seen[i])
		return 0;
	seen[i] = 1;
	rc = pmc_expr_parse(t->nodes[i].formula, &e, err, sizeof(err));
	if (rc)
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	for (size_t k = 0; k < pmc_expr_name_count(e) && !rc; k++) {
		const char *name = pmc_expr_name(e, k);
		int j = pmc_td_input_index(t, name);

		if (j >= 0)
			needed[j] = true;
		else if ((j = pmc_td_node_index(t, name)) >= 0)
			rc = reach(t, j, seen, needed);
	}
	pmc_expr_free(e);
	return rc;
}

int pmc_td_level_inputs(const struct pmc_td_tree *tree, int level, bool *needed)
{
	unsigned char seen[PMC_TD_MAX_NODES] = { 0 };
	int n = 0;

	if (!tree || !needed || level < 1 || level > tree->max_level || tree->nnodes > PMC_TD_MAX_NODES)
		return -EINVAL;
	memset(needed, 0, tree->ninputs * sizeof(*needed));
	for (size_t i = 0; i < tree->nnodes; i++) {
		int rc;

		if (tree->nodes[i].level < 1 || tree->nodes[i].level > level)
			continue;
		rc = reach(tree, (int)i, seen, needed);
		if (rc)
			return rc;
	}
	if (tree->leader) {
		int l = pmc_td_input_index(tree, tree->leader);

		if (l < 0)
			return -EINVAL;
		needed[l] = true;
	}
	for (size_t i = 0; i < tree->ninputs; i++)
		n += needed[i];
	return n;
}

/* Depth-first: a node that reaches itself through its formula's names is a cycle. */
static int find_cycle(const struct pmc_td_tree *t, int i, unsigned char *state)
{
	struct pmc_expr *e = NULL;
	char err[128];
	int rc = 0;

	if (state[i] == ST_DONE)
		return 0;
	if (state[i] == ST_BUSY)
		return 1;
	state[i] = ST_BUSY;
	if (pmc_expr_parse(t->nodes[i].formula, &e, err, sizeof(err)))
		return 0; /* reported by the caller */
	for (size_t k = 0; k < pmc_expr_name_count(e) && !rc; k++) {
		int j = pmc_td_node_index(t, pmc_expr_name(e, k));

		if (j >= 0)
			rc = find_cycle(t, j, state);
	}
	pmc_expr_free(e);
	state[i] = ST_DONE;
	return rc;
}

int pmc_td_tree_validate(const struct pmc_td_tree *t, char *err, size_t errlen)
{
	if (!t || t->nnodes > PMC_TD_MAX_NODES || t->ninputs > PMC_TD_MAX_INPUTS || t->max_level < 1) {
		snprintf(err, errlen, "tree missing, too large or without levels");
		return -EINVAL;
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct pmc_td_node *n = &t->nodes[i];
		struct pmc_expr *e = NULL;
		char perr[128];
		int p = n->parent ? pmc_td_node_index(t, n->parent) : -1;

		if (pmc_td_node_index(t, n->name) != (int)i || pmc_td_input_index(t, n->name) >= 0) {
			snprintf(err, errlen, "%s: node %s is defined twice or shadows an input", t->name, n->name);
			return -EINVAL;
		}
		if (n->level < 0 || n->level > t->max_level || (n->level <= 1) != (n->parent == NULL) ||
		    (n->parent && (p < 0 || t->nodes[p].level != n->level - 1))) {
			snprintf(err, errlen, "%s: node %s: level %d does not fit its parent %s", t->name, n->name, n->level,
				 n->parent ? n->parent : "(none)");
			return -EINVAL;
		}
		if (n->level > 0 && (!n->explain || !*n->explain || n->threshold <= 0)) {
			snprintf(err, errlen, "%s: node %s has no explanation or threshold", t->name, n->name);
			return -EINVAL;
		}
		if (pmc_expr_parse(n->formula, &e, perr, sizeof(perr))) {
			snprintf(err, errlen, "%s: node %s: %s", t->name, n->name, perr);
			return -EINVAL;
		}
		for (size_t k = 0; k < pmc_expr_name_count(e); k++) {
			const char *name = pmc_expr_name(e, k);

			if ((!strcmp(name, "WIDTH") && t->width > 0) || pmc_td_input_index(t, name) >= 0 ||
			    pmc_td_node_index(t, name) >= 0)
				continue;
			snprintf(err, errlen, "%s: node %s uses %s, neither an input, a node nor WIDTH", t->name, n->name,
				 name);
			pmc_expr_free(e);
			return -EINVAL;
		}
		pmc_expr_free(e);
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		unsigned char state[PMC_TD_MAX_NODES] = { 0 };

		if (find_cycle(t, (int)i, state)) {
			snprintf(err, errlen, "%s: node %s depends on itself", t->name, t->nodes[i].name);
			return -EINVAL;
		}
	}
	if (t->leader && pmc_td_input_index(t, t->leader) < 0) {
		snprintf(err, errlen, "%s: the group leader %s is not an input", t->name, t->leader);
		return -EINVAL;
	}
	for (size_t k = 0; t->anchors && t->anchors[k]; k++) {
		int a = pmc_td_input_index(t, t->anchors[k]);

		if (a < 0 || t->inputs[a].kind != PMC_TD_EVENT) {
			snprintf(err, errlen, "%s: the anchor %s is not an event input", t->name, t->anchors[k]);
			return -EINVAL;
		}
	}
	for (size_t i = 0; i < t->ninputs; i++) {
		const struct pmc_td_input *in = &t->inputs[i];

		if (pmc_td_input_index(t, in->id) != (int)i ||
		    (in->kind == PMC_TD_EVENT && !in->pfm && !in->perf && !in->raw) ||
		    (in->raw && !in->source) || (in->kind != PMC_TD_EVENT && !in->source)) {
			snprintf(err, errlen, "%s: input %s is twice, has no spelling, or a raw code without provenance",
				 t->name, in->id);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- the chooser ---- */

struct pmu_rule {
	const char *pmu;       /* libpfm4 PMU name, or a prefix ending in '*' */
	const char *tree;      /* NULL: no top-down, see why */
	const char *tree_smt;  /* the per-core form with SMT on, or NULL */
	const char *alt;       /* a selectable alternative definition, or NULL */
	const char *why;
};

static const struct pmu_rule rules[] = {
	{ "snb*", "intel-snb", "intel-snb-smt", NULL, "Sandy Bridge: 4 slots per cycle" },
	{ "ivb*", "intel-snb", "intel-snb-smt", NULL, "Ivy Bridge: 4 slots per cycle" },
	{ "hsw*", "intel-snb", "intel-snb-smt", NULL, "Haswell: 4 slots per cycle" },
	{ "bdw*", "intel-snb", "intel-snb-smt", NULL, "Broadwell: 4 slots per cycle" },
	{ "skl", "intel-skl", "intel-skl-smt", NULL, "Skylake: 4 slots per cycle" },
	{ "skx", "intel-skl", "intel-skl-smt", NULL, "Skylake-SP: 4 slots per cycle" },
	{ "clx", "intel-skl", "intel-skl-smt", NULL, "Cascade Lake: 4 slots per cycle" },
	{ "icl", "intel-icl", NULL, "intel-icl-tma", "Icelake: PERF_METRICS level 1" },
	{ "icx", "intel-icl", NULL, "intel-icl-tma", "Icelake-SP: PERF_METRICS level 1" },
	{ "tgl", "intel-icl", NULL, "intel-icl-tma", "Tiger Lake: PERF_METRICS level 1" },
	{ "spr", "intel-spr", NULL, "intel-spr-tma", "Sapphire Rapids: PERF_METRICS levels 1 and 2" },
	{ "emr", "intel-spr", NULL, "intel-spr-tma", "Emerald Rapids: PERF_METRICS levels 1 and 2" },
	{ "gnr", "intel-spr", NULL, "intel-spr-tma", "Granite Rapids: PERF_METRICS levels 1 and 2" },
	{ "adl_glc", "intel-spr", NULL, "intel-spr-tma", "Alder Lake P-core (Golden Cove): PERF_METRICS levels 1 and 2" },
	{ "rpl_glc", "intel-spr", NULL, "intel-spr-tma", "Raptor Lake P-core: PERF_METRICS levels 1 and 2" },
	{ "adl_grt", "intel-atom-grt", NULL, NULL, "Alder Lake E-core (Gracemont): TOPDOWN_* events, 5 wide" },
	{ "rpl_grt", "intel-atom-grt", NULL, NULL, "Raptor Lake E-core (Gracemont): TOPDOWN_* events, 5 wide" },
	{ "srf", "intel-atom-cmt", NULL, NULL, "Sierra Forest (Crestmont): TOPDOWN_* events, 6 wide" },
	{ "nhm*", NULL, NULL, NULL, "Nehalem has no top-down events (the method's events start with Sandy Bridge)" },
	{ "wsm*", NULL, NULL, NULL, "Westmere has no top-down events (the method's events start with Sandy Bridge)" },
	{ "amd64_fam19h_zen4", "amd-zen4", NULL, NULL, "Zen 4: 6 dispatch slots per cycle" },
	{ "amd64_fam1ah_zen5", "amd-zen5", NULL, NULL, "Zen 5: 8 dispatch slots per cycle" },
	{ "amd64_fam19h_zen3", NULL, NULL, NULL,
	  "Zen 3 has no per-slot dispatch events (de_no_dispatch_per_slot arrives with Zen 4): no top-down" },
	{ "amd64_fam17h*", NULL, NULL, NULL,
	  "Zen 1/Zen 2 have no per-slot dispatch events (they arrive with Zen 4): no top-down" },
	{ "amd64*", NULL, NULL, NULL, "AMD cores before Zen 4 have no per-slot dispatch events: no top-down" },
	{ "arm_n1", "arm-neoverse", NULL, "arm-cycles", "Neoverse N1: STALL_SLOT events, slots from caps/slots" },
	{ "arm_v1", "arm-neoverse", NULL, "arm-cycles", "Neoverse V1: STALL_SLOT events, slots from caps/slots" },
	{ "arm_n2", "arm-neoverse-n2", NULL, "arm-cycles", "Neoverse N2: STALL_SLOT events, one frontend slot per cycle removed" },
	{ "arm_v2", "arm-neoverse-n2", NULL, "arm-cycles", "Neoverse V2: STALL_SLOT events, one frontend slot per cycle removed" },
	{ "arm*", "arm-cycles", NULL, NULL,
	  "an Arm core without STALL_SLOT events: cycle accounting from STALL_FRONTEND/STALL_BACKEND, no slot split" },
};

static bool pmu_matches(const char *rule, const char *pmu)
{
	size_t n = strlen(rule);

	if (n && rule[n - 1] == '*')
		return !strncmp(rule, pmu, n - 1);
	return !strcmp(rule, pmu);
}

void pmc_td_choose(const struct pmc_td_cpu *cpu, struct pmc_td_choice *ret)
{
	const char *pmu = cpu ? cpu->pmu : NULL;

	memset(ret, 0, sizeof(*ret));
	if (!pmu || !*pmu) {
		const char *v = cpu && cpu->vendor ? cpu->vendor : "";

		/* Without a PMU model, only the architected Arm events are safe to assume. */
		if (!strcmp(v, "ARM") || !strncmp(v, "arm", 3)) {
			ret->tree = pmc_td_tree_find("arm-cycles");
			ret->reason = "an Arm core of unknown model: cycle accounting from the architected "
				      "STALL_FRONTEND/STALL_BACKEND, no slot split";
			return;
		}
		/* A CPU newer than libpfm4 (4.13 has no Zen 5 table) is still known by its CPUID family */
		if (!strcmp(v, "AuthenticAMD") && cpu->family == 0x1a) {
			ret->tree = pmc_td_tree_find("amd-zen5");
			ret->reason = "AMD family 0x1A (Zen 5) by CPUID, which this libpfm4 has no table for: pipeline "
				      "utilization over 8 dispatch slots, from the Processor Programming Reference";
			return;
		}
		ret->reason = "the CPU model is unknown (no libpfm4 PMU): no top-down definition applies";
		return;
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct pmu_rule *r = &rules[i];

		if (!pmu_matches(r->pmu, pmu))
			continue;
		ret->reason = r->why;
		if (!r->tree)
			return;
		ret->tree = pmc_td_tree_find(cpu->smt_on && r->tree_smt ? r->tree_smt : r->tree);
		if (r->tree_smt)
			ret->alt[ret->nalt++] = pmc_td_tree_find(cpu->smt_on ? r->tree : r->tree_smt);
		if (r->alt)
			ret->alt[ret->nalt++] = pmc_td_tree_find(r->alt);
		return;
	}
	ret->reason = "no top-down definition for this PMU model in pmctool";
}
