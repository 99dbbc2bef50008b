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

/* The counter read of the in-process path; bench/region_path.c replaces it to count the path's instructions where no
 * PMU exists. */
#ifndef PMC_RG_COUNTER_READ
#define PMC_RG_COUNTER_READ pmc_arch_counter_read
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

/*
 * Every counter of the thread: the perf page's seqlock around the architecture's read (as src/perf/selfread.c,
 * without the times: a thread's own events are on the PMU whenever it runs). The page's index alone decides: the
 * kernel gives 0 unless this task may read the counter in process (x86: x86_pmu_event_idx without
 * PERF_EVENT_FLAG_USER_READ_CNT; arm64: armv8pmu_user_event_idx without perf_user_access), so cap_user_rdpmc need not
 * be read here. The counter's width is the page's; (64 - width) & 63 also covers 64 and an unset 0.
 * reads_syscall counts the counters read with read(2): the in-process ones are reads x opened - reads_syscall.
 */
static inline void read_all(struct rg_thread *t, uint64_t *out)
{
	/* Locals: the compiler barriers below would make it reload every field of t at each counter. */
	struct perf_event_mmap_page *const *pages = t->page;
	const int n = t->nev;

	t->reads++;
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
		out[i] = off + (uint64_t)((int64_t)(raw << sh) >> sh);
		continue;
syscall:
		out[i] = read_syscall(t, i);
	}
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

static void enter_region(struct rg_thread *t, int r);
static void leave_region(struct rg_thread *t, int r);

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

static void enter_region(struct rg_thread *t, int r)
{
	struct rg_frame *f;

	if (__builtin_expect(t->depth >= PMCTOOL_REGION_DEPTH_MAX, 0)) {
		t->too_deep++;
		t->deep_ignored++;
		return;
	}
	f = &t->stack[t->depth];
	f->region = r;
	read_all(t, f->start);
	t->depth++;
}

static void leave_region(struct rg_thread *t, int r)
{
	uint64_t now[RG_EV], *row;
	struct rg_frame *f;
	int n;

	read_all(t, now);
	if (__builtin_expect(t->depth == 0 || t->stack[t->depth - 1].region != r, 0)) {
		t->unmatched++;
		return;
	}
	f = &t->stack[--t->depth];
	row = ROW(t, r);
	row[0]++;
	n = t->nev;
	for (int i = 0; i < n; i++)
		row[1 + i] += now[i] - f->start[i];
	if (t->depth == 0)
		for (int i = 0; i < n; i++)
			t->top[i] += now[i] - f->start[i];
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
