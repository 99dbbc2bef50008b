/* SPDX-License-Identifier: MIT */
/* Event names -> perf_event_attr. Every spelling pmctool accepts is resolved here. */
#ifndef PMC_PMU_EVENT_H
#define PMC_PMU_EVENT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"

/* Which counting resource an event needs; the batch planner packs by this. */
enum pmc_counter_class {
	PMC_CLASS_GP = 0,     /* a programmable core counter */
	PMC_CLASS_FIXED,      /* a fixed counter (Intel: instructions, cycles, ref-cycles); fixed_index says which */
	PMC_CLASS_FREE,       /* software, msr, tracepoint, uprobe...: no counter slot, counted in every batch */
	PMC_CLASS_BREAKPOINT, /* a debug register (mem:ADDR), at most PMC_BREAKPOINT_SLOTS per batch */
	PMC_CLASS_EMULATED,   /* counted by an emulator (valgrind), never by a counter: engine/emulate.c */
};

#define PMC_BREAKPOINT_SLOTS 4

enum pmc_event_flags {
	PMC_EVF_TSC = 1u << 0,      /* msr/tsc/: the time-stamp counter */
	PMC_EVF_TIME_NS = 1u << 1,  /* value is nanoseconds (task-clock, cpu-clock): shown as msec */
	PMC_EVF_ANCHOR = 1u << 2,   /* added by pmctool to every batch (instructions, cycles, ref-cycles, tsc) */
	PMC_EVF_HARDWARE = 1u << 3, /* needs the CPU's PMU (PERF_TYPE_HARDWARE, _RAW, _HW_CACHE or the core PMU's type) */
	PMC_EVF_PRECISE = 1u << 4,     /* :p/:pp/:ppp/:P given: only sampling uses it (pmc_event_note) */
	PMC_EVF_SAMPLE_READ = 1u << 5, /* :S given: only sampling uses it */
	PMC_EVF_PINNED = 1u << 6,      /* :D given: not passed on (pmc_event_note says why) */
	PMC_EVF_GUEST_ONLY = 1u << 7,  /* :G: exclude_host */
	PMC_EVF_HOST_ONLY = 1u << 8,   /* :H: exclude_guest */
	PMC_EVF_WEAK_GROUP = 1u << 9,  /* a member of a weak group {..}:W: the planner may split it */
	PMC_EVF_ABSENT = 1u << 10,     /* no counter of the core PMU can count it (ref-cycles on AMD, Intel's event 0x00
					  without its fixed counter; pmc_event_note says why): planned on no counter and
					  never opened (not supported, ENOENT) */
	PMC_EVF_FIXED_ONLY = 1u << 11, /* its encoding fits only its fixed counter (ref-cycles, Intel's pseudo-encodings
					  0x0N00; the arch seam decides): never planned on a programmable counter */
	PMC_EVF_SUSPECT = 1u << 12,    /* counted, but cannot be what its name says (a libpfm4 table gives it a fixed
					  counter's pseudo-encoding; pmc_event_note says why) */
	PMC_EVF_BP_NEVER_FIRES = 1u << 13, /* a breakpoint on a machine whose breakpoints never fire (perf/probe.h's
					      probe read 0): never opened, <not counted> with PMC_BP_NEVER_REASON */
	PMC_EVF_NO_COUNTER = 1u << 14, /* read through its group's leader on no counter of its own (Intel's top-down
					  PERF_METRICS fields beside slots; the arch seam decides): costs no counter */
};

