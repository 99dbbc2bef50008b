/* SPDX-License-Identifier: MIT */
/* Vendor event tables read at run time (never shipped): Intel perfmon, Linux perf's pmu-events tree and Arm's
 * telemetry-solution Neoverse JSON. pmc_tables_load finds a table directory (the caller's, PMCTOOL_TABLES, then the
 * per-user and system locations), picks the CPU's files through the mapfile (or the Neoverse product configuration),
 * turns each JSON event into the config perf would give it and keeps the metrics as text. Nothing here prints: the
 * report says what was found, matched and skipped (and why), for src/cli to show. See doc/tables.md. */
#ifndef PMC_TABLES_TABLES_H
#define PMC_TABLES_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pmc_table_format { PMC_TABLE_NONE = 0, PMC_TABLE_PERFMON, PMC_TABLE_PERF, PMC_TABLE_ARM };
enum pmc_table_enc { PMC_TABLE_ENC_X86 = 0, PMC_TABLE_ENC_ARM64 };

struct pmc_table_event {
	char *name;                 /* lower-case, as perf spells it: "ocr.demand_data_rd.any_response" */
	enum pmc_table_enc enc;     /* X86: config in the core PMU's raw layout (event 0-7 and 32-35, umask 8-15, edge
	                             * 18, any 21, inv 23, cmask 24-31); ARM64: config is the PMU event number */
	uint64_t config;
	uint64_t config1;           /* the MSR value perf puts in config1: offcore_rsp (MSRIndex 0x1A6/0x1A7), ldlat
	                             * (0x3F6), frontend (0x3F7) */
	bool deprecated;            /* "Deprecated": "1": kept, found, marked */
	bool fixed_name;            /* a fixed-counter name perf gives its own encoding (inst_retired.any, ...) */
	char *pmu;                  /* the JSON's "Unit" (cpu_core, cpu_atom, ...) or NULL; an uncore event's PMU family
	                             * as perf names it ("uncore_imc" for "iMC", "amd_df" for "DFPMC") */
	char *terms;                /* an uncore event's sysfs terms for its family ("event=0x4,umask=0x3"): the family's
	                             * format encodes them, per box; NULL for a core PMU's event (config holds it) */
	char *desc;                 /* BriefDescription (or PublicDescription, or the Neoverse title), or NULL */
	char *compat;               /* an arm64 system PMU event's "Compat": a POSIX extended regex the PMU's sysfs
	                             * identifier must match whole (perf's rule), or NULL */
	const char *source;         /* the file it came from (owned by the table) */
};

struct pmc_table_metric {
	char *name;                 /* as the table spells it; lookup is case-insensitive */
	char *expr;                 /* MetricExpr / Formula / formula, verbatim */
	char *groups;               /* MetricGroup (";"-separated), or NULL */
	char *threshold;            /* MetricThreshold / Threshold.Formula, or NULL */
	char *unit;                 /* ScaleUnit / UnitOfMeasure / units, or NULL */
	char *desc;
	const char *source;
	/* Intel perfmon's metric files: the formula names its inputs by alias. One line per alias, "KIND ALIAS NAME\n":
	 * KIND e (an event of "Events"), c (a constant of "Constants"), t (a metric of the threshold's
	 * "ThresholdMetrics", by its LegacyName). NULL for the other formats. */
	char *aliases;
	char *legacy;               /* perfmon's LegacyName (what ThresholdMetrics name), or NULL */
	int level;                  /* perfmon's TMA "Level" (1..6), 0 when not given */
};

/* One file or location the loader looked at. */
struct pmc_table_note {
	char *path;
	bool skipped;               /* true: why says why (malformed JSON with line/column, no events, ...) */
	char why[200];
	size_t events, metrics;     /* what it gave when loaded */
	size_t bad;                 /* items skipped inside a loaded file (a malformed field): why names the first */
	size_t uncore;              /* events of an uncore PMU ("Unit": "CBO", "iMC", ...) left out: fields pmctool
	                             * cannot spell as sysfs terms, or no EventCode */
};

