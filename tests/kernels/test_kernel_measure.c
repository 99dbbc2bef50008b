/* SPDX-License-Identifier: MIT */
/* The in-process runner, for real: a hardware breakpoint on each kernel's loop head counts its iterations exactly
 * through the same open/mmap/enable/read path (read(): breakpoints have no RDPMC), so the measured region holds
 * exactly the kernel's loop and nothing of it is lost. Runs on any Linux with breakpoints (this VM included). */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/kernels.h"
#include "perf/probe.h"

static void breakpoint_event(struct pmc_event *ev, const void *addr)
{
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "mem:%p:x", addr);
	ev->attr.type = PERF_TYPE_BREAKPOINT;
	ev->attr.bp_type = HW_BREAKPOINT_X;
	ev->attr.bp_addr = (uint64_t)(uintptr_t)addr;
	ev->attr.bp_len = sizeof(long);
	ev->attr.exclude_kernel = 1;
	ev->attr.exclude_hv = 1;
	ev->cls = PMC_CLASS_BREAKPOINT;
	ev->fixed_index = -1;
}

static void software_event(struct pmc_event *ev, const char *name, uint64_t config)
{
	memset(ev, 0, sizeof(*ev));
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	ev->attr.type = PERF_TYPE_SOFTWARE;
	ev->attr.config = config;
	ev->cls = PMC_CLASS_FREE;
	ev->fixed_index = -1;
	ev->flags = config == PERF_COUNT_SW_TASK_CLOCK ? PMC_EVF_TIME_NS : 0;
}

static void test_kernel_measure_breakpoint_on_loop_head_counts_exactly_the_iterations(void **state)
{
	static const uint64_t iters[] = { 1, 777, 3000 };
	unsigned measured = 0;
	const struct pmc_bp_probe *probe = pmc_perf_probe_breakpoints(); /* the one pmctool runs before a breakpoint */

	if (probe->fires != PMC_BP_FIRE) {
		char why[300];
		pmc_bp_probe_describe(probe, why, sizeof(why));
		print_message("skipped: exact breakpoint counts, and here %s\n", why);
		skip();
	}

	for (size_t i = 0; i < pmc_kernel_count(); i++) {
		const struct pmc_kernel *k = pmc_kernel_at(i);
		struct pmc_kernel_params p;
		struct pmc_event bp;
		const struct pmc_event *evs[] = { &bp };
		struct pmc_measure_req req = { .events = evs, .n = 1, .group = true };
		char err[256];

		if (!k->loop_head || pmc_isa_missing(k->isa))
			continue;
		pmc_kernel_params_init(k, &p);
		if (!strcmp(k->name, "chase"))
			assert_int_equal(pmc_kernel_params_parse(k, "footprint=64K", &p, err, sizeof(err)), 0);
		/* Assembly stream and matmul (AArch64): small data, or 3000 products of n=256 would take minutes. */
		if (!strcmp(k->name, "stream"))
			assert_int_equal(pmc_kernel_params_parse(k, "footprint=12K", &p, err, sizeof(err)), 0);
		if (!strcmp(k->name, "matmul"))
			assert_int_equal(pmc_kernel_params_parse(k, "n=4", &p, err, sizeof(err)), 0);
		breakpoint_event(&bp, *k->loop_head);
		for (size_t j = 0; j < sizeof(iters) / sizeof(iters[0]); j++) {
			struct pmc_count c;
			struct pmc_measure_out out = { .counts = &c };
			struct pmc_kernel_opts o = { .iters = iters[j], .cpu = -1 };
			struct pmc_kernel_info info;
			int rc = pmc_kernel_measure(k, &p, &o, &req, &out, &info, err, sizeof(err));
			if (rc)
				fail_msg("%s: %s", k->name, err);
			if (c.status == PMC_COUNT_NOT_SUPPORTED && c.err == ENOSYS)
				skip(); /* no perf_event_open at all (qemu-user) */
			if (c.status == PMC_COUNT_NOT_SUPPORTED)
				fail_msg("%s: breakpoint event could not be opened: %s", k->name, strerror(c.err));
			assert_int_equal(c.status, PMC_COUNT_OK);
			if (c.value != iters[j])
				fail_msg("%s: %llu iterations, breakpoint counted %llu", k->name,
					 (unsigned long long)iters[j], (unsigned long long)c.value);
			/* The empty region does not reach the loop head. */
			assert_true(info.overhead_valid[0]);
			assert_int_equal(info.overhead[0], 0);
			assert_false(info.event_rdpmc[0]);
			assert_int_equal(info.iters, iters[j]);
			assert_true(info.tsc_cycles > 0);
			pmc_kernel_info_fini(&info);
		}
		measured++;
	}
	assert_true(measured >= 10);
}

