/* SPDX-License-Identifier: MIT */
/*
 * The top-down trees, as data. Formulas are written in pmctool's formula language (metrics/expr.h) over the input ids
 * of each tree, the name WIDTH (the tree's slots per cycle) and other nodes of the tree. Sources and the formulas in
 * words: doc/topdown.md. Thresholds are those of Intel's TMA tables where the node exists there; the AMD SMT node
 * and the Arm cycle-accounting nodes use pmctool's own choice (doc/topdown.md says which).
 */
#include "metrics/topdown.h"

#define N_ELEM(a) (sizeof(a) / sizeof((a)[0]))

/* An event input with libpfm4 and perf spellings; EVR adds a raw encoding and its provenance. */
#define EV(id, pfm, perf) { id, PMC_TD_EVENT, pfm, perf, NULL, NULL }
#define EVR(id, pfm, perf, raw, src) { id, PMC_TD_EVENT, pfm, perf, raw, src }
#define ABSENT(id, why) { id, PMC_TD_ABSENT, NULL, NULL, NULL, why }

/* ---------------------------------------------------------------------------------------------------------------- */
/* Intel Sandy Bridge .. Cascade Lake: 4 slots per cycle (Yasin, ISPASS 2014; Intel optimization manual, appendix on */
/* the top-down method; TMA tables for SNB..CLX).                                                                      */

#define INTEL_CORE_INPUTS \
	EV("CLK", "UNHALTED_CORE_CYCLES", "cpu_clk_unhalted.thread"), \
	EV("CLK_ANY", "CPU_CLK_UNHALTED:THREAD_P:t=1", "cpu_clk_unhalted.thread_any"), \
	EV("IDQ_NOT_DELIVERED", "IDQ_UOPS_NOT_DELIVERED:CORE", "idq_uops_not_delivered.core"), \
	EV("UOPS_ISSUED", "UOPS_ISSUED:ANY", "uops_issued.any"), \
	EV("RETIRE_SLOTS", "UOPS_RETIRED:RETIRE_SLOTS", "uops_retired.retire_slots"), \
	EV("RECOVERY", "INT_MISC:RECOVERY_CYCLES", "int_misc.recovery_cycles"), \
	EV("RECOVERY_ANY", "INT_MISC:RECOVERY_CYCLES:t=1", "int_misc.recovery_cycles_any"), \
	EV("FE_0_UOPS_CYCLES", "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", \
	   "idq_uops_not_delivered.cycles_0_uops_deliv.core"), \
	EV("BR_MISP", "BR_MISP_RETIRED:ALL_BRANCHES", "br_misp_retired.all_branches"), \
	EV("MACHINE_CLEARS", "MACHINE_CLEARS:COUNT", "machine_clears.count")

/* Skylake..Cascade Lake count heavy operations as retired uops beyond one per instruction (a macro-fused pair is one
 * instruction of two uops retired as one); libpfm4 4.13 has no UOPS_RETIRED:MACRO_FUSED, hence the raw code. */
static const struct pmc_td_input in_intel_skl[] = {
	INTEL_CORE_INPUTS,
	EVR("MACRO_FUSED", NULL, "uops_retired.macro_fused", "event=0xc2,umask=0x04",
	    "Intel perfmon event list for Skylake..Cascade Lake: UOPS_RETIRED.MACRO_FUSED, event 0xC2 umask 0x04"),
	EV("INST_RETIRED", "INSTRUCTIONS_RETIRED", "inst_retired.any"),
	EV("STALLS_MEM_ANY", "CYCLE_ACTIVITY:STALLS_MEM_ANY", "cycle_activity.stalls_mem_any"),
	EV("STALLS_TOTAL", "CYCLE_ACTIVITY:STALLS_TOTAL", "cycle_activity.stalls_total"),
	EV("BOUND_ON_STORES", "EXE_ACTIVITY:BOUND_ON_STORES", "exe_activity.bound_on_stores"),
	EV("PORTS_UTIL_1", "EXE_ACTIVITY:1_PORTS_UTIL", "exe_activity.1_ports_util"),
	EV("PORTS_UTIL_2", "EXE_ACTIVITY:2_PORTS_UTIL", "exe_activity.2_ports_util"),
};

#define SNB_NO_EXE "Sandy Bridge..Broadwell have no EXE_ACTIVITY/STALLS_MEM_ANY events; their memory/core split is not defined in pmctool"
static const struct pmc_td_input in_intel_snb[] = {
	INTEL_CORE_INPUTS,
	EV("MS_UOPS", "IDQ:MS_UOPS", "idq.ms_uops"),
	ABSENT("STALLS_MEM_ANY", SNB_NO_EXE),
	ABSENT("STALLS_TOTAL", SNB_NO_EXE),
	ABSENT("BOUND_ON_STORES", SNB_NO_EXE),
	ABSENT("PORTS_UTIL_1", SNB_NO_EXE),
	ABSENT("PORTS_UTIL_2", SNB_NO_EXE),
};

