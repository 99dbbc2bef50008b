/* SPDX-License-Identifier: MIT */
/* Named regions in users' programs: per-thread counters opened on first use and read in process (the architecture's
 * counter read of the perf page's index, read(2) where the kernel does not allow it), accumulated per region. The
 * hot path (enter, leave) takes no lock, makes no allocation, and no system call on the in-process path. */
#include "regions/rg_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"

struct rg_global pmc_rg = { .chan_fd = -1, .exit_status = -1 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char names[PMCTOOL_REGIONS_MAX][PMCTOOL_REGION_NAME_MAX + 1];
static unsigned nnames;                  /* published with release: names below it never change */
static uint64_t bad_names;
static struct rg_thread *threads;        /* published with release */
static unsigned nthreads;
static bool finished;
static pthread_key_t thread_key;

static __thread struct rg_thread *self __attribute__((tls_model("initial-exec")));

/* The counter reads of the in-process path; bench/region_path.c replaces them to count the path's instructions where
 * no PMU exists. */
#ifndef PMC_RG_COUNTER_READ
#define PMC_RG_COUNTER_READ pmc_arch_counter_read
#endif
#ifndef PMC_RG_READER_READ
#define PMC_RG_READER_OF pmc_arch_reader_of
#define PMC_RG_READER_READ pmc_arch_reader_read
#endif

#define ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define BARRIER() __asm__ __volatile__("" ::: "memory")
#define ROW(t, r) (&(t)->acc[(size_t)(r) * (size_t)(1 + (t)->nev)])

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
	for (unsigned k = 0; k < t->depth && k < PMCTOOL_REGION_DEPTH_MAX; k++) {
		struct rg_frame *f = &t->stack[k];

		if (f->gen == 0 || f->gen != t->c.gen)
			continue;
		raw_to_full(t, f->start);
		f->gen = 0;
	}
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
	int k = 0;

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
		c->sh[k] = (64u - w) & 63u;
		c->mask[k] = c->sh[k] ? (UINT64_C(1) << (64u - c->sh[k])) - 1 : UINT64_MAX;
		c->lock[k] = &pg->lock;
		c->seq[k] = seq;
		c->rd[k] = PMC_RG_READER_OF(idx);
		c->off[k] = off;
		k++;
	}
	c->n = k;
	c->ident = k == t->nev;
	c->on = on && k > 0;
	if (++c->gen == 0)
		c->gen = 1;
}

/* The fast path: each counter's raw value, then every page's lock against the cache. True when no page changed since
 * the cache was taken (so the cached readers read the right counters, before the check and at the last read). */
#define RG_CASES(X) \
	X(15) X(14) X(13) X(12) X(11) X(10) X(9) X(8) X(7) X(6) X(5) X(4) X(3) X(2) X(1) X(0)
/* Counter i's read, then its page's lock: the read was of the right counter when the lock still reads what the
 * cache took (the kernel changes a page only while this thread is stopped, and the lock only grows). */
#define RG_READ_ONE(i) \
	case (i) + 1: \
		out[i] = PMC_RG_READER_READ(c->rd[i]); \
		BARRIER(); \
		changed |= *c->lock[i] ^ c->seq[i]; \
		__attribute__((fallthrough));
#define RG_ADD_ONE(i) \
	case (i) + 1: { \
		uint64_t d = (now[i] - start[i]) & mask[i]; \
		acc[i] += d; \
		top[i] += d; \
	} \
		__attribute__((fallthrough));

static inline __attribute__((always_inline)) bool read_fast(const struct rg_thread *t, uint64_t *out)
{
	const struct rg_cache *c = &t->c;
	uint32_t changed = 0;

	/* Unrolled (a loop costs a third more here): c->n is 1..RG_EV. */
	switch (c->n) {
	RG_CASES(RG_READ_ONE)
	default:
		break;
	}
	return changed == 0;
}

static uint64_t reads_inproc(const struct rg_thread *t)
{
	uint64_t opened = 0;

	for (int i = 0; i < t->nev; i++)
		opened += t->fd[i] >= 0 || !t->err[i];
	return t->reads * opened - t->reads_syscall;
}

static void thread_gone(void *p)
{
	struct rg_thread *t = p;
	long psz = sysconf(_SC_PAGESIZE);

	t->c.on = false; /* the cache points into the pages unmapped below */
	for (int i = 0; i < t->nev; i++) {
		if (t->page[i])
			munmap(t->page[i], (size_t)psz);
		t->page[i] = NULL;
		if (t->fd[i] >= 0)
			close(t->fd[i]);
		t->fd[i] = -1;
	}
	__atomic_store_n(&t->exited, true, __ATOMIC_RELEASE);
}

