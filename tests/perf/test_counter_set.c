/* SPDX-License-Identifier: MIT */
/* The counter set (perf/evlist.c): the group rule on real software events (a group per core PMU per target, the
 * kernel groups software events as it does hardware ones), the permission fallback and the EINVAL split with an
 * injected open playing the kernel, and the never-ran test on given counts. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "perf/evlist.h"
#include "perf/selfread.h"

#define MAX_OPENS 64

/* What the open under the set was asked, in order. */
static struct opened {
	struct perf_event_attr attr;
	pid_t pid;
	int cpu, group_fd, result;
} opens[MAX_OPENS];
static size_t nopens;
static int refuse_in_group_config = -1; /* injected: EINVAL for this config in a group */
static int refuse_alone_config = -1;    /* injected: EINVAL for this config alone too */
static bool paranoid;                   /* injected: EACCES for any attr counting kernel mode */

static void note(const struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, int r)
{
	if (nopens < MAX_OPENS)
		opens[nopens++] = (struct opened){ *a, pid, cpu, group_fd, r };
}

/* The kernel's own open, recorded. */
static int open_recorded(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags,
			 const char *why)
{
	int r = pmc_perf_open_noted(a, pid, cpu, group_fd, flags, why);

	note(a, pid, cpu, group_fd, r);
	return r;
}

/* An injected kernel: refuses what the test says, else gives a descriptor of /dev/null. */
static int open_injected(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags,
			 const char *why)
{
	int r;

	(void)flags;
	(void)why;
	if ((int)a->config == refuse_in_group_config && group_fd >= 0)
		r = -EINVAL;
	else if ((int)a->config == refuse_alone_config)
		r = -EINVAL;
	else if (paranoid && !a->exclude_kernel)
		r = -EACCES;
	else
		r = open("/dev/null", O_RDONLY | O_CLOEXEC);
	note(a, pid, cpu, group_fd, r);
	return r;
}

static int setup(void **state)
{
	(void)state;
	nopens = 0;
	refuse_in_group_config = refuse_alone_config = -1;
	paranoid = false;
	return 0;
}