/* Level 1 and 2 shared by the per-thread and the per-core (SMT) forms; they differ in the helpers. */
#define INTEL_CORE_NODES(heavy, heavy_explain) \
	{ "frontend_bound", NULL, 1, "IDQ_NOT_DELIVERED / slots", 0.15, \
	  "slots the frontend left empty while the backend could take uops" }, \
	{ "bad_speculation", NULL, 1, "(UOPS_ISSUED - RETIRE_SLOTS + WIDTH * recovery_cycles) / slots", 0.15, \
	  "slots spent on uops that never retired and on recovering from mispredicts and clears" }, \
	{ "backend_bound", NULL, 1, "1 - (frontend_bound + bad_speculation + retiring)", 0.20, \
	  "slots without a uop because the backend could not accept one (memory or execution)" }, \
	{ "retiring", NULL, 1, "RETIRE_SLOTS / slots", 0.70, "slots that retired a uop: useful work" }, \
	{ "fetch_latency", "frontend_bound", 2, "WIDTH * FE_0_UOPS_CYCLES / slots", 0.10, \
	  "cycles the frontend delivered nothing (i-cache, iTLB, resteers)" }, \
	{ "fetch_bandwidth", "frontend_bound", 2, "frontend_bound - fetch_latency", 0.10, \
	  "the frontend delivered some uops but fewer than the width (decoders, DSB)" }, \
	{ "branch_mispredicts", "bad_speculation", 2, "BR_MISP / (BR_MISP + MACHINE_CLEARS) * bad_speculation", 0.10, \
	  "bad speculation due to mispredicted branches" }, \
	{ "machine_clears", "bad_speculation", 2, "bad_speculation - branch_mispredicts", 0.10, \
	  "bad speculation due to machine clears (memory ordering, self-modifying code)" }, \
	{ "memory_bound", "backend_bound", 2, \
	  "(STALLS_MEM_ANY + BOUND_ON_STORES) / (STALLS_TOTAL + PORTS_UTIL_1 + retiring * PORTS_UTIL_2 + BOUND_ON_STORES) * backend_bound", \
	  0.20, "backend stalls waiting on loads and stores (caches, DRAM)" }, \
	{ "core_bound", "backend_bound", 2, "backend_bound - memory_bound", 0.10, \
	  "backend stalls on execution resources: ports, dividers, dependencies" }, \
	{ "heavy_operations", "retiring", 2, heavy, 0.10, heavy_explain }, \
	{ "light_operations", "retiring", 2, "retiring - heavy_operations", 0.60, \
	  "retired uops of ordinary instructions" }

/* Heavy operations: Sandy Bridge..Broadwell's TMA counts the microcode sequencer's retired uops; Skylake..Cascade
 * Lake's every retired uop beyond one per instruction (instructions of several uops, microcode included). */
#define SNB_HEAVY "RETIRE_SLOTS / UOPS_ISSUED * MS_UOPS / slots", "retired uops from the microcode sequencer"
#define SKL_HEAVY "(RETIRE_SLOTS + MACRO_FUSED - INST_RETIRED) / slots", \
	"retired uops beyond one per instruction: instructions of several uops, microcode included"

#define CORE_NODES(...) INTEL_CORE_NODES(__VA_ARGS__) /* expands SNB_HEAVY / SKL_HEAVY into two arguments */
#define THREAD_HELPERS \
	{ "slots", NULL, 0, "WIDTH * CLK", 0, "issue slots of this logical CPU" }, \
	{ "recovery_cycles", NULL, 0, "RECOVERY", 0, "cycles the allocator waited for recovery" }

/* With SMT on: core slots are WIDTH x core clocks, THREAD_ANY counting either thread; the counts are the core's. */
#define CORE_HELPERS \
	{ "slots", NULL, 0, "WIDTH * CLK_ANY / 2", 0, "issue slots of the physical core" }, \
	{ "recovery_cycles", NULL, 0, "RECOVERY_ANY / 2", 0, "core cycles the allocator waited for recovery" }

static const struct pmc_td_node nodes_snb_thread[] = { THREAD_HELPERS, CORE_NODES(SNB_HEAVY) };
static const struct pmc_td_node nodes_snb_core[] = { CORE_HELPERS, CORE_NODES(SNB_HEAVY) };
static const struct pmc_td_node nodes_skl_thread[] = { THREAD_HELPERS, CORE_NODES(SKL_HEAVY) };
static const struct pmc_td_node nodes_skl_core[] = { CORE_HELPERS, CORE_NODES(SKL_HEAVY) };

