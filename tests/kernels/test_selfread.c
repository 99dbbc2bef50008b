/* SPDX-License-Identifier: MIT */
/* Self-read arithmetic on a synthetic perf mmap page, with injected RDPMC and RDTSC in place of the instructions. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perf/selfread.h"

#define CAP_RDPMC (1ull << 2)
#define CAP_TIME (1ull << 3)
#define CAP_TIME_SHORT (1ull << 5)

static struct perf_event_mmap_page page;
static uint64_t fake_pmc, fake_tsc;
static uint32_t last_counter;
static unsigned rdpmc_calls, bump_lock_times;

static uint64_t inj_rdpmc(uint32_t index)
{
	last_counter = index;
	rdpmc_calls++;
	/* Simulate the kernel updating the page in the middle of a read. */
	if (bump_lock_times) {
		bump_lock_times--;
		page.lock++;
		page.offset += 1000;
	}
	return fake_pmc;
}

static unsigned timer_calls;

static uint64_t inj_rdtsc(void)
{
	timer_calls++;
	return fake_tsc;
}

static const struct pmc_selfread_ops inj = { inj_rdpmc, inj_rdtsc };

static int reset(void **state)
{
	memset(&page, 0, sizeof(page));
	fake_pmc = fake_tsc = 0;
	last_counter = 0;
	rdpmc_calls = bump_lock_times = 0;
	timer_calls = 0;
	return 0;
}

static void test_selfread_injected_read_gets_page_index_and_adds_offset(void **state)
{
	struct pmc_selfread_value v;

	page.capabilities = CAP_RDPMC;
	page.index = 3;
	page.pmc_width = 48;
	page.offset = 5000;
	fake_pmc = 1234;
	pmc_selfread_page(&page, &inj, &v);
	assert_true(v.from_rdpmc);
	assert_int_equal(last_counter, 3); /* the architecture maps it: RDPMC ECX 2, PMEVCNTR2_EL0 */
	assert_int_equal(v.value, 6234);
	assert_int_equal(v.retries, 0);
}

static void test_selfread_injected_rdpmc_retries_when_lock_changes(void **state)
{
	struct pmc_selfread_value v;

	page.capabilities = CAP_RDPMC;
	page.index = 1;
	page.pmc_width = 48;
	page.offset = 10;
	fake_pmc = 5;
	bump_lock_times = 1;
	pmc_selfread_page(&page, &inj, &v);
	assert_int_equal(v.retries, 1);
	assert_int_equal(rdpmc_calls, 2);
	/* The value of the consistent second pass, with the offset the "kernel" wrote. */
	assert_int_equal(v.value, 1015);
}

