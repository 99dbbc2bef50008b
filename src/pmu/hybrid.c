/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs: finding their core PMUs (pmc_arch_hybrid_pmus: x86 cpu_core / cpu_atom) and opening each core event
 * once per core PMU. */
#include "pmu/hybrid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "arch/arch.h"
#include "pmu/event.h"
#include "pmu/pmu_internal.h"
#include "sys/sysfs.h"

size_t pmc_hybrid_core_pmus(struct pmc_core_pmu *ret, size_t max)
{
	const struct pmc_arch_hybrid *types;
	size_t ntypes = pmc_arch_hybrid_pmus(&types), n = 0;

	for (size_t i = 0; i < ntypes && n < max; i++) {
		char path[1024];
		long type;
		struct pmc_core_pmu *p = &ret[n];

		memset(p, 0, sizeof(*p));
		snprintf(path, sizeof(path), "%s/%s/type", pmc_event_source_dir(), types[i].pmu);
		if (pmc_sysfs_read_long(path, &type) || type < 0 || type > 0x7fffffff)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpus", pmc_event_source_dir(), types[i].pmu);
		if (pmc_sysfs_read_line(path, p->cpus, sizeof(p->cpus)) || !p->cpus[0])
			continue; /* a core PMU that says on no CPU where it counts: not a hybrid one */
		snprintf(p->name, sizeof(p->name), "%s", types[i].pmu);
		p->type = (unsigned)type;
		n++;
	}
	return n >= 2 ? n : 0;
}

int pmc_hybrid_pmu_of_cpu(const struct pmc_core_pmu *pmus, size_t n, int cpu)
{
	for (size_t i = 0; i < n; i++)
		if (pmc_cpulist_has(pmus[i].cpus, cpu))
			return (int)i;
	return -ENOENT;
}

/* libpfm4's table for a core PMU ("adl_grt" for cpu_atom), NULL when none is known. */
static const char *pfm_table_of(const char *pmu)
{
	const struct pmc_arch_hybrid *types;
	size_t ntypes = pmc_arch_hybrid_pmus(&types);

	for (size_t k = 0; k < ntypes; k++)
		if (!strcmp(types[k].pmu, pmu))
			return types[k].pfm;
	return NULL;
}

const char *pmc_hybrid_label(const char *pmu)
{
	const struct pmc_arch_hybrid *types;
	size_t ntypes = pmc_arch_hybrid_pmus(&types);

	for (size_t k = 0; k < ntypes; k++)
		if (!strcmp(types[k].pmu, pmu))
			return types[k].label;
	return NULL;
}

/* True when libpfm4 encoded ev from the table of a hybrid core type. */
static bool from_pfm_table(const struct pmc_event *ev)
{
	const struct pmc_arch_hybrid *types;
	size_t ntypes = pmc_arch_hybrid_pmus(&types);

	for (size_t k = 0; k < ntypes; k++) {
		size_t pl = strlen(types[k].pfm);
		if (!strncasecmp(ev->canonical, types[k].pfm, pl) && ev->canonical[pl] == ':')
			return true;
	}
	return false;
}

/* The core PMU an event already names: pmu/terms/ spelling, libpfm4 table of one core type, or the PMU's own type
 * (other than PERF_TYPE_RAW, which cpu_core may share). -1 when it names none. */
static int named_pmu(const struct pmc_event *ev, const struct pmc_core_pmu *pmus, size_t n)
{
	const struct pmc_arch_hybrid *types;
	size_t ntypes = pmc_arch_hybrid_pmus(&types);

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(pmus[i].name);

		if (!strncasecmp(ev->canonical, pmus[i].name, len) && ev->canonical[len] == '/')
			return (int)i;
		if (ev->attr.type == pmus[i].type && ev->attr.type != PERF_TYPE_RAW)
			return (int)i;
		for (size_t k = 0; k < ntypes; k++) {
			size_t pl = strlen(types[k].pfm);
			if (!strcmp(types[k].pmu, pmus[i].name) &&
			    !strncasecmp(ev->canonical, types[k].pfm, pl) && ev->canonical[pl] == ':')
				return (int)i;
		}
	}
	return -1;
}

