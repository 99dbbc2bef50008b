/* SPDX-License-Identifier: MIT */
/* The region library's insides (libpmctool: linked into users' programs, libc only, no libpmccore, no libpfm4).
 * rg_core.c: per-thread state, the slow paths, the API; rg_fast.h (included by rg_core.c): enter and leave's fast copies;
 * rg_events.c: event specs and the open; rg_write.c: the report at exit. */
#ifndef PMC_REGIONS_LIB_RG_INTERNAL_H
#define PMC_REGIONS_LIB_RG_INTERNAL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch/arch.h"
#include "include/pmctool.h"
#include "regions/channel.h"

#define RG_HIDDEN __attribute__((visibility("hidden")))
#define RG_EV PMCTOOL_REGION_EVENTS_MAX
/* One accumulator row more than there are regions: the calibration of the empty pair. */
#define RG_CALIB PMCTOOL_REGIONS_MAX

/* A frame's key: the region, with RG_FULL when start holds full counts. Keys are 64 bits and a leave compares its handle
 * zero-extended: no handle can match a full frame or the floor below the stack (key RG_FULL), so one comparison says
 * "the innermost frame is this region's and holds raw values of the current cache" (and no ignored enter is open). */
#define RG_FULL (UINT64_C(1) << 32)
/* On the top frame while enters beyond the depth limit are open: every leave takes the slow path, which pairs it. */
#define RG_DEEP (UINT64_C(1) << 33)
#define RG_KEY_REGION(k) ((int)(uint32_t)(k))

/* An open region. Raw (key without RG_FULL): start holds the opened counters' raw values in the cache's order, read on
 * the fast path under the current cache (every refresh turns the raw frames full first). Full: start holds every
 * event's full count (offset + sign-extended counter, or read(2)). rows: the accumulator table the leave of a region
 * entered at this frame's depth adds to, set once per frame: stack[0]'s is the top-level table, every deeper frame's
 * the nested one, so a region's top-level calls and counts stay apart from its nested ones without a branch or a
 * second sum on the leave. key, rows and the first six starts share one cache line. */
struct rg_frame {
	uint64_t key;
	uint64_t *rows;
	uint64_t start[RG_EV];
	char pad[192 - 16 - 8 * RG_EV];
};

struct rg_thread;
/* A thread maps its events' pages side by side (the event in column k at k pages from the first) when pages are this
 * large: the fast path then reaches every lock from one base register, at offsets known when it is compiled. */
#define RG_PAGE_STRIDE 4096

/* The handle first: it stays in the register the public functions got it in. */
typedef void rg_fn(int region, struct rg_thread *t);

/* The fast path's cache of every counter's page (index, offset, width), valid while the pages' locks still sum to
 * locksum: a read is then one counter read and one lock load. One array per field: on arm64 neighbours load in
 * pairs (ldp); x86 reaches any of them as a memory operand. What the leave loads comes first, within an ldp's reach
 * of the thread's address (504 bytes) with the thread's first fields. */
struct rg_cache {
	uint32_t locksum;                    /* the locks' sum (mod 2^32) when the cache was taken */
	const char *lockbase;                /* counter k's lock at lockbase + k * RG_PAGE_STRIDE, or NULL (use lock[]) */
	uint64_t mask[RG_EV];                /* its width's mask, for raw deltas (arm64: 32 bits, 64 for the cycles) */
	pmc_arch_reader chain[RG_EV];        /* its reader in the architecture's chain (arm64), slot k for counter k */
	pmc_arch_reader rd[RG_EV];           /* each counter's reader */
	const uint32_t *lock[RG_EV];         /* its page's lock, read after a compiler barrier (lock_sum) */
	bool on;                             /* every opened counter is readable in process */
	bool ident;                          /* every event that opened is in the cache: entry k is column k */
	int layout;                          /* the counters' layout for direct reads (arch_inline.h), -1 for none */
	int n;                               /* the opened counters: the arrays below are theirs, in this order */
	uint8_t map[RG_EV];                  /* their event numbers (an event that failed to open counts 0) */
	unsigned sh[RG_EV];                  /* 64 - width, for the sign extension of a raw value */
	uint64_t off[RG_EV];
};

/* One thread's state: written only by its thread; read by the report at exit (after the thread ended, or racy but
 * complete words for a thread still running then). Never freed while the process lives: the report needs it. */
