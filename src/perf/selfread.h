/* SPDX-License-Identifier: MIT */
/* Reading one's own counters without a system call: the perf mmap page and the architecture's counter read (RDPMC,
 * mrs PMEVCNTR<n>_EL0), with read() as the fallback. */
#ifndef PMC_PERF_SELFREAD_H
#define PMC_PERF_SELFREAD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "perf/perf.h"

/* The instructions a page read executes, injectable so the arithmetic can be tested on a synthetic page. */
struct pmc_selfread_ops {
	uint64_t (*read_counter)(uint32_t index); /* the page's index (>= 1): RDPMC of index-1, mrs of the register */
	uint64_t (*read_timer)(void);             /* the clock the page's time_* fields convert (TSC, CNTVCT_EL0) */
};

/* The real instructions. */
extern const struct pmc_selfread_ops pmc_selfread_hw_ops;

/* One read of a page. */
struct pmc_selfread_value {
	uint64_t value;   /* offset + sign-extended RDPMC; only when from_rdpmc */
	uint64_t enabled; /* time_enabled, extrapolated to now when times_now */
	uint64_t running; /* time_running, extrapolated to now (only while the event is on the PMU) when times_now */
	bool from_rdpmc;  /* false: index 0, no cap_user_rdpmc or not a count (top-down metrics): use read() */
	bool times_now;   /* cap_user_time and enabled != running: times extrapolated to now with the timer */
	bool full;        /* enabled == running: the event ran all the time it was enabled; the times are as of the
			     last update, which is enough (no timer read, as libperf) */
	unsigned retries; /* seqlock retries */
	/* One pass's counter read, kept so that a retry does not move the read later (see pmc_selfread_page). */
	uint32_t index;   /* the page's index the counter was read at */
	uint64_t counter; /* the sign-extended counter */
	uint64_t offset_before, offset_after; /* the page's offset read just before and just after the counter */
};

/* An event fd with its mapped page. */
struct pmc_selfread {
	int fd;
	struct perf_event_mmap_page *page; /* NULL when not mapped */
	bool rdpmc_ok;                     /* probed: RDPMC allowed and executes for this event */
};

/* Sign-extend the low 'width' bits of raw (width 0 or >= 64: raw unchanged). */
uint64_t pmc_selfread_sign_extend(uint64_t raw, unsigned width);

/* time_offset + cyc * mult >> shift without overflowing 64 bits (quotient and remainder of cyc by 2^shift). */
uint64_t pmc_selfread_time_delta(uint64_t cyc, uint32_t mult, uint16_t shift, uint64_t offset);

/* Read one page through the seqlock loop using ops (the real ones or injected). Never fails: from_rdpmc says
 * whether value was filled. No allocation, no system call. When the kernel rewrote the page during a pass (an overflow
 * interrupt reprograms the counter and moves the offset), the pass is repeated for consistent fields, but the value is
 * that of the first counter read, paired with the offset of its own epoch: a retry must not move the read later and
 * count the read loop's extra pass. */
void pmc_selfread_page(const struct perf_event_mmap_page *pg, const struct pmc_selfread_ops *ops,
		       struct pmc_selfread_value *ret);

/* A consistent snapshot of n pages: every lock, then every counter, then every lock re-checked (retry on change). */
void pmc_selfread_group_page(const struct perf_event_mmap_page *const *pg, size_t n,
			     const struct pmc_selfread_ops *ops, struct pmc_selfread_value *ret);

/* Map the first page of fd (PROT_READ, MAP_SHARED). 0 or -errno; s->page stays NULL on failure. */
int pmc_selfread_map(struct pmc_selfread *s, int fd);

/* Unmap (accepts an unmapped s). */
void pmc_selfread_unmap(struct pmc_selfread *s);

/* After the event is enabled: decide whether the in-process read can be used, executing it once under a SIGSEGV and
 * SIGILL guard (x86 #GP without CR4.PCE; arm64 without kernel.perf_user_access), never before the page says index != 0.
 * Sets s->rdpmc_ok. Returns 0 when usable, else -errno with the reason in why (why may be NULL). */
int pmc_selfread_probe(struct pmc_selfread *s, char *why, size_t whylen);

/* A page read usable without read(): from the counter, with times extrapolated or full (enabled == running). */
bool pmc_selfread_usable(const struct pmc_selfread_value *v);

/* Read the count: in process when probed usable and this read's page allows it (decided per read: the page's
 * capabilities can change), else read() (pmc_perf_read). A value read from the counter is PMC_COUNT_OK whatever the
 * page's times say. *ret_rdpmc says which. 0 or -errno. */
int pmc_selfread_read(const struct pmc_selfread *s, struct pmc_count *ret, bool *ret_rdpmc);

/* The same with injected instructions (tests). */
int pmc_selfread_read_ops(const struct pmc_selfread *s, const struct pmc_selfread_ops *ops, struct pmc_count *ret,
			  bool *ret_rdpmc);

#endif
