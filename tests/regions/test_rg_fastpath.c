/* SPDX-License-Identifier: MIT */
/*
 * libpmctool's fast read path with injected counters: the library's core compiled with its counter reads replaced by
 * reads of an array (the "hardware"), and each thread's pages replaced by fake perf pages this test changes the way the
 * kernel does (a new counter, offset and lock when an event is rescheduled). Every region's counts must equal what the
 * test made its events count inside it, whatever changed in between: this proves the cached fast path, its fall back
 * to the slow path, the open frames' conversion and the width masks. No PMU is needed; the real path is proven
 * exactly on the arm64 rig (tests/regions/guest_regions.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define NHW 40
static uint64_t hw[NHW]; /* the injected counters, by reader (= the page's index) */

static inline uint64_t hw_read_index(uint32_t index)
{
	return hw[index % NHW];
}

static inline uint64_t hw_read_reader(uint32_t r)
{
	return hw[r % NHW];
}

/* The library's open, with one event refused on demand (the injected open of the last test). */
static int refuse_event = -1;
int pmc_rg_open(int i, bool *ret_user_only);
static int open_or_refuse(int i, bool *ret_user_only)
{
	return i == refuse_event ? -ENOENT : pmc_rg_open(i, ret_user_only);
}

#define PMC_RG_OPEN open_or_refuse
#define PMC_RG_COUNTER_READ hw_read_index
#define PMC_RG_READER_OF(idx) (idx)
#define PMC_RG_READER_READ hw_read_reader
#include "regions/lib/rg_core.c"

#define NEV 4
/* The fake pages, side by side as the library maps the real ones (fk[i] = event i's page); in reverse order for the
 * runs that prove the path for pages that are not (the locks through their pointers). */
static union {
	struct perf_event_mmap_page pg;
	char stride[RG_PAGE_STRIDE];
} fakemem[NEV];
static struct perf_event_mmap_page *fk[NEV];
static uint64_t truth[NEV];  /* what each event has counted so far */
static unsigned width[NEV] = { 48, 48, 32, 64 };

static uint64_t sext(uint64_t v, unsigned w)
{
	unsigned sh = (64u - w) & 63u;

	return (uint64_t)((int64_t)(v << sh) >> sh);
}