static int make_copy(const struct pmc_event *ev, const struct pmc_core_pmu *pmus, size_t i, struct pmc_event *out)
{
	*out = *ev;
	out->core_pmu = (unsigned)i + 1;
	if (ev->attr.type == PERF_TYPE_HARDWARE || ev->attr.type == PERF_TYPE_HW_CACHE)
		out->attr.config = (ev->attr.config & PERF_HW_EVENT_MASK) | ((uint64_t)pmus[i].type << PERF_PMU_TYPE_SHIFT);
	else
		out->attr.type = pmus[i].type;
	if ((size_t)snprintf(out->name, sizeof(out->name), "%s [%s]", ev->name, pmus[i].name) >= sizeof(out->name))
		return -ENAMETOOLONG;
	/* perf's spelling: cpu_atom/cycles/ for a generic name, cpu_atom/config=0x1c2/ for a raw code; a libpfm4 name
	 * keeps its fully qualified form inside. */
	if (ev->attr.type == PERF_TYPE_RAW && ev->canonical[0] == 'r' && !ev->attr.config1 && !ev->attr.config2)
		snprintf(out->canonical, sizeof(out->canonical), "%s/config=%#llx/", pmus[i].name,
			 (unsigned long long)ev->attr.config);
	else if ((size_t)snprintf(out->canonical, sizeof(out->canonical), "%s/%s/", pmus[i].name, ev->canonical) >=
		 sizeof(out->canonical))
		return -ENAMETOOLONG;
	return 0;
}

/* The event on the core PMU it names and, for a libpfm4 name written without a pmu:: prefix (libpfm4 took the first
 * table that has it), on every other core type whose table has the same name too, as perf does. */
static int expand_named(const struct pmc_event *ev, const struct pmc_core_pmu *pmus, size_t n, int named, int only,
			struct pmc_event *out, size_t max)
{
	int k = 0;

	for (size_t i = 0; i < n; i++) {
		struct pmc_event t = *ev;
		const char *pfm = pfm_table_of(pmus[i].name);
		char spec[PMC_NAME_MAX + 32];

		if ((only >= 0 && (size_t)only != i) || (i != (size_t)named && (!from_pfm_table(ev) ||
							strstr(ev->name, "::") || !pfm)))
			continue;
		if (i != (size_t)named) {
			snprintf(spec, sizeof(spec), "%s::%s", pfm, ev->name);
			if (pmc_event_resolve(spec, &t, NULL) < 0)
				continue; /* an event of one core type only */
			snprintf(t.name, sizeof(t.name), "%s", ev->name);
			t.flags = ev->flags;
		}
		if ((size_t)k == max)
			return -ENOSPC;
		t.core_pmu = (unsigned)i + 1;
		if (t.attr.type == PERF_TYPE_RAW)
			t.attr.type = pmus[i].type; /* adl_grt::NAME encoded as raw: counted on cpu_atom */
		out[k++] = t;
	}
	/* Opened on more than one core type: each copy says which, and the report sums them. */
	for (int i = 0; k > 1 && i < k; i++)
		if ((size_t)snprintf(out[i].name, sizeof(out[i].name), "%s [%s]", ev->name,
				     pmus[out[i].core_pmu - 1].name) >= sizeof(out[i].name))
			return -ENAMETOOLONG;
	return k;
}

int pmc_hybrid_expand(const struct pmc_event *ev, const struct pmc_core_pmu *pmus, size_t n, int only,
		      struct pmc_event *out, size_t max)
{
	bool per_pmu = (ev->flags & PMC_EVF_HARDWARE) &&
		       (ev->attr.type == PERF_TYPE_HARDWARE || ev->attr.type == PERF_TYPE_HW_CACHE ||
			ev->attr.type == PERF_TYPE_RAW);
	int named = n ? named_pmu(ev, pmus, n) : -1;
	size_t k = 0;

	if (!max)
		return -ENOSPC;
	if (!n || !(ev->flags & PMC_EVF_HARDWARE) || (!per_pmu && named < 0)) {
		out[0] = *ev;
		return 1;
	}
	if (named >= 0)
		return expand_named(ev, pmus, n, named, only, out, max);
	for (size_t i = 0; i < n; i++) {
		int r;

		if (only >= 0 && (size_t)only != i)
			continue;
		if (k == max)
			return -ENOSPC;
		r = make_copy(ev, pmus, i, &out[k]);
		if (r)
			return r;
		k++;
	}
	return (int)k;
}
