/* SPDX-License-Identifier: MIT */
/* The probe opens (perf/probe.c: the inventory's budget and permission probes, the kept-open tracepoints, the
 * may-this-user-count probe): real software events on this thread, seen through the -v observer, so each open's
 * target (this thread, any CPU), group and note are what the callers had before they shared it. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perf/probe.h"
#include "sys/perf_open.h"

#define MAX_RECS 8

static struct rec {
	pid_t pid;
	int cpu, group_fd, result;
	char note[80];
} recs[MAX_RECS];
static size_t nrecs;

static void observe(const struct pmc_open_record *r, void *ctx)
{
	(void)ctx;
	if (nrecs < MAX_RECS) {
		recs[nrecs] = (struct rec){ r->pid, r->cpu, r->group_fd, r->result, "" };
		snprintf(recs[nrecs].note, sizeof(recs[nrecs].note), "%s", r->note ? r->note : "(none)");
		nrecs++;
	}
}

static int setup(void **state)
{
	(void)state;
	nrecs = 0;
	pmc_perf_set_observer(observe, NULL);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmc_perf_set_observer(NULL, NULL);
	return 0;
}

/* 1 when fd is no open descriptor (the probe closed what it opened). */
static int fcntl_closed(int fd)
{
	return fcntl(fd, F_GETFD) < 0 && errno == EBADF;
}

static struct perf_event_attr task_clock(void)
{
	return (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_TASK_CLOCK,
					 .disabled = 1, .exclude_kernel = 1, .exclude_hv = 1 };
}

/* A leader and a member on this thread: pid 0, cpu -1, the member in the leader's group, the notes as given. */
static void test_open_self_opens_on_this_thread_any_cpu_in_the_given_group(void **state)
{
	struct perf_event_attr a = task_clock(), b = task_clock();
	int leader, member;

	(void)state;
	leader = pmc_perf_open_self(&a, -1, NULL);
	if (leader < 0) {
		print_message("skipped: perf_event_open refused task-clock on this thread (%s)\n", strerror(-leader));
		skip();
	}
	member = pmc_perf_open_self(&b, leader, "a note");
	assert_true(member >= 0);
	assert_int_equal(nrecs, 2);
	assert_int_equal(recs[0].pid, 0);
	assert_int_equal(recs[0].cpu, -1);
	assert_int_equal(recs[0].group_fd, -1);
	assert_string_equal(recs[0].note, "(none)");
	assert_int_equal(recs[1].pid, 0);
	assert_int_equal(recs[1].cpu, -1);
	assert_int_equal(recs[1].group_fd, leader);
	assert_int_equal(recs[1].result, member);
	assert_string_equal(recs[1].note, "a note");
	assert_int_equal(a.size, sizeof(a)); /* the syscall path set it */
	close(member);
	close(leader);
}

/* A refusal comes back as -errno, told to the observer too (an attr the kernel cannot take: an unknown type). */
static void test_open_self_returns_the_kernels_errno(void **state)
{
	struct perf_event_attr a = { .type = 0x7fffffff };

	(void)state;
	assert_true(pmc_perf_open_self(&a, -1, NULL) < 0);
	assert_int_equal(nrecs, 1);
	assert_true(recs[0].result < 0);
}

/* The may-this-user-count probe: one user-mode task-clock open on this thread, noted, closed again. */
static void test_probe_user_counting_opens_task_clock_once_and_closes_it(void **state)
{
	int r;

	(void)state;
	r = pmc_perf_probe_user_counting();
	assert_int_equal(nrecs, 1);
	assert_int_equal(recs[0].pid, 0);
	assert_int_equal(recs[0].cpu, -1);
	assert_int_equal(recs[0].group_fd, -1);
	assert_string_equal(recs[0].note, "probe: may this user count at all");
	assert_int_equal(r, recs[0].result < 0 ? recs[0].result : 0);
	if (recs[0].result >= 0)
		assert_int_equal(fcntl_closed(recs[0].result), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_self_opens_on_this_thread_any_cpu_in_the_given_group, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_open_self_returns_the_kernels_errno, setup, teardown),
		cmocka_unit_test_setup_teardown(test_probe_user_counting_opens_task_clock_once_and_closes_it, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