/* One resolved event. Plain data: copyable, nothing to free. */
struct pmc_event {
	char name[PMC_NAME_MAX];      /* as the user wrote it, trimmed: the name shown in reports */
	char canonical[PMC_NAME_MAX]; /* libpfm4's fully qualified name, or the sysfs / raw / generic spelling */
	struct perf_event_attr attr;  /* type, config, config1, config2, exclude_*; size set; no disabled/inherit bits */
	enum pmc_counter_class cls;
	int fixed_index;              /* 0 instructions, 1 core cycles, 2 ref cycles; -1 when cls != PMC_CLASS_FIXED */
	unsigned flags;               /* enum pmc_event_flags */
	bool cpu_wide;                /* count CPU 'cpu' system-wide (an event set's EVENT@siblingN), not the workload */
	int cpu;                      /* with cpu_wide only */
	unsigned core_pmu;            /* hybrid CPUs: 1 + index of the core PMU this copy counts on (pmu/hybrid.h), 0 on
					 other machines and for events of no core PMU: events of two core PMUs never
					 share a group or a counter budget */
	unsigned group;               /* perf's {a,b} group: 1 + the group's number on the command line, 0 for none; the
					 planner keeps a group's events in one batch */
	const char *source;           /* the vendor table file the encoding came from (pmu/tables.c), NULL otherwise */
	unsigned uncore_box;          /* a box of a non-core family spelled as the family (uncore_imc/cas_count_read/):
					 1 + the box's index; the boxes' rows are summed into one after the measurement
					 (engine/uncore.c) unless --no-merge */
	double scale;                 /* the sysfs alias's .scale (pmu/uncore.h), 0 when none: shown as a metric */
	char unit[16];                /* its .unit ("MiB", "Joules"), "" when none */
};

enum pmc_resolve_code {
	PMC_RESOLVE_OK = 0,
	PMC_RESOLVE_UNKNOWN,     /* no such event: suggestions may be filled */
	PMC_RESOLVE_SYNTAX,      /* malformed spec (bad modifier, bad number, unbalanced '/') */
	PMC_RESOLVE_UNSUPPORTED, /* well formed, names something this machine cannot encode (e.g. PMU absent) */
	PMC_RESOLVE_TOOLONG,     /* longer than PMC_MAX_SPEC_LEN / PMC_NAME_MAX */
};

#define PMC_MAX_SUGGEST 3

struct pmc_resolve_error {
	enum pmc_resolve_code code;
	char msg[512];                                 /* one line: names the input and says what is wrong */
	char suggest[PMC_MAX_SUGGEST][PMC_NAME_MAX];   /* nearest valid names, best first */
	int nsuggest;
};

/* Vendor event tables (src/tables) in name resolution: names are looked up there before libpfm4, the tables loaded
 * on the first name that needs them (once per process). pmc_pmu_tables_dir gives the --tables DIR searched first:
 * 0, or -EBUSY once the tables were loaded. pmc_pmu_tables: the tables (loaded now if not yet; NULL out of memory).
 * pmc_pmu_table_event: name (no ':') from the tables into ev as a raw core event with its source; 0 or -ENOENT. */
struct pmc_tables;
int pmc_pmu_tables_dir(const char *dir);
const struct pmc_tables *pmc_pmu_tables(void);
/* The tables when a name made pmctool load them, else NULL (never loads them: the report's environment). */
const struct pmc_tables *pmc_pmu_tables_loaded(void);
int pmc_pmu_table_event(const char *name, struct pmc_event *ev);
/* The same for core PMU unit ("cpu_core", "cpu_atom": a hybrid table's entry of that core type; NULL: the first
 * entry, and a name only one core type has is given that PMU's type, so it is counted there alone). */
int pmc_pmu_table_event_on(const char *name, const char *unit, struct pmc_event *ev);

/* Initialize libpfm4 once (idempotent). 0, or -errno with a message in err (may be NULL). */
int pmc_pmu_init(char *err, size_t errlen);
/* A named libpfm4 core PMU (encode --pmu skl) taken as LIBPFM_FORCE_PMU=skl would be, when the arch knows its model
 * (pmc_arch_tables_cpuid): that model's vendor tables apply and a name is tried in every spelling, table first. Before
 * pmc_pmu_init, and not when LIBPFM_FORCE_PMU is set. 1 when taken, 0 otherwise (another PMU: look names up in it). */
