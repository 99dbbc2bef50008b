/* SPDX-License-Identifier: MIT */
/* Raw code -> libpfm4 names: walk a PMU's events and umasks, encode each, keep those that give the same config. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

/* cmask, inv, any, edge: what libpfm4's c=, i, t, e modifiers set on x86 core PMUs. */
#define MOD_BITS ((0xffull << 24) | (1ull << 23) | (1ull << 21) | (1ull << 18))

struct decoder {
	const char *pmu;
	uint64_t target;
	uint64_t target1;             /* config1 (frontend, offcore_rsp, ldlat...) */
	bool exact1;                  /* config1 was given: a name must encode it too */
	struct perf_event_attr want;  /* exclude bits the raw code asked for */
	int (*cb)(const char *name, void *ctx);
	void *ctx;
	int found;
	int rc;
};

/* Hands name to the callback; without config1 given, a name that needs one says which. */
static void report(struct decoder *d, const char *name, uint64_t config1)
{
	char buf[PMC_NAME_MAX + 48];

	d->found++;
	if (d->rc)
		return;
	if (!d->exact1 && config1)
		snprintf(buf, sizeof(buf), "%s (config1=%#llx)", name, (unsigned long long)config1);
	else
		snprintf(buf, sizeof(buf), "%s", name);
	d->rc = d->cb(buf, d->ctx);
}

/* name:mod=V for the V that gives config1 target1, where mod is a numeric modifier of config1 (ldlat, fe_thres):
 * its field found by encoding V = 1 and V = 3. */
static bool try_numeric(struct decoder *d, const char *name, const char *mod)
{
	struct perf_event_attr a1, a3, a;
	char n[PMC_NAME_MAX + 64];
	uint64_t diff, base, v;
	int shift;

	snprintf(n, sizeof(n), "%s:%s=1", name, mod);
	if (pmc_libpfm_encode(n, &a1, NULL, 0) != PFM_SUCCESS)
		return false;
	snprintf(n, sizeof(n), "%s:%s=3", name, mod);
	if (pmc_libpfm_encode(n, &a3, NULL, 0) != PFM_SUCCESS || !(diff = a1.config1 ^ a3.config1))
		return false;
	shift = __builtin_ctzll(diff) - 1;
	if (shift < 0)
		return false;
	base = a1.config1 - (1ull << shift);
	if (d->target1 < base)
		return false;
	v = (d->target1 - base) >> shift;
	snprintf(n, sizeof(n), "%s:%s=%llu", name, mod, (unsigned long long)v);
	if (pmc_libpfm_encode(n, &a, NULL, 0) != PFM_SUCCESS || (a.config & ~PMC_X86_PLM_BITS) != d->target ||
	    a.config1 != d->target1)
		return false;
	report(d, n, a.config1);
	return true;
}

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
	if (!d->exact1 || a.config1 == d->target1) {
		report(d, full, a.config1);
		return true;
	}
	return try_numeric(d, full, "ldlat") || try_numeric(d, full, "fe_thres");
}

/* An event whose umasks add up in config1 (OFFCORE_RESPONSE_0: a request, a supplier, a snoop type): the smallest
 * combinations of up to MAX_COMBO (4) of its umasks that encode config1 exactly. Each umask alone brings libpfm4's defaults for
 * the other groups, so the candidates are the umasks sharing a bit with the target, and each combination is
 * verified by encoding it. */
#define MAX_COMBO_UMASKS 64
#define MAX_COMBO 4

/* Tries every combination of size more umasks from names[from..n) after the ones in chosen. */
static void combine(struct decoder *d, const char *event, char (*names)[64], int n, int size, int from, int depth,
		    const char *chosen)
{
	char buf[PMC_NAME_MAX];

	if (depth == size) {
		snprintf(buf, sizeof(buf), "%s::%s%s", d->pmu, event, chosen);
		try_name(d, buf);
		return;
	}
	for (int i = from; i < n && !d->rc; i++) {
		if ((size_t)snprintf(buf, sizeof(buf), "%s:%s", chosen, names[i]) >= sizeof(buf))
			continue;
		combine(d, event, names, n, size, i + 1, depth + 1, buf);
	}
}

static void walk_combinations(struct decoder *d, int idx, const pfm_event_info_t *ei)
{
	char names[MAX_COMBO_UMASKS][64], n[PMC_NAME_MAX];
	int nu = 0;

	for (int a = 0; a < ei->nattrs && nu < MAX_COMBO_UMASKS; a++) {
		pfm_event_attr_info_t ai = { .size = sizeof(ai) };
		struct perf_event_attr at;

		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) != PFM_SUCCESS || ai.type != PFM_ATTR_UMASK ||
		    strlen(ai.name) >= sizeof(names[0]))
			continue;
		snprintf(n, sizeof(n), "%s::%s:%s", d->pmu, ei->name, ai.name);
		if (pmc_libpfm_encode(n, &at, NULL, 0) != PFM_SUCCESS ||
		    ((at.config & ~PMC_X86_PLM_BITS) & ~MOD_BITS) != (d->target & ~MOD_BITS) ||
		    !(at.config1 & d->target1))
			continue;
		snprintf(names[nu++], sizeof(names[0]), "%s", ai.name);
	}
	for (int size = 2; size <= MAX_COMBO && !d->found && !d->rc; size++)
		combine(d, ei->name, names, nu, size, 0, 0, "");
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
	return pmc_event_decode_config1(config, 0, false, pmu, cb, ctx);
}

int pmc_event_decode_config1(uint64_t config, uint64_t config1, bool exact1, const char *pmu,
			     int (*cb)(const char *name, void *ctx), void *ctx)
{
	struct decoder d = { .cb = cb, .ctx = ctx, .target1 = config1, .exact1 = exact1 };
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
	/* config1 made of several umasks (OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HITM) */
	for (int idx = pi.first_event; exact1 && config1 && !d.found && idx != -1 && !d.rc;
	     idx = pfm_get_event_next(idx)) {
		pfm_event_info_t ei = { .size = sizeof(ei) };

		if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) == PFM_SUCCESS && (ei.code & 0xff) == (config & 0xff))
			walk_combinations(&d, idx, &ei);
	}
	/* no named umask: the event code with a numeric umask (BR_INST_EXEC:0x81) */
	for (int idx = pi.first_event; !d.found && idx != -1 && !d.rc; idx = pfm_get_event_next(idx))
		walk_event(&d, idx, true);
	return d.rc ? d.rc : d.found;
}
