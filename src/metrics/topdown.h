/* SPDX-License-Identifier: MIT */
/*
 * Top-down trees per CPU family, as data, and their evaluation from counts (issue 27; doc/topdown.md).
 * Pure: no I/O, no CPUID, no perf. The caller resolves each input's event names, counts them (one group per level),
 * and hands the values in; a chooser maps a neutral CPU description (vendor, libpfm4 PMU name) to a tree.
 */
#ifndef PMC_METRICS_TOPDOWN_H
#define PMC_METRICS_TOPDOWN_H

#include <stdbool.h>
#include <stddef.h>

#define PMC_TD_MAX_INPUTS 24
#define PMC_TD_MAX_NODES 24
#define PMC_TD_MAX_CHECKS 32
#define PMC_TD_REASON_LEN 200
#define PMC_TD_SUM_TOL 0.01 /* level 1 and children sums: allowed |sum - parent|, as a fraction */

/* Where an input's value comes from. */
enum pmc_td_input_kind {
	PMC_TD_EVENT,     /* a counter: resolve pfm (libpfm4) or perf spelling, or raw with its provenance */
	PMC_TD_PROPERTY,  /* a number the machine reports, not a count (e.g. sysfs caps/slots) */
	PMC_TD_ABSENT,    /* this generation has no such event: always n/a, with absent_reason */
};

/* One input of a tree: a symbolic id the formulas use, and how to get its value. */
struct pmc_td_input {
	const char *id;               /* formula name, e.g. "CLK" */
	enum pmc_td_input_kind kind;
	const char *pfm;              /* libpfm4 spelling (PMU prefix left to the caller), or NULL */
	const char *perf;             /* perf spelling, or NULL */
	const char *raw;              /* raw encoding ("r0023"), or NULL */
	const char *source;           /* provenance of a raw code or property; for PMC_TD_ABSENT the reason */
};

/* One node. level 0 is a helper (slots, core clocks): evaluated, never shown, never checked. */
struct pmc_td_node {
	const char *name;             /* stable, e.g. "frontend_bound", "fetch_latency" */
	const char *parent;           /* NULL at level 1 and for helpers */
	int level;
	const char *formula;          /* metrics/expr.h language over input ids, earlier nodes, WIDTH */
	double threshold;             /* a bottleneck must exceed it (fraction) */
	const char *explain;          /* one line for the report and the man page */
};

/* A tree definition. unit is "slots" for every tree but the Arm cycle-accounting fallback ("cycles"). */
struct pmc_td_tree {
	const char *name;             /* "intel-skl", "intel-icl-tma", ... (the value of a --topdown-def option) */
	const char *title;
	const char *unit;
	double width;                 /* slots per cycle, the formula name WIDTH; 0 where an input gives it */
	int max_level;
	const struct pmc_td_input *inputs;
	size_t ninputs;
	const struct pmc_td_node *nodes; /* helpers and parents before the nodes that use them */
	size_t nnodes;
	const char *note;             /* what the integration must know (per-core SMT counts, no slot split, ...) */
	const char *leader;           /* the input that must lead each level's group (PERF_METRICS: SLOTS), or NULL */
	/* Where its events live, as data (a saved report's inputs are found by these, metrics/td_replay.c): */
	const char *pfm_pmu;          /* the libpfm4 PMU that encodes its events for a CPU nobody named ("skl"), or
					 NULL (libpfm4 has no table for it: its raw codes and names only) */
	enum pmc_td_layout {          /* how its raw codes are laid out: */
		PMC_TD_LAYOUT_PLAIN = 0, /* every config bit is the event's */
		PMC_TD_LAYOUT_X86,       /* x86: the kernel sets usr, os, int and en whatever the code says */
	} layout;
	const char *const *anchors;   /* level >= 2 in several batches: the level-1 inputs (ids) counted in every
					 batch in place of pmctool's anchors (its level 1 fills every counter: Zen 4),
					 NULL-terminated; NULL: none */
};

