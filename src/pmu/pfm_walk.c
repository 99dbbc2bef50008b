/* SPDX-License-Identifier: MIT */
/* libpfm4's tables walked for a listing (pfm_walk.h). */
#include "pmu/pfm_walk.h"

#include <errno.h>
#include <perfmon/pfmlib.h>
#include <stddef.h>

int pmc_pfm_walk_init(void)
{
	static bool done;
	static int rc;

	if (!done) {
		rc = pfm_initialize();
		done = true;
	}
	return rc == PFM_SUCCESS ? 0 : -ENODEV;
}

static bool pmu_of(pfm_pmu_t p, struct pmc_pfm_pmu *ret)
{
	pfm_pmu_info_t info = { .size = sizeof(info) };

	if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS)
		return false;
	*ret = (struct pmc_pfm_pmu){ .name = info.name, .id = (int)p, .first_event = info.first_event,
				     .present = info.is_present, .core = info.type == PFM_PMU_TYPE_CORE };
	return true;
}

int pmc_pfm_walk_pmus(int (*cb)(const struct pmc_pfm_pmu *p, void *ctx), void *ctx)
{
	struct pmc_pfm_pmu pmu;
	pfm_pmu_t p;
	int rc;

	pfm_for_all_pmus(p) {
		if (pmu_of(p, &pmu) && (rc = cb(&pmu, ctx)))
			return rc;
	}
	return 0;
}

int pmc_pfm_default_core(struct pmc_pfm_pmu *ret)
{
	for (pfm_pmu_t c = PFM_PMU_NONE; c < PFM_PMU_MAX; c++)
		if (pmu_of(c, ret) && ret->present && ret->core)
			return 0;
	return -ENOENT;
}

int pmc_pfm_walk_events(const struct pmc_pfm_pmu *p, int (*cb)(const struct pmc_pfm_event *ev, void *ctx), void *ctx)
{
	int rc;

	for (int idx = p->first_event; idx != -1; idx = pfm_get_event_next(idx)) {
		pfm_event_info_t info = { .size = sizeof(info) };
		struct pmc_pfm_event ev;

		if (pfm_get_event_info(idx, PFM_OS_PERF_EVENT, &info) != PFM_SUCCESS)
			continue;
		ev = (struct pmc_pfm_event){ .name = info.name, .desc = info.desc ? info.desc : "", .idx = idx,
					     .nattrs = info.nattrs > 0 ? (unsigned)info.nattrs : 0 };
		if ((rc = cb(&ev, ctx)))
			return rc;
	}
	return 0;
}

int pmc_pfm_event_attr(int idx, unsigned i, bool names_only, struct pmc_pfm_attr *ret)
{
	pfm_event_attr_info_t a = { .size = sizeof(a) };

	if (idx < 0 || pfm_get_event_attr_info(idx, (int)i, names_only ? PFM_OS_NONE : PFM_OS_PERF_EVENT, &a) !=
			       PFM_SUCCESS)
		return -EINVAL;
	*ret = (struct pmc_pfm_attr){ .name = a.name, .desc = a.desc ? a.desc : "", .is_dfl = a.is_dfl,
				      .code = a.code };
	ret->type = a.type == PFM_ATTR_UMASK ? PMC_PFM_UMASK :
		    a.type == PFM_ATTR_MOD_INTEGER ? PMC_PFM_MOD_INTEGER : PMC_PFM_MOD_BOOL;
	return 0;
}