int pmc_pmu_force_core(const char *pmu);
/* The encoding libpfm4 alone gives name (its own spelling, or perf's rewritten: pmu/perfname.c), to show beside a
 * vendor table's: 0 with *ret, or -ENOENT. */
int pmc_event_libpfm_only(const char *name, struct pmc_event *ret);
void pmc_pmu_fini(void);

/* Fixed counters of the core PMU whose encodings are in use (the arch seam's struct pmc_arch_core_id): a forced
 * libpfm4 PMU's (LIBPFM_FORCE_PMU) table value when the table is Intel's, whatever the host; else this CPU's live
 * count (x86: CPUID 0xA on Intel; libpfm4 is not started); 0 on AMD, arm64 and without a count. */
unsigned pmc_pmu_fixed_counters(void);

/* True when that PMU has fixed counters (Intel's: the name is kept for its callers). */
bool pmc_pmu_has_intel_fixed(void);
/* The architecture's counter for cycles only (arm64's PMCCNTR_EL0), planned as fixed counter 1: cycles events are
 * PMC_CLASS_FIXED there. */
bool pmc_pmu_cycle_counter(void);

/* The core PMU has ref-cycles: a forced PMU's table says (Intel's with fixed counters); else the kernel's core PMU
 * (pmc_arch_core_pmu_dir) lists it in sysfs (AMD's does not); without a core PMU, what the arch seam says this CPU's
 * has (an Intel CPU's). */
bool pmc_pmu_has_ref_cycles(void);

/* Why the core PMU whose encodings are in use has no generic hardware event id (PERF_COUNT_HW_*; the arch seam
 * knows each vendor's): 1 and why filled, 0 when it may have it. */
int pmc_pmu_hw_event_missing(uint64_t id, char *why, size_t len);

/* libpfm4's static table count of programmable counters of the core PMU (not live), -1 when none is active. */
int pmc_pmu_core_table_counters(void);

/* libpfm4's name of the default core PMU ("hsw", "icl", "amd64_fam19h_zen3"...), or NULL when none is active. */
const char *pmc_pmu_core_name(void);
/* A vendor table's uncore event name (unc_m_cas_count.rd) as perf's family spelling of its terms,
 * "uncore_imc/event=0x4,umask=0x3/", which the engine opens once per box of the family. 0, -ENOENT (no such table
 * uncore event), -ENAMETOOLONG. */
int pmc_pmu_table_uncore_spec(const char *name, char *spec, size_t len);
/* libpfm4 as this process finds it (pmu/ owns libpfm4; info and the environment ask here). */
#define PMC_PFM_MAX_PMUS 64
struct pmc_libpfm_facts {
	int init_rc;                 /* pfm_initialize's result (0 success) */
	char init_error[96];         /* its words when it failed */
	unsigned major, minor;       /* the library loaded at run time (not the headers'), 0.0 unknown */
	unsigned npmus;
	char pmus[PMC_PFM_MAX_PMUS][64]; /* the PMUs it detects (is_present) */
	char core[64];               /* the first present PMU of core type ("" none), its description and its */
	char core_desc[128];         /* table's counter counts (-1 when none) */
	int core_gp, core_fixed;
};
/* Start libpfm4 (once per process) and describe it. */
void pmc_pmu_libpfm_facts(struct pmc_libpfm_facts *f);
/* The libpfm4 API version loaded (pfm_get_version), without starting it: 0 and *major.*minor, or -1. */
int pmc_pmu_libpfm_version(unsigned *major, unsigned *minor);
/* The core PMU libpfm4 detects on this CPU besides forced (LIBPFM_FORCE_PMU's), asked in a child restarted without
 * it; "" when there is none (the forced PMU is this CPU's, or libpfm4 knows no table for it). */