static void test_selfread_injected_rdpmc_sign_extends_by_pmc_width(void **state)
{
	static const struct {
		int line;
		unsigned width;
		uint64_t raw, offset, want;
	} rows[] = {
		{ __LINE__, 48, 0xffffffffffffull, 1000, 999 },          /* -1 in 48 bits */
		{ __LINE__, 48, 0x7fffffffffffull, 0, 0x7fffffffffffull }, /* largest positive */
		{ __LINE__, 48, 0x800000000000ull, 0, 0xffff800000000000ull },
		{ __LINE__, 40, 0xfffffffffeull, 10, 8 },                 /* -2 in 40 bits */
		{ __LINE__, 40, 0x0000000010ull, 0, 16 },
		{ __LINE__, 40, 0xff00000010ull, 0, 0xffffffff00000010ull },
		{ __LINE__, 64, 0xffffffffffffffffull, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_selfread_value v;
		reset(NULL);
		page.capabilities = CAP_RDPMC;
		page.index = 1;
		page.pmc_width = (uint16_t)rows[i].width;
		page.offset = rows[i].offset;
		fake_pmc = rows[i].raw;
		pmc_selfread_page(&page, &inj, &v);
		if (v.value != rows[i].want)
			fail_msg("row at line %d: got 0x%llx want 0x%llx", rows[i].line, (unsigned long long)v.value,
				 (unsigned long long)rows[i].want);
		/* Bits above the width are garbage on real hardware: they must not matter. */
		if (rows[i].width < 64) {
			fake_pmc = rows[i].raw | (0xabcdull << 48);
			if (rows[i].width == 40)
				fake_pmc = rows[i].raw | (0xabcdefull << 40);
			pmc_selfread_page(&page, &inj, &v);
			if (v.value != rows[i].want)
				fail_msg("row at line %d: high garbage bits changed the value", rows[i].line);
		}
	}
}

static void test_selfread_injected_rdpmc_counter_wrap_gives_correct_delta(void **state)
{
	struct pmc_selfread_value a, b;

	/* The hardware counter wraps from near 2^48 to a small value between two reads; the kernel has not yet
	 * folded the overflow into offset. Start and stop computed with the same offset still differ by the count. */
	page.capabilities = CAP_RDPMC;
	page.index = 1;
	page.pmc_width = 48;
	page.offset = 0x100000000000ull;
	fake_pmc = 0xfffffffffff0ull; /* -16 */
	pmc_selfread_page(&page, &inj, &a);
	fake_pmc = 0x10;              /* +16: 32 events later */
	pmc_selfread_page(&page, &inj, &b);
	assert_int_equal(b.value - a.value, 32);
	/* And a total near 2^64 wraps the same way in unsigned arithmetic. */
	page.offset = UINT64_MAX - 5;
	fake_pmc = 3;
	pmc_selfread_page(&page, &inj, &a);
	fake_pmc = 13;
	pmc_selfread_page(&page, &inj, &b);
	assert_int_equal(b.value - a.value, 10);
}

/* arm64 event counters are 32 bits wide (pmc_width 32): the kernel folds each overflow into offset, and a read
 * between the wrap and the fold must still give the right delta (REFERENCE 11: a 4.4e9-instruction run). */
static void test_selfread_injected_width_32_counter_wrap_gives_correct_delta(void **state)
{
	struct pmc_selfread_value a, b;

	page.capabilities = CAP_RDPMC;
	page.index = 3;
	page.pmc_width = 32;
	page.offset = 0x100000000ull;       /* one wrap already folded in by the kernel */
	fake_pmc = 0xfffffff0u;              /* reads as -16 in 32 bits */
	pmc_selfread_page(&page, &inj, &a);
	assert_int_equal(a.value, 0x100000000ull - 16);
	fake_pmc = 0x10u | (0xdeadull << 32); /* wrapped; high bits garbage */
	pmc_selfread_page(&page, &inj, &b);
	assert_int_equal(b.value - a.value, 0x20);
}

static void test_selfread_injected_rdpmc_index_zero_falls_back(void **state)
{
	struct pmc_selfread_value v;

	page.capabilities = CAP_RDPMC;
	page.index = 0;
	pmc_selfread_page(&page, &inj, &v);
	assert_false(v.from_rdpmc);
	assert_int_equal(rdpmc_calls, 0);
	/* No capability: no RDPMC either, whatever the index. */
	page.capabilities = 0;
	page.index = 2;
	pmc_selfread_page(&page, &inj, &v);
	assert_false(v.from_rdpmc);
	assert_int_equal(rdpmc_calls, 0);
}

static void test_selfread_injected_rdpmc_time_extrapolation_enabled_always_running_when_on_pmu(void **state)
{
	struct pmc_selfread_value v;

	page.capabilities = CAP_RDPMC | CAP_TIME;
	page.time_enabled = 1000;
	page.time_running = 600;
	page.time_mult = 1u << 10; /* 1 ns per cycle with shift 10 */
	page.time_shift = 10;
	page.time_offset = 50;
	fake_tsc = 400;
	page.index = 1;
	pmc_selfread_page(&page, &inj, &v);
	assert_true(v.times_now);
	assert_int_equal(v.enabled, 1000 + 50 + 400);
	assert_int_equal(v.running, 600 + 50 + 400);
	page.index = 0;
	pmc_selfread_page(&page, &inj, &v);
	assert_int_equal(v.enabled, 1000 + 50 + 400);
	assert_int_equal(v.running, 600);
	/* Without cap_user_time the times are the page's, unextrapolated. */
	page.capabilities = CAP_RDPMC;
	pmc_selfread_page(&page, &inj, &v);
	assert_false(v.times_now);
	assert_int_equal(v.enabled, 1000);
}

static void test_selfread_injected_rdpmc_time_short_masks_cycles(void **state)
{
	struct pmc_selfread_value v;

	page.capabilities = CAP_TIME | CAP_TIME_SHORT;
	page.time_enabled = 1; /* enabled != running: the times need the timer */
	page.time_mult = 1;
	page.time_shift = 0;
	page.time_cycles = 0x1000;
	page.time_mask = 0xff;
	fake_tsc = 0x12345;   /* (0x12345 - 0x1000) & 0xff = 0x45 */
	pmc_selfread_page(&page, &inj, &v);
	assert_int_equal(v.enabled, 1 + 0x1000 + 0x45);
}

static void test_selfread_time_delta_does_not_overflow(void **state)
{
	static const struct {
		int line;
		uint64_t cyc;
		uint32_t mult;
		uint16_t shift;
		uint64_t offset, want;
	} rows[] = {
		{ __LINE__, 1000, 1u << 10, 10, 0, 1000 },
		/* 2^50 cycles x mult 2^31 overflows a plain 64-bit product: 2^50 * 2^31 >> 31 = 2^50. */
		{ __LINE__, 1ull << 50, 1u << 31, 31, 0, 1ull << 50 },
		/* 3 GHz TSC: mult = 2^32 / 3 with shift 32 gives cycles / 3 ns. */
		{ __LINE__, 3000000000000ull, 1431655765u, 32, 7, 999999999767ull + 7 },
		{ __LINE__, 12345, 3, 0, 100, 12345 * 3 + 100 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t got = pmc_selfread_time_delta(rows[i].cyc, rows[i].mult, rows[i].shift, rows[i].offset);
		if (got != rows[i].want)
			fail_msg("row at line %d: got %llu want %llu", rows[i].line, (unsigned long long)got,
				 (unsigned long long)rows[i].want);
	}
}

static void test_selfread_injected_rdpmc_group_snapshot_rechecks_every_lock(void **state)
{
	static struct perf_event_mmap_page p2;
	const struct perf_event_mmap_page *pages[] = { &page, &p2 };
	struct pmc_selfread_value v[2];

	memset(&p2, 0, sizeof(p2));
	page.capabilities = p2.capabilities = CAP_RDPMC;
	page.index = 1;
	p2.index = 2;
	page.pmc_width = p2.pmc_width = 48;
	p2.offset = 7;
	fake_pmc = 100;
	/* The first RDPMC (of page 0) bumps page 0's lock: the whole group is read again. */
	bump_lock_times = 1;
	pmc_selfread_group_page(pages, 2, &inj, v);
	assert_int_equal(v[0].retries, 1);
	assert_int_equal(rdpmc_calls, 4);
	assert_int_equal(v[0].value, 1100);
	assert_int_equal(v[1].value, 107);
}

/* An overflow interrupt during a read, as on arm64's 32-bit counters: the kernel folds the counter into its count,
 * reprograms it to 0x80000001 (half a period) and moves the page's offset. The repeated pass reads the counter later
 * (here 100 events later: the read loop's own instructions); the value must be the first read's, with its own
 * epoch's offset, not the later one, and never a mix of the two epochs (a whole period off). */
static const uint64_t ovf_prev = 0xffffffff80000001ull; /* -(2^31 - 1): the kernel's start value */
static uint64_t ovf_count, ovf_raw;
static unsigned ovf_reads;

static uint64_t inj_overflow_read(uint32_t index)
{
	(void)index;
	if (ovf_reads++ == 0) {
		uint64_t at_irq = ovf_raw + 5; /* the interrupt comes 5 events after this read */

		ovf_count += (at_irq - ovf_prev) & 0xffffffffull;
		page.offset = ovf_count - ovf_prev;
		page.lock++;
		return ovf_raw;
	}
	return 0x80000001ull + 100;
}

static void test_selfread_injected_overflow_during_read_keeps_first_read_and_its_epoch(void **state)
{
	static const struct pmc_selfread_ops ops = { inj_overflow_read, inj_rdtsc };
	const struct perf_event_mmap_page *pages[] = { &page };
	uint64_t truth;
	struct pmc_selfread_value v;

	for (int group = 0; group < 2; group++) {
		reset(state);
		ovf_reads = 0;
		ovf_count = 1000;
		ovf_raw = 0x10; /* wrapped past 2^32 with the interrupt still pending */
		page.capabilities = CAP_RDPMC;
		page.index = 1;
		page.pmc_width = 32;
		page.offset = ovf_count - ovf_prev;
		truth = ovf_count + ((ovf_raw - ovf_prev) & 0xffffffffull);
		if (group)
			pmc_selfread_group_page(pages, 1, &ops, &v);
		else
			pmc_selfread_page(&page, &ops, &v);
		assert_int_equal(v.retries, 1);
		assert_int_equal(ovf_reads, 2);
		assert_int_equal(v.value, truth); /* not truth + 105, the repeated pass's */
	}
}

static void test_selfread_sign_extend_width_zero_or_64_is_identity(void **state)
{
	assert_int_equal(pmc_selfread_sign_extend(0xffffull << 40, 0), 0xffffull << 40);
	assert_int_equal(pmc_selfread_sign_extend(UINT64_MAX, 64), UINT64_MAX);
	assert_int_equal(pmc_selfread_sign_extend(0x80, 8), UINT64_MAX - 0x7f);
}

/* #11 item 7: as libperf, the timer is read only when enabled != running; equal times need none (and say so). */
static void test_selfread_injected_timer_read_only_when_enabled_differs_from_running(void **state)
{
	struct pmc_selfread_value v;

	page.capabilities = CAP_RDPMC | CAP_TIME;
	page.index = 1;
	page.time_enabled = page.time_running = 5000;
	page.time_mult = 1;
	fake_tsc = 400;
	pmc_selfread_page(&page, &inj, &v);
	assert_int_equal(timer_calls, 0);
	assert_true(v.full);
	assert_false(v.times_now);
	assert_true(pmc_selfread_usable(&v));
	page.time_running = 4000;
	pmc_selfread_page(&page, &inj, &v);
	assert_int_equal(timer_calls, 1);
	assert_false(v.full);
	assert_true(v.times_now);
	assert_int_equal(v.enabled, 5400);
	assert_int_equal(v.running, 4400);
}

/* #11 item 10: a top-down metric event's index (x86 INTEL_PMC_FIXED_RDPMC_METRICS, bit 29 after the -1) names the
 * PERF_METRICS register, whose read is packed ratios: never read it as a count. */
static void test_selfread_injected_topdown_metrics_index_is_never_read_as_count(void **state)
{
	struct pmc_selfread_value v;
	struct pmc_selfread s = { .fd = -1, .page = &page };
	char why[200];

	page.capabilities = CAP_RDPMC | CAP_TIME;
	page.index = (1u << 29) + 1;
	fake_pmc = 0x1234;
	pmc_selfread_page(&page, &inj, &v);
	assert_false(v.from_rdpmc);
	assert_int_equal(rdpmc_calls, 0);
	assert_false(pmc_arch_counter_is_count((1u << 29) + 1));
	assert_int_not_equal(pmc_selfread_probe(&s, why, sizeof(why)), 0);
	assert_false(s.rdpmc_ok);
}

/* #11 item 9: the decision is made per read. A value read from the counter is counted whatever stale times say
 * (cap_user_time off, enabled = running = 0 right after enabling); a page that later loses cap_user_time while
 * multiplexed (enabled != running) falls back to read() for that read. */
static void test_selfread_injected_per_read_decision_stale_times_never_make_not_counted(void **state)
{
	struct pmc_selfread s = { .fd = -1, .page = &page, .rdpmc_ok = true };
	struct pmc_count c;
	bool rdpmc = false;

	page.capabilities = CAP_RDPMC;
	page.index = 2;
	page.offset = 10;
	fake_pmc = 90;
	assert_int_equal(pmc_selfread_read_ops(&s, &inj, &c, &rdpmc), 0);
	assert_true(rdpmc);
	assert_int_equal(c.status, PMC_COUNT_OK);
	assert_int_equal(c.value, 100);
	page.time_enabled = 3000;
	page.time_running = 1000;
	assert_int_not_equal(pmc_selfread_read_ops(&s, &inj, &c, &rdpmc), 0); /* read() of fd -1 */
	assert_false(rdpmc);
	page.capabilities = CAP_RDPMC | CAP_TIME;
	assert_int_equal(pmc_selfread_read_ops(&s, &inj, &c, &rdpmc), 0);
	assert_true(rdpmc);
	assert_int_equal(c.status, PMC_COUNT_OK);
}

static void test_selfread_probe_survives_rdpmc_fault_on_synthetic_page(void **state)
{
	struct pmc_selfread s = { .fd = -1, .page = &page };
	char why[160];
	int rc;

	/* The page claims RDPMC is allowed; the CPU decides (CR4.PCE). Where it is not, the #GP must be caught. */
	page.capabilities = CAP_RDPMC;
	page.index = 1;
	rc = pmc_selfread_probe(&s, why, sizeof(why));
	assert_true(rc == 0 || rc == -EPERM);
	assert_int_equal(s.rdpmc_ok, rc == 0);
	if (rc)
		assert_non_null(strstr(why, "faulted")); /* "RDPMC faulted", "mrs PMEVCNTR... faulted" */
}

static void test_selfread_software_event_page_falls_back_to_read(void **state)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
					.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
						       PERF_FORMAT_TOTAL_TIME_RUNNING };
	struct pmc_selfread s;
	struct pmc_count c;
	char why[160];
	bool rdpmc = true;
	int fd = pmc_perf_open(&attr, 0, -1, -1, 0);

	if (fd < 0)
		skip();
	assert_int_equal(pmc_selfread_map(&s, fd), 0);
	assert_non_null(s.page);
	assert_int_equal(pmc_selfread_probe(&s, why, sizeof(why)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "cap_user_rdpmc is 0"));
	for (volatile int i = 0; i < 1000000; i++)
		;
	assert_int_equal(pmc_selfread_read(&s, &c, &rdpmc), 0);
	assert_false(rdpmc);
	assert_int_equal(c.status, PMC_COUNT_OK);
	assert_true(c.value > 0);
	pmc_selfread_unmap(&s);
	assert_null(s.page);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_selfread_injected_read_gets_page_index_and_adds_offset, reset),
		cmocka_unit_test_setup(test_selfread_injected_rdpmc_retries_when_lock_changes, reset),
		cmocka_unit_test_setup(test_selfread_injected_overflow_during_read_keeps_first_read_and_its_epoch, reset),
		cmocka_unit_test_setup(test_selfread_injected_rdpmc_sign_extends_by_pmc_width, reset),
		cmocka_unit_test_setup(test_selfread_injected_rdpmc_counter_wrap_gives_correct_delta, reset),
		cmocka_unit_test_setup(test_selfread_injected_width_32_counter_wrap_gives_correct_delta, reset),
		cmocka_unit_test_setup(test_selfread_injected_rdpmc_index_zero_falls_back, reset),
		cmocka_unit_test_setup(test_selfread_injected_rdpmc_time_extrapolation_enabled_always_running_when_on_pmu,
				       reset),
		cmocka_unit_test_setup(test_selfread_injected_rdpmc_time_short_masks_cycles, reset),
		cmocka_unit_test(test_selfread_time_delta_does_not_overflow),
		cmocka_unit_test_setup(test_selfread_injected_rdpmc_group_snapshot_rechecks_every_lock, reset),
		cmocka_unit_test(test_selfread_sign_extend_width_zero_or_64_is_identity),
		cmocka_unit_test_setup(test_selfread_probe_survives_rdpmc_fault_on_synthetic_page, reset),
		cmocka_unit_test_setup(test_selfread_injected_timer_read_only_when_enabled_differs_from_running, reset),
		cmocka_unit_test_setup(test_selfread_injected_topdown_metrics_index_is_never_read_as_count, reset),
		cmocka_unit_test_setup(test_selfread_injected_per_read_decision_stale_times_never_make_not_counted,
				       reset),
		cmocka_unit_test(test_selfread_software_event_page_falls_back_to_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
