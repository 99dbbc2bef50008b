/* SPDX-License-Identifier: MIT */
/* libpfm4's tables walked for a listing (info/evlist.c, pmctool list): its PMUs, each PMU's events, an event's umasks
 * and modifiers. The only walk over libpfm4's tables outside the resolver; libpfm4 stays pmu/'s (tests/layers.sh:
 * owner pfm_). Strings belong to libpfm4: valid until the process ends. */
#ifndef PMC_PMU_PFM_WALK_H
#define PMC_PMU_PFM_WALK_H

#include <stdbool.h>
#include <stdint.h>

/* Start libpfm4 for a listing (once per process). 0, or -ENODEV when it has no tables. */
int pmc_pfm_walk_init(void);

struct pmc_pfm_pmu {
	const char *name;           /* "skl", "amd64_fam19h_zen4", "perf" */
	int id;                     /* libpfm4's pfm_pmu_t */
	int first_event;            /* its first event's index, -1 none */
	bool present;               /* detected on this machine (or forced) */
	bool core;                  /* a core PMU */
};

/* cb for each PMU libpfm4 knows, in its order; a non-zero return stops the walk and is returned. */
int pmc_pfm_walk_pmus(int (*cb)(const struct pmc_pfm_pmu *p, void *ctx), void *ctx);

/* The first present core PMU, the one whose events resolve without a pmu:: prefix: 0 and *ret, or -ENOENT. */
int pmc_pfm_default_core(struct pmc_pfm_pmu *ret);

struct pmc_pfm_event {
	const char *name, *desc;    /* desc never NULL */
	int idx;                    /* libpfm4's event index */
	unsigned nattrs;            /* its umasks and modifiers */
};

/* cb for each event of p (perf's OS layer: its modifiers counted in nattrs); a non-zero return stops and is returned. */
int pmc_pfm_walk_events(const struct pmc_pfm_pmu *p, int (*cb)(const struct pmc_pfm_event *ev, void *ctx), void *ctx);

enum pmc_pfm_attr_type { PMC_PFM_UMASK = 0, PMC_PFM_MOD_BOOL, PMC_PFM_MOD_INTEGER };

struct pmc_pfm_attr {
	const char *name, *desc;    /* desc never NULL */
	enum pmc_pfm_attr_type type;
	bool is_dfl;                /* the umask used when none is given */
	uint64_t code;
};

/* Attribute i of event idx, with perf's modifiers (names_only false) or without the OS layer (names_only true: a
 * shorter list, umasks first, cheaper when only names are compared). 0, or -EINVAL. */
int pmc_pfm_event_attr(int idx, unsigned i, bool names_only, struct pmc_pfm_attr *ret);

#endif
