/* SPDX-License-Identifier: MIT */
/* Memory bytes for the roofline: the CAS counts of Intel's memory controllers (read + write, 64 bytes each by their
 * .scale and .unit), every box of the family. Other vendors' memory PMUs are named with why they are not used. */
#include <stdio.h>
#include <string.h>

#include "pmu/uncore.h"
#include "roofline/mem_events.h"
#include "sys/sysfs.h"

static void from_family(const struct pmc_uncore_family *f, struct pmc_rf_mem_events *ret)
{
	static const char *const names[] = { "cas_count_read", "cas_count_write" };

	for (size_t i = 0; i < 2; i++) {
		const struct pmc_uncore_alias *a = pmc_uncore_alias(f, names[i]);
		double b = a ? pmc_uncore_bytes_per_count(a) : 0;

		if (!a || !(b > 0)) {
			ret->n = 0;
			snprintf(ret->why, sizeof(ret->why), "%s has no %s alias with a byte unit in sysfs", f->name,
				 names[i]);
			return;
		}
		for (unsigned k = 0; k < f->nboxes && ret->n < PMC_RF_MAX_MEM_EVENTS; k++) {
			snprintf(ret->ev[ret->n].name, sizeof(ret->ev[0].name), "%.60s/%s/", f->box[k], names[i]);
			ret->ev[ret->n++].bytes_per_count = b;
		}
	}
	snprintf(ret->pmu, sizeof(ret->pmu), "%s", f->name);
	for (unsigned c = 0; c < f->ncpus && ret->ncpus < 64; c++)
		ret->cpus[ret->ncpus++] = f->cpus[c];
	if (!ret->ncpus)
		ret->cpus[ret->ncpus++] = 0; /* no cpumask: any one CPU, as perf opens it */
}

void pmc_rf_mem_events(struct pmc_rf_mem_events *ret)
{
	static struct pmc_uncore u;
	const struct pmc_uncore_family *f;

	memset(ret, 0, sizeof(*ret));
	if (pmc_uncore_scan(&u) < 0)
		u.n = 0;
	if ((f = pmc_uncore_find(&u, "uncore_imc"))) {
		from_family(f, ret);
		return;
	}
	if ((f = pmc_uncore_find(&u, "amd_df"))) {
		snprintf(ret->why, sizeof(ret->why), "amd_df has no DRAM byte aliases in sysfs (AMD's DRAM events are "
			 "in the vendor tables' data-fabric files): memory bytes not counted yet");
		return;
	}
	if ((f = pmc_uncore_find(&u, "arm_cmn"))) {
		snprintf(ret->why, sizeof(ret->why), "arm_cmn counts memory-controller requests (hnf_mc_reqs), not "
			 "bytes: memory bytes not counted");
		return;
	}
	snprintf(ret->why, sizeof(ret->why),
		 "no memory-controller PMU (uncore_imc_*, amd_df, arm_cmn_*) in %.80s/bus/event_source/devices: memory "
		 "bytes cannot be counted here", pmc_sysfs_root());
}