#define SMT_NOTE "SMT form: feed the sums of both sibling threads' counts (-a --per-core, or both threads of the core); " \
	"CLK_ANY and RECOVERY_ANY count for the core, hence the halving"

static const struct pmc_td_tree t_intel_snb = {
	"intel-snb", "Intel Sandy Bridge..Broadwell, per logical CPU", "slots", 4, 2,
	in_intel_snb, N_ELEM(in_intel_snb), nodes_snb_thread, N_ELEM(nodes_snb_thread),
	"per-thread form: with SMT on this is not the core's answer (use intel-snb-smt)", NULL,
	"snb", PMC_TD_LAYOUT_X86 };
static const struct pmc_td_tree t_intel_snb_smt = {
	"intel-snb-smt", "Intel Sandy Bridge..Broadwell, per core (SMT on)", "slots", 4, 2,
	in_intel_snb, N_ELEM(in_intel_snb), nodes_snb_core, N_ELEM(nodes_snb_core), SMT_NOTE, NULL,
	"snb", PMC_TD_LAYOUT_X86 };
static const struct pmc_td_tree t_intel_skl = {
	"intel-skl", "Intel Skylake..Cascade Lake, per logical CPU", "slots", 4, 2,
	in_intel_skl, N_ELEM(in_intel_skl), nodes_skl_thread, N_ELEM(nodes_skl_thread),
	"per-thread form: with SMT on this is not the core's answer (use intel-skl-smt)", NULL,
	"skl", PMC_TD_LAYOUT_X86 };
static const struct pmc_td_tree t_intel_skl_smt = {
	"intel-skl-smt", "Intel Skylake..Cascade Lake, per core (SMT on)", "slots", 4, 2,
	in_intel_skl, N_ELEM(in_intel_skl), nodes_skl_core, N_ELEM(nodes_skl_core), SMT_NOTE, NULL,
	"skl", PMC_TD_LAYOUT_X86 };

/* ---------------------------------------------------------------------------------------------------------------- */
/* Intel Icelake and later P-cores: the SLOTS fixed counter and the PERF_METRICS fields, read by the kernel as       */
/* slots-scaled values (kernel arch/x86/events/intel/core.c encodings: slots event=0x00,umask=0x4; metrics 0x80..).  */

#define PM_SRC "Linux perf_event pseudo-encoding of a PERF_METRICS field (arch/x86/events/intel/core.c)"
#define PERF_METRICS_L1_INPUTS \
	EVR("SLOTS", "TOPDOWN:SLOTS", "slots", "event=0x00,umask=0x4", "Linux perf_event: fixed counter 3, TOPDOWN.SLOTS"), \
	EVR("TD_RETIRING", NULL, "topdown-retiring", "event=0x00,umask=0x80", PM_SRC), \
	EVR("TD_BAD_SPEC", NULL, "topdown-bad-spec", "event=0x00,umask=0x81", PM_SRC), \
	EVR("TD_FE_BOUND", NULL, "topdown-fe-bound", "event=0x00,umask=0x82", PM_SRC), \
	EVR("TD_BE_BOUND", NULL, "topdown-be-bound", "event=0x00,umask=0x83", PM_SRC), \
	EV("UOP_DROPPING", "INT_MISC:UOP_DROPPING", "int_misc.uop_dropping")

static const struct pmc_td_input in_intel_icl[] = {
	PERF_METRICS_L1_INPUTS,
	EV("RECOVERY_C1E", "INT_MISC:RECOVERY_CYCLES:c=1:e=1", "int_misc.recovery_cycles:c1:e"),
};

static const struct pmc_td_input in_intel_spr[] = {
	PERF_METRICS_L1_INPUTS,
	EVR("TD_HEAVY_OPS", NULL, "topdown-heavy-ops", "event=0x00,umask=0x84", PM_SRC),
	EVR("TD_BR_MISPREDICT", NULL, "topdown-br-mispredict", "event=0x00,umask=0x85", PM_SRC),
	EVR("TD_FETCH_LAT", NULL, "topdown-fetch-lat", "event=0x00,umask=0x86", PM_SRC),
	EVR("TD_MEM_BOUND", NULL, "topdown-mem-bound", "event=0x00,umask=0x87", PM_SRC),
};

#define PM_SUM { "metrics_sum", NULL, 0, "TD_RETIRING + TD_BAD_SPEC + TD_FE_BOUND + TD_BE_BOUND", 0, \
	"the four level-1 fields together (slots-scaled)" }