static void test_kernel_measure_unsupported_event_is_reported_not_faked(void **state)
{
	const struct pmc_kernel *k = pmc_kernel_find("empty");
	struct pmc_kernel_params p;
	struct pmc_event hw, tc;
	const struct pmc_event *evs[] = { &hw, &tc };
	struct pmc_measure_req req = { .events = evs, .n = 2, .group = true };
	struct pmc_count c[2];
	struct pmc_measure_out out = { .counts = c };
	struct pmc_kernel_opts o = { .iters = 20000000, .cpu = -1, .subtract_overhead = true };
	struct pmc_kernel_info info;
	char err[256];

	memset(&hw, 0, sizeof(hw));
	snprintf(hw.name, sizeof(hw.name), "instructions");
	hw.attr.type = PERF_TYPE_HARDWARE;
	hw.attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	hw.attr.exclude_kernel = 1;
	hw.flags = PMC_EVF_HARDWARE;
	hw.cls = PMC_CLASS_FIXED;
	software_event(&tc, "task-clock", PERF_COUNT_SW_TASK_CLOCK);
	pmc_kernel_params_init(k, &p);
	assert_int_equal(pmc_kernel_measure(k, &p, &o, &req, &out, &info, err, sizeof(err)), 0);
	/* With a PMU instructions counts about 2 per iteration; without one it is NOT_SUPPORTED with its errno. */
	if (c[0].status == PMC_COUNT_NOT_SUPPORTED) {
		assert_int_not_equal(c[0].err, 0);
		assert_int_equal(c[0].value, 0);
	} else {
		assert_int_equal(c[0].status, PMC_COUNT_OK);
		assert_true(c[0].value >= 2 * o.iters && c[0].value < 2 * o.iters + o.iters / 100);
	}
	/* task-clock advances while the loop runs: 2e7 iterations take well over 1 ms on any machine. */
	if (c[1].status == PMC_COUNT_NOT_SUPPORTED && c[1].err == ENOSYS)
		skip(); /* no perf_event_open at all (qemu-user) */
	assert_int_equal(c[1].status, PMC_COUNT_OK);
	assert_true(c[1].value > 1000000);
	assert_true(out.wall_ns >= c[1].value / 2);
	assert_true(info.overhead_subtracted);
	assert_true(info.tsc_cycles > 0);
	assert_true(out.ru.ru_utime.tv_sec > 0 || out.ru.ru_utime.tv_usec > 0);
	assert_int_equal(info.result, o.iters);
	pmc_kernel_info_fini(&info);
}

/* #11 item 7: the wall-clock window contains the read windows, so a one-thread kernel's task-clock (counted between
 * the two read() calls) never exceeds the wall time: "CPUs" <= 1 even for --iters 1 (it read 11.35 before). */
