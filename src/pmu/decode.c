/* SPDX-License-Identifier: MIT */
/* Raw code -> libpfm4 names: walk a PMU's events and umasks, encode each, keep those that give the same config. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmu/pmu_internal.h"

/* cmask, inv, any, edge: what libpfm4's c=, i, t, e modifiers set on x86 core PMUs. */
#define MOD_BITS ((0xffull << 24) | (1ull << 23) | (1ull << 21) | (1ull << 18))

struct decoder {
	const char *pmu;
	uint64_t target;
	struct perf_event_attr want;  /* exclude bits the raw code asked for */
	int (*cb)(const char *name, void *ctx);
	void *ctx;
	int found;
	int rc;
};

static int find_pmu(const char *name, pfm_pmu_info_t *ret)
{
	pfm_pmu_t p;
	const char *want = name ? name : pmc_pmu_core_name();

	if (!want)
		return -ENODEV;
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t pi = { .size = sizeof(pi) };

		if (pfm_get_pmu_info(p, &pi) == PFM_SUCCESS && !strcasecmp(pi.name, want)) {
			*ret = pi;
			return 0;
		}
	}
	return -ENOENT;
}

/* Modifiers that turn base into target, or false when target has bits a modifier cannot set. */
static bool mods_for(uint64_t base, uint64_t target, const struct perf_event_attr *want, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	if ((base & ~MOD_BITS) != (target & ~MOD_BITS) || (base & MOD_BITS & ~target))
		return false;
	if ((target & ~base) >> 24 & 0xff)
		n += (size_t)snprintf(out + n, len - n, ":c=%llu", (unsigned long long)(target >> 24 & 0xff));
	if ((target & ~base) & (1ull << 23))
		n += (size_t)snprintf(out + n, len - n, ":i=1");
	if ((target & ~base) & (1ull << 18))
		n += (size_t)snprintf(out + n, len - n, ":e=1");
	if ((target & ~base) & (1ull << 21))
		n += (size_t)snprintf(out + n, len - n, ":t=1");
	if (want->exclude_kernel && !want->exclude_user)
		n += (size_t)snprintf(out + n, len - n, ":u");
	else if (want->exclude_user && !want->exclude_kernel)
		snprintf(out + n, len - n, ":k");
	return true;
}

/* Encode "pmu::EVENT[:UMASK]" and, when modifiers bridge the gap to the target, report the full name. */
static bool try_name(struct decoder *d, const char *name)
{
	struct perf_event_attr a;
	char full[PMC_NAME_MAX], mods[64];

	if (pmc_libpfm_encode(name, &a, NULL, 0) != PFM_SUCCESS)
		return false;
	if (!mods_for(a.config & ~PMC_X86_PLM_BITS, d->target, &d->want, mods, sizeof(mods)))
		return false;
	snprintf(full, sizeof(full), "%s%s", name, mods);
	/* verify: presets may refuse extra modifiers (PFM_ERR_ATTR_SET) */
	if (pmc_libpfm_encode(full, &a, NULL, 0) != PFM_SUCCESS || (a.config & ~PMC_X86_PLM_BITS) != d->target)
		return false;
	d->found++;
	if (!d->rc)
		d->rc = d->cb(full, d->ctx);
	return true;
}

static void walk_event(struct decoder *d, int idx, bool numeric)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	char name[PMC_NAME_MAX];
	int numasks = 0;

	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return;
	if (numeric) {
		snprintf(name, sizeof(name), "%s::%s:%#04llx", d->pmu, ei.name,
			 (unsigned long long)(d->target >> 8 & 0xff));
		try_name(d, name);
		return;
	}
	for (int a = 0; a < ei.nattrs && !d->rc; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };

		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) != PFM_SUCCESS || ai.type != PFM_ATTR_UMASK)
			continue;
		numasks++;
		snprintf(name, sizeof(name), "%s::%s:%s", d->pmu, ei.name, ai.name);
		try_name(d, name);
	}
	if (!numasks) {
		snprintf(name, sizeof(name), "%s::%s", d->pmu, ei.name);
		try_name(d, name);
	}
}

int pmc_event_decode(uint64_t config, const char *pmu, int (*cb)(const char *name, void *ctx), void *ctx)
{
	struct decoder d = { .cb = cb, .ctx = ctx };
	pfm_pmu_info_t pi;
	int rc;

	if (!pmc_pmu_libpfm_ready())
		return -ENODEV;
	rc = find_pmu(pmu, &pi);
	if (rc)
		return rc;
	d.pmu = pi.name;
	d.want.config = config;
	pmc_event_raw_plm(&d.want);
	d.target = d.want.config;
	for (int idx = pi.first_event; idx != -1 && !d.rc; idx = pfm_get_event_next(idx))
		walk_event(&d, idx, false);
	/* no named umask: the event code with a numeric umask (BR_INST_EXEC:0x81) */
	for (int idx = pi.first_event; !d.found && idx != -1 && !d.rc; idx = pfm_get_event_next(idx))
		walk_event(&d, idx, true);
	return d.rc ? d.rc : d.found;
}
