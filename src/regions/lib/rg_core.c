/* SPDX-License-Identifier: MIT */
/* Named regions in users' programs: per-thread counters opened on first use and read in process (the architecture's
 * counter read of the perf page's index, read(2) where the kernel does not allow it), accumulated per region. The
 * hot path (enter, leave) takes no lock, makes no allocation, and no system call on the in-process path. */
#include "regions/lib/rg_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"

struct rg_global pmc_rg = { .chan_fd = -1, .exit_status = -1 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct rg_thread *threads;        /* published with release */
static unsigned nthreads;
static bool finished;
static bool announced;                   /* this process's "started" line is in pmctool's channel */
static pthread_key_t thread_key;

static struct rg_thread nil;
/* The calling thread's state; nil (a static thread whose enter is the first use) before its first use. */
static __thread struct rg_thread *self __attribute__((tls_model("initial-exec"))) = &nil;

/* The counter reads of the in-process path; bench/region_path.c replaces them to count the path's instructions where
 * no PMU exists. */
#ifndef PMC_RG_COUNTER_READ
#define PMC_RG_COUNTER_READ pmc_arch_counter_read
#endif
/* The open of a thread's events; tests/regions/test_rg_fastpath.c replaces it to make one fail. */
#ifndef PMC_RG_OPEN
#define PMC_RG_OPEN pmc_rg_open
#endif
#ifndef PMC_RG_READER_READ
#define PMC_RG_READER_OF pmc_arch_reader_of
#define PMC_RG_READER_READ pmc_arch_reader_read
#define PMC_RG_READER_STORE pmc_arch_reader_store
/* The architecture's chain of reads (arm64), for the specialized copies of up to PMC_RG_CHAIN_MAX counters; its direct
 * reads, for the copies of up to PMC_RG_DIRECT_MAX counters in a known layout. */
#define PMC_RG_CHAIN_MAX PMC_ARCH_CHAIN_MAX
#define PMC_RG_DIRECT_MAX PMC_ARCH_DIRECT_MAX
#define PMC_RG_CHAIN_OF pmc_arch_chain_of
#define PMC_RG_CHAIN_READ pmc_arch_chain_read
#else
/* Injected readers: one by one. */
#define PMC_RG_DIRECT_MAX 0
#ifndef PMC_RG_READER_STORE
#define PMC_RG_READER_STORE(r, dst) (*(dst) = PMC_RG_READER_READ(r))
#endif
#define PMC_RG_CHAIN_MAX 0
#define PMC_RG_CHAIN_OF(idx, slot) PMC_RG_READER_OF(idx)
#define PMC_RG_CHAIN_READ(c, n, out) ((void)(c), (void)(n), (void)(out))
#endif

#define ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define BARRIER() __asm__ __volatile__("" ::: "memory")

/* read(2) of counter i, where the page does not allow the in-process read (or there is no page). */
static uint64_t __attribute__((noinline)) read_syscall(struct rg_thread *t, int i)
{
	uint64_t v = 0;

	if (t->fd[i] < 0)
		return 0;
	if (read(t->fd[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
		v = 0;
	t->reads_syscall++;
	return v;
}

/* A counter's full count: the page's offset plus the raw value sign-extended from the counter's width (sh = 64 -
 * width, 0 for 64). */
static inline uint64_t counted(uint64_t off, uint64_t raw, unsigned sh)
{
	return off + (uint64_t)((int64_t)(raw << sh) >> sh);
}

/*
 * The slow path: every counter's full count, the perf page's seqlock around the architecture's read (as
 * src/perf/selfread.c, without the times: a thread's own events are on the PMU whenever it runs). The page's index
 * alone decides: the kernel gives 0 unless this task may read the counter in process (x86: x86_pmu_event_idx without
 * PERF_EVENT_FLAG_USER_READ_CNT; arm64: armv8pmu_user_event_idx without perf_user_access), so cap_user_rdpmc need not
 * be read here. The counter's width is the page's; (64 - width) & 63 also covers 64 and an unset 0.
 * reads_syscall counts the counters read with read(2): the in-process ones are reads x opened - reads_syscall.
 */
static void read_all(struct rg_thread *t, uint64_t *out)
{
	/* Locals: the compiler barriers below would make it reload every field of t at each counter. */
	struct perf_event_mmap_page *const *pages = t->page;
	const int n = t->nev;

	for (int i = 0; i < n; i++) {
		const struct perf_event_mmap_page *pg = pages[i];
		uint64_t raw, off;
		uint32_t seq, idx;
		unsigned sh;

		if (!PMC_ARCH_USER_READ || !pg)
			goto syscall;
		do {
			seq = ONCE(pg->lock);
			BARRIER();
			idx = ONCE(pg->index);
			if (__builtin_expect(!idx || !pmc_arch_counter_is_count(idx), 0))
				goto syscall;
			raw = PMC_RG_COUNTER_READ(idx);
			off = ONCE(pg->offset);
			sh = (64u - ONCE(pg->pmc_width)) & 63u;
			BARRIER();
		} while (__builtin_expect(ONCE(pg->lock) != seq, 0));
		out[i] = counted(off, raw, sh);
		continue;
syscall:
		out[i] = read_syscall(t, i);
	}
}

static inline uint64_t full_count(const struct rg_cache *c, int k, uint64_t raw)
{
	return counted(c->off[k], raw, c->sh[k]);
}

/* Raw values in the cache's order (v) to every event's full count, in place. */
static void raw_to_full(const struct rg_thread *t, uint64_t *v)
{
	const struct rg_cache *c = &t->c;
	uint64_t full[RG_EV] = { 0 }; /* an event that failed to open counts 0, as read_all says */

	for (int k = 0; k < c->n; k++)
		full[c->map[k]] = full_count(c, k, v[k]);
	memcpy(v, full, sizeof(uint64_t) * (size_t)t->nev);
}

/* Open frames holding raw values of the current cache become full counts (their raw values were read while it held):
 * done before the cache changes. */
static void materialize(struct rg_thread *t)
{
	for (unsigned k = 0; k < pmc_rg_depth(t); k++) {
		struct rg_frame *f = &t->stack[k];

		if (f->key & RG_FULL)
			continue;
		raw_to_full(t, f->start);
		f->key |= RG_FULL;
	}
}

static rg_fn enter_off, leave_off, enter_mapped, leave_mapped;

/* The thread's enter and leave, both at once: a signal handler arriving between two separate stores would run one
 * path's enter and the other's leave (a refused enter and a counted leave is an unmatched leave, the reverse a frame
 * never closed). */
static void set_path(struct rg_thread *t, rg_fn *enter, rg_fn *leave)
{
	_Static_assert(offsetof(struct rg_thread, leave) == offsetof(struct rg_thread, enter) + sizeof(rg_fn *),
		       "enter and leave side by side");
	pmc_arch_store_pair(&t->enter, (const void *)enter, (const void *)leave);
}

/* An enter or leave that would interrupt the library itself (a signal handler's, while its thread is in the slow
 * path that re-takes the counters' pages, or after the thread's end): refused and counted (pmctool-regions(7)). */
static void call_refused(int r, struct rg_thread *t)
{
	(void)r;
	t->refused++;
}

/* The slow path that changes the cache (and the thread's end) starts with this: until choose_path installs the
 * new enter and leave, a handler's calls are refused, never run on a cache half taken or pages being unmapped. */
static void refuse_calls(struct rg_thread *t)
{
	set_path(t, call_refused, call_refused);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}
static rg_fn *const enter_ident[RG_EV + 1], *const leave_ident[RG_EV + 1];
/* Copies for pages that are not side by side, up to this many counters. */
#define RG_APART_MAX 8
static rg_fn *const enter_apart[RG_APART_MAX + 1], *const leave_apart[RG_APART_MAX + 1];
#if PMC_RG_DIRECT_MAX
static rg_fn *const enter_direct[PMC_RG_DIRECT_MAX + 1][PMC_RG_DIRECT_MAX + 1];
static rg_fn *const leave_direct[PMC_RG_DIRECT_MAX + 1][PMC_RG_DIRECT_MAX + 1];
#endif

/* The enter and leave for the cache as it is now. */
static void choose_path(struct rg_thread *t)
{
	const struct rg_cache *c = &t->c;

	if (!c->on)
		set_path(t, enter_off, leave_off);
	else if (!c->ident || (!c->lockbase && c->n > RG_APART_MAX))
		set_path(t, enter_mapped, leave_mapped);
	else if (!c->lockbase)
		set_path(t, enter_apart[c->n], leave_apart[c->n]);
#if PMC_RG_DIRECT_MAX
	else if (c->layout >= 0 && c->n <= PMC_RG_DIRECT_MAX)
		set_path(t, enter_direct[c->n][c->layout], leave_direct[c->n][c->layout]);
#endif
	else
		set_path(t, enter_ident[c->n], leave_ident[c->n]);
}

/*
 * Take the pages' state into the cache (the slow path, and a thread's first use). The fast path is on only when every
 * counter that opened is on the PMU and readable in process (each keeps its own width). A page changes (its lock moves on) whenever the
 * kernel reprograms the counter: schedule in/out, multiplexing, the overflow's new period (x86_perf_event_set_period,
 * armpmu_event_set_period both update the page), an ioctl. Between two changes the counter only counts up from a
 * start at or above half its range (the period the kernel sets), so a raw delta masked to the width is the count, a
 * wrap included.
 */
static void __attribute__((noinline)) refresh(struct rg_thread *t)
{
	struct rg_cache *c = &t->c;
	bool on = PMC_ARCH_USER_READ;
	uint32_t sum = 0, index[RG_EV];
	int k = 0;

	refuse_calls(t);
	materialize(t);
	for (int i = 0; i < t->nev && on; i++) {
		const struct perf_event_mmap_page *pg = t->page[i];
		uint32_t seq, idx;
		uint64_t off;
		unsigned w;

		if (t->fd[i] < 0)
			continue;
		if (!pg) {
			on = false;
			break;
		}
		do {
			seq = ONCE(pg->lock);
			BARRIER();
			idx = ONCE(pg->index);
			off = ONCE(pg->offset);
			w = ONCE(pg->pmc_width);
			BARRIER();
		} while (ONCE(pg->lock) != seq);
		if (!idx || !pmc_arch_counter_is_count(idx)) {
			on = false;
			break;
		}
		c->map[k] = (uint8_t)i;
		index[k] = idx;
		c->sh[k] = (64u - w) & 63u;
		c->mask[k] = c->sh[k] ? (UINT64_C(1) << (64u - c->sh[k])) - 1 : UINT64_MAX;
		c->lock[k] = &pg->lock;
		c->rd[k] = PMC_RG_READER_OF(idx);
		c->chain[k] = PMC_RG_CHAIN_OF(idx, k);
		c->off[k] = off;
		sum += seq;
		k++;
	}
	c->n = k;
	c->ident = k == t->nopen; /* every event that opened is in the cache: cache entry k is column k */
	c->lockbase = k ? (const char *)c->lock[0] : NULL;
	for (int j = 1; j < k; j++)
		if ((const char *)c->lock[j] != c->lockbase + (size_t)j * RG_PAGE_STRIDE)
			c->lockbase = NULL;
	c->on = on && k > 0;
	c->locksum = sum;
	c->layout = PMC_RG_DIRECT_MAX ? pmc_arch_direct_layout(index, k) : -1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	choose_path(t);
}

static uint64_t reads_inproc(const struct rg_thread *t)
{
	uint64_t reads = t->reads_misuse + pmc_rg_depth(t);

	/* Each enter that opened a frame read once, each leave that closed one (a call counted in its row) once. */
	for (size_t r = 0; r <= RG_CALIB; r++)
		reads += 2 * (pmc_rg_row_of(t, 0, r)[0] + pmc_rg_row_of(t, 1, r)[0]);
	return reads * (uint64_t)t->nopen - t->reads_syscall;
}

/* Whether page p lies in t's reservation (then the reservation's unmap takes it). */
static bool in_reservation(const struct rg_thread *t, const void *p, size_t psz)
{
	return t->pages && (const char *)p >= (const char *)t->pages &&
	       (const char *)p < (const char *)t->pages + psz * (size_t)t->nopen;
}

/*
 * A thread's end: its pages and descriptors go. Only address ranges this thread still holds are unmapped: a page in
 * the reservation goes with the reservation, in one munmap, never on its own before it. (Unmapping each page first
 * and then the whole reservation unmapped, the second time, whatever another thread had mapped in the holes the first
 * left meanwhile: a thread starting then lost its counter pages and crashed reading their locks in refresh.) A slot
 * whose fixed mapping failed is a hole (the kernel may have unmapped it) and is left alone.
 */
static void thread_gone(void *p)
{
	struct rg_thread *t = p;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);

	/* The cache points into the pages unmapped below; a later call (a handler's, another key's destructor) is
	 * refused and counted rather than counted as 0. */
	t->c.on = false;
	refuse_calls(t);
	for (int i = 0; i < t->nev; i++) {
		if (t->page[i] && !in_reservation(t, t->page[i], psz))
			munmap(t->page[i], psz);
		t->page[i] = NULL;
		if (t->fd[i] >= 0)
			close(t->fd[i]);
		t->fd[i] = -1;
	}
	if (t->pages) {
		if (!t->holes) {
			munmap(t->pages, psz * (size_t)t->nopen);
		} else {
			for (int k = 0; k < t->nopen; k++)
				if (!(t->holes & (1u << k)))
					munmap((char *)t->pages + (size_t)k * psz, psz);
		}
	}
	t->pages = NULL;
	__atomic_store_n(&t->exited, true, __ATOMIC_RELEASE);
}

/* The empty pair as a region's own counts see it: the least of a few, on the row after the last region. */
static void calibrate(struct rg_thread *t)
{
	uint64_t *row = pmc_rg_row_of(t, 0, RG_CALIB), before[RG_EV]; /* at depth 0: a thread's first use */

	for (int i = 0; i < t->nev; i++)
		t->cost[i] = t->col[i] < 0 ? 0 : UINT64_MAX;
	t->rmax = RG_CALIB;
	for (int k = 0; k < 16; k++) {
		memcpy(before, row + 1, sizeof(uint64_t) * (size_t)t->nopen);
		t->enter(RG_CALIB, t);
		t->leave(RG_CALIB, t);
		for (int i = 0; i < t->nev; i++) {
			int j = t->col[i];

			if (j >= 0 && row[1 + j] - before[j] < t->cost[i])
				t->cost[i] = row[1 + j] - before[j];
		}
	}
	t->rmax = PMCTOOL_REGIONS_MAX - 1;
}

/* Calls refused while the calling thread was in its first use (a signal handler's): no thread is there yet to count
 * them in; the report adds them to the process's refused calls. */
static uint64_t refused_early;
static __thread bool in_first_use __attribute__((tls_model("initial-exec")));

uint64_t pmc_rg_refused_early(void)
{
	return __atomic_load_n(&refused_early, __ATOMIC_RELAXED);
}

static void enter_first(int r, struct rg_thread *t);
static void leave_none(int r, struct rg_thread *t)
{
	(void)t;
	(void)r;
	if (in_first_use) /* a handler's leave, its enter refused */
		__atomic_fetch_add(&refused_early, 1, __ATOMIC_RELAXED);
}

/* A thread's state before its first use: its enter takes the first use, its leave does nothing. */
static struct rg_thread nil = { .enter = enter_first, .leave = leave_none };

/* The page of the event in column k: in the thread's reservation, at k pages, where there is one; else anywhere.
 * NULL when it cannot be mapped (the event is then read with read(2)). */
static struct perf_event_mmap_page *map_page(struct rg_thread *t, int k, int fd, size_t psz)
{
	void *p = MAP_FAILED;

	if (t->pages) {
		p = mmap((char *)t->pages + (size_t)k * psz, psz, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
		if (p == MAP_FAILED) /* the slot may be unmapped now: another thread's mapping may land there */
			t->holes |= 1u << k;
	}
	if (p == MAP_FAILED)
		p = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* The calling thread's first use: its counters and accumulators. NULL when counting is off or out of memory. */
static struct rg_thread *first_use(void)
{
	struct rg_thread *t;
	long psz = sysconf(_SC_PAGESIZE);

	if (pmc_rg.mode == RG_OFF || __atomic_load_n(&finished, __ATOMIC_ACQUIRE))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->enter = t->leave = call_refused; /* until refresh chooses: self is t before that */
	t->nev = pmc_rg.nev;
	for (int i = 0; i < t->nev; i++) {
		int fd = PMC_RG_OPEN(i, &t->user_only[i]);

		t->fd[i] = fd;
		t->err[i] = fd < 0 ? -fd : 0;
		t->col[i] = (int8_t)(fd < 0 ? -1 : t->nopen++);
	}
	t->stride = pmc_rg_stride(t->nopen);
	t->acc = calloc(2 * (size_t)(RG_CALIB + 1) * t->stride, sizeof(uint64_t));
	if (!t->acc) {
		for (int i = 0; i < t->nev; i++)
			if (t->fd[i] >= 0)
				close(t->fd[i]);
		free(t);
		return NULL;
	}
	for (int d = 0; d < PMCTOOL_REGION_DEPTH_MAX; d++)
		t->stack[d].rows = pmc_rg_row_of(t, d > 0, 0);
	t->top = &t->floor;
	t->last = &t->stack[PMCTOOL_REGION_DEPTH_MAX - 1];
	t->rmax = PMCTOOL_REGIONS_MAX - 1;
	t->floor.key = RG_FULL;
	t->tid = gettid();
	if (psz == RG_PAGE_STRIDE && t->nopen > 0) {
		/* Room for the pages side by side, in column order. */
		void *p = mmap(NULL, (size_t)psz * (size_t)t->nopen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		t->pages = p == MAP_FAILED ? NULL : p;
	}
	for (int i = 0; i < t->nev; i++)
		if (t->fd[i] >= 0)
			t->page[i] = map_page(t, t->col[i], t->fd[i], (size_t)psz);
	self = t;
	refresh(t);
	calibrate(t);
	pthread_mutex_lock(&lock);
	t->ordinal = nthreads++;
	t->next = threads;
	__atomic_store_n(&threads, t, __ATOMIC_RELEASE);
	bool announce = !announced && pmc_rg.mode == RG_PMCTOOL;
	announced = true;
	pthread_mutex_unlock(&lock);
	pthread_setspecific(thread_key, t);
	if (announce) {
		/* Once per process, at its first use (already a slow path of opens): pmctool learns that this process
		 * counts regions, so a process that then ends without exit() (_exit, a signal), whose block never comes,
		 * is said (regions-silent) instead of vanishing. One write(2) of a short line: atomic with O_APPEND. */
		char line[64];
		int n = snprintf(line, sizeof(line), "%s %d %d\n", PMC_RG_STARTED, (int)getpid(), (int)getppid());

		if (n > 0 && write(pmc_rg.chan_fd, line, (size_t)n) < 0)
			(void)0; /* the block at exit says the rest; nothing to do about a channel that failed */
	}
	return t;
}

/* The first use, once per thread: a signal handler that interrupts it (and would start a second state for the same
 * thread, with malloc interrupted) is refused and counted. */
static struct rg_thread *thread_first_use(void)
{
	struct rg_thread *t;

	if (in_first_use) {
		__atomic_fetch_add(&refused_early, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	in_first_use = true;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t = first_use();
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	in_first_use = false;
	return t;
}

static void enter_first(int r, struct rg_thread *t)
{
	(void)t;
	t = thread_first_use();
	if (t)
		t->enter(r, t);
}

static inline struct rg_thread *current(void)
{
	struct rg_thread *t = self;

	if (__builtin_expect(t != &nil, 1))
		return t;
	return thread_first_use();
}

/*
 * Enter, everything but the fast path's common case (and the whole enter when the fast path is off): an invalid
 * handle, an enter beyond the depth limit (ignored, its leave too), else a frame of full counts (the cache taken
 * again first: the fast path may be on after it).
 */
static void __attribute__((noinline)) enter_off(int r, struct rg_thread *t)
{
	struct rg_frame *f = t->top + 1;

	if ((unsigned)r > t->rmax) {
		t->invalid++;
		return;
	}
	if (t->top >= t->last) {
		t->deep_ignored++;
		t->too_deep++;
		t->top->key |= RG_DEEP;
		return;
	}
	t->top = f; /* the top before the frame is written: a signal handler's enter takes the frame above */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	f->key = (uint32_t)r | RG_FULL;
	refresh(t);
	read_all(t, f->start);
}

/* A fast enter whose reads a changed page may have made wrong: its frame is read again, in full, under a new cache
 * (refresh turns it full with the other raw frames first; read_all then replaces its starts). */
static void __attribute__((noinline)) enter_changed(struct rg_thread *t, struct rg_frame *f)
{
	refresh(t);
	read_all(t, f->start);
}

enum leave_read { LEFT_UNREAD, LEFT_RAW, LEFT_STALE };

/* Sums of a closed frame: full counts at both ends, into the columns of the events that opened. */
static void add_full(struct rg_thread *t, struct rg_frame *f, const uint64_t *now, uint64_t *row)
{
	for (int i = 0; i < t->nev; i++)
		if (t->col[i] >= 0)
			row[1 + t->col[i]] += now[i] - f->start[i];
}

/*
 * Leave, everything but the fast path's common case: how = LEFT_RAW (raw holds raw values of the current cache, read
 * and validated), LEFT_STALE (read, but a page changed: the read is worthless), LEFT_UNREAD (the fast path is off).
 * Misuse first (invalid handle, the leave of an ignored enter, a leave matching no open region), then the sums in
 * full counts: raw values are made full with the cache they were read under; a stale or missing read is made again,
 * in full, after the cache is taken again (which turns the open frames full first).
 */
static void __attribute__((noinline)) leave_rest(struct rg_thread *t, int r, uint64_t *raw, enum leave_read how)
{
	struct rg_frame *f = t->top;
	uint64_t full[RG_EV], *now = how == LEFT_RAW ? raw : full, *row;

	if ((unsigned)r > t->rmax) {
		t->invalid++;
		t->reads_misuse += how != LEFT_UNREAD;
		return;
	}
	if (t->too_deep) {
		if (!--t->too_deep) /* the leave of an ignored enter */
			f->key &= ~RG_DEEP;
		t->reads_misuse += how != LEFT_UNREAD;
		return;
	}
	if (how != LEFT_RAW) {
		refresh(t); /* the open frames become full; the fast path may be on after it */
		read_all(t, now);
	}
	if (f == &t->floor || RG_KEY_REGION(f->key) != r) {
		t->unmatched++;
		t->reads_misuse++;
		return;
	}
	if (how == LEFT_RAW) {
		raw_to_full(t, now);
		if (!(f->key & RG_FULL))
			raw_to_full(t, f->start);
	}
	row = f->rows + (size_t)r * t->stride;
	row[0]++;
	add_full(t, f, now, row);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->top = f - 1; /* popped once its starts are read (a signal handler's enter until then takes the one above) */
}

static void __attribute__((noinline)) leave_off(int r, struct rg_thread *t)
{
	leave_rest(t, r, NULL, LEFT_UNREAD);
}

#include "regions/lib/rg_fast.h"

/* The calling thread's enter and leave: one indirect jump (a thread before its first use has nil's). Never inlined:
 * bench/region_path.c compiles this file into itself, and counts what a program calling the library runs. */
#if defined(__aarch64__)
/* GCC jumps through x16 (or x17) only, and would move the loaded address there first: load it there. */
#define RG_JUMP_REG __asm__("x16")
#define RG_JUMP_FIX(fn) __asm__("" : "+r"(fn))
#else
#define RG_JUMP_REG
#define RG_JUMP_FIX(fn) (void)0
#endif

__attribute__((noinline)) void pmctool_region_enter(pmctool_region_t region)
{
	struct rg_thread *t = self;
	register rg_fn *fn RG_JUMP_REG = t->enter;

	RG_JUMP_FIX(fn);
	fn(region, t);
}

__attribute__((noinline)) void pmctool_region_leave(pmctool_region_t region)
{
	struct rg_thread *t = self;
	register rg_fn *fn RG_JUMP_REG = t->leave;

	RG_JUMP_FIX(fn);
	fn(region, t);
}

void pmctool_region_begin(const char *name)
{
	if (pmc_rg.mode == RG_OFF)
		return;
	pmctool_region_enter(pmctool_region(name));
}

void pmctool_region_end(const char *name)
{
	if (pmc_rg.mode == RG_OFF)
		return;
	/* A name never registered cannot be open: a leave of it is unmatched, not a new region. */
	if (!name || !*name || strlen(name) > PMCTOOL_REGION_NAME_MAX) {
		pmctool_region_leave(PMCTOOL_REGION_INVALID);
		return;
	}
	int r = pmc_rg_lookup(name);
	struct rg_thread *t = current(); /* a leave before the thread's first enter is misuse to count too */

	if (r < 0) {
		/* A refused name (the table is full) was an invalid enter; any other was never entered. */
		if (t && pmc_rg_nregions() == PMCTOOL_REGIONS_MAX)
			t->invalid++;
		else if (t)
			t->unmatched++;
		return;
	}
	pmctool_region_leave(r);
}

int pmctool_thread_init(void)
{
	if (pmc_rg.mode == RG_OFF)
		return -ENODEV;
	return current() ? 0 : -ENOMEM;
}

int pmctool_region_counts(pmctool_region_t region, unsigned long long *ret_calls, unsigned long long *values,
			  int max)
{
	const struct rg_thread *t = self;
	uint64_t row[1 + RG_EV];

	if ((unsigned)region >= PMCTOOL_REGIONS_MAX || max < 0 || (max > 0 && !values))
		return -EINVAL;
	if (ret_calls)
		*ret_calls = 0;
	if (t == &nil)
		return 0;
	pmc_rg_row(t, (size_t)region, row);
	if (ret_calls)
		*ret_calls = row[0];
	for (int i = 0; i < t->nev && i < max; i++)
		values[i] = row[1 + i];
	return t->nev;
}

const char *pmctool_regions_read_method(void)
{
	const struct rg_thread *t = self == &nil ? NULL : self;
	uint64_t inproc = t ? reads_inproc(t) : 0;

	if (!t || (!inproc && !t->reads_syscall))
		return "none";
	if (inproc && t->reads_syscall)
		return "in process and read(2)";
	return inproc ? "in process" : "read(2)";
}

uint64_t pmc_rg_reads_inproc(const struct rg_thread *t)
{
	return reads_inproc(t);
}

struct rg_thread *pmc_rg_threads(void)
{
	return __atomic_load_n(&threads, __ATOMIC_ACQUIRE);
}

int pmctool_regions_finish(void)
{
	int r = 0;

	pthread_mutex_lock(&lock);
	if (!finished && pmc_rg.mode != RG_OFF) {
		__atomic_store_n(&finished, true, __ATOMIC_RELEASE);
		r = pmc_rg_write();
	}
	pthread_mutex_unlock(&lock);
	return r;
}

/* glibc's on_exit hands the handler exit()'s status (the JSON report has it); elsewhere it stays unknown. */
#ifdef __GLIBC__
static void at_exit(int status, void *arg)
{
	(void)arg;
	pmc_rg.exit_status = status & 0xff;
	(void)pmctool_regions_finish();
}
#define RG_ON_EXIT(fn) on_exit(fn, NULL)
#else
static void at_exit(void)
{
	(void)pmctool_regions_finish();
}
#define RG_ON_EXIT(fn) atexit(fn)
#endif

/* A child forked inside the program starts clean: the parent's records and counters (bound to the parent's threads)
 * are dropped; its own threads open their own on first use and it writes its own block at its exit. Regions open
 * in the parent at the fork are not open in the child (a leave of one there is unmatched). */
static void after_fork_child(void)
{
	for (struct rg_thread *t = threads; t; t = t->next)
		for (int i = 0; i < t->nev; i++)
			if (t->fd[i] >= 0)
				close(t->fd[i]);
	/* The old records stay allocated (another thread of the parent may have been writing one). */
	threads = NULL;
	nthreads = 0;
	announced = false; /* the child announces itself at its own first use */
	self = &nil;
	pthread_mutex_init(&lock, NULL);
	pmc_rg_names_after_fork();
}

/*
 * The library's start, from the environment. A secure-execution process (setuid, setgid, file capabilities: the
 * kernel's AT_SECURE) counts nothing and writes nothing, whatever PMCTOOL_* says: the variables come from a user the
 * program does not trust, and its report would be written with privileges that user lacks (pmctool-regions(7),
 * SECURITY). secure_getenv reads them, so that no later read can obey them either.
 */
static void __attribute__((constructor)) rg_init(void)
{
	const char *ev, *fd;
	struct timespec now;

	if (getauxval(AT_SECURE))
		return;
	ev = secure_getenv(PMC_RG_ENV_EVENTS);
	fd = secure_getenv(PMC_RG_ENV_FD);
	if (!ev)
		return;
	if (pmc_rg_parse_events(ev, pmc_rg.setup_err, sizeof(pmc_rg.setup_err))) {
		pmc_rg.nev = 0;
		/* Counted calls are still worth a report; the error is in it. */
	}
	if (fd) {
		char *end;
		long v = strtol(fd, &end, 10);

		if (*end || v < 0 || v > 1 << 20)
			return;
		pmc_rg.chan_fd = (int)v;
		pmc_rg.mode = RG_PMCTOOL;
	} else {
		pmc_rg.mode = RG_STANDALONE;
		clock_gettime(CLOCK_MONOTONIC, &now);
		pmc_rg.start_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
		pmc_rg_setup_out(secure_getenv(PMC_RG_ENV_OUT), secure_getenv(PMC_RG_ENV_FORMAT));
	}
	if (pthread_key_create(&thread_key, thread_gone)) {
		pmc_rg.mode = RG_OFF;
		return;
	}
	pthread_atfork(NULL, NULL, after_fork_child);
	RG_ON_EXIT(at_exit);
}