static void test_kernel_measure_wall_window_contains_the_reads_so_task_clock_fits_in_it(void **state)
{
	const struct pmc_kernel *k = pmc_kernel_find("empty");
	struct pmc_kernel_params p;
	struct pmc_event tc;
	const struct pmc_event *evs[] = { &tc };
	struct pmc_measure_req req = { .events = evs, .n = 1 };
	char err[256];

	if (!k)
		skip(); /* an architecture without kernels */
	pmc_kernel_params_init(k, &p);
	software_event(&tc, "task-clock", PERF_COUNT_SW_TASK_CLOCK);
	for (int rep = 0; rep < 20; rep++) {
		struct pmc_count c;
		struct pmc_measure_out out = { .counts = &c };
		struct pmc_kernel_opts o = { .iters = 1, .cpu = -1 };
		struct pmc_kernel_info info;

		if (pmc_kernel_measure(k, &p, &o, &req, &out, &info, err, sizeof(err)))
			fail_msg("%s", err);
		if (c.status == PMC_COUNT_NOT_SUPPORTED)
			skip();
		assert_int_equal(c.status, PMC_COUNT_OK);
		if (c.value > out.wall_ns)
			fail_msg("task-clock %llu ns > wall %llu ns: the wall window lies inside the read windows",
				 (unsigned long long)c.value, (unsigned long long)out.wall_ns);
		pmc_kernel_info_fini(&info);
	}
}

/* #11 item 9: pages read in process with enabled == running at both ends (times as of the last update, so their
 * deltas are 0) ran the whole region: they are counted, with the wall window as enabled and running time. */
static void test_kernel_count_delta_synthetic_full_times_are_counted_not_zero_running(void **state)
{
	struct pmc_count a = { .value = 100, .enabled = 5000, .running = 5000, .status = PMC_COUNT_OK };
	struct pmc_count b = { .value = 900, .enabled = 5000, .running = 5000, .status = PMC_COUNT_OK };
	struct pmc_count d;

	pmc_kernel_count_delta(&a, true, &b, true, 777, &d);
	assert_int_equal(d.status, PMC_COUNT_OK);
	assert_int_equal(d.value, 800);
	assert_int_equal(d.enabled, 777);
	assert_int_equal(d.running, 777);
	/* Times from read() (not full) that did not advance: the event did not run. */
	pmc_kernel_count_delta(&a, false, &b, false, 777, &d);
	assert_int_equal(d.status, PMC_COUNT_NOT_COUNTED);
	/* Extrapolated times keep their own deltas. */
	b.enabled = 6000;
	b.running = 5500;
	pmc_kernel_count_delta(&a, true, &b, false, 777, &d);
	assert_int_equal(d.status, PMC_COUNT_OK);
	assert_int_equal(d.enabled, 1000);
	assert_int_equal(d.running, 500);
}

static void test_kernel_measure_rejects_absurd_inputs(void **state)
{
	const struct pmc_kernel *k = pmc_kernel_find("empty");
	struct pmc_kernel_params p;
	struct pmc_measure_req req = { .n = 0 };
	struct pmc_measure_out out = { 0 };
	struct pmc_kernel_info info;
	char err[256];
	static const struct pmc_kernel_opts bad[] = {
		{ .iters = PMC_KERNEL_MAX_ITERS + 1, .cpu = -1 },
		{ .iters = 1, .cpu = -1, .warmup_s = 1e9 },
		{ .iters = 1, .cpu = -1, .warmup_s = -1 },
		{ .iters = 1, .cpu = -2 },
		{ .iters = 1, .cpu = 1 << 20 },
	};

	pmc_kernel_params_init(k, &p);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(pmc_kernel_measure(k, &p, &bad[i], &req, &out, &info, err, sizeof(err)), -EINVAL);
		assert_true(err[0] != '\0');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_measure_breakpoint_on_loop_head_counts_exactly_the_iterations),
		cmocka_unit_test(test_kernel_measure_unsupported_event_is_reported_not_faked),
		cmocka_unit_test(test_kernel_measure_rejects_absurd_inputs),
		cmocka_unit_test(test_kernel_measure_wall_window_contains_the_reads_so_task_clock_fits_in_it),
		cmocka_unit_test(test_kernel_count_delta_synthetic_full_times_are_counted_not_zero_running),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
