/* SPDX-License-Identifier: MIT */
/*
 * The architecture seam: every CPU-specific fact pmctool uses, behind a few hooks. One folder per architecture
 * (src/arch/x86_64, src/arch/aarch64) fills them; src/arch/default.c gives every hook a weak default, so
 * src/arch/generic keeps any other architecture building with nothing but its name (no kernels, no in-process counter
 * reads: read() only). No file outside src/arch tests __x86_64__ or __aarch64__.
 *
 * The hot-path hooks are static inline (arch_inline.h of the architecture), the rest are functions in its arch.c:
 *   pmc_arch_timer_begin/end()  the region timer, ordered against the measured code (TSC, CNTVCT_EL0, ...)
 *   pmc_arch_timer_now()        the same timer unordered (the perf page's time extrapolation)
 *   pmc_arch_fence()            no later instruction starts before the earlier ones complete
 *   pmc_arch_counter_read(idx)  the in-process counter read of a perf mmap page's index (index >= 1)
 *   pmc_arch_counter_is_count(idx) whether that read yields a count (x86 top-down metrics do not)
 *   pmc_arch_reader_of(idx), pmc_arch_reader_read(r)  the same read split in two: prepare once per index, read often
 *   PMC_ARCH_USER_READ          1 when pmc_arch_counter_read is a real instruction on this architecture
 *   pmc_arch_store_pair(dst, a, b)  two pointers stored at once as a signal handler of the same thread sees them
 */
#ifndef PMC_ARCH_ARCH_H
#define PMC_ARCH_ARCH_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PMC_ARCH_GENERIC (meson -Darch=generic) builds the unported fallback on any CPU. PMC_ARCH_X86_64 and
 * PMC_ARCH_AARCH64 say which port is built, for code and tests that depend on it. */
#if defined(__x86_64__) && !defined(PMC_ARCH_GENERIC)
#define PMC_ARCH_X86_64 1
#include "arch/x86_64/arch_inline.h"
#elif defined(__aarch64__) && !defined(PMC_ARCH_GENERIC)
#define PMC_ARCH_AARCH64 1
#include "arch/aarch64/arch_inline.h"
#else
#include "arch/generic/arch_inline.h"
#endif

/* Architectures without a chain of counter reads (arm64 has one, arch_inline.h): the region library reads its
 * counters one by one. pmc_arch_chain_of(index, slot) prepares counter index's read for slot slot of the chain,
 * pmc_arch_chain_read(c, n, out) reads n counters (n <= PMC_ARCH_CHAIN_MAX) into out. */
#ifndef PMC_ARCH_CHAIN_MAX
#define PMC_ARCH_CHAIN_MAX 0

static inline pmc_arch_reader pmc_arch_chain_of(uint32_t index, int slot)
{
	(void)slot;
	return pmc_arch_reader_of(index);
}

static inline void pmc_arch_chain_read(const pmc_arch_reader *c, const int n, uint64_t *out)
{
	for (int k = 0; k < n; k++)
		out[k] = pmc_arch_reader_read(c[k]);
}
#endif

/* A counter's read stored to memory (x86 stores RDPMC's two halves without combining them: arch_inline.h). */
#ifndef PMC_ARCH_READER_STORE
static inline void pmc_arch_reader_store(pmc_arch_reader r, uint64_t *dst)
{
	*dst = pmc_arch_reader_read(r);
}
#endif

/* Architectures that name no counter in an instruction (arm64 does: arch/aarch64/layout.h): no direct reads. */
#ifndef PMC_ARCH_DIRECT_MAX
#define PMC_ARCH_DIRECT_MAX 0

static inline int pmc_arch_direct_layout(const uint32_t *index, int n)
{
	(void)index;
	(void)n;
	return -1;
}

static inline uint64_t pmc_arch_direct_read(int layout, int k)
{
	(void)layout;
	(void)k;
	return 0;
}
#endif

/* The architecture pmctool was built for: "x86_64", "aarch64", or the compiler's name for another. */
const char *pmc_arch_name(void);

/* The CPU's identity in architecture-neutral terms (the x86 CPUID details stay in arch/x86_64/cpuid.h). */
struct pmc_arch_cpu {
	char vendor[48];        /* "GenuineIntel", "AuthenticAMD"; on arm64 the implementer's name ("ARM", "Ampere") */
	char name[128];         /* display name: /proc/cpuinfo model name, or "ARM Cortex-A57" from the MIDR part */
	unsigned family, model, stepping; /* x86 display values; 0 elsewhere */
	uint32_t midr;          /* arm64 MIDR_EL1; 0 unknown or not arm64 */
	unsigned implementer, variant, part, revision; /* arm64 MIDR fields */
	bool hypervisor;        /* known to run under a hypervisor */
	const char *source;     /* where the identity came from ("cpuid", "/proc/cpuinfo", "midr_el1 (sysfs)", NULL) */
};

