/* SPDX-License-Identifier: MIT */
/*
 * Top-down trees: every family's tree evaluated on count vectors whose fractions are worked out by hand from the
 * published formulas (the arithmetic is in each row's comment), the bottleneck marking, the checks (a tree that does
 * not sum, a clamp, a missing input as n/a with its reason), a mutation guard (every input of every tree moves the
 * nodes that use it, and only those), the inputs each level needs, and the chooser.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "metrics/topdown.h"

#define NA (-1.0) /* expected: n/a */
#define EPS 1e-9

struct kv {
	const char *id;
	double v;
};

struct expect {
	const char *node;
	double v;
};

enum { CK_SUM = 1 << PMC_TD_CHECK_SUM, CK_CHILDREN = 1 << PMC_TD_CHECK_CHILDREN, CK_RANGE = 1 << PMC_TD_CHECK_RANGE };

struct td_case {
	int line;
	const char *tree;
	bool full;                   /* every input the deepest level needs is counted: used by the mutation guard */
	struct kv in[PMC_TD_MAX_INPUTS + 1];
	struct expect out[PMC_TD_MAX_NODES + 1]; /* every visible node of the tree, ok or NA */
	const char *bottleneck[4];   /* the marked nodes, level 1 first */
	unsigned checks;             /* exactly these check kinds fire */
	const char *na_reason;       /* a substring every NA node's reason holds */
};