static uint64_t wmask(unsigned w)
{
	return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

/* The kernel puts event i on counter idx, starting it at half its range plus a little, and updates the page. */
static void schedule(int i, uint32_t idx, uint64_t start)
{
	fk[i]->lock++;
	hw[idx] = start & wmask(width[i]);
	fk[i]->index = idx;
	fk[i]->pmc_width = (uint16_t)width[i];
	fk[i]->offset = truth[i] - sext(hw[idx], width[i]);
	fk[i]->lock++;
}

/* Event i counts k more. */
static void count(int i, uint64_t k)
{
	truth[i] += k;
	hw[fk[i]->index] = (hw[fk[i]->index] + k) & wmask(width[i]);
}

static void count_all(uint64_t k)
{
	for (int i = 0; i < NEV; i++)
		count(i, k * (uint64_t)(i + 1));
}

static pmctool_region_t reg_a, reg_b, reg_warm;

static int setup(void **state)
{
	(void)state;
	if (pmc_rg_parse_events("task-clock,page-faults,context-switches,cpu-migrations", pmc_rg.setup_err,
				sizeof(pmc_rg.setup_err)) ||
	    pthread_key_create(&thread_key, thread_gone))
		return -1;
	pmc_rg.mode = RG_STANDALONE;
	snprintf(pmc_rg.out_path, sizeof(pmc_rg.out_path), "/dev/null");
	reg_a = pmctool_region("a");
	reg_b = pmctool_region("b");
	reg_warm = pmctool_region("warm");
	if (pmctool_thread_init() < 0 || self->nev != NEV)
		return -1;
	for (int i = 0; i < NEV; i++) {
		fk[i] = &fakemem[i].pg;
		fk[i]->capabilities = 1ull << 2;
		schedule(i, (uint32_t)(i + 1), (UINT64_C(1) << (width[i] - 1)) + 7);
		self->page[i] = fk[i];
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (self != &nil) {
		memset(self->page, 0, sizeof(self->page)); /* not the kernel's: never unmapped */
		self->c.on = false;
		choose_path(self);
	}
	return 0;
}

/* calls and values of a region, as the library sums them */
static void counts(pmctool_region_t r, unsigned long long *calls, unsigned long long *v)
{
	assert_int_equal(pmctool_region_counts(r, calls, v, NEV), NEV);
}

static void expect_growth(pmctool_region_t r, const unsigned long long *before, uint64_t calls_before,
			  const uint64_t *want, uint64_t want_calls)
{
	unsigned long long calls, v[NEV];

	counts(r, &calls, v);
	assert_int_equal(calls - calls_before, want_calls);
	for (int i = 0; i < NEV; i++)
		if (v[i] - before[i] != want[i])
			fail_msg("event %d: the region grew by %llu, the event counted %llu in it", i,
				 (unsigned long long)(v[i] - before[i]), (unsigned long long)want[i]);
}

/* A table of what happens inside region a (and its nested b): the library must get every count exactly. */
enum step { COUNT, RESCHED, RESCHED_ONE, ENTER_B, LEAVE_B, END };

static const struct {
	int line;
	const char *what;
	bool near_wrap; /* before the region: every counter rescheduled 9 short of its end, so the region's counts wrap it */
	int moved_before; /* before the region's enter, events rescheduled (1: one, 4: all): its fast read is stale */
	enum step steps[8];
} rows[] = {
	{ __LINE__, "nothing changes: the fast path at both ends", false, 0, { COUNT, END } },
	{ __LINE__, "every event rescheduled inside the region", false, 0, { COUNT, RESCHED, COUNT, END } },
	{ __LINE__, "one event rescheduled inside the region", false, 0, { COUNT, RESCHED_ONE, COUNT, END } },
	{ __LINE__, "the counters wrap inside the region (before the kernel's overflow update)", true, 0, { COUNT, END } },
	{ __LINE__, "nested, rescheduled inside the inner region", false, 0,
	  { COUNT, ENTER_B, RESCHED, COUNT, LEAVE_B, COUNT, END } },
	{ __LINE__, "nested, rescheduled between the inner region and the end", false, 0,
	  { ENTER_B, COUNT, LEAVE_B, RESCHED_ONE, COUNT, END } },
	{ __LINE__, "nested, both wrap", true, 0, { ENTER_B, COUNT, LEAVE_B, END } },
	{ __LINE__, "rescheduled twice", false, 0, { RESCHED, COUNT, RESCHED, COUNT, END } },
	{ __LINE__, "every event rescheduled just before the enter: its fast read is discarded", false, 4, { COUNT, END } },
	{ __LINE__, "one event rescheduled just before the enter", false, 1, { COUNT, END } },
	{ __LINE__, "moved before the enter, then nested on the fast path", false, 4,
	  { COUNT, ENTER_B, COUNT, LEAVE_B, COUNT, END } },
	{ __LINE__, "moved before the enter and inside the inner region", false, 1,
	  { ENTER_B, COUNT, RESCHED_ONE, COUNT, LEAVE_B, END } },
	{ __LINE__, "moved before the enter, wrapping inside", true, 4, { COUNT, END } },
};

static void run_rows(void)
{
	static uint32_t next_idx = 10;

	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		unsigned long long a0[NEV], b0[NEV], ca = 0, cb = 0;
		uint64_t in_a[NEV] = { 0 }, in_b[NEV] = { 0 }, t0[NEV], tb[NEV];
		bool b_used = false;

		if (rows[r].near_wrap) {
			for (int i = 0; i < NEV; i++)
				schedule(i, fk[i]->index, wmask(width[i]) - 9);
			/* one pair takes the cache again: the region below starts and ends on the fast path */
			pmctool_region_enter(reg_warm);
			pmctool_region_leave(reg_warm);
		}
		for (int i = 0; i < rows[r].moved_before; i++) {
			int e = rows[r].moved_before == 1 ? 1 : i;

			schedule(e, next_idx, rows[r].near_wrap ? wmask(width[e]) - 9 : (UINT64_C(1) << (width[e] - 1)) + 5);
			next_idx = next_idx + 1 < NHW ? next_idx + 1 : 10;
		}
		if (rows[r].moved_before)
			count_all(5); /* on the new counters only: a read of the old ones at the enter would miss this */
		counts(reg_a, &ca, a0);
		counts(reg_b, &cb, b0);
		memcpy(t0, truth, sizeof(t0));
		pmctool_region_enter(reg_a);
		for (int s = 0; rows[r].steps[s] != END; s++) {
			switch (rows[r].steps[s]) {
			case COUNT:
				count_all(1000 + r);
				break;
			case RESCHED:
				for (int i = 0; i < NEV; i++) {
					schedule(i, next_idx, (UINT64_C(1) << (width[i] - 1)) + 3 * next_idx);
					next_idx = next_idx + 1 < NHW ? next_idx + 1 : 10;
				}
				break;
			case RESCHED_ONE:
				schedule(1, next_idx, (UINT64_C(1) << 47) + 11);
				next_idx = next_idx + 1 < NHW ? next_idx + 1 : 10;
				break;
			case ENTER_B:
				memcpy(tb, truth, sizeof(tb));
				pmctool_region_enter(reg_b);
				b_used = true;
				break;
			case LEAVE_B:
				pmctool_region_leave(reg_b);
				for (int i = 0; i < NEV; i++)
					in_b[i] = truth[i] - tb[i];
				break;
			case END:
				break;
			}
		}
		pmctool_region_leave(reg_a);
		for (int i = 0; i < NEV; i++)
			in_a[i] = truth[i] - t0[i];
		print_message("line %d: %s\n", rows[r].line, rows[r].what);
		expect_growth(reg_a, a0, ca, in_a, 1);
		if (b_used)
			expect_growth(reg_b, b0, cb, in_b, 1);
	}
}

/* The pages side by side (as the library maps them): the specialized copies, locks from one base. */
static void test_fastpath_counts_exact_with_injected_counters_whatever_the_pages_do(void **state)
{
	(void)state;
	run_rows();
	assert_true(self->enter == enter_ident[NEV] && self->leave == leave_ident[NEV]);
}

/* Event i's page moves to where event NEV-1-i's was: the pages are no longer side by side in the events' order. */
static void reverse_pages(void)
{
	struct perf_event_mmap_page saved[NEV];

	for (int i = 0; i < NEV; i++)
		saved[i] = *fk[i];
	for (int i = 0; i < NEV; i++) {
		fk[i] = &fakemem[NEV - 1 - i].pg;
		*fk[i] = saved[i];
		fk[i]->lock += 2; /* the kernel's next update, as far as the cache can tell */
		self->page[i] = fk[i];
	}
}

/* The same rows with pages that are not side by side: the copies for pages apart, locks through their pointers. */
static void test_fastpath_counts_exact_with_pages_apart_injected_counters(void **state)
{
	(void)state;
	reverse_pages();
	run_rows();
	assert_true(self->enter == enter_apart[NEV] && self->leave == leave_apart[NEV]);
	reverse_pages();
}

/* An event that failed to open counts 0 and leaves the others on the fast path (mapped sums). */
static void test_fastpath_with_an_event_that_failed_to_open_injected_counters(void **state)
{
	unsigned long long a0[NEV], ca = 0;
	uint64_t t0[NEV], want[NEV];
	int saved = self->fd[2];

	(void)state;
	self->fd[2] = -1; /* as a failed open leaves it: no descriptor, no page */
	self->page[2] = NULL;
	fk[0]->lock += 2; /* a change: the next read takes the cache again, without event 2 */
	counts(reg_a, &ca, a0);
	memcpy(t0, truth, sizeof(t0));
	pmctool_region_enter(reg_a);
	count_all(500);
	pmctool_region_leave(reg_a);
	assert_true(self->c.on);
	assert_false(self->c.ident);
	assert_true(self->enter == enter_mapped && self->leave == leave_mapped); /* columns mapped, any n */
	for (int i = 0; i < NEV; i++)
		want[i] = i == 2 ? 0 : truth[i] - t0[i];
	/* the first read after the change was slow: event 2 read 0 there too (fd -1) */
	expect_growth(reg_a, a0, ca, want, 1);
	self->fd[2] = saved;
	self->page[2] = fk[2];
	fk[0]->lock += 2;
}

/* Misuse on the fast path (the leave reads before it looks at its frame): a leave of another region, of an invalid
 * handle, at depth 0, and enters beyond the depth limit are counted as misuse, and the open region's counts stay
 * exact. */
static void test_fastpath_misuse_counted_and_counts_exact_injected_counters(void **state)
{
	unsigned long long a0[NEV], ca = 0;
	uint64_t t0[NEV], want[NEV], unmatched = self->unmatched, invalid = self->invalid, deep = self->deep_ignored;

	(void)state;
	pmctool_region_enter(reg_warm);
	pmctool_region_leave(reg_warm); /* the cache is taken: the calls below are on the fast path */
	assert_true(self->c.on);
	pmctool_region_leave(reg_a); /* depth 0 */
	counts(reg_a, &ca, a0);
	memcpy(t0, truth, sizeof(t0));
	pmctool_region_enter(reg_a);
	count_all(300);
	pmctool_region_leave(reg_b);    /* not the innermost */
	pmctool_region_leave(-5);       /* invalid */
	pmctool_region_leave(1 << 20);  /* invalid */
	pmctool_region_enter(-5);       /* invalid */
	for (int k = 0; k < PMCTOOL_REGION_DEPTH_MAX + 3; k++)
		pmctool_region_enter(reg_b); /* 63 open, 4 ignored */
	count_all(7);
	for (int k = 0; k < 4; k++)
		pmctool_region_leave(reg_b); /* the leaves of the 4 ignored enters: every real frame stays open */
	assert_int_equal(pmc_rg_depth(self), PMCTOOL_REGION_DEPTH_MAX);
	assert_int_equal(self->too_deep, 0);
	assert_false(self->top->key & RG_DEEP); /* the innermost b's leave is on the fast path again */
	for (int k = 0; k < PMCTOOL_REGION_DEPTH_MAX - 1; k++)
		pmctool_region_leave(reg_b);
	assert_true(self->top == &self->stack[0]);
	count_all(11);
	pmctool_region_leave(reg_a);
	for (int i = 0; i < NEV; i++)
		want[i] = truth[i] - t0[i];
	expect_growth(reg_a, a0, ca, want, 1);
	assert_int_equal(self->unmatched - unmatched, 2);
	assert_int_equal(self->invalid - invalid, 3);
	assert_int_equal(self->deep_ignored - deep, 4);
	assert_int_equal(pmc_rg_depth(self), 0);
	assert_int_equal(self->too_deep, 0);
}

/* A signal handler that uses regions, arriving at any instruction of the slow path while it switches the thread's
 * enter and leave (refresh refuses calls, then installs the new cache's pair). A second thread signals the main one
 * without pause while every main-loop call takes the slow path (an event is rescheduled before each). Every handler
 * run must be counted whole or refused whole: an enter refused and its leave run (or the reverse) is an unmatched
 * leave or a frame never closed, which the test would see. */
static volatile sig_atomic_t sig_handled;
static volatile bool sig_stop;
static pthread_t sig_main;

static void on_usr1(int sig)
{
	(void)sig;
	pmctool_region_enter(reg_b);
	pmctool_region_leave(reg_b);
	sig_handled++;
}

static void *signaller(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&sig_stop, __ATOMIC_RELAXED))
		pthread_kill(sig_main, SIGUSR1);
	return NULL;
}

