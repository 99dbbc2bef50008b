/* SPDX-License-Identifier: MIT */
/*
 * The region library's fast path: enter and leave as inline templates, and the copies specialized from them (per
 * number of counters, per counter layout, for pages apart). Included once, by rg_core.c, after the slow paths they
 * fall back to: the copies tail-call those static functions of the same translation unit, and the programs that
 * compile rg_core.c with its counter reads injected (bench/region_path.c, tests/regions/test_rg_fastpath.c) get them
 * with the same reads.
 */
#ifndef PMC_REGIONS_LIB_RG_FAST_H
#define PMC_REGIONS_LIB_RG_FAST_H

/*
 * The fast path's validation: after the counters' reads, the sum of their pages' locks against the cache's. A page
 * changes only while this thread is stopped (the kernel updates it at schedule in/out, at a counter's overflow, at a
 * multiplexing rotation, at an ioctl: each time lock += 2 around the update, from the thread's own CPU while it does
 * not run), so this thread sees every change whole and in its program order; and a lock only grows. If the sum (mod
 * 2^32) still equals the cache's, no page changed between the cache's taking and the sum: the cached readers read the
 * right counters, with no new start in between, at every read made since (this one included). The sum misses a change
 * only when the locks together moved by a multiple of 2^32, that is after 2^31 page updates between two consecutive
 * reads of one thread: the per-page comparison it replaces missed one after 2^31 updates of one page, the same bound.
 * One load and one add a counter, one branch a call. Where the pages lie side by side (based), every lock is at a
 * fixed offset from the cache's lockbase: no pointer to load.
 */
static inline __attribute__((always_inline)) uint32_t lock_sum(const struct rg_cache *c, const int n, const bool based)
{
	const char *base = c->lockbase;
	uint32_t sum = 0;

	/* Plain loads after a compiler barrier (the kernel's writes come while this thread is stopped): a volatile load
	 * could not be an add's memory operand. */
	BARRIER();
#pragma GCC unroll 16
	for (int k = 0; k < n; k++)
		sum += based ? *(const uint32_t *)(base + (size_t)k * RG_PAGE_STRIDE) : *c->lock[k];
	return sum;
}

/* The counters' raw values into out: kept in registers where out is a local (leave), stored as read where it is the
 * frame (enter: on x86 the two halves of the read, no combining). */
static inline __attribute__((always_inline)) void read_raw(const struct rg_cache *c, const int n, const bool chained,
							   const int layout, const bool stored, uint64_t *out)
{
	if (layout >= 0) {
		uint64_t v[RG_EV];

		/* All reads first, then the stores: they pair (stp). */
#pragma GCC unroll 16
		for (int k = 0; k < n; k++)
			v[k] = pmc_arch_direct_read(layout, k);
#pragma GCC unroll 16
		for (int k = 0; k < n; k++)
			out[k] = v[k];
		return;
	}
	if (chained && n <= PMC_RG_CHAIN_MAX) {
		PMC_RG_CHAIN_READ(c->chain, n, out);
		return;
	}
#pragma GCC unroll 16
	for (int k = 0; k < n; k++) {
		if (stored)
			PMC_RG_READER_STORE(c->rd[k], &out[k]);
		else
			out[k] = PMC_RG_READER_READ(c->rd[k]);
	}
}

/*
 * What comes before the read is outside the region, what comes after it inside: the bookkeeping goes first. The
 * checks of the handle and the depth are one comparison each; the frame is the one above the top (no multiplication).
 */
static inline __attribute__((always_inline)) void enter_fast(struct rg_thread *t, int r, const int n, const bool based,
							     const bool chained, const int layout)
{
	struct rg_frame *f = t->top;

	if (__builtin_expect(((unsigned)r > t->rmax) | (f >= t->last), 0)) { /* | : both loads, one branch */
		enter_off(r, t);
		return;
	}
	f++;
	/* The frame is the top before it is written: a signal handler that enters a region now takes the frame above
	 * it, never this one (its key, written next, would otherwise be the handler's). */
	t->top = f;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	f->key = (uint32_t)r;
	read_raw(&t->c, n, chained, layout, true, f->start);
	if (__builtin_expect(lock_sum(&t->c, n, based) != t->c.locksum, 0))
		enter_changed(t, f);
}