/* Identify the running CPU (cached: later calls are free). Fills what is known; never fails. */
void pmc_arch_cpu_identify(struct pmc_arch_cpu *ret);

/* The CPUID string the vendor tables' mapfiles match (src/tables, doc/tables.md), in perf's spelling: x86
 * "GenuineIntel-6-55-4" (family decimal, model and stepping upper-case hex), arm64 the MIDR as "0x%016x". A forced
 * libpfm4 PMU (LIBPFM_FORCE_PMU) gives the CPUID of that model where the port knows one (x86_64/tables_cpuid.c);
 * *ret_from says where the string came from ("cpuid", "midr_el1", "LIBPFM_FORCE_PMU"). 0, or -ENOENT: none (an
 * unported architecture, an unknown CPU, a forced PMU with no known model; the tables are then not read unless
 * PMCTOOL_CPUID names one). */
int pmc_arch_tables_cpuid(char *buf, size_t len, const char **ret_from);

/* The region timer: its name in reports ("TSC", "CNTVCT") and its rate in Hz with the source of that rate.
 * 0, or -ENODEV when the rate cannot be known. Cached. */
const char *pmc_arch_timer_name(void);
int pmc_arch_timer_hz(double *ret_hz, const char **ret_source);

/* How the region timer is read, for reports ("lfence; rdtsc", "isb; mrs CNTVCT_EL0"). */
const char *pmc_arch_timer_how(void);

/* The in-process counter read, for reports ("RDPMC", "mrs PMEVCNTR<n>_EL0"); NULL when the architecture has none. */
const char *pmc_arch_user_read_name(void);

/* Prepare an attr for in-process reads (arm64: the config1 bit of the core PMU's sysfs `rdpmc` format term, when the
 * event is on the core PMU). Leaves other attrs alone. */
void pmc_arch_selfread_attr(struct perf_event_attr *attr);

/* Why in-process reads are off on this machine although the page may say otherwise (arm64: sysctl
 * kernel.perf_user_access is 0), written to why; 0 when nothing is known against them, -EPERM when they are off,
 * -ENODEV without a core PMU, -EOPNOTSUPP when the architecture or kernel has none. */
int pmc_arch_user_read_blocked(char *why, size_t whylen);

/* The kernel's core PMU directory ($sysfs/bus/event_source/devices/NAME) into buf: x86 cpu, cpu_core, cpu_atom;
 * arm64 armv8_pmuv3* or another PMU with a cpus/cpumask file, format/event and events/; on every architecture, when
 * none of its own names is there, the first PMU pmc_arch_core_pmu says is a core one. 0, or -ENODEV. */
int pmc_arch_core_pmu_dir(char *buf, size_t len);

/* The kernel has a core PMU (pmc_arch_core_pmu_dir finds one). Kept per sysfs root (PMCTOOL_SYSFS_ROOT). */
bool pmc_arch_has_core_pmu(void);

/* Whether sysfs PMU name (its directory dir under $sysfs/bus/event_source/devices; NULL when sysfs has none) is one the
 * kernel uses for the CPU's cores, so that its events are core events, planned, grouped and anchored like rNN: x86
 * cpu, cpu_core, cpu_atom; arm64 armv8_pmuv3_0, armv8_cortex_a72, ...; and on every architecture a PMU whose type is
 * PERF_TYPE_RAW or whose directory has a cpus file (the kernel writes one for core PMUs, cpumask for uncore ones). */
bool pmc_arch_core_pmu(const char *name, const char *dir);

/* Whether the core PMU whose encodings are in use lacks the generic hardware event id (PERF_COUNT_HW_*, the kernel's
 * own map of that PMU): 1 and why filled (x86: ref-cycles is Intel's fixed counter 2, which AMD's PMU does not have;
 * arm64: the armv8 PMU maps no reference cycles), 0 when it may have it. ref_cycles: that PMU has Intel's reference
 * cycles (struct pmc_arch_core_id's, of a forced libpfm4 PMU, else of this CPU); pmu: its libpfm4 name, NULL for this
 * CPU's own. */