#define EX_FE "slots the frontend left empty while the backend could take uops"
#define EX_BS "slots spent on uops that never retired and on recovery"
#define EX_BE "slots without a uop because the backend could not accept one"
#define EX_RET "slots that retired a uop: useful work"

/* The raw shares, what perf --topdown prints: each field over the sum of the four. */
#define PM_RAW_L1 \
	{ "frontend_bound", NULL, 1, "TD_FE_BOUND / metrics_sum", 0.15, EX_FE }, \
	{ "bad_speculation", NULL, 1, "TD_BAD_SPEC / metrics_sum", 0.15, EX_BS }, \
	{ "backend_bound", NULL, 1, "TD_BE_BOUND / metrics_sum", 0.20, EX_BE }, \
	{ "retiring", NULL, 1, "TD_RETIRING / metrics_sum", 0.70, EX_RET }

#define PM_L2(fl_minus, clamp_open, clamp_close) \
	{ "fetch_latency", "frontend_bound", 2, "TD_FETCH_LAT / metrics_sum" fl_minus, 0.10, \
	  "cycles the frontend delivered nothing (i-cache, iTLB, resteers)" }, \
	{ "fetch_bandwidth", "frontend_bound", 2, clamp_open "frontend_bound - fetch_latency" clamp_close, 0.10, \
	  "the frontend delivered fewer uops than the width" }, \
	{ "branch_mispredicts", "bad_speculation", 2, "TD_BR_MISPREDICT / metrics_sum", 0.10, \
	  "bad speculation due to mispredicted branches" }, \
	{ "machine_clears", "bad_speculation", 2, clamp_open "bad_speculation - branch_mispredicts" clamp_close, 0.10, \
	  "bad speculation due to machine clears" }, \
	{ "memory_bound", "backend_bound", 2, "TD_MEM_BOUND / metrics_sum", 0.20, \
	  "backend stalls waiting on loads and stores" }, \
	{ "core_bound", "backend_bound", 2, clamp_open "backend_bound - memory_bound" clamp_close, 0.10, \
	  "backend stalls on execution resources" }, \
	{ "heavy_operations", "retiring", 2, "TD_HEAVY_OPS / metrics_sum", 0.10, \
	  "retired uops of instructions that need more than one uop or microcode" }, \
	{ "light_operations", "retiring", 2, clamp_open "retiring - heavy_operations" clamp_close, 0.60, \
	  "retired uops of single-uop instructions" }

/*
 * The corrected level 1 of Intel's TMA tables (what perf's -M TopdownL1 prints): frontend minus the uops the
 * frontend dropped, on Icelake backend plus 5 slots per recovery episode, bad speculation as the clamped rest.
 */
#define TMA_L1(be_extra) \
	{ "frontend_bound", NULL, 1, "TD_FE_BOUND / metrics_sum - UOP_DROPPING / SLOTS", 0.15, EX_FE }, \
	{ "bad_speculation", NULL, 1, "max(1 - (frontend_bound + backend_bound + retiring), 0)", 0.15, EX_BS }, \
	{ "backend_bound", NULL, 1, "TD_BE_BOUND / metrics_sum" be_extra, 0.20, EX_BE }, \
	{ "retiring", NULL, 1, "TD_RETIRING / metrics_sum", 0.70, EX_RET }

static const struct pmc_td_node nodes_icl_raw[] = { PM_SUM, PM_RAW_L1 };
static const struct pmc_td_node nodes_icl_tma[] = { PM_SUM, TMA_L1(" + 5 * RECOVERY_C1E / SLOTS") };
static const struct pmc_td_node nodes_spr_raw[] = { PM_SUM, PM_RAW_L1, PM_L2("", "", "") };
static const struct pmc_td_node nodes_spr_tma[] = {
	PM_SUM, TMA_L1(""), PM_L2(" - UOP_DROPPING / SLOTS", "max(", ", 0)"),
};

#define PM_NOTE "group: slots leads, the topdown-* fields follow (older kernels: nothing else in the group); "
static const struct pmc_td_tree t_intel_icl = {
	"intel-icl", "Intel Icelake/Tiger Lake P-core, PERF_METRICS raw shares (perf --topdown)", "slots", 0, 1,
	in_intel_icl, N_ELEM(in_intel_icl), nodes_icl_raw, N_ELEM(nodes_icl_raw),
	PM_NOTE "no level 2 fields before Sapphire Rapids", "SLOTS",
	"icl", PMC_TD_LAYOUT_X86 };
static const struct pmc_td_tree t_intel_icl_tma = {
	"intel-icl-tma", "Intel Icelake/Tiger Lake P-core, corrected TMA level 1 (perf -M TopdownL1)", "slots", 0, 1,
	in_intel_icl, N_ELEM(in_intel_icl), nodes_icl_tma, N_ELEM(nodes_icl_tma),
	PM_NOTE "UOP_DROPPING and RECOVERY_C1E belong in the same run; bad speculation is clamped at 0, so the "
	"tree may exceed 100% (a warning, never renormalised)", "SLOTS",
	"icl", PMC_TD_LAYOUT_X86 };