struct rg_thread {
	/* the cache's enter and leave (specialized for its counters), or slow ones: a pair, always changed together by
	 * one pmc_arch_store_pair (a signal handler's enter and leave must run the same path) */
	_Alignas(16) rg_fn *enter;
	rg_fn *leave;
	struct rg_frame *top;                /* the innermost open frame; &floor when none is */
	struct rg_frame *last;               /* &stack[PMCTOOL_REGION_DEPTH_MAX - 1] */
	unsigned rmax;                       /* the highest region handle enter takes (RG_CALIB while calibrating) */
	struct rg_cache c;
	struct rg_thread *next;
	pid_t tid;
	unsigned ordinal;                    /* 0 for the first thread of the process to enter a region, 1, ... */
	int nev;
	int nopen;                           /* the events that opened at the thread's first use */
	int8_t col[RG_EV];                   /* event i's column in the rows (the events that opened, in order), -1 */
	int fd[RG_EV];                       /* -1: not opened (err[i] says why) */
	int err[RG_EV];                      /* errno of the failed open, 0 */
	bool user_only[RG_EV];               /* opened with exclude_kernel after the paranoid refusal */
	struct perf_event_mmap_page *page[RG_EV];
	void *pages;                         /* the reservation the pages are mapped into (nopen pages), or NULL */
	uint64_t deep_ignored;               /* enters ignored for depth, ever */
	uint64_t too_deep;                   /* of those, not left yet (the top frame's key has RG_DEEP meanwhile) */
	uint64_t *acc;                       /* two tables of (RG_CALIB + 1) rows [calls, v[0..nopen-1]] (by column: an
						event that did not open has none), stride words apart: the calls entered
						at depth 0, then the nested ones (rg_frame.rows) */
	unsigned stride;                     /* a row's words: the power of two >= 1 + nopen (a shift on the leave) */
	uint64_t cost[RG_EV];                /* an empty enter/leave pair as a region's own counts see it (minimum) */
	uint64_t reads_misuse, reads_syscall; /* reads by leaves that closed nothing; counters read with read(2) */
	uint64_t unmatched, invalid;         /* leaves matching no open region; enters/leaves of invalid handles */
	bool exited;                         /* the thread ended (its open frames stay as they were) */
	uint32_t holes;                      /* reservation slots whose fixed mapping failed (not this thread's now;
						in the padding before floor: the fast path's offsets stay) */
	struct rg_frame floor;               /* below stack[0]: key RG_FULL, never a handle's (a leave at depth 0) */
	struct rg_frame stack[PMCTOOL_REGION_DEPTH_MAX];
	uint64_t refused;                    /* enters/leaves refused: they interrupted the library (a signal handler)
						or came after the thread's end (after the frames: no offset moves) */
};

/* Open frames of t (at most PMCTOOL_REGION_DEPTH_MAX). */
static inline unsigned pmc_rg_depth(const struct rg_thread *t)
{
	return (unsigned)(((uintptr_t)t->top + sizeof(struct rg_frame) - (uintptr_t)t->stack) / sizeof(struct rg_frame));
}

/* The floor is the frame before stack[0]: a leave pops to it with top - 1. */
_Static_assert(offsetof(struct rg_thread, stack) == offsetof(struct rg_thread, floor) + sizeof(struct rg_frame),
	       "the floor is right below the stack");

/* A row's words for n events: the power of two >= 1 + n (a constant where n is). */
static inline __attribute__((always_inline)) unsigned pmc_rg_stride(int n)
{
	return n < 1 ? 1 : n < 2 ? 2 : n < 4 ? 4 : n < 8 ? 8 : n < 16 ? 16 : 32;
}
_Static_assert(RG_EV < 32, "pmc_rg_stride covers every number of events");

/* Row r of table tab (0: entered at depth 0, 1: nested) of t. */
static inline uint64_t *pmc_rg_row_of(const struct rg_thread *t, int tab, size_t r)
{
	return t->acc + ((size_t)tab * (RG_CALIB + 1) + r) * t->stride;
}

/* Region r's calls and counts in t, both tables together: out[0] calls, out[1 + i] event i (0 for one that did not
 * open). */
static inline void pmc_rg_row(const struct rg_thread *t, size_t r, uint64_t *out)
{
	const uint64_t *a = pmc_rg_row_of(t, 0, r), *b = pmc_rg_row_of(t, 1, r);

	out[0] = a[0] + b[0];
	for (int i = 0; i < t->nev; i++)
		out[1 + i] = t->col[i] < 0 ? 0 : a[1 + t->col[i]] + b[1 + t->col[i]];
}

/* The sums over the regions' calls entered at depth 0 (the calibration's row left out), per event. */
static inline void pmc_rg_top(const struct rg_thread *t, uint64_t *out)
{
	for (int i = 0; i < t->nev; i++)
		out[i] = 0;
	for (size_t r = 0; r < RG_CALIB; r++) {
		const uint64_t *row = pmc_rg_row_of(t, 0, r);

		for (int i = 0; i < t->nev; i++)
			out[i] += t->col[i] < 0 ? 0 : row[1 + t->col[i]];
	}
}