static inline void enter_region(struct rg_thread *t, int r);
static inline void leave_region(struct rg_thread *t, int r);

/* The empty pair as a region's own counts see it: the least of a few, on the row after the last region. */
static void calibrate(struct rg_thread *t)
{
	uint64_t *row = ROW(t, RG_CALIB), before[RG_EV];

	for (int i = 0; i < t->nev; i++)
		t->cost[i] = UINT64_MAX;
	for (int k = 0; k < 16; k++) {
		memcpy(before, row + 1, sizeof(uint64_t) * (size_t)t->nev);
		enter_region(t, RG_CALIB);
		leave_region(t, RG_CALIB);
		for (int i = 0; i < t->nev; i++)
			if (row[1 + i] - before[i] < t->cost[i])
				t->cost[i] = row[1 + i] - before[i];
	}
	for (int i = 0; i < t->nev; i++)
		if (t->fd[i] < 0)
			t->cost[i] = 0;
	memset(t->top, 0, sizeof(t->top));
}

/* The calling thread's first use: its counters and accumulators. NULL when counting is off or out of memory. */
static struct rg_thread *thread_first_use(void)
{
	struct rg_thread *t;
	long psz = sysconf(_SC_PAGESIZE);

	if (pmc_rg.mode == RG_OFF || __atomic_load_n(&finished, __ATOMIC_ACQUIRE))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->nev = pmc_rg.nev;
	t->acc = calloc((size_t)(RG_CALIB + 1) * (size_t)(1 + t->nev), sizeof(uint64_t));
	if (!t->acc) {
		free(t);
		return NULL;
	}
	t->tid = gettid();
	for (int i = 0; i < t->nev; i++) {
		int fd = pmc_rg_open(i, &t->user_only[i]);

		t->fd[i] = fd;
		t->err[i] = fd < 0 ? -fd : 0;
		if (fd < 0)
			continue;
		void *p = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
		t->page[i] = p == MAP_FAILED ? NULL : p;
	}
	self = t;
	refresh(t);
	calibrate(t);
	pthread_mutex_lock(&lock);
	t->ordinal = nthreads++;
	t->next = threads;
	__atomic_store_n(&threads, t, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lock);
	pthread_setspecific(thread_key, t);
	return t;
}

static inline struct rg_thread *current(void)
{
	struct rg_thread *t = self;

	if (__builtin_expect(t != NULL, 1))
		return t;
	return thread_first_use();
}

static void __attribute__((noinline)) enter_slow(struct rg_thread *t, struct rg_frame *f)
{
	refresh(t);
	read_all(t, f->start);
	f->gen = 0;
}

/* What comes before the read is outside the region, what comes after it inside: the bookkeeping goes first. */
static inline __attribute__((always_inline)) void enter_region(struct rg_thread *t, int r)
{
	struct rg_frame *f;

	if (__builtin_expect(t->depth >= PMCTOOL_REGION_DEPTH_MAX, 0)) {
		t->too_deep++;
		t->deep_ignored++;
		return;
	}
	f = &t->stack[t->depth];
	f->region = r;
	t->reads++;
	if (__builtin_expect(t->c.on, 1) && __builtin_expect(read_fast(t, f->start), 1))
		f->gen = t->c.gen;
	else
		enter_slow(t, f);
	t->depth++;
}

/* A page changed, or the fast path is off: full counts now, after the cache is taken again (which turns the open
 * frames' raw values into full counts first). */
static void __attribute__((noinline)) leave_read_slow(struct rg_thread *t, uint64_t *now)
{
	refresh(t);
	read_all(t, now);
}

static void __attribute__((noinline)) add_full(struct rg_thread *t, struct rg_frame *f, uint64_t *now, bool now_raw,
					       uint64_t *row)
{
	if (now_raw)
		raw_to_full(t, now);
	for (int i = 0; i < t->nev; i++) {
		uint64_t d = now[i] - f->start[i];

		row[1 + i] += d;
		if (t->depth == 0)
			t->top[i] += d;
	}
}

/* The fast path's sums where an event failed to open: the cache's order mapped to the events'. */
static void __attribute__((noinline)) add_mapped(struct rg_thread *t, const struct rg_frame *f, const uint64_t *now,
						 uint64_t *row)
{
	const struct rg_cache *c = &t->c;

	for (int k = 0; k < c->n; k++) {
		uint64_t d = (now[k] - f->start[k]) & c->mask[k];

		row[1 + c->map[k]] += d;
		if (t->depth == 0)
			t->top[c->map[k]] += d;
	}
}