/* now stays in registers on the specialized fast path: a copy of it goes to the slow one. */
static inline __attribute__((always_inline)) void leave_raw(struct rg_thread *t, int r, uint64_t *now, int n,
							    bool ident)
{
	uint64_t v[RG_EV];

	if (!ident) {
		leave_rest(t, r, now, LEFT_RAW);
		return;
	}

#pragma GCC unroll 16
	for (int k = 0; k < n; k++)
		v[k] = now[k];
	leave_rest(t, r, v, LEFT_RAW);
}

/* The sums of a raw frame. On a load/store architecture the row and the frame's starts are told apart (restrict: the
 * loads and stores pair, arm64 ldp/stp); x86 adds to memory in one instruction each, and restrict there only makes the
 * compiler vectorize the sums. */
#if PMC_ARCH_LOAD_STORE
#define RG_SUMS_APART __restrict
#else
#define RG_SUMS_APART
#endif
static inline __attribute__((always_inline)) void add_deltas(uint64_t *RG_SUMS_APART acc,
							     const uint64_t *RG_SUMS_APART start, uint64_t *now,
							     const struct rg_cache *c, const int8_t *t_col, const int n,
							     const bool ident)
{
#pragma GCC unroll 16
	for (int k = 0; k < n; k++)
		now[k] = (now[k] - start[k]) & c->mask[k];
#pragma GCC unroll 16
	for (int k = 0; k < n; k++)
		acc[ident ? k : t_col[c->map[k]]] += now[k];
}

/* A row's words: t->stride, a constant in the specialized copies (the row is a shift). */
static inline __attribute__((always_inline)) size_t row_stride(const struct rg_thread *t, const int n, const bool ident)
{
	return ident ? pmc_rg_stride(n) : t->stride;
}

/*
 * The leave: the reads first (what comes after them is outside the region), validated by the locks' sum; then one
 * comparison of the innermost frame's key with the handle: equal only for a raw frame of this region, so the handle
 * is valid, the frame is not the floor, and no enter beyond the depth limit is open (its RG_DEEP). n and ident are
 * constants in the specialized copies: the loops unroll, the row's stride is known. The frame says which table its
 * depth adds to (top-level or nested): no branch on the depth.
 */