void pmc_pmu_detected_core(const char *forced, char *buf, size_t len);
/* Whether libpfm4 has been started (and succeeded) in this process: asks, never starts it. */
bool pmc_pmu_libpfm_started(void);
/* The core PMU's libpfm4 name, else (no libpfm4 table for this CPU) the one the arch seam knows this CPU's family and
 * model to be (pmc_arch_cpu_pfm_model: amd64_fam1ah_zen5 on Zen 5 with libpfm4 4.13), else NULL. For choosing what
 * is written per CPU model (event set variants, perf's AMD names); never for encoding with libpfm4. */
const char *pmc_pmu_core_model(void);

/*
 * Resolve one event spec. Spellings (case-insensitive):
 *   libpfm4 [pmu::]EVENT[:UMASK][:mod=val]         UOPS_ISSUED:ANY:c=1, perf::INSTRUCTIONS
 *   perf generic names                              cycles, instructions, ref-cycles, branches, branch-misses,
 *                                                   cache-references, cache-misses, task-clock, cpu-clock, page-faults,
 *                                                   minor-faults, major-faults, context-switches, cpu-migrations
 *   sysfs PMU syntax                                msr/tsc/, cpu/event=0x0e,umask=0x01,cmask=1,inv/
 *   raw                                             r53010e
 *   test-bench (libpfc) spelling                    uops_issued.any, uops_issued.any>=2, uops_issued.any<1,
 *                                                   *uops_issued.any>=1 (edge), br_inst_exec.0x81
 *   hardware cache events                           L1-dcache-load-misses, LLC-loads, dTLB-store-misses (perf's)
 *   tracepoints (tracefs)                           sched:sched_switch, syscalls:sys_enter_write
 *   hardware breakpoints                            mem:0x401000[:x|r|w|rw][/len], mem:0x401000:xu
 *   perf's modifiers                                :u :k :h (levels, combined), :G :H (guest/host only), :I (not
 *                                                   idle), :p..:ppp :P :S :D (accepted; pmc_event_note says why
 *                                                   counting ignores them)
 * On failure returns a negative errno-style value and fills err (err may be NULL). Never writes *ret on failure.
 */
int pmc_event_resolve(const char *spec, struct pmc_event *ret, struct pmc_resolve_error *err);

/* One event of an -e list, as pmc_event_list_walk hands it over. */
struct pmc_spec_item {
	const char *spec;       /* the event, trimmed; valid during the callback */
	unsigned group;         /* 0, or the group number (1 + the groups before it, counted by *next_group) */
	const char *group_mods; /* the modifiers after the group's '}' ("u", "W", "uW"), "" when none */
	bool leader;            /* the group's first member */
};

/*
 * Split an -e list into events: commas inside pmu/terms/ do not split, and perf's groups {a,b}[:mods] hand their
 * members over with a group number. next_group (may be NULL) counts groups across several lists. Stops at the first
 * non-zero cb return and returns it; -EINVAL for a malformed list, -E2BIG for one longer than PMC_MAX_LIST_LEN or an
 * event longer than PMC_NAME_MAX, each with a one-line message in err (may be NULL).
 */
int pmc_event_list_walk(const char *list, unsigned *next_group, int (*cb)(const struct pmc_spec_item *item, void *ctx),
			void *ctx, char *err, size_t errlen);

/* Applies a group's modifiers to a resolved member (u/k levels, W marks it weak). 0, or -EINVAL with why. */
int pmc_event_group_mods(const char *mods, struct pmc_event *ev, char *why, size_t whylen);

/* A note on how counting treats ev: its modifiers (:p, :S, :D), 1 and buf filled; an event no counter can count
 * (PMC_EVF_ABSENT) or one that cannot be what its name says (PMC_EVF_SUSPECT), 2 (a warning) and buf says why; 0 when
 * there is nothing to say. */
int pmc_event_note(const struct pmc_event *ev, char *buf, size_t len);

/* The i-th of perf's hardware cache names (L1-dcache-loads...), perf's own spellings only. 0 or -ENOENT past the
 * end. */