static inline __attribute__((always_inline)) void leave_region(struct rg_thread *t, int r)
{
	uint64_t now[RG_EV], *row;
	struct rg_frame *f;
	bool fast = __builtin_expect(t->c.on, 1) && __builtin_expect(read_fast(t, now), 1);

	if (__builtin_expect(!fast, 0))
		leave_read_slow(t, now);
	t->reads++;
	if (__builtin_expect(t->depth == 0 || t->stack[t->depth - 1].region != r, 0)) {
		t->unmatched++;
		return;
	}
	f = &t->stack[--t->depth];
	row = ROW(t, r);
	row[0]++;
	if (__builtin_expect(fast && f->gen == t->c.gen, 1)) {
		const uint64_t *__restrict mask = t->c.mask;
		const int n = t->c.n;

		if (__builtin_expect(!t->c.ident, 0)) {
			add_mapped(t, f, now, row);
			return;
		}
		uint64_t *__restrict top = t->depth == 0 ? t->top : t->top_nested;
		uint64_t *__restrict acc = row + 1;
		const uint64_t *__restrict start = f->start;

		/* Unrolled as read_fast. Nested frames add into a row nobody reads: one branch less. */
		switch (n) {
		RG_CASES(RG_ADD_ONE)
		default:
			break;
		}
		return;
	}
	/* Full counts at both ends: a frame entered on the slow path (now raw: made full with the cache it was read
	 * under), or the slow read above (every open frame was made full). */
	add_full(t, f, now, fast, row);
}

void pmctool_region_enter(pmctool_region_t region)
{
	struct rg_thread *t = current();

	if (!t)
		return;
	if (__builtin_expect((unsigned)region >= PMCTOOL_REGIONS_MAX, 0)) {
		t->invalid++;
		return;
	}
	enter_region(t, region);
}

void pmctool_region_leave(pmctool_region_t region)
{
	struct rg_thread *t = self;

	if (!t)
		return;
	if (__builtin_expect((unsigned)region >= PMCTOOL_REGIONS_MAX, 0)) {
		t->invalid++;
		return;
	}
	if (__builtin_expect(t->too_deep > 0, 0) && t->depth == PMCTOOL_REGION_DEPTH_MAX) {
		t->too_deep--; /* the leave of an enter that was ignored */
		return;
	}
	leave_region(t, region);
}

/* Lock-free: names below the published count never change. -1 when absent. */
static int lookup(const char *name)
{
	unsigned n = __atomic_load_n(&nnames, __ATOMIC_ACQUIRE);

	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

pmctool_region_t pmctool_region(const char *name)
{
	int r;

	if (!name || !*name || strlen(name) > PMCTOOL_REGION_NAME_MAX || strchr(name, '\n')) {
		__atomic_fetch_add(&bad_names, 1, __ATOMIC_RELAXED);
		return PMCTOOL_REGION_INVALID;
	}
	r = lookup(name);
	if (r >= 0)
		return r;
	pthread_mutex_lock(&lock);
	r = lookup(name);
	if (r < 0 && nnames < PMCTOOL_REGIONS_MAX) {
		strcpy(names[nnames], name);
		r = (int)nnames;
		__atomic_store_n(&nnames, nnames + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	if (r < 0)
		__atomic_fetch_add(&bad_names, 1, __ATOMIC_RELAXED);
	return r;
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
	int r = lookup(name);
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
	const uint64_t *row;

	if ((unsigned)region >= PMCTOOL_REGIONS_MAX)
		return -EINVAL;
	*ret_calls = 0;
	if (!t)
		return 0;
	row = ROW(t, region);
	*ret_calls = row[0];
	for (int i = 0; i < t->nev && i < max; i++)
		values[i] = row[1 + i];
	return t->nev;
}

const char *pmctool_regions_read_method(void)
{
	const struct rg_thread *t = self;

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

unsigned pmc_rg_nregions(void)
{
	return __atomic_load_n(&nnames, __ATOMIC_ACQUIRE);
}

const char *pmc_rg_region_name(unsigned id)
{
	return names[id];
}

uint64_t pmc_rg_bad_names(void)
{
	return __atomic_load_n(&bad_names, __ATOMIC_RELAXED);
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
	self = NULL;
	pthread_mutex_init(&lock, NULL);
}

static void __attribute__((constructor)) rg_init(void)
{
	const char *ev = getenv(PMC_RG_ENV_EVENTS), *fd = getenv(PMC_RG_ENV_FD);
	struct timespec now;

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
		pmc_rg_setup_out(getenv(PMC_RG_ENV_OUT), getenv(PMC_RG_ENV_FORMAT));
	}
	if (pthread_key_create(&thread_key, thread_gone)) {
		pmc_rg.mode = RG_OFF;
		return;
	}
	pthread_atfork(NULL, NULL, after_fork_child);
	RG_ON_EXIT(at_exit);
}