struct pmc_tables_report {
	enum pmc_table_format format;
	char *dir;                  /* the table directory used, or NULL when none held tables for this CPU */
	const char *dir_from;       /* "argument", "PMCTOOL_TABLES", "XDG_DATA_HOME", "HOME" or "system" */
	char *cpuid;                /* the CPUID matched */
	const char *cpuid_from;     /* "caller" or "PMCTOOL_CPUID" */
	char *mapfile;              /* the mapfile read (NULL for the Neoverse format) */
	char *matched;              /* the mapfile row's pattern, or the Neoverse product name */
	char *model;                /* perf's model folder, perfmon's file, or the Neoverse file */
	size_t nevents, nmetrics, ndeprecated;
	size_t nlocations;          /* every location looked at, in order, and why it was passed over */
	struct pmc_table_note *locations;
	size_t nfiles;              /* every table file read: loaded (with counts) or skipped (with the reason) */
	struct pmc_table_note *files;
	size_t nconflicts;          /* names defined twice for one PMU with different codes (the first read is used) */
	char conflict[300];         /* the first of them, both definitions named */
};

struct pmc_tables;

/* Find and load the tables for cpuid (perf's spelling: "GenuineIntel-6-55-4", "AuthenticAMD-25-1-1", arm64 MIDR
 * "0x00000000410fd0c0"; PMCTOOL_CPUID overrides it). dir (NULL: none) is searched first, then PMCTOOL_TABLES,
 * $XDG_DATA_HOME/pmctool/tables, ~/.local/share/pmctool/tables, /usr/local/share/pmctool/tables,
 * /usr/share/pmctool/tables; the first that has tables for this CPU is used.
 * 0: *ret holds the events and metrics. -ENOENT: nothing for this CPU (or no CPUID); *ret still holds an empty table
 * whose report says where the loader looked and why each place was passed over. -ENOMEM: *ret is not written.
 * A malformed file is skipped and named in the report, never an error. */
int pmc_tables_load(const char *dir, const char *cpuid, struct pmc_tables **ret);
void pmc_tables_free(struct pmc_tables *t); /* accepts NULL */

/* An event by name, case-insensitive: 0 and *ret, -ENOENT, -EINVAL for a NULL argument. */
int pmc_tables_find(const struct pmc_tables *t, const char *name, const struct pmc_table_event **ret);
/* A metric by name, case-insensitive: 0 and *ret, -ENOENT, -EINVAL. */
int pmc_tables_find_metric(const struct pmc_tables *t, const char *name, const struct pmc_table_metric **ret);
/* The report of the load: 0 and *ret (owned by t), -EINVAL. */
int pmc_tables_report(const struct pmc_tables *t, const struct pmc_tables_report **ret);
/* All events (sorted by name) and metrics (in table order), for list and completion. */
size_t pmc_tables_events(const struct pmc_tables *t, const struct pmc_table_event **ret);
size_t pmc_tables_metrics(const struct pmc_tables *t, const struct pmc_table_metric **ret);

/* The tables' parts, exposed for the tests and the fuzz target. */
/* One JSON event object of the given format -> e (name, encoding, description; source left NULL). 0, -ENOENT when
 * the object is not an event (no name, an ArchStdEvent with no standard entry), -EINVAL with why when a field is
 * malformed, -ENOMEM. std: the arm64 architecture-standard events by lower-case name (perf's ArchStdEvent), or NULL. */
struct pmc_jvalue;
int pmc_table_event_from_json(const struct pmc_jvalue *o, enum pmc_table_enc enc, const struct pmc_tables *std,
                              struct pmc_table_event *e, char *why, size_t whylen);
void pmc_table_event_fini(struct pmc_table_event *e);
/* Does the mapfile pattern match cpuid as perf matches it (POSIX extended regex over the whole CPUID; a pattern
 * without a stepping ignores the CPUID's)? 1 yes, 0 no, -EINVAL for a pattern regcomp refuses, -E2BIG for one too
 * costly to compile (longer than PMC_TABLE_PATTERN_MAX, more than PMC_TABLE_PATTERN_STATES states once repetitions
 * are expanded, or a back-reference): matching takes bounded time and memory whatever a table says. */
#define PMC_TABLE_PATTERN_MAX 128
#define PMC_TABLE_PATTERN_STATES 1024
int pmc_table_cpuid_match(const char *pattern, const char *cpuid);
/* Parse one table file's text into t (the fuzz target's entry): the events and metrics it holds are added; 0, or
 * -EINVAL with why. */
int pmc_tables_parse_text(struct pmc_tables *t, const char *text, size_t len, const char *source, char *why,
                          size_t whylen);
struct pmc_tables *pmc_tables_new(void);
/* The architecture whose files pmc_tables_parse_text reads next (x86 by default; the loader sets it from the CPUID):
 * arm64's uncore fields (NodeType, EventidCode, Compat) and event numbers differ. */
void pmc_tables_set_enc(struct pmc_tables *t, enum pmc_table_enc enc);

#endif