static inline __attribute__((always_inline)) void leave_fast(struct rg_thread *t, int r, const int n, const bool ident,
							     const bool based, const bool chained, const int layout)
{
	const struct rg_cache *c = &t->c;
	struct rg_frame *f;
	uint64_t now[RG_EV], *row;

	if (!ident)
		memset(now, 0, sizeof(now)); /* the mapped copy: its n is not known here, nor to the compiler's warnings */
	read_raw(c, n, chained, layout, false, now);
	if (__builtin_expect(lock_sum(c, n, based) != c->locksum, 0)) {
		leave_rest(t, r, NULL, LEFT_STALE);
		return;
	}
	f = t->top;
	if (__builtin_expect(f->key != (uint32_t)r, 0)) {
		leave_raw(t, r, now, n, ident);
		return;
	}
	row = f->rows + (uint32_t)r * row_stride(t, n, ident);
	row[0]++;
	add_deltas(row + 1, f->start, now, c, t->col, n, ident);
	/* Popped once its starts are read: a signal handler's enter until then takes the frame above. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->top = f - 1;
}

/* Any number of counters, the cache's order mapped to the columns, the locks through their pointers: where the pages
 * are not side by side with more than RG_APART_MAX counters, or the cache misses an event that opened. An event that
 * failed to open at the thread's first use has no column and keeps the specialized copies. */
static void enter_mapped(int r, struct rg_thread *t)
{
	if (t->c.n > RG_EV)
		__builtin_unreachable();
	enter_fast(t, r, t->c.n, false, false, -1);
}

static void leave_mapped(int r, struct rg_thread *t)
{
	if (t->c.n > RG_EV)
		__builtin_unreachable();
	leave_fast(t, r, t->c.n, false, false, false, -1);
}

/* Every event opened, the pages side by side: a copy of enter and leave for each number of counters. */
#define RG_IDENT(n) \
	static void enter_##n(int r, struct rg_thread *t) { enter_fast(t, r, n, true, true, -1); } \
	static void leave_##n(int r, struct rg_thread *t) { leave_fast(t, r, n, true, true, true, -1); }
RG_IDENT(1) RG_IDENT(2) RG_IDENT(3) RG_IDENT(4) RG_IDENT(5) RG_IDENT(6) RG_IDENT(7) RG_IDENT(8)
RG_IDENT(9) RG_IDENT(10) RG_IDENT(11) RG_IDENT(12) RG_IDENT(13) RG_IDENT(14) RG_IDENT(15) RG_IDENT(16)
static rg_fn *const enter_ident[RG_EV + 1] = { enter_off, enter_1, enter_2, enter_3, enter_4, enter_5, enter_6,
	enter_7, enter_8, enter_9, enter_10, enter_11, enter_12, enter_13, enter_14, enter_15, enter_16 };
static rg_fn *const leave_ident[RG_EV + 1] = { leave_off, leave_1, leave_2, leave_3, leave_4, leave_5, leave_6,
	leave_7, leave_8, leave_9, leave_10, leave_11, leave_12, leave_13, leave_14, leave_15, leave_16 };
_Static_assert(RG_EV == 16, "one copy of enter and leave per number of counters");

/* Every event that opened in the cache, the pages not side by side (pages larger than RG_PAGE_STRIDE, a page mapped
 * elsewhere): the locks through their pointers, the rest as above, for up to RG_APART_MAX counters. */
#define RG_APART(n) \
	static void enter_apart_##n(int r, struct rg_thread *t) { enter_fast(t, r, n, false, true, -1); } \
	static void leave_apart_##n(int r, struct rg_thread *t) { leave_fast(t, r, n, true, false, true, -1); }
RG_APART(1) RG_APART(2) RG_APART(3) RG_APART(4) RG_APART(5) RG_APART(6) RG_APART(7) RG_APART(8)
static rg_fn *const enter_apart[RG_APART_MAX + 1] = { enter_mapped, enter_apart_1, enter_apart_2, enter_apart_3,
	enter_apart_4, enter_apart_5, enter_apart_6, enter_apart_7, enter_apart_8 };
static rg_fn *const leave_apart[RG_APART_MAX + 1] = { leave_mapped, leave_apart_1, leave_apart_2, leave_apart_3,
	leave_apart_4, leave_apart_5, leave_apart_6, leave_apart_7, leave_apart_8 };

#if PMC_RG_DIRECT_MAX
/* And where the counters are in a layout the architecture reads directly: a copy per number of counters and layout. */
#define RG_DIRECT(n, l) \
	static void enter_##n##_##l(int r, struct rg_thread *t) { enter_fast(t, r, n, true, true, l); } \
	static void leave_##n##_##l(int r, struct rg_thread *t) { leave_fast(t, r, n, true, true, true, l); }
RG_DIRECT(1, 0) RG_DIRECT(1, 1)
RG_DIRECT(2, 0) RG_DIRECT(2, 1) RG_DIRECT(2, 2)
RG_DIRECT(3, 0) RG_DIRECT(3, 1) RG_DIRECT(3, 2) RG_DIRECT(3, 3)
RG_DIRECT(4, 0) RG_DIRECT(4, 1) RG_DIRECT(4, 2) RG_DIRECT(4, 3) RG_DIRECT(4, 4)
static rg_fn *const enter_direct[PMC_RG_DIRECT_MAX + 1][PMC_RG_DIRECT_MAX + 1] = {
	{ NULL }, { enter_1_0, enter_1_1 }, { enter_2_0, enter_2_1, enter_2_2 },
	{ enter_3_0, enter_3_1, enter_3_2, enter_3_3 }, { enter_4_0, enter_4_1, enter_4_2, enter_4_3, enter_4_4 } };
static rg_fn *const leave_direct[PMC_RG_DIRECT_MAX + 1][PMC_RG_DIRECT_MAX + 1] = {
	{ NULL }, { leave_1_0, leave_1_1 }, { leave_2_0, leave_2_1, leave_2_2 },
	{ leave_3_0, leave_3_1, leave_3_2, leave_3_3 }, { leave_4_0, leave_4_1, leave_4_2, leave_4_3, leave_4_4 } };
_Static_assert(PMC_RG_DIRECT_MAX == 4, "one copy of enter and leave per layout of up to 4 counters");
#endif

#endif