static void test_fastpath_signal_inside_the_path_switch_counted_or_refused_whole_injected_counters(void **state)
{
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	unsigned long long ca0, ca1, cb0, cb1;
	uint64_t unmatched = self->unmatched, refused = self->refused;
	uint32_t idx = 100;
	pthread_t th;
	const long n = 200000;

	(void)state;
	assert_true(pmctool_region_counts(reg_a, &ca0, NULL, 0) >= 0);
	assert_true(pmctool_region_counts(reg_b, &cb0, NULL, 0) >= 0);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	sig_main = pthread_self();
	sig_stop = false;
	sig_handled = 0;
	assert_int_equal(pthread_create(&th, NULL, signaller, NULL), 0);
	for (long k = 0; k < n; k++) {
		/* the page of one event changes: the enter's read is stale and the slow path switches the pair */
		schedule((int)(k % NEV), NHW / 2 + (idx++ % (NHW / 2)), (UINT64_C(1) << (width[k % NEV] - 1)) + 3);
		pmctool_region_enter(reg_a);
		count_all(1);
		pmctool_region_leave(reg_a);
	}
	__atomic_store_n(&sig_stop, true, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	assert_int_equal(sigaction(SIGUSR1, &old, NULL), 0);
	assert_true(pmctool_region_counts(reg_a, &ca1, NULL, 0) >= 0);
	assert_true(pmctool_region_counts(reg_b, &cb1, NULL, 0) >= 0);
	printf("# %ld slow paths, %d handler runs: %llu counted, %llu refused\n", n, (int)sig_handled, cb1 - cb0,
	       (unsigned long long)(self->refused - refused) / 2);
	assert_int_equal(ca1 - ca0, n);
	assert_int_equal(self->unmatched - unmatched, 0);
	assert_int_equal(pmc_rg_depth(self), 0);
	assert_int_equal((self->refused - refused) % 2, 0);
	assert_int_equal(cb1 - cb0 + (self->refused - refused) / 2, sig_handled);
	assert_true(sig_handled > 0);
}

/* The switch itself, alone in a loop (where two separate stores would leave a mixed pair at every fourth instruction or
 * so): a signal handler of the same thread sees the thread's enter and leave both refused or both the other path's. */
static volatile sig_atomic_t mixed_seen, pair_checks;

static void on_usr1_pair(int sig)
{
	(void)sig;
	if ((self->enter == call_refused) != (self->leave == call_refused))
		mixed_seen++;
	pair_checks++;
}

static void test_path_switch_is_one_store_as_a_signal_handler_sees_it(void **state)
{
	struct sigaction sa = { .sa_handler = on_usr1_pair }, old;
	rg_fn *enter = self->enter, *leave = self->leave;
	pthread_t th;

	(void)state;
	assert_true(enter != call_refused && leave != call_refused);
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, &old), 0);
	sig_main = pthread_self();
	sig_stop = false;
	assert_int_equal(pthread_create(&th, NULL, signaller, NULL), 0);
	while (pair_checks < 5000 && !mixed_seen) {
		set_path(self, call_refused, call_refused);
		set_path(self, enter, leave);
	}
	__atomic_store_n(&sig_stop, true, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	assert_int_equal(sigaction(SIGUSR1, &old, NULL), 0);
	assert_true(self->enter == enter && self->leave == leave);
	printf("# %d handler runs, %d saw one path's enter with the other's leave\n", (int)pair_checks, (int)mixed_seen);
	assert_int_equal(mixed_seen, 0);
}