static const struct td_case cases[] = {
	/*
	 * Skylake, per thread, backend/memory bound. slots = 4 x 1000 = 4000.
	 * FE = 400/4000 = .10; BS = (1300 - 1200 + 4 x 25)/4000 = 200/4000 = .05; RET = 1200/4000 = .30;
	 * BE = 1 - (.10 + .05 + .30) = .55. fetch_latency = 4 x 60/4000 = .06, fetch_bandwidth = .10 - .06 = .04;
	 * branch_mispredicts = 30/(30 + 10) x .05 = .0375, machine_clears = .05 - .0375 = .0125;
	 * memory_bound = (500 + 100)/(600 + 100 + .30 x 200 + 100) x .55 = 600/860 x .55 = 330/860, core = .55 - 330/860;
	 * heavy = (1200 + 40 - 1120)/4000 = 120/4000 = .03 (uops beyond one per instruction), light = .30 - .03 = .27.
	 * Bottleneck: BE (.55 > .20; RET .30 < .70), under it memory (.3837 > .20 and > core .1663).
	 */
	{ __LINE__, "intel-skl", true,
	  { { "CLK", 1000 }, { "IDQ_NOT_DELIVERED", 400 }, { "UOPS_ISSUED", 1300 }, { "RETIRE_SLOTS", 1200 },
	    { "RECOVERY", 25 }, { "FE_0_UOPS_CYCLES", 60 }, { "BR_MISP", 30 }, { "MACHINE_CLEARS", 10 },
	    { "STALLS_MEM_ANY", 500 }, { "BOUND_ON_STORES", 100 }, { "STALLS_TOTAL", 600 }, { "PORTS_UTIL_1", 100 },
	    { "PORTS_UTIL_2", 200 }, { "MACRO_FUSED", 40 }, { "INST_RETIRED", 1120 } },
	  { { "frontend_bound", .10 }, { "bad_speculation", .05 }, { "backend_bound", .55 }, { "retiring", .30 },
	    { "fetch_latency", .06 }, { "fetch_bandwidth", .04 }, { "branch_mispredicts", .0375 },
	    { "machine_clears", .0125 }, { "memory_bound", 330.0 / 860 }, { "core_bound", .55 - 330.0 / 860 },
	    { "heavy_operations", .03 }, { "light_operations", .27 } },
	  { "backend_bound", "memory_bound" }, 0, NULL },
	/*
	 * Skylake per core (SMT on), retiring bound; the counts are both threads' sums. slots = 4 x 2000/2 = 4000,
	 * recovery = 50/2 = 25. FE = 200/4000 = .05; BS = (3300 - 3200 + 4 x 25)/4000 = .05; RET = 3200/4000 = .80;
	 * BE = 1 - .90 = .10. fetch_latency = 4 x 30/4000 = .03, bandwidth .02; mispredicts = 90/100 x .05 = .045,
	 * clears .005; memory = (100 + 20)/(200 + 60 + .8 x 100 + 20) x .10 = 120/360 x .10, core = .10 - that;
	 * heavy = (3200 + 140 - 2700)/4000 = 640/4000 = .16, light = .64. Bottleneck: RET (.80 > .70), then light
	 * (.64 > .60 and > heavy .16). CLK and RECOVERY are not counted: the per-core form must not need them.
	 */
	{ __LINE__, "intel-skl-smt", true,
	  { { "CLK_ANY", 2000 }, { "IDQ_NOT_DELIVERED", 200 }, { "UOPS_ISSUED", 3300 }, { "RETIRE_SLOTS", 3200 },
	    { "RECOVERY_ANY", 50 }, { "FE_0_UOPS_CYCLES", 30 }, { "BR_MISP", 90 }, { "MACHINE_CLEARS", 10 },
	    { "STALLS_MEM_ANY", 100 }, { "BOUND_ON_STORES", 20 }, { "STALLS_TOTAL", 200 }, { "PORTS_UTIL_1", 60 },
	    { "PORTS_UTIL_2", 100 }, { "MACRO_FUSED", 140 }, { "INST_RETIRED", 2700 } },
	  { { "frontend_bound", .05 }, { "bad_speculation", .05 }, { "backend_bound", .10 }, { "retiring", .80 },
	    { "fetch_latency", .03 }, { "fetch_bandwidth", .02 }, { "branch_mispredicts", .045 },
	    { "machine_clears", .005 }, { "memory_bound", 120.0 / 360 * .10 }, { "core_bound", .10 - 120.0 / 360 * .10 },
	    { "heavy_operations", .16 }, { "light_operations", .64 } },
	  { "retiring", "light_operations" }, 0, NULL },
	/* Sandy Bridge..Broadwell: the vector of the first row; the backend split has no events there: n/a, named. */
	{ __LINE__, "intel-snb", true,
	  { { "CLK", 1000 }, { "IDQ_NOT_DELIVERED", 400 }, { "UOPS_ISSUED", 1300 }, { "RETIRE_SLOTS", 1200 },
	    { "RECOVERY", 25 }, { "FE_0_UOPS_CYCLES", 60 }, { "BR_MISP", 30 }, { "MACHINE_CLEARS", 10 },
	    { "MS_UOPS", 130 } },
	  { { "frontend_bound", .10 }, { "bad_speculation", .05 }, { "backend_bound", .55 }, { "retiring", .30 },
	    { "fetch_latency", .06 }, { "fetch_bandwidth", .04 }, { "branch_mispredicts", .0375 },
	    { "machine_clears", .0125 }, { "memory_bound", NA }, { "core_bound", NA },
	    { "heavy_operations", .03 }, { "light_operations", .27 } },
	  { "backend_bound" }, 0, "EXE_ACTIVITY" },
	/* Sandy Bridge per core: the second row's vector without the backend split. */
	{ __LINE__, "intel-snb-smt", true,
	  { { "CLK_ANY", 2000 }, { "IDQ_NOT_DELIVERED", 200 }, { "UOPS_ISSUED", 3300 }, { "RETIRE_SLOTS", 3200 },
	    { "RECOVERY_ANY", 50 }, { "FE_0_UOPS_CYCLES", 30 }, { "BR_MISP", 90 }, { "MACHINE_CLEARS", 10 },
	    { "MS_UOPS", 660 } },
	  { { "frontend_bound", .05 }, { "bad_speculation", .05 }, { "backend_bound", .10 }, { "retiring", .80 },
	    { "fetch_latency", .03 }, { "fetch_bandwidth", .02 }, { "branch_mispredicts", .045 },
	    { "machine_clears", .005 }, { "memory_bound", NA }, { "core_bound", NA },
	    { "heavy_operations", .16 }, { "light_operations", .64 } },
	  { "retiring", "light_operations" }, 0, "does not exist" },
	/*
	 * Icelake raw shares: the fields are slots-scaled and sum to 9960, not SLOTS (8-bit rounding): each over the sum.
	 * RET = 2988/9960 = .30, BS = 996/9960 = .10, FE = 1992/9960 = .20, BE = 3984/9960 = .40. Bottleneck BE.
	 */
	{ __LINE__, "intel-icl", true,
	  { { "SLOTS", 10000 }, { "TD_RETIRING", 2988 }, { "TD_BAD_SPEC", 996 }, { "TD_FE_BOUND", 1992 },
	    { "TD_BE_BOUND", 3984 } },
	  { { "frontend_bound", .20 }, { "bad_speculation", .10 }, { "backend_bound", .40 }, { "retiring", .30 } },
	  { "backend_bound" }, 0, NULL },
	/*
	 * Icelake corrected TMA: FE = .20 - 300/10000 = .17; BE = .40 + 5 x 100/10000 = .45; RET = .30;
	 * BS = max(1 - (.17 + .45 + .30), 0) = .08. Sums to 1. Bottleneck BE.
	 */
	{ __LINE__, "intel-icl-tma", true,
	  { { "SLOTS", 10000 }, { "TD_RETIRING", 2988 }, { "TD_BAD_SPEC", 996 }, { "TD_FE_BOUND", 1992 },
	    { "TD_BE_BOUND", 3984 }, { "UOP_DROPPING", 300 }, { "RECOVERY_C1E", 100 } },
	  { { "frontend_bound", .17 }, { "bad_speculation", .08 }, { "backend_bound", .45 }, { "retiring", .30 } },
	  { "backend_bound" }, 0, NULL },
	/*
	 * Icelake corrected TMA, clamped: BE = .40 + 5 x 400/10000 = .60; 1 - (.17 + .60 + .30) = -.07 -> BS = 0 by the
	 * published max(): level 1 sums to 107%, a sum warning, and nothing is renormalised.
	 */
	{ __LINE__, "intel-icl-tma", false,
	  { { "SLOTS", 10000 }, { "TD_RETIRING", 2988 }, { "TD_BAD_SPEC", 996 }, { "TD_FE_BOUND", 1992 },
	    { "TD_BE_BOUND", 3984 }, { "UOP_DROPPING", 300 }, { "RECOVERY_C1E", 400 } },
	  { { "frontend_bound", .17 }, { "bad_speculation", 0 }, { "backend_bound", .60 }, { "retiring", .30 } },
	  { "backend_bound" }, CK_SUM, NULL },
	/*
	 * Sapphire Rapids raw shares, level 2 from the extra fields over the same sum 9960:
	 * heavy = 498/9960 = .05, light = .30 - .05 = .25; mispredicts = 747/9960 = .075, clears = .10 - .075 = .025;
	 * fetch_latency = 1494/9960 = .15, bandwidth = .20 - .15 = .05; memory = 2490/9960 = .25, core = .40 - .25 = .15.
	 * Bottleneck BE (.40), then memory (.25 > .20, > core .15).
	 */
	{ __LINE__, "intel-spr", true,
	  { { "SLOTS", 10000 }, { "TD_RETIRING", 2988 }, { "TD_BAD_SPEC", 996 }, { "TD_FE_BOUND", 1992 },
	    { "TD_BE_BOUND", 3984 }, { "TD_HEAVY_OPS", 498 }, { "TD_BR_MISPREDICT", 747 }, { "TD_FETCH_LAT", 1494 },
	    { "TD_MEM_BOUND", 2490 } },
	  { { "frontend_bound", .20 }, { "bad_speculation", .10 }, { "backend_bound", .40 }, { "retiring", .30 },
	    { "fetch_latency", .15 }, { "fetch_bandwidth", .05 }, { "branch_mispredicts", .075 },
	    { "machine_clears", .025 }, { "memory_bound", .25 }, { "core_bound", .15 },
	    { "heavy_operations", .05 }, { "light_operations", .25 } },
	  { "backend_bound", "memory_bound" }, 0, NULL },
	/*
	 * Sapphire Rapids raw shares with a memory field above its parent (4482/9960 = .45 > BE .40): core_bound =
	 * .40 - .45 = -.05 is clamped to 0 with a range warning, and BE's children then sum to .45, not .40.
	 */
	{ __LINE__, "intel-spr", false,
	  { { "SLOTS", 10000 }, { "TD_RETIRING", 2988 }, { "TD_BAD_SPEC", 996 }, { "TD_FE_BOUND", 1992 },
	    { "TD_BE_BOUND", 3984 }, { "TD_HEAVY_OPS", 498 }, { "TD_BR_MISPREDICT", 747 }, { "TD_FETCH_LAT", 1494 },
	    { "TD_MEM_BOUND", 4482 } },
	  { { "frontend_bound", .20 }, { "bad_speculation", .10 }, { "backend_bound", .40 }, { "retiring", .30 },
	    { "fetch_latency", .15 }, { "fetch_bandwidth", .05 }, { "branch_mispredicts", .075 },
	    { "machine_clears", .025 }, { "memory_bound", .45 }, { "core_bound", 0 },
	    { "heavy_operations", .05 }, { "light_operations", .25 } },
	  { "backend_bound", "memory_bound" }, CK_RANGE | CK_CHILDREN, NULL },
	/*
	 * Sapphire Rapids corrected TMA: FE = .20 - 200/10000 = .18, BE = .40, RET = .30, BS = max(1 - .88, 0) = .12;
	 * fetch_latency = .15 - .02 = .13, bandwidth = max(.18 - .13, 0) = .05; mispredicts .075,
	 * clears = max(.12 - .075, 0) = .045; memory .25, core .15; heavy .05, light .25. Bottleneck BE, memory.
	 */
	{ __LINE__, "intel-spr-tma", true,
	  { { "SLOTS", 10000 }, { "TD_RETIRING", 2988 }, { "TD_BAD_SPEC", 996 }, { "TD_FE_BOUND", 1992 },
	    { "TD_BE_BOUND", 3984 }, { "TD_HEAVY_OPS", 498 }, { "TD_BR_MISPREDICT", 747 }, { "TD_FETCH_LAT", 1494 },
	    { "TD_MEM_BOUND", 2490 }, { "UOP_DROPPING", 200 } },
	  { { "frontend_bound", .18 }, { "bad_speculation", .12 }, { "backend_bound", .40 }, { "retiring", .30 },
	    { "fetch_latency", .13 }, { "fetch_bandwidth", .05 }, { "branch_mispredicts", .075 },
	    { "machine_clears", .045 }, { "memory_bound", .25 }, { "core_bound", .15 },
	    { "heavy_operations", .05 }, { "light_operations", .25 } },
	  { "backend_bound", "memory_bound" }, 0, NULL },
	/*
	 * Gracemont, 5 wide: slots = 5 x 1000. FE = 1000/5000 = .20, BS = 250/5000 = .05, BE = 1250/5000 = .25,
	 * RET = 2500/5000 = .50; fetch latency 600/5000 = .12, bandwidth 400/5000 = .08, mispredicts 200/5000 = .04,
	 * clears 50/5000 = .01. Bottleneck BE (.25 > .20, FE .20 > .15 but smaller); BE has no children here.
	 */
	{ __LINE__, "intel-atom-grt", true,
	  { { "CLK", 1000 }, { "TD_FE", 1000 }, { "TD_BAD", 250 }, { "TD_BE", 1250 }, { "TD_RET", 2500 },
	    { "TD_FE_LAT", 600 }, { "TD_FE_BW", 400 }, { "TD_BAD_MISP", 200 }, { "TD_BAD_MC", 50 } },
	  { { "frontend_bound", .20 }, { "bad_speculation", .05 }, { "backend_bound", .25 }, { "retiring", .50 },
	    { "fetch_latency", .12 }, { "fetch_bandwidth", .08 }, { "branch_mispredicts", .04 }, { "machine_clears", .01 } },
	  { "backend_bound" }, 0, NULL },
	/*
	 * The same counts on Crestmont (6 wide): slots = 6000, FE = 1000/6000, BS = 250/6000, BE = 1250/6000 = .2083,
	 * RET = 2500/6000; level 1 sums to 5000/6000 = 83.3%: the wrong width shows as a sum warning. Bottleneck BE.
	 */
	{ __LINE__, "intel-atom-cmt", true,
	  { { "CLK", 1000 }, { "TD_FE", 1000 }, { "TD_BAD", 250 }, { "TD_BE", 1250 }, { "TD_RET", 2500 },
	    { "TD_FE_LAT", 600 }, { "TD_FE_BW", 400 }, { "TD_BAD_MISP", 200 }, { "TD_BAD_MC", 50 } },
	  { { "frontend_bound", 1000.0 / 6000 }, { "bad_speculation", 250.0 / 6000 }, { "backend_bound", 1250.0 / 6000 },
	    { "retiring", 2500.0 / 6000 }, { "fetch_latency", .10 }, { "fetch_bandwidth", 400.0 / 6000 },
	    { "branch_mispredicts", 200.0 / 6000 }, { "machine_clears", 50.0 / 6000 } },
	  { "backend_bound" }, CK_SUM, NULL },
	/*
	 * Zen 4, 6 wide: slots = 6000. FE = 600/6000 = .10; BS = (3300 - 3000)/6000 = .05; BE = 1800/6000 = .30;
	 * SMT = 300/6000 = .05; RET = 3000/6000 = .50 (sum 1). fetch_latency = 6 x 70/6000 = .07, bandwidth .03;
	 * mispredicts = 40/50 x .05 = .04, restarts = 10/50 x .05 = .01; memory = 600/800 x .30 = .225,
	 * cpu = (1 - .75) x .30 = .075; microcode = 300/3000 x .50 = .05, fastpath = .9 x .5 = .45.
	 * Bottleneck BE (.30 > .20), memory (.225 > .20; cpu .075 < .10).
	 */
	{ __LINE__, "amd-zen4", true,
	  { { "CYC", 1000 }, { "NO_OPS_FE", 600 }, { "BE_STALLS", 1800 }, { "SMT_CONTENTION", 300 },
	    { "OPS_DISPATCHED", 3300 }, { "OPS_RETIRED", 3000 }, { "NO_OPS_FE_ALL_CYCLES", 70 }, { "BR_MISP", 40 },
	    { "RESYNCS", 10 }, { "LOAD_NOT_COMPLETE", 600 }, { "NOT_COMPLETE", 800 }, { "UCODE_OPS", 300 } },
	  { { "frontend_bound", .10 }, { "bad_speculation", .05 }, { "backend_bound", .30 }, { "smt_contention", .05 },
	    { "retiring", .50 }, { "fetch_latency", .07 }, { "fetch_bandwidth", .03 }, { "branch_mispredicts", .04 },
	    { "pipeline_restarts", .01 }, { "memory_bound", .225 }, { "cpu_bound", .075 }, { "fastpath", .45 },
	    { "microcode", .05 } },
	  { "backend_bound", "memory_bound" }, 0, NULL },
	/*
	 * Zen 5, 8 wide, frontend-latency bound, level 2 counted only for the frontend: slots = 8000.
	 * FE = 2400/8000 = .30; BS = (4800 - 4000)/8000 = .10; BE = 400/8000 = .05; SMT = 400/8000 = .05;
	 * RET = 4000/8000 = .50. fetch_latency = 8 x 250/8000 = .25, bandwidth = .05. Bottleneck FE, latency.
	 * The other level-2 inputs were not counted: their nodes are n/a with the reason, never 0%.
	 */
	{ __LINE__, "amd-zen5", false,
	  { { "CYC", 1000 }, { "NO_OPS_FE", 2400 }, { "BE_STALLS", 400 }, { "SMT_CONTENTION", 400 },
	    { "OPS_DISPATCHED", 4800 }, { "OPS_RETIRED", 4000 }, { "NO_OPS_FE_ALL_CYCLES", 250 } },
	  { { "frontend_bound", .30 }, { "bad_speculation", .10 }, { "backend_bound", .05 }, { "smt_contention", .05 },
	    { "retiring", .50 }, { "fetch_latency", .25 }, { "fetch_bandwidth", .05 }, { "branch_mispredicts", NA },
	    { "pipeline_restarts", NA }, { "memory_bound", NA }, { "cpu_bound", NA }, { "fastpath", NA },
	    { "microcode", NA } },
	  { "frontend_bound", "fetch_latency" }, 0, "not counted: not in this vector" },
	/* Zen 5 with every input: the Zen 4 row's level 2 ratios on the row above's level 1 (slots 8000). */
	{ __LINE__, "amd-zen5", true,
	  { { "CYC", 1000 }, { "NO_OPS_FE", 2400 }, { "BE_STALLS", 400 }, { "SMT_CONTENTION", 400 },
	    { "OPS_DISPATCHED", 4800 }, { "OPS_RETIRED", 4000 }, { "NO_OPS_FE_ALL_CYCLES", 250 }, { "BR_MISP", 40 },
	    { "RESYNCS", 10 }, { "LOAD_NOT_COMPLETE", 600 }, { "NOT_COMPLETE", 800 }, { "UCODE_OPS", 400 } },
	  /* mispredicts = .8 x .10, restarts = .2 x .10; memory = .75 x .05, cpu = .25 x .05;
	     microcode = 400/4000 x .50 = .05, fastpath = .45 */
	  { { "frontend_bound", .30 }, { "bad_speculation", .10 }, { "backend_bound", .05 }, { "smt_contention", .05 },
	    { "retiring", .50 }, { "fetch_latency", .25 }, { "fetch_bandwidth", .05 }, { "branch_mispredicts", .08 },
	    { "pipeline_restarts", .02 }, { "memory_bound", .0375 }, { "cpu_bound", .0125 }, { "fastpath", .45 },
	    { "microcode", .05 } },
	  { "frontend_bound", "fetch_latency" }, 0, NULL },
	/*
	 * Neoverse N1/V1, 4 slots (caps/slots): slots = 4000. FE = 800/4000 = .20; BE = 1200/4000 = .30;
	 * issued share = 1 - 2000/4000 = .50; RET = 1800/2000 x .50 = .45; BS = (1 - .90) x .50 = .05. Bottleneck BE.
	 */
	{ __LINE__, "arm-neoverse", true,
	  { { "SLOTS_PER_CYCLE", 4 }, { "CYC", 1000 }, { "STALL_SLOT_FE", 800 }, { "STALL_SLOT_BE", 1200 },
	    { "STALL_SLOT", 2000 }, { "OP_RETIRED", 1800 }, { "OP_SPEC", 2000 } },
	  { { "frontend_bound", .20 }, { "bad_speculation", .05 }, { "backend_bound", .30 }, { "retiring", .45 } },
	  { "backend_bound" }, 0, NULL },
	/*
	 * Neoverse N2/V2, 5 slots, one frontend slot per cycle removed: slots = 5000. FE = (1800 - 1000)/5000 = .16;
	 * BE = 1000/5000 = .20; issued = 1 - (2800 - 1000)/5000 = .64; RET = 1600/2000 x .64 = .512;
	 * BS = .20 x .64 = .128. Bottleneck FE (.16 > .15): BE is larger but only equals its threshold (.20).
	 */
	{ __LINE__, "arm-neoverse-n2", true,
	  { { "SLOTS_PER_CYCLE", 5 }, { "CYC", 1000 }, { "STALL_SLOT_FE", 1800 }, { "STALL_SLOT_BE", 1000 },
	    { "STALL_SLOT", 2800 }, { "OP_RETIRED", 1600 }, { "OP_SPEC", 2000 } },
	  { { "frontend_bound", .16 }, { "bad_speculation", .128 }, { "backend_bound", .20 }, { "retiring", .512 } },
	  { "frontend_bound" }, 0, NULL },
	/* Neoverse without caps/slots (an older kernel): every node is n/a and says why. */
	{ __LINE__, "arm-neoverse", false,
	  { { "CYC", 1000 }, { "STALL_SLOT_FE", 800 }, { "STALL_SLOT_BE", 1200 }, { "STALL_SLOT", 2000 },
	    { "OP_RETIRED", 1800 }, { "OP_SPEC", 2000 } },
	  { { "frontend_bound", NA }, { "bad_speculation", NA }, { "backend_bound", NA }, { "retiring", NA } },
	  { NULL }, 0, "SLOTS_PER_CYCLE" },
	/* Arm cycle accounting: FE stalls = 100/1000 = .10, BE stalls = 600/1000 = .60, issuing = .30. Bottleneck BE. */
	{ __LINE__, "arm-cycles", true,
	  { { "CYC", 1000 }, { "STALL_FE", 100 }, { "STALL_BE", 600 } },
	  { { "frontend_stalls", .10 }, { "backend_stalls", .60 }, { "issuing", .30 } },
	  { "backend_stalls" }, 0, NULL },
	/* The rig's Cortex-A57 under QEMU counts cycles only: the stall nodes are n/a with the reason, never 0%. */
	{ __LINE__, "arm-cycles", false,
	  { { "CYC", 1000 } },
	  { { "frontend_stalls", NA }, { "backend_stalls", NA }, { "issuing", NA } },
	  { NULL }, 0, "not counted" },
	/*
	 * Skylake level 1 only, frontend counts beyond the slots: FE = 3000/4000 = .75, BS = .05, RET = .30, so
	 * BE = 1 - 1.10 = -.10, clamped to 0 with a range warning; level 1 then sums to 110%. Bottleneck FE; its
	 * children were not counted, so the marking stops there.
	 */
	{ __LINE__, "intel-skl", false,
	  { { "CLK", 1000 }, { "IDQ_NOT_DELIVERED", 3000 }, { "UOPS_ISSUED", 1300 }, { "RETIRE_SLOTS", 1200 },
	    { "RECOVERY", 25 } },
	  { { "frontend_bound", .75 }, { "bad_speculation", .05 }, { "backend_bound", 0 }, { "retiring", .30 },
	    { "fetch_latency", NA }, { "fetch_bandwidth", NA }, { "branch_mispredicts", NA }, { "machine_clears", NA },
	    { "memory_bound", NA }, { "core_bound", NA }, { "heavy_operations", NA }, { "light_operations", NA } },
	  { "frontend_bound" }, CK_RANGE | CK_SUM, "not counted: not in this vector" },
	/* Zen 4 level 1 with backend stalls of 2400/6000 = .40: .10 + .05 + .40 + .05 + .50 = 110%, a sum warning. */
	{ __LINE__, "amd-zen4", false,
	  { { "CYC", 1000 }, { "NO_OPS_FE", 600 }, { "BE_STALLS", 2400 }, { "SMT_CONTENTION", 300 },
	    { "OPS_DISPATCHED", 3300 }, { "OPS_RETIRED", 3000 } },
	  { { "frontend_bound", .10 }, { "bad_speculation", .05 }, { "backend_bound", .40 }, { "smt_contention", .05 },
	    { "retiring", .50 }, { "fetch_latency", NA }, { "fetch_bandwidth", NA }, { "branch_mispredicts", NA },
	    { "pipeline_restarts", NA }, { "memory_bound", NA }, { "cpu_bound", NA }, { "fastpath", NA },
	    { "microcode", NA } },
	  { "backend_bound" }, CK_SUM, "not counted" },
	/*
	 * Neoverse with STALL_SLOT below FE + BE stall slots (1600 < 2000): issued = 1 - 1600/4000 = .60,
	 * RET = .9 x .6 = .54, BS = .1 x .6 = .06; .20 + .06 + .30 + .54 = 110%, a sum warning. Bottleneck BE.
	 */
	{ __LINE__, "arm-neoverse", false,
	  { { "SLOTS_PER_CYCLE", 4 }, { "CYC", 1000 }, { "STALL_SLOT_FE", 800 }, { "STALL_SLOT_BE", 1200 },
	    { "STALL_SLOT", 1600 }, { "OP_RETIRED", 1800 }, { "OP_SPEC", 2000 } },
	  { { "frontend_bound", .20 }, { "bad_speculation", .06 }, { "backend_bound", .30 }, { "retiring", .54 } },
	  { "backend_bound" }, CK_SUM, NULL },
	/* Arm cycle accounting with overlapping stall counts: .5 + .7 > 1, issuing = -.2 clamped to 0, sum 120%. */
	{ __LINE__, "arm-cycles", false,
	  { { "CYC", 1000 }, { "STALL_FE", 500 }, { "STALL_BE", 700 } },
	  { { "frontend_stalls", .50 }, { "backend_stalls", .70 }, { "issuing", 0 } },
	  { "backend_stalls" }, CK_RANGE | CK_SUM, NULL },
	/* A zero cycle count: n/a naming the denominator, not a division by zero and not 0%. */
	{ __LINE__, "intel-skl", false,
	  { { "CLK", 0 }, { "IDQ_NOT_DELIVERED", 400 }, { "UOPS_ISSUED", 1300 }, { "RETIRE_SLOTS", 1200 },
	    { "RECOVERY", 25 } },
	  { { "frontend_bound", NA }, { "bad_speculation", NA }, { "backend_bound", NA }, { "retiring", NA },
	    { "fetch_latency", NA }, { "fetch_bandwidth", NA }, { "branch_mispredicts", NA }, { "machine_clears", NA },
	    { "memory_bound", NA }, { "core_bound", NA }, { "heavy_operations", NA }, { "light_operations", NA } },
	  { NULL }, 0, NULL },
	/*
	 * Skylake's heavy operations as Intel's TMA for Skylake..Cascade Lake counts them: every retired uop beyond one per
	 * instruction, not only the microcode sequencer's (the Sandy Bridge..Broadwell definition, which gave 0 here for
	 * code without microcode). slots = 4000, RET = 1200/4000 = .30; heavy = (1200 + 100 - 900)/4000 = 400/4000 = .10,
	 * light = .30 - .10 = .20. FE .10, BS .05, BE .55 as in the first row; the backend split was not counted.
	 */
	{ __LINE__, "intel-skl", false,
	  { { "CLK", 1000 }, { "IDQ_NOT_DELIVERED", 400 }, { "UOPS_ISSUED", 1300 }, { "RETIRE_SLOTS", 1200 },
	    { "RECOVERY", 25 }, { "FE_0_UOPS_CYCLES", 60 }, { "BR_MISP", 30 }, { "MACHINE_CLEARS", 10 },
	    { "MACRO_FUSED", 100 }, { "INST_RETIRED", 900 } },
	  { { "frontend_bound", .10 }, { "bad_speculation", .05 }, { "backend_bound", .55 }, { "retiring", .30 },
	    { "fetch_latency", .06 }, { "fetch_bandwidth", .04 }, { "branch_mispredicts", .0375 },
	    { "machine_clears", .0125 }, { "memory_bound", NA }, { "core_bound", NA },
	    { "heavy_operations", .10 }, { "light_operations", .20 } },
	  { "backend_bound" }, 0, "not counted: not in this vector" },
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static void fill(const struct pmc_td_tree *t, const struct kv *in, struct pmc_td_value *v)
{
	for (size_t i = 0; i < t->ninputs; i++)
		v[i] = (struct pmc_td_value){ .counted = false, .reason = "not in this vector" };
	for (size_t k = 0; in[k].id; k++) {
		int i = pmc_td_input_index(t, in[k].id);

		if (i < 0)
			fail_msg("%s has no input %s", t->name, in[k].id);
		v[i] = (struct pmc_td_value){ .counted = true, .value = in[k].v };
	}
}

static unsigned check_kinds(const struct pmc_td_result *r)
{
	unsigned k = 0;

	for (size_t i = 0; i < r->nchecks; i++)
		k |= 1u << r->check[i].kind;
	return k;
}

static void test_topdown_vectors_match_the_hand_worked_fractions(void **state)
{
	(void)state;
	for (size_t c = 0; c < N_CASES; c++) {
		const struct td_case *tc = &cases[c];
		const struct pmc_td_tree *t = pmc_td_tree_find(tc->tree);
		struct pmc_td_value v[PMC_TD_MAX_INPUTS];
		struct pmc_td_result r;
		size_t nvisible = 0, nexp = 0, nb = 0;

		if (!t)
			fail_msg("line %d: no tree %s", tc->line, tc->tree);
		fill(t, tc->in, v);
		assert_int_equal(pmc_td_eval(t, v, &r), 0);
		for (size_t i = 0; i < t->nnodes; i++)
			nvisible += t->nodes[i].level > 0;
		for (; tc->out[nexp].node; nexp++) {
			int i = pmc_td_node_index(t, tc->out[nexp].node);

			if (i < 0)
				fail_msg("line %d: no node %s", tc->line, tc->out[nexp].node);
			if (tc->out[nexp].v == NA) {
				if (r.node[i].ok)
					fail_msg("line %d: %s is %g, expected n/a", tc->line, tc->out[nexp].node, r.node[i].value);
				if (!r.node[i].reason[0] || (tc->na_reason && !strstr(r.node[i].reason, tc->na_reason)))
					fail_msg("line %d: %s: reason '%s' lacks '%s'", tc->line, tc->out[nexp].node,
						 r.node[i].reason, tc->na_reason);
				continue;
			}
			if (!r.node[i].ok)
				fail_msg("line %d: %s is n/a (%s)", tc->line, tc->out[nexp].node, r.node[i].reason);
			if (fabs(r.node[i].value - tc->out[nexp].v) > EPS)
				fail_msg("line %d: %s is %.12f, expected %.12f", tc->line, tc->out[nexp].node, r.node[i].value,
					 tc->out[nexp].v);
		}
		if (nexp != nvisible)
			fail_msg("line %d: %zu nodes expected, the tree has %zu", tc->line, nexp, nvisible);
		for (size_t i = 0; i < t->nnodes; i++) {
			if (!r.node[i].bottleneck)
				continue;
			if (nb >= 4 || !tc->bottleneck[nb] || strcmp(tc->bottleneck[nb], t->nodes[i].name))
				fail_msg("line %d: %s marked as bottleneck, expected %s", tc->line, t->nodes[i].name,
					 nb < 4 && tc->bottleneck[nb] ? tc->bottleneck[nb] : "(none)");
			nb++;
		}
		if (nb < 4 && tc->bottleneck[nb])
			fail_msg("line %d: %s not marked", tc->line, tc->bottleneck[nb]);
		if (check_kinds(&r) != tc->checks)
			fail_msg("line %d: checks 0x%x, expected 0x%x (first: %s)", tc->line, check_kinds(&r), tc->checks,
				 r.nchecks ? r.check[0].msg : "none");
	}
}

/* The nodes whose value (or availability) differs between two results. */
static unsigned long moved(const struct pmc_td_tree *t, const struct pmc_td_result *a, const struct pmc_td_result *b)
{
	unsigned long m = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].level > 0 &&
		    (a->node[i].ok != b->node[i].ok || fabs(a->node[i].raw - b->node[i].raw) > EPS))
			m |= 1ul << i;
	return m;
}