struct rg_global {
	int mode;                            /* enum rg_mode */
	int nev;
	struct perf_event_attr attr[RG_EV];
	char evname[RG_EV][PMC_RG_NAME_MAX + 1];
	int chan_fd;                         /* pmctool mode: where the results go */
	char out_path[4096];                 /* standalone: PMCTOOL_REGIONS_OUT as given (a path template: %h %p %r
						%j %%), "" for stderr */
	bool out_bad;                        /* it cannot be expanded here: the report goes to stderr */
	bool json;                           /* standalone: a JSON stat report (a .json path, PMCTOOL_REGIONS_FORMAT) */
	uint64_t start_ns;                   /* standalone: CLOCK_MONOTONIC when the library started */
	int exit_status;                     /* standalone: the status given to exit(), -1 unknown */
	char setup_err[256];                 /* why counting is off although asked for */
};

enum rg_mode { RG_OFF = 0, RG_PMCTOOL, RG_STANDALONE };

extern struct rg_global pmc_rg RG_HIDDEN;

/* Parse a comma-separated list of event specs into pmc_rg (attr, evname, nev). 0 or -EINVAL with why filled. */
int pmc_rg_parse_events(const char *list, char *why, size_t whylen) RG_HIDDEN;

/* Open event i of pmc_rg for the calling thread (pid 0, any CPU, not inherited) with perf's paranoid fallback.
 * The fd or -errno; *ret_user_only set when kernel mode was dropped. */
int pmc_rg_open(int i, bool *ret_user_only) RG_HIDDEN;

/* Every thread that entered a region, newest first (a consistent list: threads are only ever added). */
struct rg_thread *pmc_rg_threads(void) RG_HIDDEN;
/* rg_names.c: a registered name's handle, -1 when absent (no lock); the child's side of a fork. */
int pmc_rg_lookup(const char *name) RG_HIDDEN;
void pmc_rg_names_after_fork(void) RG_HIDDEN;
/* Region r over every thread that called it: sum[0] calls, sum[1 + i] event i's counts; have[i] when one of those
 * threads counted event i (an event a thread could not open adds 0 and no have). */
static inline void pmc_rg_region_all(unsigned r, uint64_t *sum, bool *have)
{
	for (int i = 0; i < RG_EV; i++) {
		sum[1 + i] = 0;
		have[i] = false;
	}
	sum[0] = 0;
	for (const struct rg_thread *t = pmc_rg_threads(); t; t = t->next) {
		uint64_t row[1 + RG_EV];

		pmc_rg_row(t, r, row);
		sum[0] += row[0];
		for (int i = 0; row[0] && i < t->nev; i++) {
			sum[1 + i] += row[1 + i];
			have[i] |= t->col[i] >= 0;
		}
	}
}

/* Region names registered so far: the count and each name. */
unsigned pmc_rg_nregions(void) RG_HIDDEN;
const char *pmc_rg_region_name(unsigned id) RG_HIDDEN;
uint64_t pmc_rg_bad_names(void) RG_HIDDEN;
/* Calls refused in threads' first uses (signal handlers), which no thread counts. */
uint64_t pmc_rg_refused_early(void) RG_HIDDEN;
/* Counter reads made in process by t. */
uint64_t pmc_rg_reads_inproc(const struct rg_thread *t) RG_HIDDEN;

/* Standalone: read PMCTOOL_REGIONS_OUT and PMCTOOL_REGIONS_FORMAT into pmc_rg; a template this process cannot
 * expand, or an unknown format, is said on stderr at once (the report then goes to stderr as text). */
void pmc_rg_setup_out(const char *out, const char *format) RG_HIDDEN;

/* Write the results (pmctool channel or standalone report). 0 or -errno. */
int pmc_rg_write(void) RG_HIDDEN;

/* The standalone report as one pmctool stat report (kind "stat", mode "standalone": its regions block is the one
 * pmctool stat --regions --json writes), for pmctool merge. */
void pmc_rg_json_report(FILE *f) RG_HIDDEN;
/* Shared with the text report: the first failing errno of event i in any thread, and whether some thread counts it
 * in user mode only; how the threads read their counters ("in process", "read(2)", both, "none"). */
void pmc_rg_event_state(int i, int *ret_err, int *ret_user_only) RG_HIDDEN;
const char *pmc_rg_read_method_all(void) RG_HIDDEN;
/* Why event i did not open (errno err), in pmctool's words (sys/perf_reason.c): "no hardware PMU: ..." and the like. */
const char *pmc_rg_event_reason(int i, int err) RG_HIDDEN;

#endif