static const struct pmc_td_tree t_intel_spr = {
	"intel-spr", "Intel Sapphire Rapids/Golden Cove and later P-core, PERF_METRICS raw shares", "slots", 0, 2,
	in_intel_spr, N_ELEM(in_intel_spr), nodes_spr_raw, N_ELEM(nodes_spr_raw), PM_NOTE "level 2 from the four extra fields", "SLOTS",
	"spr", PMC_TD_LAYOUT_X86 };
static const struct pmc_td_tree t_intel_spr_tma = {
	"intel-spr-tma", "Intel Sapphire Rapids/Golden Cove and later P-core, corrected TMA", "slots", 0, 2,
	in_intel_spr, N_ELEM(in_intel_spr), nodes_spr_tma, N_ELEM(nodes_spr_tma),
	PM_NOTE "UOP_DROPPING belongs in the same run; clamped nodes are warned about, never renormalised", "SLOTS",
	"spr", PMC_TD_LAYOUT_X86 };

/* ---------------------------------------------------------------------------------------------------------------- */
/* Intel Atom E-cores (Gracemont 5 wide, Crestmont 6 wide): TOPDOWN_* events on programmable counters.               */

static const struct pmc_td_input in_intel_atom[] = {
	EV("CLK", "CPU_CLK_UNHALTED:CORE", "cpu_clk_unhalted.core"),
	EV("TD_FE", "TOPDOWN_FE_BOUND:ALL", "topdown_fe_bound.all"),
	EV("TD_BAD", "TOPDOWN_BAD_SPECULATION:ALL", "topdown_bad_speculation.all"),
	EV("TD_BE", "TOPDOWN_BE_BOUND:ALL", "topdown_be_bound.all"),
	EV("TD_RET", "TOPDOWN_RETIRING:ALL", "topdown_retiring.all"),
	EV("TD_FE_LAT", "TOPDOWN_FE_BOUND:FRONTEND_LATENCY", "topdown_fe_bound.frontend_latency"),
	EV("TD_FE_BW", "TOPDOWN_FE_BOUND:FRONTEND_BANDWIDTH", "topdown_fe_bound.frontend_bandwidth"),
	EV("TD_BAD_MISP", "TOPDOWN_BAD_SPECULATION:MISPREDICT", "topdown_bad_speculation.mispredict"),
	EV("TD_BAD_MC", "TOPDOWN_BAD_SPECULATION:MACHINE_CLEARS", "topdown_bad_speculation.machine_clears"),
};

static const struct pmc_td_node nodes_intel_atom[] = {
	{ "slots", NULL, 0, "WIDTH * CLK", 0, "allocation slots of the E-core" },
	{ "frontend_bound", NULL, 1, "TD_FE / slots", 0.15, EX_FE },
	{ "bad_speculation", NULL, 1, "TD_BAD / slots", 0.15, EX_BS },
	{ "backend_bound", NULL, 1, "TD_BE / slots", 0.20, EX_BE },
	{ "retiring", NULL, 1, "TD_RET / slots", 0.70, EX_RET },
	{ "fetch_latency", "frontend_bound", 2, "TD_FE_LAT / slots", 0.10, "the frontend delivered nothing" },
	{ "fetch_bandwidth", "frontend_bound", 2, "TD_FE_BW / slots", 0.10, "the frontend delivered fewer than the width" },
	{ "branch_mispredicts", "bad_speculation", 2, "TD_BAD_MISP / slots", 0.10, "mispredicted branches" },
	{ "machine_clears", "bad_speculation", 2, "TD_BAD_MC / slots", 0.10, "machine clears" },
};

#define ATOM_NOTE "E-core (cpu_atom): no PERF_METRICS; the nine events are counted on programmable counters; " \
	"the backend's level 2 is not defined in pmctool"
static const struct pmc_td_tree t_intel_grt = {
	"intel-atom-grt", "Intel Gracemont E-core (Alder/Raptor Lake cpu_atom), 5 wide", "slots", 5, 2,
	in_intel_atom, N_ELEM(in_intel_atom), nodes_intel_atom, N_ELEM(nodes_intel_atom), ATOM_NOTE, NULL,
	"adl_grt", PMC_TD_LAYOUT_X86 };