/* A neutral CPU description for the chooser: no CPUID here, the arch layer fills it. */
struct pmc_td_cpu {
	const char *vendor;           /* "GenuineIntel", "AuthenticAMD", "ARM" ... or NULL */
	const char *pmu;              /* libpfm4 PMU name: "skl", "icl", "spr", "adl_glc", "amd64_fam19h_zen4", "arm_n1" */
	bool smt_on;                  /* Intel SNB..CLX: choose the per-core (AnyThread) form */
	unsigned family;              /* x86 CPUID family (0x1A: Zen 5), for a CPU no libpfm4 PMU knows; 0 unknown */
};

#define PMC_TD_MAX_ALT 3

/* The chooser's answer: a default tree and the selectable alternatives, or none and why. */
struct pmc_td_choice {
	const struct pmc_td_tree *tree;                  /* NULL: no top-down on this CPU, see reason */
	const struct pmc_td_tree *alt[PMC_TD_MAX_ALT];
	size_t nalt;
	const char *reason;                              /* why this tree (or why none), one line */
};

/* One input's value: counted, or not with the reason ("not supported in this VM", "multiplexed to 0%"). */
struct pmc_td_value {
	bool counted;
	double value;
	const char *reason;
};

enum pmc_td_check_kind {
	PMC_TD_CHECK_SUM,      /* level 1 does not sum to 1 within PMC_TD_SUM_TOL */
	PMC_TD_CHECK_CHILDREN, /* a parent's children do not sum to it */
	PMC_TD_CHECK_RANGE,    /* a node outside [0, 1] was clamped for display */
};

struct pmc_td_check {
	enum pmc_td_check_kind kind;
	int node;                     /* the node index (the parent for CHILDREN), -1 for SUM */
	char msg[PMC_TD_REASON_LEN];
};

struct pmc_td_node_result {
	bool ok;                      /* false: n/a, reason says which input and why */
	double value;                 /* fraction of the unit, clamped to [0, 1] when clamped is set */
	double raw;                   /* the value before clamping */
	bool clamped;
	bool bottleneck;
	char reason[PMC_TD_REASON_LEN];
};

struct pmc_td_result {
	const struct pmc_td_tree *tree;
	struct pmc_td_node_result node[PMC_TD_MAX_NODES];
	struct pmc_td_check check[PMC_TD_MAX_CHECKS];
	size_t nchecks;
};

/* Every tree pmctool knows, for tests, --help and the man page. */
size_t pmc_td_tree_count(void);
const struct pmc_td_tree *pmc_td_tree_at(size_t i);

/* A tree by name, or NULL. */
const struct pmc_td_tree *pmc_td_tree_find(const char *name);

/* The index of an input id or node name in tree, or -1. */
int pmc_td_input_index(const struct pmc_td_tree *tree, const char *id);
int pmc_td_node_index(const struct pmc_td_tree *tree, const char *name);

/*
 * Choose the tree for a CPU. Always fills *ret: tree NULL means no top-down, with the reason (Zen 3 and older,
 * an unknown PMU). Never reads the machine.
 */
void pmc_td_choose(const struct pmc_td_cpu *cpu, struct pmc_td_choice *ret);

/*
 * Evaluate tree on values (tree->ninputs of them, in the order of tree->inputs). Fills *ret: every node ok or n/a
 * with a reason naming the missing input, the bottlenecks, the checks. Returns 0, -EINVAL (a NULL argument or a
 * tree whose formula does not parse: a bug the unit test catches), -ENOMEM.
 */
int pmc_td_eval(const struct pmc_td_tree *tree, const struct pmc_td_value *values, struct pmc_td_result *ret);

/*
 * Which inputs levels 1..level need, through the helpers and nodes their formulas use: needed[i] is set for
 * tree->inputs[i] (ninputs entries). The count, or -EINVAL (bad tree or level), -ENOMEM. This is the event list of
 * one level's group, with tree->leader always in it (the raw PERF_METRICS shares do not use SLOTS, the group
 * needs it first); PMC_TD_PROPERTY inputs are set too but are not counters.
 */
int pmc_td_level_inputs(const struct pmc_td_tree *tree, int level, bool *needed);

/*
 * Check a tree definition: every formula parses, names only inputs, WIDTH or earlier nodes, parents exist and come
 * first, levels are parent + 1. 0, or -EINVAL with err saying what is wrong.
 */
int pmc_td_tree_validate(const struct pmc_td_tree *tree, char *err, size_t errlen);

#endif