/*
 * The mutation guard: in every full vector, scaling any input by 1.1 moves at least one node, and only nodes that
 * become n/a when that input is not counted (a node may use an input and still not move: on SNB..CLX backend_bound
 * = 1 - (FE + BS + RET) uses RETIRE_SLOTS twice with opposite signs); so no formula term is dead, and every term is
 * pinned by a hand-worked value above (a changed term changes a value the vector table checks).
 */
static void test_topdown_every_input_moves_some_node_and_only_nodes_that_use_it(void **state)
{
	(void)state;
	for (size_t c = 0; c < N_CASES; c++) {
		const struct td_case *tc = &cases[c];
		const struct pmc_td_tree *t = pmc_td_tree_find(tc->tree);
		struct pmc_td_value v[PMC_TD_MAX_INPUTS], w[PMC_TD_MAX_INPUTS];
		struct pmc_td_result base, up, gone;

		if (!tc->full)
			continue;
		fill(t, tc->in, v);
		assert_int_equal(pmc_td_eval(t, v, &base), 0);
		for (size_t i = 0; i < t->ninputs; i++) {
			if (!v[i].counted)
				continue;
			memcpy(w, v, sizeof(v));
			w[i].value *= 1.1;
			assert_int_equal(pmc_td_eval(t, w, &up), 0);
			w[i] = (struct pmc_td_value){ .counted = false, .reason = "mutation guard" };
			assert_int_equal(pmc_td_eval(t, w, &gone), 0);
			if (!moved(t, &base, &up) && !(t->leader && !strcmp(t->leader, t->inputs[i].id)))
				fail_msg("line %d: %s: input %s moves no node (a dead term)", tc->line, t->name, t->inputs[i].id);
			if (moved(t, &base, &up) & ~moved(t, &base, &gone))
				fail_msg("line %d: %s: input %s moves nodes 0x%lx but removing it makes only 0x%lx n/a", tc->line,
					 t->name, t->inputs[i].id, moved(t, &base, &up), moved(t, &base, &gone));
			for (size_t n = 0; n < t->nnodes; n++)
				if (!gone.node[n].ok && base.node[n].ok && !strstr(gone.node[n].reason, t->inputs[i].id))
					fail_msg("line %d: %s n/a without naming %s: %s", tc->line, t->nodes[n].name,
						 t->inputs[i].id, gone.node[n].reason);
		}
	}
}

