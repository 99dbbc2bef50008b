/* SPDX-License-Identifier: MIT */
/* The per-run samples and executions live where fork() does not copy them, and keep every value as they grow. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "report/report.h"
#include "report/store.h"

/* 100000 pushes through several doublings: every sample is still there, in order. */
static void test_push_sample_keeps_every_value_across_growth(void **state)
{
	struct pmc_report rep = { 0 };
	struct pmc_report_event ev = { 0 };

	(void)state;
	rep.events = calloc(1, sizeof(ev));
	assert_non_null(rep.events);
	rep.nevents = 1;
	for (unsigned i = 0; i < 100000; i++) {
		struct pmc_count c = { .value = i * 3u, .enabled = i, .running = i };
		assert_int_equal(pmc_report_push_sample(&rep.events[0], i, i % 7, &c), 0);
	}
	assert_int_equal(rep.events[0].nsamples, 100000);
	assert_true(rep.events[0].samples_cap >= 100000);
	for (unsigned i = 0; i < 100000; i++)
		if (rep.events[0].samples[i].run != i || rep.events[0].samples[i].batch != i % 7 ||
		    rep.events[0].samples[i].count.value != i * 3u)
			fail_msg("sample %u changed", i);
	pmc_report_fini(&rep);
}

/* A malloc'd array (as a merged row or a test builds) moves into the store intact, and fini frees either kind. */
static void test_reserve_moves_a_malloced_array_into_the_store(void **state)
{
	struct pmc_report rep = { 0 };
	struct pmc_count c = { .value = 42 };

	(void)state;
	rep.events = calloc(1, sizeof(*rep.events));
	assert_non_null(rep.events);
	rep.nevents = 1;
	rep.events[0].samples = calloc(2, sizeof(struct pmc_sample));
	assert_non_null(rep.events[0].samples);
	rep.events[0].samples[1].count.value = 7;
	rep.events[0].nsamples = 2;
	assert_int_equal(pmc_report_push_sample(&rep.events[0], 2, 0, &c), 0);
	assert_true(rep.events[0].samples_cap >= 3);
	assert_int_equal(rep.events[0].samples[1].count.value, 7);
	assert_int_equal(rep.events[0].samples[2].count.value, 42);
	pmc_report_fini(&rep);
}

/* Whether a forked child can read *v: 0 it can, else the signal that stopped it. */
static int child_reads(const volatile uint64_t *v, uint64_t want)
{
	pid_t pid = fork();
	int st = 0;

	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		_exit(*v == want ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		return WTERMSIG(st);
	assert_int_equal(WEXITSTATUS(st), 0);
	return 0;
}

/* The point of the store: a forked child has no copy of the samples (touching them faults), so fork's cost does
 * not grow with -r x events. A real fork, a real fault. */
static void test_forked_child_does_not_inherit_the_samples(void **state)
{
	struct pmc_report_event ev = { 0 };
	struct pmc_count c = { .value = 1 };

	(void)state;
	assert_int_equal(pmc_report_reserve_samples(&ev, 4096), 0);
	assert_int_equal(pmc_report_push_sample(&ev, 0, 0, &c), 0);
	assert_int_equal(child_reads(&ev.samples[0].count.value, 1), SIGSEGV); /* not mapped in the child */
	assert_int_equal(ev.samples[0].count.value, 1);
	pmc_store_free(ev.samples, ev.samples_cap, sizeof(*ev.samples));
}

/* A few samples stay on the heap (a short measurement makes no system call per event for them); past 2 KiB the
 * array moves into a mapping the child does not get, every value intact. */
static void test_small_array_stays_on_heap_then_moves_out_of_fork_intact(void **state)
{
	struct pmc_report_event ev = { 0 };
	unsigned n = 0;

	(void)state;
	for (; (n + 1) * sizeof(*ev.samples) <= 2048; n++) {
		struct pmc_count c = { .value = 1000 + n };
		assert_int_equal(pmc_report_push_sample(&ev, n, 0, &c), 0);
	}
	assert_true(n >= 2);
	assert_int_equal(child_reads(&ev.samples[0].count.value, 1000), 0);
	for (unsigned i = n; i < n + 100; i++) {
		struct pmc_count c = { .value = 1000 + i };
		assert_int_equal(pmc_report_push_sample(&ev, i, 0, &c), 0);
	}
	assert_int_equal(child_reads(&ev.samples[0].count.value, 1000), SIGSEGV);
	for (unsigned i = 0; i < n + 100; i++)
		if (ev.samples[i].count.value != 1000 + i || ev.samples[i].run != i)
			fail_msg("sample %u changed", i);
	pmc_store_free(ev.samples, ev.samples_cap, sizeof(*ev.samples));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_push_sample_keeps_every_value_across_growth),
		cmocka_unit_test(test_reserve_moves_a_malloced_array_into_the_store),
		cmocka_unit_test(test_forked_child_does_not_inherit_the_samples),
		cmocka_unit_test(test_small_array_stays_on_heap_then_moves_out_of_fork_intact),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
