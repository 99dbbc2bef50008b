/* SPDX-License-Identifier: MIT */
/* pmctool check's uncore and energy items: one real open of one event per kind, closed at once. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/check_uncore.h"
#include "perf/probe.h"
#include "pmu/event.h"
#include "pmu/uncore.h"
#include "sys/perf_access.h"

/* The family of kind k to try (the first with an alias), or NULL. */
static const struct pmc_uncore_family *pick(const struct pmc_uncore *u, bool energy)
{
	for (size_t i = 0; i < u->n; i++) {
		enum pmc_uncore_kind k = u->fam[i].kind;
		bool want = energy ? k == PMC_UNCORE_ENERGY
				   : k == PMC_UNCORE_MEMORY || k == PMC_UNCORE_CACHE || k == PMC_UNCORE_INTERCONNECT;

		if (want && u->fam[i].naliases)
			return &u->fam[i];
	}
	return NULL;
}

/* The alias stat's sets count first: energy-pkg, cas_count_read; else the family's first. */
static const char *alias_to_try(const struct pmc_uncore_family *f)
{
	if (pmc_uncore_alias(f, "energy-pkg"))
		return "energy-pkg";
	if (pmc_uncore_alias(f, "cas_count_read"))
		return "cas_count_read";
	return f->alias[0].name;
}

static struct pmc_check_item *add(struct pmc_check_result *res, const char *name, const char *title)
{
	struct pmc_check_item *it;

	if (res->n >= PMC_CHECK_MAX_ITEMS)
		return NULL;
	it = &res->item[res->n++];
	memset(it, 0, sizeof(*it));
	snprintf(it->name, sizeof(it->name), "%s", name);
	snprintf(it->title, sizeof(it->title), "%s", title);
	return it;
}

/* Why errno e refused a system-wide open, for a person. */
static void refusal(int e, char *buf, size_t len)
{
	int paranoid = pmc_perf_paranoid();
	bool perfmon, admin;

	pmc_perf_caps(&perfmon, &admin);
	if ((e == EACCES || e == EPERM) && !perfmon && !admin)
		snprintf(buf, len, "system-wide counting refused (%s): perf_event_paranoid is %d and this process has "
			 "no CAP_PERFMON; uncore and energy need perf_event_paranoid <= 0, CAP_PERFMON or root",
			 strerror(e), paranoid);
	else
		snprintf(buf, len, "the kernel refused the open: %s", strerror(e));
}

static void one(struct pmc_check_result *res, const struct pmc_uncore *u, bool energy)
{
	const struct pmc_uncore_family *f = pick(u, energy);
	struct pmc_check_item *it = add(res, energy ? "energy" : "uncore",
					energy ? "energy (power PMU)" : "uncore (memory, caches, fabric)");
	char spec[160], why[300];
	struct pmc_event ev;
	struct pmc_resolve_error err;
	int rc, cpu;

	if (!it)
		return;
	it->verdict = PMC_CHECK_UNAVAILABLE;
	if (!f) {
		snprintf(it->detail, sizeof(it->detail), "the kernel exposes no %s PMU here (%s); in a virtual machine the "
			 "host's are never passed through; pmctool info lists the non-core PMUs it finds",
			 energy ? "power (RAPL)" : "uncore (uncore_imc, uncore_cha, amd_df, amd_l3, arm_cmn)",
			 energy ? "no /sys/bus/event_source/devices/power" : "none in /sys/bus/event_source/devices");
		return;
	}
	snprintf(spec, sizeof(spec), "%s/%s/", f->box[0], alias_to_try(f));
	memset(&err, 0, sizeof(err));
	if (pmc_event_resolve(spec, &ev, &err) < 0) {
		snprintf(it->detail, sizeof(it->detail), "%s: %.400s", spec, err.msg);
		return;
	}
	cpu = f->ncpus ? f->cpus[0] : 0;
	ev.attr.disabled = 1;
	rc = pmc_perf_probe_cpu(&ev.attr, cpu, "check: can this non-core PMU count here");
	if (rc < 0) {
		refusal(-rc, why, sizeof(why));
		snprintf(it->detail, sizeof(it->detail), "%s (%u box%s) is here, but %s on CPU %d: %.300s", f->name, f->nboxes,
			 f->nboxes == 1 ? "" : "es", spec, cpu, why);
		return;
	}
	it->verdict = PMC_CHECK_TRUSTWORTHY;
	snprintf(it->detail, sizeof(it->detail), "%s opens system-wide on CPU %d (%s, %u box%s, cpumask %s); counts the "
		 "whole socket, not one command: pmctool stat -a -g %s", spec, cpu, f->name, f->nboxes,
		 f->nboxes == 1 ? "" : "es", f->cpumask[0] ? f->cpumask : "none", energy ? "energy" : "mem");
}

void pmc_check_uncore_items(struct pmc_check_result *res)
{
	static struct pmc_uncore u;

	if (pmc_uncore_scan(&u) < 0)
		u.n = 0;
	one(res, &u, false);
	one(res, &u, true);
}