/* Every tree has a full vector above, and each counts every input its deepest level needs. */
static void test_topdown_every_tree_has_a_full_vector(void **state)
{
	(void)state;
	for (size_t k = 0; k < pmc_td_tree_count(); k++) {
		const struct pmc_td_tree *t = pmc_td_tree_at(k);
		bool needed[PMC_TD_MAX_INPUTS];
		bool found = false;

		assert_true(pmc_td_level_inputs(t, t->max_level, needed) > 0);
		for (size_t c = 0; c < N_CASES && !found; c++) {
			struct pmc_td_value v[PMC_TD_MAX_INPUTS];

			if (!cases[c].full || strcmp(cases[c].tree, t->name))
				continue;
			fill(t, cases[c].in, v);
			for (size_t i = 0; i < t->ninputs; i++)
				if (needed[i] && t->inputs[i].kind != PMC_TD_ABSENT && !v[i].counted)
					fail_msg("line %d: full vector of %s lacks %s", cases[c].line, t->name, t->inputs[i].id);
			found = true;
		}
		if (!found)
			fail_msg("tree %s has no full vector in the table", t->name);
	}
}

static void test_topdown_every_tree_definition_is_consistent(void **state)
{
	char err[256];

	(void)state;
	assert_true(pmc_td_tree_count() >= 15);
	for (size_t k = 0; k < pmc_td_tree_count(); k++) {
		const struct pmc_td_tree *t = pmc_td_tree_at(k);

		if (pmc_td_tree_validate(t, err, sizeof(err)))
			fail_msg("%s", err);
		assert_ptr_equal(pmc_td_tree_find(t->name), t);
	}
	assert_null(pmc_td_tree_find("no-such-tree"));
}

