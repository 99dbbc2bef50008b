/* SPDX-License-Identifier: MIT */
/* Event names from the vendor tables (src/tables, doc/tables.md), tried before libpfm4. The tables are loaded once
 * per process, on the first name that reaches them (a perf-style name that is no generic, cache, raw, sysfs,
 * breakpoint or tracepoint name and holds no ':'), so a command line of such names never looks for tables. The
 * table stays loaded for the process: an event's source points into it. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "pmu/event.h"
#include "pmu/hybrid.h"
#include "pmu/pmu_internal.h"
#include "pmu/uncore.h"
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

/* The entry of name for core PMU unit (cpu_core, cpu_atom; NULL: any): a hybrid table has one per core type. The
 * entries of one name are adjacent (the events are sorted by name). *one_unit: the unit every entry of the name
 * has, NULL when they differ or have none. */
static const struct pmc_table_event *find_unit(const char *name, const char *unit, const char **one_unit)
{
	const struct pmc_tables *t = pmc_pmu_tables();
	const struct pmc_table_event *te, *all, *hit = NULL;
	size_t n = pmc_tables_events(t, &all);

	*one_unit = NULL;
	if (pmc_tables_find(t, name, &te))
		return NULL;
	while (te > all && !strcasecmp(te[-1].name, name))
		te--;
	*one_unit = te->pmu;
	for (; te < all + n && !strcasecmp(te->name, name); te++) {
		if (te->terms) /* an uncore event: its family's terms (pmc_pmu_table_uncore_spec), no core encoding */
			continue;
		if (!hit && (!unit || !te->pmu || !strcmp(te->pmu, unit)))
			hit = te;
		else if (hit && (hit->pmu && te->pmu ? !strcmp(hit->pmu, te->pmu) : hit->pmu == te->pmu) &&
			 (hit->config != te->config || hit->config1 != te->config1))
			pmc_diag(PMC_DIAG_NOTE, "event '%s' is defined twice in the tables with different codes "
				 "(config 0x%" PRIx64 " in %s, 0x%" PRIx64 " in %s): counting the first", name, hit->config,
				 hit->source, te->config, te->source);
		if (!te->pmu || !*one_unit || strcmp(te->pmu, *one_unit))
			*one_unit = NULL;
	}
	return hit;
}

int pmc_pmu_table_event_on(const char *name, const char *unit, struct pmc_event *ev)
{
	struct pmc_core_pmu pmus[PMC_MAX_CORE_PMUS];
	const struct pmc_table_event *te;
	const char *one_unit, *on = NULL;
	size_t npmus;

	if (strchr(name, ':') || !(te = find_unit(name, unit, &one_unit)))
		return -ENOENT;
	ev->attr.type = PERF_TYPE_RAW;
	/* a hybrid table's name of one core type only (cpu_core's, not cpu_atom's): counted on that PMU alone */
	npmus = !unit && one_unit ? pmc_hybrid_core_pmus(pmus, PMC_MAX_CORE_PMUS) : 0;
	for (size_t i = 0; i < npmus; i++)
		if (!strcmp(pmus[i].name, one_unit)) {
			ev->attr.type = pmus[i].type;
			on = pmus[i].name;
		}
	ev->attr.config = te->config;
	ev->attr.config1 = te->config1;
	pmc_event_raw_plm(&ev->attr);
	pmc_event_classify_core(ev);
	if (ev->attr.type != PERF_TYPE_RAW)
		ev->flags |= PMC_EVF_HARDWARE;
	/* perf's spelling cpu_core/NAME/ is also what marks the copy of one core PMU (pmu/hybrid.c) */
	if (on)
		snprintf(ev->canonical, sizeof(ev->canonical), "%.15s/%.200s/", on, te->name);
	else
		snprintf(ev->canonical, sizeof(ev->canonical), "%s", te->name);
	ev->source = te->source;
	if (te->deprecated)
		pmc_diag(PMC_DIAG_NOTE, "event '%s' is marked deprecated in %s", name, te->source);
	return 0;
}

int pmc_pmu_table_event(const char *name, struct pmc_event *ev)
{
	return pmc_pmu_table_event_on(name, NULL, ev);
}

/* An arm64 system event is for the PMUs whose sysfs identifier its Compat matches whole (perf's rule: another
 * revision of the interconnect may number its events differently); one that does not match is left to the sysfs
 * aliases, and a note says why the table's entry was not used. */
static bool compatible(const struct pmc_table_event *te)
{
	char id[64];
	int r;

	if (!te->compat)
		return true;
	r = pmc_uncore_identifier(te->pmu, id, sizeof(id));
	if (r == 0 && pmc_table_cpuid_match(te->compat, id) == 1)
		return true;
	if (r == 0 || r == -ENODATA)
		pmc_diag(PMC_DIAG_NOTE, "table event '%s' (%s) is for %s PMUs whose identifier matches '%s': %s%s%s; "
			 "not using the table's encoding", te->name, te->source, te->pmu, te->compat,
			 r == 0 ? "this one's is '" : id, r == 0 ? id : " has no identifier file",
			 r == 0 ? "'" : "");
	return false;
}

int pmc_pmu_table_uncore_spec(const char *name, char *spec, size_t len)
{
	const struct pmc_tables *t;
	const struct pmc_table_event *te, *all;
	size_t n;

	if (strpbrk(name, ":/{}@,") || !(t = pmc_pmu_tables()) || pmc_tables_find(t, name, &te))
		return -ENOENT;
	n = pmc_tables_events(t, &all);
	while (te > all && !strcasecmp(te[-1].name, name))
		te--;
	for (; te < all + n && !strcasecmp(te->name, name); te++)
		if (te->terms && compatible(te)) {
			int w = snprintf(spec, len, "%s/%s/", te->pmu, te->terms);

			return w > 0 && (size_t)w < len ? 0 : -ENAMETOOLONG;
		}
	return -ENOENT;
}
