/* SPDX-License-Identifier: MIT */
/* Event names from the vendor tables (src/tables, doc/tables.md), tried before libpfm4. The tables are loaded once
 * per process, on the first name that reaches them (a perf-style name that is no generic, cache, raw, sysfs,
 * breakpoint or tracepoint name and holds no ':'), so a command line of such names never looks for tables. The
 * table stays loaded for the process: an event's source points into it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "pmu/event.h"
#include "pmu/pmu_internal.h"
#include "tables/tables.h"
#include "util/diag.h"

static const char *tables_dir;      /* --tables DIR: searched first */
static struct pmc_tables *tables;   /* loaded, or an empty table after a load that found none */
static bool tables_tried;

int pmc_pmu_tables_dir(const char *dir)
{
	if (tables_tried)
		return -EBUSY;
	tables_dir = dir;
	return 0;
}

const struct pmc_tables *pmc_pmu_tables_loaded(void)
{
	return tables_tried ? tables : NULL;
}

const struct pmc_tables *pmc_pmu_tables(void)
{
	char cpuid[64];
	const char *from;

	if (!tables_tried) {
		tables_tried = true;
		if (pmc_arch_tables_cpuid(cpuid, sizeof(cpuid), &from))
			cpuid[0] = '\0';
		if (pmc_tables_load(tables_dir, cpuid[0] ? cpuid : NULL, &tables) == -ENOMEM)
			tables = NULL;
	}
	return tables;
}

int pmc_pmu_table_event(const char *name, struct pmc_event *ev)
{
	const struct pmc_table_event *te;

	if (strchr(name, ':') || pmc_tables_find(pmc_pmu_tables(), name, &te))
		return -ENOENT;
	ev->attr.type = PERF_TYPE_RAW;
	ev->attr.config = te->config;
	ev->attr.config1 = te->config1;
	pmc_event_raw_plm(&ev->attr);
	pmc_event_classify_core(ev);
	snprintf(ev->canonical, sizeof(ev->canonical), "%s", te->name);
	ev->source = te->source;
	if (te->deprecated)
		pmc_diag(PMC_DIAG_NOTE, "event '%s' is marked deprecated in %s", name, te->source);
	return 0;
}
