/* SPDX-License-Identifier: MIT */
/* Request fields as the command line spells them (fields.h). A field is the name of the engine's request member
 * (struct pmc_engine_opts, include/pmctool_engine.h), or the name of the report-replay request's. */
#include "cli/fields.h"

#include <stddef.h>
#include <string.h>

static const struct {
	const char *field, *flag;
} fields[] = {
	{ "events", "-e" },
	{ "kernel", "-k" },
	{ "metrics", "--metric" },
	{ "runs", "-r" },
	{ "batching", "--batch" },
	{ "counters", "--counters" },
	{ "no_anchors", "--no-anchors" },
	{ "cpu", "--cpu" },
	{ "regions", "--regions" },
	{ "emulate", "--emulate" },
	{ "pre_cmd", "--pre" },
	{ "post_cmd", "--post" },
	{ "pids", "-p" },
	{ "tids", "-t" },
	{ "system_wide", "-a" },
	{ "cpus", "-C" },
	{ "cgroups", "-G" },
	{ "cgroups_each", "--for-each-cgroup" },
	{ "aggr", "--per-*" },
	{ "aggr_cpu", "-A" },
	{ "aggr_core", "--per-core" },
	{ "aggr_die", "--per-die" },
	{ "aggr_socket", "--per-socket" },
	{ "aggr_node", "--per-node" },
	{ "aggr_cache", "--per-cache" },
	{ "aggr_thread", "--per-thread" },
	{ "interval_ms", "-I" },
	{ "interval_count", "--interval-count" },
	{ "delay_ms", "-D" },
	{ "timeout_ms", "--timeout" },
	{ "control", "--control" },
	{ "topdown_level", "--topdown" },
	{ "topdown_def", "--topdown-def" },
};

const char *pmc_cli_field_flag(const char *field)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].field, field))
			return fields[i].flag;
	return NULL;
}