/* The inputs of one level: the events of its group (the five SNB..CLX events, Zen 4's six, ...). */
static void test_topdown_level_inputs_are_the_group_of_that_level(void **state)
{
	static const struct {
		int line;
		const char *tree;
		int level;
		int count;
		const char *ids[8]; /* some that must be in, NULL-terminated */
		const char *absent; /* one that must not be in, or NULL */
	} rows[] = {
		{ __LINE__, "intel-skl", 1, 5, { "CLK", "IDQ_NOT_DELIVERED", "UOPS_ISSUED", "RETIRE_SLOTS", "RECOVERY" }, "CLK_ANY" },
		{ __LINE__, "intel-skl-smt", 1, 5, { "CLK_ANY", "RECOVERY_ANY", "UOPS_ISSUED" }, "CLK" },
		{ __LINE__, "intel-skl", 2, 15, { "MACRO_FUSED", "INST_RETIRED", "PORTS_UTIL_2", "FE_0_UOPS_CYCLES" }, "RECOVERY_ANY" },
		{ __LINE__, "intel-icl", 1, 5, { "SLOTS", "TD_RETIRING", "TD_BE_BOUND" }, "UOP_DROPPING" },
		{ __LINE__, "intel-icl-tma", 1, 7, { "SLOTS", "UOP_DROPPING", "RECOVERY_C1E" }, NULL },
		{ __LINE__, "intel-spr", 1, 5, { "SLOTS" }, "TD_MEM_BOUND" },
		{ __LINE__, "intel-spr", 2, 9, { "SLOTS", "TD_MEM_BOUND", "TD_HEAVY_OPS" }, "UOP_DROPPING" },
		{ __LINE__, "intel-spr-tma", 2, 10, { "UOP_DROPPING" }, NULL },
		{ __LINE__, "intel-atom-grt", 1, 5, { "CLK", "TD_BAD" }, "TD_FE_LAT" },
		{ __LINE__, "amd-zen4", 1, 6, { "CYC", "NO_OPS_FE", "BE_STALLS", "SMT_CONTENTION", "OPS_DISPATCHED", "OPS_RETIRED" }, "BR_MISP" },
		{ __LINE__, "amd-zen5", 2, 12, { "UCODE_OPS", "NO_OPS_FE_ALL_CYCLES" }, NULL },
		{ __LINE__, "arm-neoverse", 1, 7, { "SLOTS_PER_CYCLE", "STALL_SLOT" }, NULL },
		{ __LINE__, "arm-cycles", 1, 3, { "STALL_FE", "STALL_BE", "CYC" }, NULL },
	};
	bool needed[PMC_TD_MAX_INPUTS];

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		const struct pmc_td_tree *t = pmc_td_tree_find(rows[r].tree);
		int n = pmc_td_level_inputs(t, rows[r].level, needed);

		if (n != rows[r].count)
			fail_msg("line %d: %d inputs, expected %d", rows[r].line, n, rows[r].count);
		for (size_t k = 0; k < 8 && rows[r].ids[k]; k++)
			if (!needed[pmc_td_input_index(t, rows[r].ids[k])])
				fail_msg("line %d: %s not needed", rows[r].line, rows[r].ids[k]);
		if (rows[r].absent && needed[pmc_td_input_index(t, rows[r].absent)])
			fail_msg("line %d: %s needed", rows[r].line, rows[r].absent);
	}
	assert_int_equal(pmc_td_level_inputs(pmc_td_tree_find("intel-icl"), 2, needed), -EINVAL);
	assert_int_equal(pmc_td_level_inputs(pmc_td_tree_find("intel-skl"), 0, needed), -EINVAL);
}

