/* SPDX-License-Identifier: MIT */
/* Event-set files (events/NAME.set, format in pmctool-events(5)): parsing, locating, choosing a variant. */
#ifndef PMC_EVENTSETS_EVENTSET_H
#define PMC_EVENTSETS_EVENTSET_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics/checks.h"
#include "metrics/metrics.h"
#include "util/util.h"

#define PMC_EVENTSET_NAME_MAX 64
#define PMC_EVENTSET_MAX_FILE (1024 * 1024) /* bytes in one .set file */
#define PMC_EVENTSET_MAX_LINE 4096          /* characters in one line */
#define PMC_EVENTSET_MAX_VARIANTS 64
#define PMC_EVENTSET_MAX_METRICS 512        /* metrics, and separately checks, per variant */
#define PMC_EVENTSET_MAX_PMUS 64            /* PMU names on one variant line */
#define PMC_EVENTSET_MAX_NOTES 64

struct pmc_eventset_event {
	char spelling[PMC_NAME_MAX]; /* as written: pmc_event_resolve() takes it, reports show it, formulas name it */
	unsigned batch;              /* 'batch' lines before it in its section: a hint of what was counted together */
	unsigned line;               /* line in the file */
};

struct pmc_eventset_variant {
	char name[PMC_EVENTSET_NAME_MAX];
	char **pmus;                 /* libpfm4 PMU names ("hsw", "amd64_fam19h_zen3") or "*" (any) */
	size_t npmus;
	struct pmc_eventset_event *events;   /* the set's common events first, then the variant's */
	size_t nevents;
	struct pmc_metric_def *metrics;      /* common first, in file order: later ones may name earlier ones */
	size_t nmetrics;
	struct pmc_check_def *checks;
	size_t nchecks;
	char **notes;                /* cautions for this variant (prose) */
	size_t nnotes;
};

struct pmc_eventset {
	char name[PMC_EVENTSET_NAME_MAX];
	char *path;                  /* the file it was read from */
	char *description;
	char **provenance;           /* manuals, papers, seeds: at least one */
	size_t nprovenance;
	char **notes;                /* cautions for the whole set */
	size_t nnotes;
	struct pmc_eventset_variant *variants;
	size_t nvariants;
	int topdown_level;           /* 'topdown LEVEL': the set is stat --topdown=LEVEL (engine/topdown.c); 0 none */
};

/* Parse a set from text; 'path' names it in errors. 0 and *ret, or -EINVAL / -E2BIG / -ENOMEM with
 * "path:line:column: what is wrong" in err. */
int pmc_eventset_parse(const char *text, size_t len, const char *path, struct pmc_eventset **ret,
		       char *err, size_t errlen);

/* Read and parse one file. As pmc_eventset_parse, plus -errno from open/read (err names the file). */
int pmc_eventset_load(const char *path, struct pmc_eventset **ret, char *err, size_t errlen);

/*
 * The directories searched for sets, in order: $PMCTOOL_EVENTS_DIR (when set and non-empty), the installed
 * PMC_EVENTS_DIR, the source tree's PMC_SOURCE_EVENTS_DIR. Fills up to 3 entries of dirs; returns the count.
 */
size_t pmc_eventset_dirs(const char *dirs[3]);

/* Find set 'name' (NAME.set in the first directory that has it), or load 'name' as a path when it holds a '/'.
 * 0 and *ret; -ENOENT with err naming the directories searched; or a load error. */
int pmc_eventset_find(const char *name, struct pmc_eventset **ret, char *err, size_t errlen);

/* Every set in the directories (the first of each name wins), sorted by name. Free with pmc_eventset_list_free.
 * A file that does not parse fails the whole listing, with its error in err. */
int pmc_eventset_list(struct pmc_eventset ***ret, size_t *ret_n, char *err, size_t errlen);
void pmc_eventset_list_free(struct pmc_eventset **sets, size_t n);

/* The variant for a PMU: the first that names pmu_name (case-insensitive), else the first naming arch:NAME for the
 * architecture pmctool runs on (arch:x86_64, arch:aarch64), else the first with "*", else NULL. pmu_name NULL (no
 * PMU known) matches only arch:NAME and "*". */
const struct pmc_eventset_variant *pmc_eventset_select(const struct pmc_eventset *set, const char *pmu_name);

/* An event spelling ending in "@sibling0" / "@sibling1" asks for CPU-wide counting on the first / second logical CPU
 * of one SMT pair. Returns that index (0 or 1) and copies the spelling without the suffix into base; returns -1 and
 * copies it whole when there is no such suffix. -ENOSPC when base is too small. */
int pmc_eventset_event_sibling(const char *spelling, char *base, size_t baselen);

/* Accepts NULL. */
void pmc_eventset_free(struct pmc_eventset *set);

/* The 'topdown LEVEL' of set name (-g topdown is stat --topdown), or 0: none, or the set cannot be read (-g's own
 * loading says why). */
int pmc_eventset_topdown_level(const char *name);

#endif
