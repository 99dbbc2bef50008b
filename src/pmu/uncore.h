/* SPDX-License-Identifier: MIT */
/*
 * The PMUs beside the core's (issue 36): memory controllers, caches, interconnects, data fabric, energy. Read from
 * <sysfs root>/bus/event_source/devices (pmc_sysfs_root: tests point it at fixture trees) as the kernel writes them:
 * type, format/ terms, cpumask (the CPUs, one per socket or die, where their events must be opened system-wide),
 * events/ aliases with their .scale and .unit, and box families: uncore_imc_0..N are boxes of one family that perf
 * merges into one row.
 */
#ifndef PMC_PMU_UNCORE_H
#define PMC_PMU_UNCORE_H

#include <stdbool.h>
#include <stddef.h>

#define PMC_UNCORE_MAX_FAMILIES 64
#define PMC_UNCORE_MAX_BOXES 64
#define PMC_UNCORE_MAX_ALIASES 64
#define PMC_UNCORE_MAX_FORMATS 16
#define PMC_UNCORE_MAX_CPUS 64

enum pmc_uncore_kind {
	PMC_UNCORE_OTHER = 0,
	PMC_UNCORE_MEMORY,       /* memory controller: uncore_imc, uncore_imc_free_running */
	PMC_UNCORE_CACHE,        /* last-level cache: uncore_cha, uncore_cbox, amd_l3 */
	PMC_UNCORE_INTERCONNECT, /* uncore_upi, uncore_qpi, amd_df, arm_cmn, arm_dsu */
	PMC_UNCORE_ENERGY,       /* power (RAPL) */
	PMC_UNCORE_CSTATE,       /* cstate_core, cstate_pkg */
};

struct pmc_uncore_alias {
	char name[64];       /* "cas_count_read" */
	char terms[128];     /* "event=0x04,umask=0x03" */
	double scale;        /* .scale, 1 when absent */
	char unit[16];       /* .unit ("MiB", "Joules"), "" when absent */
};

struct pmc_uncore_family {
	char name[64];                 /* "uncore_imc" (the boxes' common name), "power", "amd_df", "arm_cmn" */
	enum pmc_uncore_kind kind;
	unsigned nboxes;               /* 1 for a PMU that is no family */
	char box[PMC_UNCORE_MAX_BOXES][64]; /* the PMU directories: "uncore_imc_0"... in box order */
	int type[PMC_UNCORE_MAX_BOXES];
	int cpus[PMC_UNCORE_MAX_CPUS]; /* the first box's cpumask: where its events are opened */
	unsigned ncpus;                /* 0: no cpumask file (then any one CPU, as perf does) */
	char cpumask[128];             /* as written */
	char format[PMC_UNCORE_MAX_FORMATS][96]; /* "event=config:0-7" */
	unsigned nformats;
	struct pmc_uncore_alias alias[PMC_UNCORE_MAX_ALIASES];
	unsigned naliases;
	bool aliases_cut;              /* more aliases than kept */
};

struct pmc_uncore {
	struct pmc_uncore_family fam[PMC_UNCORE_MAX_FAMILIES];
	size_t n;
};

/* The family a PMU directory belongs to: "uncore_imc_3" -> "uncore_imc", "arm_cmn_0" -> "arm_cmn", "power" ->
 * "power" (a trailing _N is a box number). Into buf (returned). */
const char *pmc_uncore_family_of(const char *pmu, char *buf, size_t len);

/* Every non-core PMU of the kernel (not cpu/cpu_core/cpu_atom/armv8_*, not software, tracepoint, breakpoint, kprobe,
 * uprobe, msr), grouped into families sorted by name, boxes in number order. 0, or -errno when the directory
 * cannot be read (ret->n 0). */
int pmc_uncore_scan(struct pmc_uncore *ret);

/* The family named (a family name or one box's), or NULL. */
const struct pmc_uncore_family *pmc_uncore_find(const struct pmc_uncore *u, const char *name);
/* The alias of a family, or NULL. */
const struct pmc_uncore_alias *pmc_uncore_alias(const struct pmc_uncore_family *f, const char *name);

/* An alias's value in bytes per count when its unit is a byte unit (B, KiB, MiB, GiB, KB, MB, GB: scale x unit),
 * else 0. cas_count_read: 6.103515625e-5 MiB = 64 bytes. */
double pmc_uncore_bytes_per_count(const struct pmc_uncore_alias *a);

/* A value in Joules from an energy count: count x scale when the unit is "Joules", else NAN. */
double pmc_uncore_joules(const struct pmc_uncore_alias *a, double count);

/* One line for people: "6 boxes (uncore_imc_0..uncore_imc_5), types 20-25, cpumask 0,28". Into buf (returned). */
const char *pmc_uncore_describe(const struct pmc_uncore_family *f, char *buf, size_t len);

const char *pmc_uncore_kind_name(enum pmc_uncore_kind k);

#define PMC_UNCORE_SPEC_MAX 256 /* PMC_NAME_MAX */

/* perf's spellings of a box family's event, as perf resolves them: FAMILY/terms/ where FAMILY names boxes but no PMU
 * directory (uncore_imc/cas_count_read/ -> uncore_imc_0/cas_count_read/ ... uncore_imc_5/cas_count_read/), and a
 * bare alias word of one non-core family (cas_count_read, energy-pkg -> power/energy-pkg/). The box spellings into
 * out[0..max), in box order: their number; 0 when spec is no such spelling (resolve it as written); -ENOSPC,
 * -ENAMETOOLONG, -ENOMEM. */
int pmc_uncore_box_specs(const char *spec, char (*out)[PMC_UNCORE_SPEC_MAX], size_t max);

/* The sysfs "identifier" of family fam's first box (arm_cmn_0's "43401"): what a table's arm64 system event's Compat
 * is matched against. 0 and buf; -ENODATA: the box has no identifier file (buf: the box's name); -ENOENT: no such
 * family; -ENOMEM. */
int pmc_uncore_identifier(const char *fam, char *buf, size_t len);

/* An uncore name one perf_event_open cannot take: a vendor table's uncore event (unc_m_cas_count.rd, as its
 * family's terms) or a family spelling above, checked by resolving the first box of the family (every box opens with
 * its encoding). 0: a single PMU resolves it as fam; 1: the first box's encoding, opened once per box of fam; -ENOENT
 * otherwise. fam (may be NULL) receives the spelling resolved. */
struct pmc_event;
int pmc_uncore_resolve(const char *spec, struct pmc_event *ev, char *fam, size_t famlen);

/* A sysfs alias spelling pmu/alias/ with an alias.scale file: *scale and its .unit ("" when absent) into unit, and
 * true (energy-pkg: 2.3283064365386962890625e-10 Joules; cas_count_read: 6.103515625e-5 MiB). false otherwise. */
bool pmc_uncore_spec_scale(const char *spec, double *scale, char *unit, size_t ulen);

#endif