static void test_topdown_chooser_maps_pmu_names_to_trees_or_says_why_not(void **state)
{
	static const struct {
		int line;
		const char *vendor, *pmu;
		bool smt;
		const char *tree; /* NULL: none */
		const char *alt0;
		const char *reason;
	} rows[] = {
		{ __LINE__, "GenuineIntel", "snb", false, "intel-snb", "intel-snb-smt", "Sandy Bridge" },
		{ __LINE__, "GenuineIntel", "hsw_ep", true, "intel-snb-smt", "intel-snb", "Haswell" },
		{ __LINE__, "GenuineIntel", "skl", false, "intel-skl", "intel-skl-smt", "Skylake" },
		{ __LINE__, "GenuineIntel", "skx", true, "intel-skl-smt", "intel-skl", "Skylake" },
		{ __LINE__, "GenuineIntel", "clx", false, "intel-skl", "intel-skl-smt", "Cascade Lake" },
		{ __LINE__, "GenuineIntel", "icl", true, "intel-icl", "intel-icl-tma", "Icelake" },
		{ __LINE__, "GenuineIntel", "icx", false, "intel-icl", "intel-icl-tma", "Icelake" },
		{ __LINE__, "GenuineIntel", "spr", false, "intel-spr", "intel-spr-tma", "Sapphire Rapids" },
		{ __LINE__, "GenuineIntel", "adl_glc", false, "intel-spr", "intel-spr-tma", "Golden Cove" },
		{ __LINE__, "GenuineIntel", "adl_grt", false, "intel-atom-grt", NULL, "Gracemont" },
		{ __LINE__, "GenuineIntel", "nhm", false, NULL, NULL, "Nehalem" },
		{ __LINE__, "AuthenticAMD", "amd64_fam19h_zen4", true, "amd-zen4", NULL, "6 dispatch slots" },
		{ __LINE__, "AuthenticAMD", "amd64_fam1ah_zen5", false, "amd-zen5", NULL, "8 dispatch slots" },
		{ __LINE__, "AuthenticAMD", "amd64_fam19h_zen3", false, NULL, NULL, "Zen 3 has no per-slot" },
		{ __LINE__, "AuthenticAMD", "amd64_fam17h_zen2", false, NULL, NULL, "Zen 4" },
		{ __LINE__, "ARM", "arm_n1", false, "arm-neoverse", "arm-cycles", "N1" },
		{ __LINE__, "ARM", "arm_v1", false, "arm-neoverse", "arm-cycles", "V1" },
		{ __LINE__, "ARM", "arm_n2", false, "arm-neoverse-n2", "arm-cycles", "one frontend slot" },
		{ __LINE__, "ARM", "arm_v2", false, "arm-neoverse-n2", "arm-cycles", "V2" },
		{ __LINE__, "ARM", "arm_ac57", false, "arm-cycles", NULL, "no slot split" },
		{ __LINE__, "ARM", NULL, false, "arm-cycles", NULL, "unknown model" },
		{ __LINE__, "GenuineIntel", NULL, false, NULL, NULL, "unknown" },
		{ __LINE__, NULL, "ppc64_power9", false, NULL, NULL, "no top-down definition" },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmc_td_cpu cpu = { rows[r].vendor, rows[r].pmu, rows[r].smt, 0 };
		struct pmc_td_choice ch;

		pmc_td_choose(&cpu, &ch);
		if ((ch.tree ? ch.tree->name : NULL) != NULL || rows[r].tree) {
			if (!ch.tree || !rows[r].tree || strcmp(ch.tree->name, rows[r].tree))
				fail_msg("line %d: tree %s, expected %s", rows[r].line, ch.tree ? ch.tree->name : "(none)",
					 rows[r].tree ? rows[r].tree : "(none)");
		}
		if (rows[r].alt0 && (ch.nalt < 1 || strcmp(ch.alt[0]->name, rows[r].alt0)))
			fail_msg("line %d: first alternative %s, expected %s", rows[r].line,
				 ch.nalt ? ch.alt[0]->name : "(none)", rows[r].alt0);
		if (!rows[r].alt0 && ch.nalt)
			fail_msg("line %d: unexpected alternative %s", rows[r].line, ch.alt[0]->name);
		if (!ch.reason || !strstr(ch.reason, rows[r].reason))
			fail_msg("line %d: reason '%s' lacks '%s'", rows[r].line, ch.reason ? ch.reason : "", rows[r].reason);
	}
	/* Issue 33 item 7: no libpfm4 PMU (4.13 on Zen 5), the CPUID family still names the CPU */
	{
		struct pmc_td_cpu zen5 = { "AuthenticAMD", NULL, false, 0x1a }, zen3 = { "AuthenticAMD", NULL, false, 0x19 };
		struct pmc_td_choice ch;

		pmc_td_choose(&zen5, &ch);
		assert_non_null(ch.tree);
		assert_string_equal(ch.tree->name, "amd-zen5");
		assert_non_null(strstr(ch.reason, "family 0x1A (Zen 5)"));
		pmc_td_choose(&zen3, &ch);
		assert_null(ch.tree);
		assert_non_null(strstr(ch.reason, "unknown"));
	}
}