int pmc_arch_hw_event_missing(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len);

/* Where the core PMU in use puts a core event: a generic hardware event (attr type PERF_TYPE_HARDWARE) or an encoding
 * (PERF_TYPE_RAW or the core PMU's own type). */
struct pmc_arch_placement {
	int fixed_index; /* the fixed counter (Intel's, or arm64's cycle counter as 1), -1 for a programmable one */
	bool fixed_only; /* the encoding fits only that fixed counter (Intel's pseudo-encodings 0x0N00) */
	bool no_counter; /* read through its group's leader, on no counter of its own (Intel's PERF_METRICS fields,
			  * event 0x00 umask 0x80..0x87, beside the slots fixed counter) */
};

/* This host's placement rules: fills *ret for attr a on a core PMU with nfixed fixed counters (pmc_pmu_fixed_counters),
 * the encoding coming from libpfm4 name name ("icl::TOPDOWN:...", "" for a raw one or a generic event; x86 places
 * the generic instructions, cycles and ref-cycles on Intel's fixed counters 0, 1 and 2 when nfixed is not 0, the
 * last there only). 0; 1 with why filled when it is counted but cannot be
 * what its name says (x86: a fixed counter's pseudo-encoding under another event's name, a table error); -1 with why
 * filled when no counter can take it (x86: event 0x00 that names no fixed counter of the PMU). why may be NULL. */
int pmc_arch_core_placement(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			    struct pmc_arch_placement *ret, char *why, size_t len);

/* A core PMU's placement rules, in pmc_arch_core_placement's shape: attr type PERF_TYPE_HARDWARE (a generic event:
 * x86 puts instructions, cycles and ref-cycles on Intel's fixed counters 0, 1 and 2, arm64 cycles on its cycle
 * counter) or PERF_TYPE_RAW / the core PMU's own (a raw encoding). */
typedef int pmc_arch_place_fn(const struct perf_event_attr *a, unsigned nfixed, const char *name,
			      struct pmc_arch_placement *ret, char *why, size_t len);

/* A core PMU's map of the generic hardware events, in pmc_arch_hw_event_missing's shape. */
typedef int pmc_arch_missing_fn(uint64_t id, bool ref_cycles, const char *pmu, char *why, size_t len);

/* A core PMU as the seam knows it: the libpfm4 table whose encodings are in use, or this CPU's own. */
struct pmc_arch_core_id {
	const char *vendor;       /* "Intel", "AMD", "Arm"; NULL: no port knows it */
	unsigned nfixed;          /* fixed counters its rules place events on (Intel's; 0 for AMD, arm64, unknown) */
	bool ref_cycles;          /* it has the generic ref-cycles event (Intel's fixed counter 2) */
	pmc_arch_place_fn *place; /* its vendor's placement rules; NULL: this host's (pmc_arch_core_placement) */
	pmc_arch_missing_fn *missing; /* its vendor's generic event map; NULL: this host's (pmc_arch_hw_event_missing) */
	/* perf's names of the PMU's own events that the kernel lists in sysfs, spelt bare (x86 Intel with PERF_METRICS:
	 * slots, topdown-retiring...): 0 with the raw config, or -ENOENT; NULL: none */
	int (*alias)(const char *name, unsigned nfixed, uint64_t *config);
};

/* Whether libpfm4 PMU name (desc its description, table_fixed its table's num_fixed_cntrs; a PFM_PMU_TYPE_CORE one)
 * is a CPU's core PMU (libpfm4's generic perf and perf_raw are not), and what it is in *ret. Decided by the table's
 * identity, never by the host: a forced Intel PMU (LIBPFM_FORCE_PMU) keeps Intel's fixed counters on any host, a
 * forced AMD one has none. The weak default asks the ports' pure recognizers, built everywhere (x86_64/fixed.c:
 * amd64* is AMD, a table libpfm4 describes as Intel's is Intel; aarch64/arm64.c: arm_* is Arm's, its cycle counter). */
bool pmc_arch_pfm_core(const char *name, const char *desc, int table_fixed, struct pmc_arch_core_id *ret);

/* perf's name of a core event that no libpfm4 name spells (AMD's PPR mnemonics: ex_ret_instr, ls_dispatch.ld_dispatch,
 * de_src_op_disp.all), for the libpfm4 core PMU pfm (amd64_fam19h_zen4...): its raw config. By the table's identity,
 * the same on every host. 0; -ENOENT unknown; -ENODEV a name of another generation only. The weak default asks the
 * ports' pure tables (x86_64/amd_names.c). */
