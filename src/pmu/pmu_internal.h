/* SPDX-License-Identifier: MIT */
/* Internal interfaces between the resolver's parts: libpfm4, generic names, sysfs, test-bench spelling,
 * suggestions. */
#ifndef PMC_PMU_INTERNAL_H
#define PMC_PMU_INTERNAL_H

#include <stdint.h>

#include <stdbool.h>
#include <stddef.h>

struct pmc_event;          /* pmu/event.h: not included, so that event.c may include this without a circle */
struct pmc_resolve_error;
/* after linux/perf_event.h, so libpfm4 does not redefine the perf ABI */
#include <linux/perf_event.h> /* before libpfm4's copy of it, which yields to the kernel's */
#include <perfmon/pfmlib_perf_event.h>

/* Bits of an x86 PERFEVTSEL the kernel takes from exclude_* / manages itself (USR 16, OS 17, INT 20, EN 22). */
#define PMC_X86_PLM_BITS ((1ull << 16) | (1ull << 17) | (1ull << 20) | (1ull << 22))
#define PMC_X86_USR (1ull << 16)
#define PMC_X86_OS (1ull << 17)

/* True once pfm_initialize() succeeded with at least one PMU. */
bool pmc_pmu_libpfm_ready(void);

/* Encode a libpfm4 string for perf_event; fstr receives libpfm's fully qualified name. Returns a PFM_* code. */
int pmc_libpfm_encode(const char *str, struct perf_event_attr *attr, char *fstr, size_t fstrlen);

/* Message for a libpfm4 error code. */
const char *pmc_libpfm_strerror(int code);

/* One meaning for exclude bits whatever the source: hv follows kernel, guest is counted. */
void pmc_event_normalize_excl(struct perf_event_attr *a);

/* Classify a core-PMU config (raw x86 encoding): FIXED for the plain encodings the kernel can put on a fixed
 * counter. */
void pmc_event_classify_core(struct pmc_event *ev);

/* Why a PMC_EVF_ABSENT or PMC_EVF_SUSPECT event is flagged, into why: 1, or 0 (why empty) when it is not. */
int pmc_event_why_flagged(const struct pmc_event *ev, char *why, size_t len);

/* Raw core encodings (rHEX, cpu/config=../): the kernel ignores the USR/OS/INT/EN bits of config, so drop them and,
 * when USR or OS is given, turn them into exclude_user / exclude_kernel. */
void pmc_event_raw_plm(struct perf_event_attr *a);
/* perf's bare name of a core PMU event the kernel lists in sysfs (Intel: slots, topdown-retiring...), by the rules of
 * the core PMU in use (pmc_arch_core_id.alias): 0 with ev a raw core event, or -ENOENT. */
int pmc_pmu_core_alias(const char *name, struct pmc_event *ev);

/* Fill err with up to PMC_MAX_SUGGEST entries of directory dir nearest to input, each written as fmt % name. The
 * input itself is never suggested. */
void pmc_suggest_dir(const char *dir, const char *input, const char *fmt, struct pmc_resolve_error *err);
/* The same, only entries that hold the path need (a tracepoint's "id"). */
void pmc_suggest_dir_having(const char *dir, const char *input, const char *fmt, const char *need,
			    struct pmc_resolve_error *err);

/* Sets ev->name from spec (truncating never happens: the caller checked the length). */
void pmc_event_init(struct pmc_event *ev, const char *spec);

/* Fill err: code, and a printf-style one-line message. Returns the negative errno given. */
int pmc_resolve_fail(struct pmc_resolve_error *err, int code, int neg_errno, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Generic perf names. 0 and *ev filled (type, config, cls, flags, canonical), or -ENOENT. */
int pmc_generic_lookup(const char *name, struct pmc_event *ev);
/* The perf name of a generic event, or NULL. */
const char *pmc_generic_name(uint32_t type, uint64_t config);
/* The i-th generic name (aliases included), NULL past the end: used for suggestions. */
const char *pmc_generic_name_at(size_t i);

/* sysfs PMU syntax pmu/terms/[:mods]. */
int pmc_sysfs_resolve(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err);
/* The event_source devices directory: $PMCTOOL_SYSFS_ROOT/bus/event_source/devices, or /sys/bus/event_source/devices.
 * Not reentrant (a static buffer). */
const char *pmc_event_source_dir(void);

/* Test-bench (libpfc) spelling -> libpfm4 string. 0, -EINVAL (not that syntax / malformed), -ENOENT (no such event). */
int pmc_testbench_to_libpfm(const char *spec, char *out, size_t len);

/* perf's names libpfm4 spells otherwise (perfname.c): 0 and ev filled, -ENOENT not such a name (err untouched), or
 * another -errno with err saying the spelling that works. */
int pmc_perfname_resolve(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err);

/* Parse user/kernel modifier letters ("u", "k", "uk"). 0 or -EINVAL. */
int pmc_apply_plm_mods(const char *mods, struct perf_event_attr *a);

/* True when s is made only of perf's modifier letters (u k h G H I p P S D W, and U K). */
bool pmc_mods_word(const char *s);
/* Applies perf's modifier letters to ev (levels to attr; G/H/p/S/D to flags). 0, or -EINVAL with why filled. */
int pmc_apply_mods(const char *mods, struct pmc_event *ev, char *why, size_t whylen);

/* Hardware cache names: 0 and ev filled, or -ENOENT. pmc_cache_name: perf's name of a PERF_TYPE_HW_CACHE config. */
int pmc_cache_lookup(const char *name, struct pmc_event *ev);
int pmc_cache_name(uint64_t config, char *buf, size_t len);

/* tracefs: its root (PMCTOOL_TRACEFS, /sys/kernel/tracing, /sys/kernel/debug/tracing) or NULL; SYSTEM:EVENT shape;
 * lookup: 0 and ev filled, -ENOENT (quiet: nothing in err), or another -errno with err filled. */
const char *pmc_tracefs_root(void);
bool pmc_tracepoint_shaped(const char *spec);
int pmc_tracepoint_lookup(const char *spec, struct pmc_event *ev, struct pmc_resolve_error *err, bool quiet);

/* Fill err->suggest / nsuggest with the nearest valid names to input. */
void pmc_suggest(const char *input, struct pmc_resolve_error *err);
void pmc_suggest_fini(void);

#endif