static const struct pmc_td_tree t_intel_cmt = {
	"intel-atom-cmt", "Intel Crestmont E-core (Sierra Forest, Meteor Lake cpu_atom), 6 wide", "slots", 6, 2,
	in_intel_atom, N_ELEM(in_intel_atom), nodes_intel_atom, N_ELEM(nodes_intel_atom), ATOM_NOTE, NULL,
	NULL, PMC_TD_LAYOUT_X86 };

/* ---------------------------------------------------------------------------------------------------------------- */
/* AMD Zen 4 (6 dispatch slots) and Zen 5 (8): pipeline utilization (AMD PPR for family 19h models 10h+, family 1Ah). */

#define PPR "AMD PPR (Processor Programming Reference) for family 19h model 11h / family 1Ah, core PMC "
/* libpfm4 4.13 spells the Zen 4 events its own way (DISPATCH_STALLS_1, CYCLES_NO_RETIRE); perf uses the PPR's names. */
#define ZEN_INPUTS(cmask) \
	EVR("CYC", "CYCLES_NOT_IN_HALT", "ls_not_halted_cyc", "event=0x76", PPR "PMCx076"), \
	EVR("NO_OPS_FE", "DISPATCH_STALLS_1:FE_NO_OPS", "de_no_dispatch_per_slot.no_ops_from_frontend", \
	    "event=0x1a0,umask=0x01", PPR "PMCx1A0"), \
	EVR("BE_STALLS", "DISPATCH_STALLS_1:BE_STALLS", "de_no_dispatch_per_slot.backend_stalls", \
	    "event=0x1a0,umask=0x1e", PPR "PMCx1A0"), \
	EVR("SMT_CONTENTION", "DISPATCH_STALLS_1:SMT_CONTENTION", "de_no_dispatch_per_slot.smt_contention", \
	    "event=0x1a0,umask=0x60", PPR "PMCx1A0"), \
	EVR("OPS_DISPATCHED", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER", "de_src_op_disp.all", \
	    "event=0xaa,umask=0x07", PPR "PMCx0AA"), \
	EVR("OPS_RETIRED", "RETIRED_OPS", "ex_ret_ops", "event=0xc1", PPR "PMCx0C1"), \
	EVR("NO_OPS_FE_ALL_CYCLES", "DISPATCH_STALLS_1:FE_NO_OPS:c=" #cmask, \
	    "de_no_dispatch_per_slot.no_ops_from_frontend:cmask=" #cmask, "event=0x1a0,umask=0x01,cmask=" #cmask, \
	    PPR "PMCx1A0 with the counter mask at the dispatch width"), \
	EVR("BR_MISP", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "ex_ret_brn_misp", "event=0xc3", PPR "PMCx0C3"), \
	EVR("RESYNCS", "RESYNCS", "resyncs_or_nc_redirects", "event=0x96", PPR "PMCx096"), \
	EVR("LOAD_NOT_COMPLETE", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD", "ex_no_retire.load_not_complete", \
	    "event=0xd6,umask=0xa2", PPR "PMCx0D6"), \
	EVR("NOT_COMPLETE", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU", "ex_no_retire.not_complete", \
	    "event=0xd6,umask=0x02", PPR "PMCx0D6"), \
	EVR("UCODE_OPS", "RETIRED_UCODE_OPS", "ex_ret_ucode_ops", "event=0x1c2", PPR "PMCx1C2")

/* Level 2 reruns level 1's clock and retired ops in each of its batches (level 1 takes all six counters). */
static const char *const zen_anchors[] = { "CYC", "OPS_RETIRED", NULL };

static const struct pmc_td_input in_amd_zen4[] = { ZEN_INPUTS(6) };
static const struct pmc_td_input in_amd_zen5[] = { ZEN_INPUTS(8) };

static const struct pmc_td_node nodes_amd_zen[] = {
	{ "slots", NULL, 0, "WIDTH * CYC", 0, "dispatch slots of the thread" },
	{ "frontend_bound", NULL, 1, "NO_OPS_FE / slots", 0.15, "dispatch slots left empty by the frontend" },
	{ "bad_speculation", NULL, 1, "(OPS_DISPATCHED - OPS_RETIRED) / slots", 0.15, "slots of ops dispatched but never retired" },
	{ "backend_bound", NULL, 1, "BE_STALLS / slots", 0.20, "slots the backend could not accept an op" },
	{ "smt_contention", NULL, 1, "SMT_CONTENTION / slots", 0.10, "slots the sibling thread was given" },
	{ "retiring", NULL, 1, "OPS_RETIRED / slots", 0.70, EX_RET },
	{ "fetch_latency", "frontend_bound", 2, "WIDTH * NO_OPS_FE_ALL_CYCLES / slots", 0.10,
	  "cycles the frontend supplied no op at all" },
	{ "fetch_bandwidth", "frontend_bound", 2, "frontend_bound - fetch_latency", 0.10,
	  "cycles the frontend supplied fewer ops than the width" },
	{ "branch_mispredicts", "bad_speculation", 2, "BR_MISP / (BR_MISP + RESYNCS) * bad_speculation", 0.10,
	  "bad speculation due to mispredicted branches" },
	{ "pipeline_restarts", "bad_speculation", 2, "RESYNCS / (BR_MISP + RESYNCS) * bad_speculation", 0.10,
	  "bad speculation due to resyncs and non-cacheable redirects" },
	{ "memory_bound", "backend_bound", 2, "LOAD_NOT_COMPLETE / NOT_COMPLETE * backend_bound", 0.20,
	  "backend stalls with the oldest op a load not yet complete" },
	{ "cpu_bound", "backend_bound", 2, "(1 - LOAD_NOT_COMPLETE / NOT_COMPLETE) * backend_bound", 0.10,
	  "backend stalls on anything but loads" },
	{ "fastpath", "retiring", 2, "(1 - UCODE_OPS / OPS_RETIRED) * retiring", 0.60, "retired ops from the fast path" },
	{ "microcode", "retiring", 2, "UCODE_OPS / OPS_RETIRED * retiring", 0.10, "retired ops from microcode" },
};

#define ZEN_NOTE "level 1 takes six counters (all of a Zen 4 core's): one group; level 2 reruns with anchors; " \
	"per thread, SMT contention is the sibling's share"
static const struct pmc_td_tree t_amd_zen4 = {
	"amd-zen4", "AMD Zen 4 pipeline utilization, 6 dispatch slots", "slots", 6, 2,
	in_amd_zen4, N_ELEM(in_amd_zen4), nodes_amd_zen, N_ELEM(nodes_amd_zen), ZEN_NOTE, NULL,
	"amd64_fam19h_zen4", PMC_TD_LAYOUT_X86, zen_anchors };
static const struct pmc_td_tree t_amd_zen5 = {
	"amd-zen5", "AMD Zen 5 pipeline utilization, 8 dispatch slots", "slots", 8, 2,
	in_amd_zen5, N_ELEM(in_amd_zen5), nodes_amd_zen, N_ELEM(nodes_amd_zen),
	ZEN_NOTE "; libpfm4 4.13 does not know Zen 5: the raw encodings are the PPR's", NULL,
	NULL, PMC_TD_LAYOUT_X86, zen_anchors };

/* ---------------------------------------------------------------------------------------------------------------- */
/* Arm Neoverse: Arm's Neoverse top-down methodology guides; PMUv3 common event numbers (Arm ARM, D-profile,         */
/* "Common event numbers"). Slots per cycle come from the PMU's sysfs caps/slots.                                      */

#define ARM_ARM "Arm Architecture Reference Manual, PMUv3 common event "
static const struct pmc_td_input in_arm_neoverse[] = {
	EVR("CYC", "CPU_CYCLES", "cpu_cycles", "event=0x11", ARM_ARM "0x0011 CPU_CYCLES"),
	{ "SLOTS_PER_CYCLE", PMC_TD_PROPERTY, NULL, NULL, NULL, "sysfs: bus/event_source/devices/<core PMU>/caps/slots" },
	EVR("STALL_SLOT_FE", "STALL_SLOT_FRONTEND", "stall_slot_frontend", "event=0x3e", ARM_ARM "0x003E STALL_SLOT_FRONTEND"),
	EVR("STALL_SLOT_BE", "STALL_SLOT_BACKEND", "stall_slot_backend", "event=0x3d", ARM_ARM "0x003D STALL_SLOT_BACKEND"),
	EVR("STALL_SLOT", "STALL_SLOT", "stall_slot", "event=0x3f", ARM_ARM "0x003F STALL_SLOT"),
	EVR("OP_RETIRED", "OP_RETIRED", "op_retired", "event=0x3a", ARM_ARM "0x003A OP_RETIRED"),
	EVR("OP_SPEC", "OP_SPEC", "op_spec", "event=0x3b", ARM_ARM "0x003B OP_SPEC"),
};

static const struct pmc_td_node nodes_arm_neoverse[] = {
	{ "slots", NULL, 0, "SLOTS_PER_CYCLE * CYC", 0, "rename slots" },
	{ "frontend_bound", NULL, 1, "STALL_SLOT_FE / slots", 0.15, "slots stalled with no operation from the frontend" },
	{ "bad_speculation", NULL, 1, "(1 - OP_RETIRED / OP_SPEC) * (1 - STALL_SLOT / slots)", 0.15,
	  "issued slots whose operations were speculated and discarded" },
	{ "backend_bound", NULL, 1, "STALL_SLOT_BE / slots", 0.20, "slots stalled because the backend was full" },
	{ "retiring", NULL, 1, "OP_RETIRED / OP_SPEC * (1 - STALL_SLOT / slots)", 0.70, "issued slots whose operations retired" },
};

/* N2 and V2: STALL_SLOT_FRONTEND (and so STALL_SLOT) counts one extra slot per cycle (Arm's errata notes). */
static const struct pmc_td_node nodes_arm_n2[] = {
	{ "slots", NULL, 0, "SLOTS_PER_CYCLE * CYC", 0, "rename slots" },
	{ "frontend_bound", NULL, 1, "(STALL_SLOT_FE - CYC) / slots", 0.15, "slots stalled with no operation from the frontend" },
	{ "bad_speculation", NULL, 1, "(1 - OP_RETIRED / OP_SPEC) * (1 - (STALL_SLOT - CYC) / slots)", 0.15,
	  "issued slots whose operations were speculated and discarded" },
	{ "backend_bound", NULL, 1, "STALL_SLOT_BE / slots", 0.20, "slots stalled because the backend was full" },
	{ "retiring", NULL, 1, "OP_RETIRED / OP_SPEC * (1 - (STALL_SLOT - CYC) / slots)", 0.70,
	  "issued slots whose operations retired" },
};

#define ARM_NOTE "slots per cycle from the core PMU's caps/slots (an input, n/a when the file is absent); " \
	"Arm's stage 2 is effect groups, not a strict tree: level 1 only"
static const struct pmc_td_tree t_arm_neoverse = {
	"arm-neoverse", "Arm Neoverse N1/V1 top-down (stage 1)", "slots", 0, 1,
	in_arm_neoverse, N_ELEM(in_arm_neoverse), nodes_arm_neoverse, N_ELEM(nodes_arm_neoverse), ARM_NOTE, NULL,
	"arm_n1", PMC_TD_LAYOUT_PLAIN };
static const struct pmc_td_tree t_arm_n2 = {
	"arm-neoverse-n2", "Arm Neoverse N2/V2 top-down (stage 1, one frontend slot per cycle removed)", "slots", 0, 1,
	in_arm_neoverse, N_ELEM(in_arm_neoverse), nodes_arm_n2, N_ELEM(nodes_arm_n2), ARM_NOTE, NULL,
	"arm_n2", PMC_TD_LAYOUT_PLAIN };

static const struct pmc_td_input in_arm_cycles[] = {
	EVR("CYC", "CPU_CYCLES", "cpu_cycles", "event=0x11", ARM_ARM "0x0011 CPU_CYCLES"),
	EVR("STALL_FE", "STALL_FRONTEND", "stall_frontend", "event=0x23", ARM_ARM "0x0023 STALL_FRONTEND"),
	EVR("STALL_BE", "STALL_BACKEND", "stall_backend", "event=0x24", ARM_ARM "0x0024 STALL_BACKEND"),
};

static const struct pmc_td_node nodes_arm_cycles[] = {
	{ "frontend_stalls", NULL, 1, "STALL_FE / CYC", 0.15, "cycles nothing issued: the frontend had no operation" },
	{ "backend_stalls", NULL, 1, "STALL_BE / CYC", 0.20, "cycles nothing issued: the backend could not accept one" },
	{ "issuing", NULL, 1, "1 - (STALL_FE + STALL_BE) / CYC", 1.0,
	  "cycles something issued (retiring and bad speculation together: no slot split)" },
};

static const struct pmc_td_tree t_arm_cycles = {
	"arm-cycles", "Arm cycle accounting (no slot events): stall cycles, not slots", "cycles", 0, 1,
	in_arm_cycles, N_ELEM(in_arm_cycles), nodes_arm_cycles, N_ELEM(nodes_arm_cycles),
	"fraction of cycles, not slots: a cycle that issued one operation counts as issuing; bad speculation and "
	"retiring cannot be separated", NULL,
	NULL, PMC_TD_LAYOUT_PLAIN };

/* ---------------------------------------------------------------------------------------------------------------- */

static const struct pmc_td_tree *const trees[] = {
	&t_intel_snb, &t_intel_snb_smt, &t_intel_skl, &t_intel_skl_smt,
	&t_intel_icl, &t_intel_icl_tma, &t_intel_spr, &t_intel_spr_tma,
	&t_intel_grt, &t_intel_cmt,
	&t_amd_zen4, &t_amd_zen5,
	&t_arm_neoverse, &t_arm_n2, &t_arm_cycles,
};

size_t pmc_td_tree_count(void)
{
	return N_ELEM(trees);
}

const struct pmc_td_tree *pmc_td_tree_at(size_t i)
{
	return i < N_ELEM(trees) ? trees[i] : NULL;
}