/* Crafted broken definitions: the validator names what is wrong, and evaluation refuses a cycle. */
static const struct pmc_td_input bad_in[] = {
	{ "A", PMC_TD_EVENT, "A_EVENT", NULL, NULL, NULL },
};
static const struct pmc_td_node bad_unknown[] = { { "x", NULL, 1, "NOPE / A", .5, "x" } };
static const struct pmc_td_node bad_cycle[] = { { "x", NULL, 1, "y", .5, "x" }, { "y", NULL, 1, "x", .5, "y" } };
static const struct pmc_td_node bad_level[] = { { "x", NULL, 1, "A", .5, "x" }, { "y", "x", 3, "A", .5, "y" } };
static const struct pmc_td_node bad_syntax[] = { { "x", NULL, 1, "A / (", .5, "x" } };
static const struct pmc_td_input bad_raw_in[] = {
	{ "A", PMC_TD_EVENT, NULL, NULL, "event=0x99", NULL },
};
static const struct pmc_td_node ok_nodes[] = { { "x", NULL, 1, "A", .5, "x" } };
static const char *const bad_anchors[] = { "A", "B", NULL };
#define NO_PLACE NULL, PMC_TD_LAYOUT_PLAIN, NULL /* no libpfm4 table, plain raw codes, no anchors of its own */