/* A region's calls entered at depth 0 go to the top-level table, nested ones to the other: its counts are both, the
 * top-level sums only the first (b counted nested in a, then alone; a and b's top-level calls are the sums). */
static void test_fastpath_top_level_sums_only_depth_0_calls_injected_counters(void **state)
{
	unsigned long long a0[NEV], b0[NEV], ca = 0, cb = 0;
	uint64_t top0[RG_EV], top1[RG_EV], t0[NEV], t1[NEV], in_a[NEV], in_b[NEV], alone[NEV];

	(void)state;
	pmctool_region_enter(reg_warm);
	pmctool_region_leave(reg_warm);
	counts(reg_a, &ca, a0);
	counts(reg_b, &cb, b0);
	pmc_rg_top(self, top0);
	memcpy(t0, truth, sizeof(t0));
	pmctool_region_enter(reg_a);
	count_all(10);
	pmctool_region_enter(reg_b);
	memcpy(t1, truth, sizeof(t1));
	count_all(20);
	for (int i = 0; i < NEV; i++)
		in_b[i] = truth[i] - t1[i];
	pmctool_region_leave(reg_b);
	count_all(30);
	pmctool_region_leave(reg_a);
	for (int i = 0; i < NEV; i++)
		in_a[i] = truth[i] - t0[i];
	memcpy(t1, truth, sizeof(t1));
	pmctool_region_enter(reg_b);
	count_all(40);
	pmctool_region_leave(reg_b);
	for (int i = 0; i < NEV; i++) {
		alone[i] = truth[i] - t1[i];
		in_b[i] += alone[i];
	}
	expect_growth(reg_a, a0, ca, in_a, 1);
	expect_growth(reg_b, b0, cb, in_b, 2);
	pmc_rg_top(self, top1);
	for (int i = 0; i < NEV; i++)
		if (top1[i] - top0[i] != in_a[i] + alone[i])
			fail_msg("event %d: top-level sums grew by %llu, the depth-0 calls counted %llu", i,
				 (unsigned long long)(top1[i] - top0[i]), (unsigned long long)(in_a[i] + alone[i]));
	assert_int_equal(pmc_rg_row_of(self, 1, (size_t)reg_b)[0] >= 1, 1);
}

