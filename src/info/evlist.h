/* SPDX-License-Identifier: MIT */
/* Enumerating the events pmctool can name: libpfm4 PMUs, the kernel's generic events, sysfs PMUs. */
#ifndef PMC_INFO_EVLIST_H
#define PMC_INFO_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pmc_list_attr_type {
	PMC_LIST_UMASK = 0,
	PMC_LIST_MOD_BOOL,
	PMC_LIST_MOD_INTEGER,
};

/* One umask or modifier of a libpfm4 event. Strings belong to libpfm4: valid until the process ends. */
struct pmc_list_attr {
	const char *name;
	const char *desc;
	enum pmc_list_attr_type type;
	bool is_dfl;                /* the umask used when none is given */
	uint64_t code;              /* umask code (libpfm4's value) */
};

/* One listed event. Valid only during the callback. */
struct pmc_list_event {
	const char *pmu;            /* "hsw", "hardware", "software", "msr", "breakpoint", "cpu"... */
	const char *source;         /* "libpfm4", "kernel" (generic perf names), "sysfs" */
	const char *name;           /* "UOPS_ISSUED", "cycles", "tsc" */
	const char *spelling;       /* how -e takes it: "UOPS_ISSUED", "skl::UOPS_ISSUED", "msr/tsc/", "cycles" */
	const char *desc;           /* never NULL */
	const char *encoding;       /* sysfs events: the file's terms ("event=0x00"); NULL otherwise */
	int pfm_idx;                /* libpfm4 event index, -1 for others */
	unsigned nattrs;            /* umasks and modifiers (libpfm4 events) */
	const char *cpus;           /* a hybrid CPU's core PMU (cpu_core, cpu_atom): the CPUs it counts on; else NULL */
	const char *file;           /* vendor table events and metrics: the table file it came from; else NULL */
	bool metric;                /* a vendor table's metric (encoding holds its formula): for -M, not -e */
};

struct pmc_list_query {
	const char *pmu;            /* NULL: the default set (detected core PMUs, generic and sysfs events) */
	const char *pattern;        /* NULL: everything; else pmc_pattern_match over name, description, umask names */
};

typedef int (*pmc_list_cb)(const struct pmc_list_event *ev, void *ctx);

/* The vendor tables (src/tables, pmu/tables.c) are listed after the core PMUs: their events as PMU MODEL (perf's
 * names, source "vendor table DIR", encoding "config=..[,config1=..]", the table file) and their metrics as PMU
 * "metrics" (metric set, encoding the formula); --pmu tables lists them alone. */

/* Call cb for each event the query selects, in a stable order; a non-zero return from cb stops and is returned.
 * -ENOENT when q->pmu names no PMU (err says which names exist), -ENODEV when libpfm4 fails to initialize. */
int pmc_list_events(const struct pmc_list_query *q, pmc_list_cb cb, void *ctx, char *err, size_t errlen);

/* Attribute i (< ev->nattrs) of a libpfm4 event. 0, or -EINVAL. */
int pmc_list_event_attr(const struct pmc_list_event *ev, unsigned i, struct pmc_list_attr *ret);

#endif
