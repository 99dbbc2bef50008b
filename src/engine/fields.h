/* SPDX-License-Identifier: MIT */
/* The request fields the engine's messages name (util/diag.h: PMC_FIELD), each by the name of its member of
 * struct pmc_engine_opts (include/pmctool_engine.h where it has one there; aggr_* for the row splits, cgroups_each for
 * a cgroup's row per cgroup). The command line spells them as its flags (cli/fields.c); a library caller reads these
 * words. Private to engine/. */
#ifndef PMC_ENGINE_FIELDS_H
#define PMC_ENGINE_FIELDS_H

#include "util/diag.h"

#define RQ_EVENTS PMC_FIELD("events")
#define RQ_KERNEL PMC_FIELD("kernel")
#define RQ_METRICS PMC_FIELD("metrics")
#define RQ_RUNS PMC_FIELD("runs")
#define RQ_BATCHING PMC_FIELD("batching")
#define RQ_COUNTERS PMC_FIELD("counters")
#define RQ_NO_ANCHORS PMC_FIELD("no_anchors")
#define RQ_CPU PMC_FIELD("cpu")
#define RQ_REGIONS PMC_FIELD("regions")
#define RQ_EMULATE PMC_FIELD("emulate")
#define RQ_PRE_CMD PMC_FIELD("pre_cmd")
#define RQ_POST_CMD PMC_FIELD("post_cmd")
#define RQ_PIDS PMC_FIELD("pids")
#define RQ_TIDS PMC_FIELD("tids")
#define RQ_SYSTEM_WIDE PMC_FIELD("system_wide")
#define RQ_CPUS PMC_FIELD("cpus")
#define RQ_CGROUPS PMC_FIELD("cgroups")
#define RQ_CGROUPS_EACH PMC_FIELD("cgroups_each")
#define RQ_AGGR PMC_FIELD("aggr")
#define RQ_AGGR_CPU PMC_FIELD("aggr_cpu")
#define RQ_AGGR_CORE PMC_FIELD("aggr_core")
#define RQ_AGGR_DIE PMC_FIELD("aggr_die")
#define RQ_AGGR_SOCKET PMC_FIELD("aggr_socket")
#define RQ_AGGR_NODE PMC_FIELD("aggr_node")
#define RQ_AGGR_CACHE PMC_FIELD("aggr_cache")
#define RQ_AGGR_THREAD PMC_FIELD("aggr_thread")
#define RQ_INTERVAL_MS PMC_FIELD("interval_ms")
#define RQ_INTERVAL_COUNT PMC_FIELD("interval_count")
#define RQ_DELAY_MS PMC_FIELD("delay_ms")
#define RQ_TIMEOUT_MS PMC_FIELD("timeout_ms")
#define RQ_CONTROL PMC_FIELD("control")
#define RQ_TOPDOWN_LEVEL PMC_FIELD("topdown_level")
#define RQ_TOPDOWN_DEF PMC_FIELD("topdown_def")

#endif