/* An event refused at a thread's first use (injected open) has no column: the others are the rows' columns 0..2 and
 * their pages lie side by side in that order, so the thread takes the specialized copy for 3 counters, and the
 * refused event counts 0. */
static void test_fastpath_event_refused_at_first_use_leaves_no_column_injected_open(void **state)
{
	static union {
		struct perf_event_mmap_page pg;
		char stride[RG_PAGE_STRIDE];
	} cols[NEV - 1], spare;
	unsigned long long a0[NEV], got[NEV], calls = 0;
	uint64_t t0[NEV], want[NEV];

	(void)state;
	memset(self->page, 0, sizeof(self->page)); /* the old state keeps no fake page */
	self->c.on = false;
	choose_path(self);
	refuse_event = 2;
	self = &nil;
	assert_int_equal(pmctool_thread_init(), 0);
	refuse_event = -1;
	assert_int_equal(self->nopen, NEV - 1);
	assert_int_equal(self->col[2], -1);
	assert_int_equal(self->col[3], 2);
	fk[0] = &cols[0].pg;
	fk[1] = &cols[1].pg;
	fk[2] = &spare.pg; /* counted by the test, read by nobody */
	fk[3] = &cols[2].pg;
	for (int i = 0; i < NEV; i++) {
		if (self->page[i])
			munmap(self->page[i], RG_PAGE_STRIDE); /* the real page, replaced by a fake */
		fk[i]->capabilities = 1ull << 2;
		schedule(i, (uint32_t)(i + 1), (UINT64_C(1) << (width[i] - 1)) + 3);
		self->page[i] = i == 2 ? NULL : fk[i];
	}
	pmctool_region_enter(reg_warm);
	pmctool_region_leave(reg_warm); /* the cache is taken with the fake pages */
	assert_true(self->enter == enter_ident[NEV - 1] && self->leave == leave_ident[NEV - 1]);
	counts(reg_a, &calls, a0);
	memcpy(t0, truth, sizeof(t0));
	pmctool_region_enter(reg_a);
	count_all(600);
	pmctool_region_leave(reg_a);
	for (int i = 0; i < NEV; i++)
		want[i] = i == 2 ? 0 : truth[i] - t0[i];
	expect_growth(reg_a, a0, calls, want, 1);
	assert_int_equal(pmctool_region_counts(reg_a, &calls, got, NEV), NEV);
	assert_int_equal(got[2], 0);
	assert_int_equal(self->cost[2], 0);
}

int main(void)
{
	if (!PMC_ARCH_USER_READ) {
		printf("skip: this architecture has no in-process counter read (the library reads with read(2) only)\n");
		return 77;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fastpath_counts_exact_with_injected_counters_whatever_the_pages_do),
		cmocka_unit_test(test_fastpath_counts_exact_with_pages_apart_injected_counters),
		cmocka_unit_test(test_fastpath_with_an_event_that_failed_to_open_injected_counters),
		cmocka_unit_test(test_fastpath_misuse_counted_and_counts_exact_injected_counters),
		cmocka_unit_test(test_fastpath_top_level_sums_only_depth_0_calls_injected_counters),
		cmocka_unit_test(test_fastpath_signal_inside_the_path_switch_counted_or_refused_whole_injected_counters),
		cmocka_unit_test(test_path_switch_is_one_store_as_a_signal_handler_sees_it),
		/* last: it gives the thread a new state */
		cmocka_unit_test(test_fastpath_event_refused_at_first_use_leaves_no_column_injected_open),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