static struct pmc_event sw_event(uint64_t config, unsigned core_pmu, bool hardware)
{
	struct pmc_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.size = sizeof(ev.attr);
	ev.attr.config = config;
	ev.core_pmu = core_pmu;
	ev.flags = hardware ? PMC_EVF_HARDWARE : 0;
	return ev;
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static void test_group_per_core_pmu_per_target_on_real_software_events(void **state)
{
	/* Playing a hybrid CPU: events 0 and 2 on core PMU 0, 1 and 3 on core PMU 1, event 4 not a counter of a core
	 * PMU (stands alone). */
	struct pmc_event evs[5] = {
		sw_event(PERF_COUNT_SW_TASK_CLOCK, 0, true), sw_event(PERF_COUNT_SW_CPU_CLOCK, 1, true),
		sw_event(PERF_COUNT_SW_PAGE_FAULTS, 0, true), sw_event(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, true),
		sw_event(PERF_COUNT_SW_CPU_MIGRATIONS, 0, false),
	};
	const struct pmc_event *ev[5] = { &evs[0], &evs[1], &evs[2], &evs[3], &evs[4] };
	const struct pmc_target targets[2] = { { .pid = getpid(), .cpu = -1 }, { .pid = 0, .cpu = -1 } };
	struct pmc_evlist_opts o = { .flags = PMC_EVL_GROUP | PMC_EVL_DISABLED, .open = open_recorded };
	struct pmc_evlist *el;
	struct pmc_evlist_fail fail;
	volatile unsigned long spin = 0;

	(void)state;
	assert_int_equal(pmc_evlist_new(ev, 5, targets, 2, &o, &el), 0);
	assert_int_equal(pmc_evlist_open(el, &fail), 0);
	assert_int_equal(nopens, 10);
	for (size_t t = 0; t < 2; t++) {
		const int *fds = pmc_evlist_fds(el, t);
		const struct opened *op = &opens[t * 5];

		for (size_t i = 0; i < 5; i++) {
			assert_true(fds[i] >= 0);
			assert_int_equal(op[i].pid, targets[t].pid);
			assert_int_equal(op[i].attr.config, evs[i].attr.config);
		}
		assert_int_equal(op[0].group_fd, -1);       /* leads core PMU 0 */
		assert_int_equal(op[1].group_fd, -1);       /* leads core PMU 1 */
		assert_int_equal(op[2].group_fd, fds[0]);   /* member of core PMU 0's group */
		assert_int_equal(op[3].group_fd, fds[1]);   /* member of core PMU 1's group */
		assert_int_equal(op[4].group_fd, -1);       /* not grouped */
		assert_true(op[0].attr.disabled && op[1].attr.disabled && op[4].attr.disabled);
		assert_false(op[2].attr.disabled || op[3].attr.disabled); /* members follow their leader */
	}
	pmc_evlist_enable(el, NULL);
	for (int i = 0; i < 1000000; i++)
		spin += (unsigned long)i;
	pmc_evlist_disable(el, NULL);
	pmc_evlist_read(el);
	for (size_t k = 0; k < 10; k++)
		if (k % 5 == 0 || k % 5 == 1) /* the clocks ran while this thread spun */
			assert_true(pmc_evlist_counts(el)[k].status == PMC_COUNT_OK && pmc_evlist_counts(el)[k].value > 0);
	assert_false(pmc_evlist_never_ran(el, &fail));
	pmc_evlist_delete(el);
	for (size_t k = 0; k < nopens; k++)
		assert_false(fd_open(opens[k].result));
}

static void test_without_group_flag_every_event_stands_alone(void **state)
{
	struct pmc_event evs[2] = { sw_event(PERF_COUNT_SW_TASK_CLOCK, 0, true),
				    sw_event(PERF_COUNT_SW_CPU_CLOCK, 0, true) };
	const struct pmc_event *ev[2] = { &evs[0], &evs[1] };
	const struct pmc_target target = { .pid = 0, .cpu = -1 };
	struct pmc_evlist_opts o = { .flags = PMC_EVL_INHERIT, .open = open_recorded };
	struct pmc_evlist *el;

	(void)state;
	assert_int_equal(pmc_evlist_new(ev, 2, &target, 1, &o, &el), 0);
	assert_int_equal(pmc_evlist_open(el, NULL), 0);
	assert_int_equal(nopens, 2);
	assert_int_equal(opens[1].group_fd, -1);
	assert_int_equal(opens[0].attr.inherit, 0); /* pid 0 is this thread, not a task tree */
	pmc_evlist_delete(el);
}

static void test_fallback_injected_kernel_refusing_kernel_mode(void **state)
{
	/* task-clock counts user mode once kernel mode is refused; a kernel-only event is refused, never retried. */
	struct pmc_event evs[2] = { sw_event(PERF_COUNT_SW_TASK_CLOCK, 0, false),
				    sw_event(PERF_COUNT_SW_CPU_CLOCK, 0, false) };
	const struct pmc_event *ev[2] = { &evs[0], &evs[1] };
	const struct pmc_target target = { .pid = 0, .cpu = -1 };
	struct pmc_evlist_opts o = { .open = open_injected };
	struct pmc_evlist *el;
	const struct pmc_count *c;

	(void)state;
	paranoid = true;
	evs[1].attr.exclude_user = 1;
	assert_int_equal(pmc_evlist_new(ev, 2, &target, 1, &o, &el), 0);
	assert_int_equal(pmc_evlist_open(el, NULL), 0);
	c = pmc_evlist_counts(el);
	assert_int_equal(nopens, 3); /* task-clock twice (the retry user-only), cpu-clock once */
	assert_true(opens[1].attr.exclude_kernel && opens[1].attr.exclude_hv);
	assert_true(pmc_evlist_fds(el, 0)[0] >= 0);
	assert_int_equal(c[0].status, PMC_COUNT_OK);
	assert_int_equal(c[0].flags, PMC_COUNT_USER_ONLY);
	assert_int_equal(c[1].status, PMC_COUNT_NOT_SUPPORTED);
	assert_int_equal(c[1].err, EACCES);
	assert_int_equal(c[1].flags, PMC_COUNT_KERNEL_DENIED);
	assert_int_equal(pmc_evlist_count_err(el, EACCES), 1);
	pmc_evlist_delete(el);
}

static void test_einval_in_group_accepted_alone_splits_injected(void **state)
{
	struct pmc_event evs[3] = { sw_event(1, 0, true), sw_event(2, 0, true), sw_event(3, 0, true) };
	const struct pmc_event *ev[3] = { &evs[0], &evs[1], &evs[2] };
	const struct pmc_target targets[2] = { { .pid = 0, .cpu = -1 }, { .pid = 0, .cpu = -1 } };
	struct pmc_evlist_opts o = { .flags = PMC_EVL_GROUP, .open = open_injected };
	struct pmc_evlist_fail fail = { 0 };
	struct pmc_evlist *el;

	(void)state;
	refuse_in_group_config = 3;
	assert_int_equal(pmc_evlist_new(ev, 3, targets, 2, &o, &el), 0);
	assert_int_equal(pmc_evlist_open(el, &fail), PMC_EVL_SPLIT);
	assert_int_equal(fail.index, 2);
	assert_int_equal(fail.err, EINVAL);
	assert_false(fail.never_ran);
	assert_int_equal(nopens, 4); /* 1, 2 in the group, 3 refused in it, 3 accepted alone; target 1 never tried */
	assert_int_equal(opens[3].group_fd, -1);
	for (size_t k = 0; k < nopens; k++)
		if (opens[k].result >= 0)
			assert_false(fd_open(opens[k].result)); /* every counter closed again */
	for (size_t t = 0; t < 2; t++)
		for (size_t i = 0; i < 3; i++)
			assert_int_equal(pmc_evlist_fds(el, t)[i], -1);
	pmc_evlist_delete(el);
}

static void test_einval_alone_too_is_a_bad_encoding_not_a_split_injected(void **state)
{
	struct pmc_event evs[3] = { sw_event(1, 0, true), sw_event(2, 0, true), sw_event(3, 0, true) };
	const struct pmc_event *ev[3] = { &evs[0], &evs[1], &evs[2] };
	const struct pmc_target target = { .pid = 0, .cpu = -1 };
	struct pmc_evlist_opts o = { .flags = PMC_EVL_GROUP, .open = open_injected };
	struct pmc_evlist *el;
	const struct pmc_count *c;

	(void)state;
	refuse_alone_config = 2;
	assert_int_equal(pmc_evlist_new(ev, 3, &target, 1, &o, &el), 0);
	assert_int_equal(pmc_evlist_open(el, NULL), 0);
	c = pmc_evlist_counts(el);
	assert_int_equal(c[1].status, PMC_COUNT_NOT_SUPPORTED);
	assert_int_equal(c[1].err, EINVAL);
	assert_int_equal(c[0].status, PMC_COUNT_OK);
	assert_int_equal(c[2].status, PMC_COUNT_OK);
	assert_int_equal(opens[3].group_fd, pmc_evlist_fds(el, 0)[0]); /* event 3 still joins the group */
	pmc_evlist_delete(el);
}

static void test_selfread_maps_each_counters_page_on_real_software_events(void **state)
{
	struct pmc_event evs[2] = { sw_event(PERF_COUNT_SW_TASK_CLOCK, 0, true),
				    sw_event(PERF_COUNT_SW_CPU_CLOCK, 0, true) };
	const struct pmc_event *ev[2] = { &evs[0], &evs[1] };
	const struct pmc_target target = { .pid = 0, .cpu = -1 };
	struct pmc_evlist_opts o = { .flags = PMC_EVL_GROUP | PMC_EVL_DISABLED | PMC_EVL_SELFREAD,
				     .open = open_recorded };
	struct pmc_evlist_opts plain = { .flags = PMC_EVL_GROUP | PMC_EVL_DISABLED };
	struct perf_event_attr want = evs[0].attr;
	struct pmc_evlist *el;
	void *pages[2];

	(void)state;
	assert_int_equal(pmc_evlist_new(ev, 2, &target, 1, &o, &el), 0);
	assert_int_equal(pmc_evlist_open(el, NULL), 0);
	assert_int_equal(nopens, 2);
	pmc_arch_selfread_attr(&want); /* the architecture's user-read bits (arm64: config1 bit 1) */
	assert_int_equal(opens[0].attr.config1, want.config1);
	assert_int_equal(opens[0].attr.config2, want.config2);
	for (size_t i = 0; i < 2; i++) {
		struct pmc_selfread *s = pmc_evlist_selfread(el, 0, i);

		assert_non_null(s);
		assert_int_equal(s->fd, pmc_evlist_fds(el, 0)[i]);
		pages[i] = s->page;
	}
	pmc_evlist_close_event(el, 1);
	assert_null(pmc_evlist_selfread(el, 0, 1));
	/* an unmapped page: mincore says ENOMEM */
	assert_int_equal(mincore(pages[1], (size_t)sysconf(_SC_PAGESIZE), (unsigned char[1]){ 0 }), -1);
	assert_int_equal(errno, ENOMEM);
	pmc_evlist_delete(el);
	assert_int_equal(mincore(pages[0], (size_t)sysconf(_SC_PAGESIZE), (unsigned char[1]){ 0 }), -1);

	assert_int_equal(pmc_evlist_new(ev, 2, &target, 1, &plain, &el), 0); /* no flag: no page */
	assert_int_equal(pmc_evlist_open(el, NULL), 0);
	assert_null(pmc_evlist_selfread(el, 0, 0));
	pmc_evlist_delete(el);
}

static void test_never_ran_needs_two_grouped_members_enabled_and_none_running(void **state)
{
	static const struct {
		int line;
		unsigned flags;
		struct pmc_count c[3]; /* events: hardware, hardware, software */
		bool want;
	} rows[] = {
		{ __LINE__, PMC_EVL_GROUP, { { .enabled = 10 }, { .enabled = 10 }, { .enabled = 10, .running = 10 } }, true },
		{ __LINE__, PMC_EVL_GROUP, { { .enabled = 10 }, { .enabled = 10, .running = 1 }, { 0 } }, false },
		{ __LINE__, PMC_EVL_GROUP, { { .enabled = 10 }, { .status = PMC_COUNT_NOT_SUPPORTED }, { 0 } }, false },
		{ __LINE__, PMC_EVL_GROUP, { { 0 }, { 0 }, { 0 } }, false }, /* never enabled: the workload did not run */
		{ __LINE__, 0, { { .enabled = 10 }, { .enabled = 10 }, { 0 } }, false }, /* not grouped: nothing to split */
		{ __LINE__, PMC_EVL_GROUP,
		  { { .enabled = 10, .status = PMC_COUNT_NOT_COUNTED }, { .enabled = 10 }, { 0 } }, true },
	};
	struct pmc_event evs[3] = { sw_event(1, 0, true), sw_event(2, 0, true), sw_event(3, 0, false) };
	const struct pmc_event *ev[3] = { &evs[0], &evs[1], &evs[2] };
	const struct pmc_target target = { .pid = 0, .cpu = -1 };

	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmc_count counts[3];
		struct pmc_evlist_opts o = { .flags = rows[r].flags, .counts = counts };
		struct pmc_evlist_fail fail = { 0 };
		struct pmc_evlist *el;

		memcpy(counts, rows[r].c, sizeof(counts));
		assert_int_equal(pmc_evlist_new(ev, 3, &target, 1, &o, &el), 0);
		if (pmc_evlist_never_ran(el, &fail) != rows[r].want)
			fail_msg("row at line %d: wanted %d", rows[r].line, rows[r].want);
		if (rows[r].want && !fail.never_ran)
			fail_msg("row at line %d: the failure does not say never ran", rows[r].line);
		pmc_evlist_delete(el);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_group_per_core_pmu_per_target_on_real_software_events, setup),
		cmocka_unit_test_setup(test_without_group_flag_every_event_stands_alone, setup),
		cmocka_unit_test_setup(test_fallback_injected_kernel_refusing_kernel_mode, setup),
		cmocka_unit_test_setup(test_einval_in_group_accepted_alone_splits_injected, setup),
		cmocka_unit_test_setup(test_einval_alone_too_is_a_bad_encoding_not_a_split_injected, setup),
		cmocka_unit_test_setup(test_never_ran_needs_two_grouped_members_enabled_and_none_running, setup),
		cmocka_unit_test_setup(test_selfread_maps_each_counters_page_on_real_software_events, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