static void test_topdown_validator_names_broken_definitions(void **state)
{
	static const struct {
		int line;
		struct pmc_td_tree t;
		const char *msg;
	} rows[] = {
		{ __LINE__, { "u", "", "slots", 0, 2, bad_in, 1, bad_unknown, 1, "", NULL, NO_PLACE }, "uses NOPE" },
		{ __LINE__, { "c", "", "slots", 0, 2, bad_in, 1, bad_cycle, 2, "", NULL, NO_PLACE }, "depends on itself" },
		{ __LINE__, { "l", "", "slots", 0, 3, bad_in, 1, bad_level, 2, "", NULL, NO_PLACE }, "level 3" },
		{ __LINE__, { "s", "", "slots", 0, 1, bad_in, 1, bad_syntax, 1, "", NULL, NO_PLACE }, "node x" },
		{ __LINE__, { "r", "", "slots", 0, 1, bad_raw_in, 1, ok_nodes, 1, "", NULL, NO_PLACE }, "without provenance" },
		{ __LINE__, { "w", "", "slots", 0, 1, bad_in, 1, ok_nodes, 1, "", "B", NO_PLACE }, "leader B" },
		{ __LINE__, { "a", "", "slots", 0, 1, bad_in, 1, ok_nodes, 1, "", NULL, NULL, PMC_TD_LAYOUT_PLAIN, bad_anchors },
		  "anchor B" },
	};
	char err[256];

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		err[0] = 0;
		if (pmc_td_tree_validate(&rows[r].t, err, sizeof(err)) != -EINVAL || !strstr(err, rows[r].msg))
			fail_msg("line %d: '%s' lacks '%s'", rows[r].line, err, rows[r].msg);
	}
	{
		struct pmc_td_value v[1] = { { true, 1, NULL } };
		struct pmc_td_result res;

		assert_int_equal(pmc_td_eval(&rows[1].t, v, &res), -EINVAL);
		assert_int_equal(pmc_td_eval(&rows[3].t, v, &res), -EINVAL);
		assert_int_equal(pmc_td_eval(&rows[0].t, v, &res), -EINVAL);
		assert_int_equal(pmc_td_eval(NULL, v, &res), -EINVAL);
		assert_int_equal(pmc_td_eval(&rows[4].t, NULL, &res), -EINVAL);
		assert_int_equal(pmc_td_eval(&rows[4].t, v, NULL), -EINVAL);
	}
}

/* A negative or non-finite count is not a number to divide: the nodes that use it are n/a and say so. */
static void test_topdown_impossible_counts_are_na_with_the_reason(void **state)
{
	const struct pmc_td_tree *t = pmc_td_tree_find("arm-cycles");
	struct pmc_td_value v[3] = { { true, 1000, NULL }, { true, -5, NULL }, { true, NAN, NULL } };
	struct pmc_td_result r;

	(void)state;
	assert_int_equal(pmc_td_eval(t, v, &r), 0);
	assert_false(r.node[pmc_td_node_index(t, "frontend_stalls")].ok);
	assert_non_null(strstr(r.node[pmc_td_node_index(t, "frontend_stalls")].reason, "impossible value -5"));
	assert_false(r.node[pmc_td_node_index(t, "backend_stalls")].ok);
	assert_non_null(strstr(r.node[pmc_td_node_index(t, "backend_stalls")].reason, "STALL_BE"));
	assert_int_equal(r.nchecks, 0);
}

/* The check texts name the node and the numbers, and say the tree was not renormalised. */
static void test_topdown_check_messages_name_node_and_numbers(void **state)
{
	const struct pmc_td_tree *spr = pmc_td_tree_find("intel-spr"), *icl = pmc_td_tree_find("intel-icl-tma");
	struct pmc_td_value v[PMC_TD_MAX_INPUTS];
	struct pmc_td_result r;
	bool range = false, children = false;

	(void)state;
	fill(spr, cases[8].in, v); /* the clamped Sapphire Rapids row */
	assert_string_equal(cases[8].tree, "intel-spr");
	assert_int_equal(pmc_td_eval(spr, v, &r), 0);
	for (size_t i = 0; i < r.nchecks; i++) {
		if (r.check[i].kind == PMC_TD_CHECK_RANGE) {
			range = true;
			assert_non_null(strstr(r.check[i].msg, "core_bound came out at -5.00%"));
			assert_non_null(strstr(r.check[i].msg, "not renormalised"));
			assert_int_equal(r.check[i].node, pmc_td_node_index(spr, "core_bound"));
		} else if (r.check[i].kind == PMC_TD_CHECK_CHILDREN) {
			children = true;
			assert_non_null(strstr(r.check[i].msg, "children of backend_bound sum to 45.00%"));
		}
	}
	assert_true(range && children);
	assert_true(r.node[pmc_td_node_index(spr, "core_bound")].clamped);
	assert_true(fabs(r.node[pmc_td_node_index(spr, "core_bound")].raw + .05) < EPS);

	fill(icl, cases[6].in, v); /* the clamped Icelake TMA row */
	assert_string_equal(cases[6].tree, "intel-icl-tma");
	assert_int_equal(pmc_td_eval(icl, v, &r), 0);
	assert_int_equal(r.nchecks, 1);
	assert_non_null(strstr(r.check[0].msg, "level 1 sums to 107.00% of slots"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_topdown_every_tree_definition_is_consistent),
		cmocka_unit_test(test_topdown_vectors_match_the_hand_worked_fractions),
		cmocka_unit_test(test_topdown_every_input_moves_some_node_and_only_nodes_that_use_it),
		cmocka_unit_test(test_topdown_every_tree_has_a_full_vector),
		cmocka_unit_test(test_topdown_level_inputs_are_the_group_of_that_level),
		cmocka_unit_test(test_topdown_chooser_maps_pmu_names_to_trees_or_says_why_not),
		cmocka_unit_test(test_topdown_validator_names_broken_definitions),
		cmocka_unit_test(test_topdown_impossible_counts_are_na_with_the_reason),
		cmocka_unit_test(test_topdown_check_messages_name_node_and_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