int pmc_arch_pfm_perf_name(const char *pfm, const char *name, uint64_t *config);
/* The libpfm4 core table this CPU's family and model stand for, known by the arch seam (CPUID) whether or not this
 * libpfm4 has the table: on AMD family 0x1A "amd64_fam1ah_zen5", which libpfm4 4.13 lacks, so perf's AMD names and
 * the raw encodings still work there. NULL when the port knows no such table for this CPU (the weak default). */
const char *pmc_arch_cpu_pfm_model(void);

/* This CPU's core PMU in the same terms (used when no libpfm4 PMU is forced): x86 an Intel CPU's fixed counters
 * (pmc_arch_fixed_counters) and ref-cycles, AMD neither; arm64 the cycle counter. The weak default: the host's
 * pmc_arch_fixed_counters and pmc_arch_core_placement, no ref-cycles. */
void pmc_arch_cpu_core(struct pmc_arch_core_id *ret);

/* A core PMU's format terms (the text of its sysfs format/NAME files) where sysfs has no directory for it. */
struct pmc_arch_format_term {
	const char *term;      /* "event" */
	const char *format;    /* "config:0-7" */
};

struct pmc_arch_format {
	const char *const *pmus;                 /* the sysfs names it stands in for (NULL-terminated): cpu, cpu_core */
	const struct pmc_arch_format_term *terms;
	size_t nterms;
};

/* The builtin layout of the core PMU whose libpfm4 name is pfm_core (NULL: unknown, the default layout): today x86's
 * (Intel's architectural terms, AMD's for an amd64 libpfm4 PMU), the same on every host because a forced x86 libpfm4
 * PMU encodes with it anywhere (defined once, in arch/x86_64/format.c, built everywhere). pmu/sysfs.c resolves
 * cpu/event=..,umask=../ with it when sysfs has no such PMU; pmu/spelling.c spells core events in its terms. */
const struct pmc_arch_format *pmc_arch_core_format(const char *pfm_core);

/* A core type of the architecture's hybrid CPUs: its sysfs core PMU, the libpfm4 table that encodes for it, its
 * name in reports. */
struct pmc_arch_hybrid {
	const char *pmu;       /* "cpu_atom" */
	const char *pfm;       /* "adl_grt" */
	const char *label;     /* "E-core" */
};

/* The core types of this architecture's hybrid CPUs in the order perf lists them, in *ret; how many (0: none). */
size_t pmc_arch_hybrid_pmus(const struct pmc_arch_hybrid **ret);

/* Whether the counter budget is learnt from the kernel (open a group until it refuses) rather than reasoned from the
 * CPU's own report (x86 CPUID, with the NMI watchdog and SMT rules): true on arm64 and unported architectures. */
bool pmc_arch_budget_from_kernel(void);

/* What the counter budget depends on beside the CPU's own report, gathered outside arch/ (sysfs, procfs, libpfm4). */
struct pmc_budget_facts {
	bool has_kernel_pmu;         /* a kernel core PMU driver exists */
	int smt_active;              /* 1 on, 0 off, -1 unknown */
	int nmi_watchdog;            /* /proc/sys/kernel/nmi_watchdog: 1 on, 0 off, -1 unknown */
	int tsx_force_abort;         /* the core PMU's allow_tsx_force_abort: 0, 1, or -1 absent */
	unsigned (*table_gp)(void);  /* libpfm4's static counter count for the core PMU, asked only when the CPU reports
					no live count (starting libpfm4 costs ~0.5 ms); NULL or 0: unknown */
};

/* The programmable counters one batch may use, reasoned from the CPU's report and the facts (x86: CPUID, the NMI
 * watchdog, SMT before Ice Lake, TSX force abort), with the reasoning as '\n'-separated lines in why (may be NULL).
 * 0; -ENODEV (why says so) when there is no kernel PMU or no count is known; -EOPNOTSUPP where the budget is learnt
 * from the kernel instead (pmc_arch_budget_from_kernel). */
int pmc_arch_counter_budget(const struct pmc_budget_facts *f, unsigned *ret_n, char *why, size_t whylen);

/* The budget of a forced libpfm4 PMU (LIBPFM_FORCE_PMU) where the host has no PMU to ask: its static table, read the
 * way a live count would be (AMD 6; Intel 8 since Ice Lake, 4 per thread before it with SMT assumed on). name is
 * libpfm4's PMU name; intel: the table has Intel's fixed counters (pmc_pmu_has_intel_fixed). The same on every host
 * (the table is another CPU's): defined once, in arch/x86_64/budget.c, built everywhere. 0, or -ENODEV when the table
 * says nothing. */