int pmc_cache_name_at(size_t i, char *buf, size_t len);

/* The i-th generic perf name (aliases included) and the event it names; -ENOENT past the end. canonical: perf's own
 * name of that event (the alias's target). */
int pmc_generic_at(size_t i, const char **name, const char **canonical, bool *software);

/* name is a libpfm4 PMU (case-insensitive): 0, or -ENOENT with a message naming the nearest valid PMUs in err (starts
 * libpfm4). Under a valid LIBPFM_FORCE_PMU libpfm4 knows only the forced table, so only that name passes. */
int pmc_pmu_name_check(const char *name, char *err, size_t errlen);

/* A list PATTERN written as an event (UOPS_ISSUED:ANY, hsw::UOPS_ISSUED:ANY:c=1, uops_issued.any): its event and
 * umask parts, each "" when the pattern is not such a spelling (a glob, a plain word). Needs libpfm4 started. */
void pmc_event_pattern_parts(const char *pattern, char *event, char *umask, size_t len);

/* Calls cb with each tracepoint name (SYSTEM:EVENT) under tracefs, sorted; 0 when tracefs is absent. Stops at the
 * first non-zero return and returns it. */
int pmc_tracepoint_walk(int (*cb)(const char *name, void *ctx), void *ctx);
/* tracefs' events directory when it exists but this user may not read it (tracefs mounted 0700), else NULL. */
const char *pmc_tracefs_unreadable(void);

/*
 * Split a comma-separated -e list into specs, respecting commas inside pmu/.../ terms (groups' braces dropped).
 * Calls cb for each non-empty trimmed spec; stops at the first non-zero return and returns it.
 * Returns -EINVAL for an unbalanced '/', -E2BIG when list is longer than PMC_MAX_LIST_LEN.
 */
int pmc_event_list_split(const char *list, int (*cb)(const char *spec, void *ctx), void *ctx);

/* perf's spelling of an event ("cpu/event=0x0e,umask=0x01,cmask=1,inv/", "r1d3010e", "msr/tsc/", "cycles").
 * Writes at most len bytes, NUL-terminated. 0 or -ENOSPC. */
int pmc_event_perf_spelling(const struct pmc_event *ev, char *buf, size_t len);

/*
 * Reverse of resolving a raw code: calls cb with each libpfm4 name ("ivb::UOPS_EXECUTED:THREAD", with :c=N, :i=1,
 * :e=1, :t=1 and :u/:k as needed) of PMU pmu (libpfm4's name; NULL: the core PMU) whose encoding equals config.
 * The USR/OS/INT/EN bits of config are ignored except for choosing :u/:k. An inactive PMU is searched only when
 * LIBPFM_ENCODE_INACTIVE=1 was set before pmc_pmu_init. Stops at the first non-zero cb return and returns it;
 * otherwise returns the number of names found (0: none), or -ENODEV (libpfm4 has no such PMU active) / -ENOENT.
 */
int pmc_event_decode(uint64_t config, const char *pmu, int (*cb)(const char *name, void *ctx), void *ctx);

/* The same with config1 (FRONTEND_RETIRED's frontend, OFFCORE_RESPONSE's offcore_rsp, the load latency's ldlat):
 * exact1, the names whose encoding has that config1 too (with :ldlat=N / :fe_thres=N, or several umasks of an
 * offcore event, up to 4, as needed); otherwise every name of that config, each that needs a config1 written
 * "NAME (config1=0x11)". */
int pmc_event_decode_config1(uint64_t config, uint64_t config1, bool exact1, const char *pmu,
			     int (*cb)(const char *name, void *ctx), void *ctx);

/* libpfm4's release ("4.13.0") into buf: the shared object loaded ("shared"), else the one the build linked statically
 * ("static"); NULL (buf "") when neither is known. */
const char *pmc_pfm_release(char *buf, size_t len);

#endif
