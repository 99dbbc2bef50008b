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
};

#define PMC_BREAKPOINT_SLOTS 4

enum pmc_event_flags {
	PMC_EVF_TSC = 1u << 0,      /* msr/tsc/: the time-stamp counter */
	PMC_EVF_TIME_NS = 1u << 1,  /* value is nanoseconds (task-clock, cpu-clock): shown as msec */
	PMC_EVF_ANCHOR = 1u << 2,   /* added by pmctool to every batch (instructions, cycles, ref-cycles, tsc) */
	PMC_EVF_HARDWARE = 1u << 3, /* needs the CPU's PMU (PERF_TYPE_HARDWARE, _RAW, _HW_CACHE or the core PMU's type) */
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

/* Initialize libpfm4 once (idempotent). 0, or -errno with a message in err (may be NULL). */
int pmc_pmu_init(char *err, size_t errlen);
void pmc_pmu_fini(void);

/* Fixed counters of the core PMU whose encodings are in use: a forced libpfm4 PMU's (LIBPFM_FORCE_PMU) table value,
 * else CPUID 0xA on Intel (libpfm4 is not started); 0 on AMD, arm64 and without a count. */
unsigned pmc_pmu_fixed_counters(void);

/* True when that PMU is Intel and has fixed counters. */
bool pmc_pmu_has_intel_fixed(void);

/* The core PMU has ref-cycles: a forced PMU's vendor; else the kernel's core PMU lists it in sysfs (AMD's does not);
 * without a core PMU, an Intel CPU. */
bool pmc_pmu_has_ref_cycles(void);

/* libpfm4's static table count of programmable counters of the core PMU (not live), -1 when none is active. */
int pmc_pmu_core_table_counters(void);

/* libpfm4's name of the default core PMU ("hsw", "icl", "amd64_fam19h_zen3"...), or NULL when none is active. */
const char *pmc_pmu_core_name(void);

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
 *   hardware breakpoints                            mem:0x401000[:x|r|w|rw][/len]
 *   modifiers                                       :u (user only), :k (kernel only)
 * On failure returns a negative errno-style value and fills err (err may be NULL). Never writes *ret on failure.
 */
int pmc_event_resolve(const char *spec, struct pmc_event *ret, struct pmc_resolve_error *err);

/*
 * Split a comma-separated -e list into specs, respecting commas inside pmu/.../ terms.
 * Calls cb for each non-empty trimmed spec; stops at the first non-zero return and returns it.
 * Returns -EINVAL for an unbalanced '/', -E2BIG when list is longer than PMC_MAX_SPEC_LEN.
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

#endif