int pmc_arch_forced_pmu_budget(const char *name, bool intel, unsigned table_gp, unsigned *ret_n, char *why,
			       size_t whylen);

/* The counters besides the programmable ones, for `info` ("the cycle counter (PMCCNTR_EL0, cycles only)"); NULL when
 * the budget text says it already. */
const char *pmc_arch_extra_counters(void);

/* Instruction-set extensions a kernel needs (CPU support and OS-enabled register state): an ISA fact, so it lives
 * with the architecture; kernels/kernels.h's tables name them. */
enum pmc_isa {
	PMC_ISA_AVX = 1u << 0,
	PMC_ISA_AVX2 = 1u << 1,
	PMC_ISA_FMA = 1u << 2,
	PMC_ISA_AVX512F = 1u << 3,
};

/* The fixed counters of this CPU's core PMU beside the programmable ones, as the CPU reports them live (x86: Intel's
 * CPUID 0xA EDX[4:0] or its v5 bitmap, version 2 and later); 0 where the architecture has none or names none. */
unsigned pmc_arch_fixed_counters(void);

/* The CPU's nominal (base) frequency in Hz where the CPU reports it (x86 CPUID 0x16). 0, or -ENODEV. */
int pmc_arch_base_hz(double *ret_hz);

/* The rate of x86's time-stamp counter (the region timer there; what TSC_HZ and BASE_HZ mean in formulas), with the
 * source of that rate (pmc_arch_timer_hz's). 0, or -ENODEV off x86 or when the rate cannot be known. ret_source may
 * be NULL. */
int pmc_arch_tsc_hz(double *ret_hz, const char **ret_source);

/* One line of what the CPU says about itself, for `pmctool info`: its text line ("  LABEL  text") and its JSON member
 * ("key":value, in info's "cpu" object or, with top, in the document's top level). Architecture-neutral: the
 * architecture decides what to show (x86: CPUID's identity and counter leaves; arm64: the MIDR). */
struct pmc_arch_fact {
	const char *label;    /* the text line's label; NULL: the fact is in the JSON only */
	char text[512];
	const char *key;      /* the JSON member's name; NULL: the fact is in the text only */
	bool top;             /* a member of the top-level object, not of "cpu" */
	bool json_string;     /* json is a string to write quoted and escaped; else JSON text as it is */
	char json[768];
};

#define PMC_ARCH_FACTS_MAX 24

/* Fill up to max facts about the running CPU, in the order info prints them; returns how many. */
size_t pmc_arch_describe(struct pmc_arch_fact *ret, size_t max);

/* ISA extensions the kernels use (enum pmc_isa bits) that this CPU and OS offer. */
unsigned pmc_arch_isa_have(void);
const char *pmc_arch_isa_baseline(void); /* what every kernel assumes: "x86-64 (SSE2)", "AArch64 (NEON)" */

/* The architecture's assembly kernels (kernels/kernels.h: struct pmc_kernel); n may be 0. */
struct pmc_kernel;
const struct pmc_kernel *pmc_arch_kernels(size_t *ret_n);

/* How the counter set (perf/evlist.c) may group an event, the shape of perf's arch_evsel__must_be_in_group: a
 * combination of these bits (the default, weak: PMC_GROUP_ANY, anything goes). */
enum pmc_arch_group_rule {
	PMC_GROUP_ANY = 0,
	PMC_GROUP_MUST_LEAD = 1u << 0,  /* first in its group (x86 slots): the set opens it before the others */
	PMC_GROUP_MUST_GROUP = 1u << 1, /* never alone: a refusal in its group is not tried alone */
	PMC_GROUP_NEVER = 1u << 2,      /* opened alone even when the set groups its hardware events */
};
unsigned pmc_arch_group_rule(const struct perf_event_attr *a);

/* Whether the core PMU implements the event a encodes, as far as the kernel says: 1 yes; 0 no (why filled: arm64's
 * driver lists in sysfs events/ exactly the common events the CPU's PMCEID registers say it implements, and QEMU's PMU
 * opens the others and reads 0); -1 unknown (the default, and any event the kernel does not judge). */
int pmc_arch_event_implemented(const struct perf_event_attr *a, char *why, size_t len);

#endif
