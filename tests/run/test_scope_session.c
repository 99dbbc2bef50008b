/* SPDX-License-Identifier: MIT */
/* The wait of a scoped measurement (run/session.c) with real pipes, timers and child processes, the folding of
 * per-target counts into rows (scope_count_add), and the parsers of -p / -C / --control. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/scope.h"
#include "run/session.h"
#include "sys/lists.h"
#include "util/util.h"

struct calls {
	unsigned on, off, ticks, last;
	uint64_t first_on_ns;
};

static void on_enable(void *ctx, bool on)
{
	struct calls *c = ctx;

	if (on && !c->on)
		c->first_on_ns = pmc_now_ns();
	on ? c->on++ : c->off++;
}

static int on_tick(void *ctx, unsigned n, bool last)
{
	struct calls *c = ctx;

	c->ticks = n;
	c->last += last;
	return 0;
}

static void session_init(struct pmc_session *s, struct calls *c)
{
	memset(s, 0, sizeof(*s));
	memset(c, 0, sizeof(*c));
	s->ctl_fd = s->ack_fd = -1;
	s->enable = on_enable;
	s->tick = on_tick;
	s->ctx = c;
}

static void test_control_lines_are_obeyed_in_order_and_each_acked(void **st)
{
	static const char cmds[] = "enable\ndisable\r\nbogus\nping\nenable\nstop\nenable\n";
	struct pmc_session s;
	struct calls c;
	int ctl[2], ack[2];
	char buf[64] = "";
	ssize_t n;

	(void)st;
	assert_int_equal(pipe(ctl), 0);
	assert_int_equal(pipe(ack), 0);
	assert_int_equal(write(ctl[1], cmds, sizeof(cmds) - 1), (ssize_t)sizeof(cmds) - 1);
	session_init(&s, &c);
	s.ctl_fd = ctl[0];
	s.ack_fd = ack[1];
	s.timeout_ns = 5000000000ull;
	assert_int_equal(pmc_session_run(&s), 0);
	assert_int_equal(s.end, PMC_END_CONTROL);
	assert_int_equal(c.on, 2);  /* the 'enable' after 'stop' is never read */
	assert_int_equal(c.off, 1);
	assert_int_equal(s.bad_commands, 1);
	assert_true(s.enabled);
	n = read(ack[0], buf, sizeof(buf) - 1);
	assert_int_equal(n, 20); /* enable, disable, ping, enable, stop: one "ack\n" each */
	for (int i = 0; i < 5; i++)
		assert_memory_equal(buf + 4 * i, "ack\n", 4);
	close(ctl[0]);
	close(ctl[1]);
	close(ack[0]);
	close(ack[1]);
}

static void test_timeout_ends_and_the_last_partial_interval_is_ticked(void **st)
{
	struct pmc_session s;
	struct calls c;

	(void)st;
	session_init(&s, &c);
	/* A wake-up late by a whole interval skips a tick by design (session.c): intervals of 200 ms keep that out of
	 * reach of a loaded CI machine (a 50 ms interval once came out as 2 ticks at a load of 30). */
	s.timeout_ns = 450000000ull;
	s.interval_ns = 200000000ull;
	assert_int_equal(pmc_session_run(&s), 0);
	assert_int_equal(s.end, PMC_END_TIMEOUT);
	assert_true(s.elapsed_ns >= 450000000ull);
	assert_int_equal(c.ticks, 3); /* 200, 400, then the last 50 ms */
	assert_int_equal(c.last, 1);
}

static void test_interval_count_ends_without_a_partial_tick(void **st)
{
	struct pmc_session s;
	struct calls c;

	(void)st;
	session_init(&s, &c);
	s.interval_ns = 20000000ull;
	s.interval_count = 3;
	assert_int_equal(pmc_session_run(&s), 0);
	assert_int_equal(s.end, PMC_END_INTERVALS);
	assert_int_equal(c.ticks, 3);
	assert_int_equal(c.last, 0);
}

static void test_delay_starts_the_counters_after_it(void **st)
{
	struct pmc_session s;
	struct calls c;

	(void)st;
	session_init(&s, &c);
	s.delay_ms = 40;
	s.timeout_ns = 80000000ull;
	assert_int_equal(pmc_session_run(&s), 0);
	assert_int_equal(c.on, 1);
	assert_true(c.first_on_ns - s.t0 >= 40000000ull);
	assert_true(s.enabled);
}

static void test_a_signal_flag_ends_the_wait(void **st)
{
	static volatile sig_atomic_t flag = SIGINT;
	struct pmc_session s;
	struct calls c;

	(void)st;
	session_init(&s, &c);
	s.stop = &flag;
	assert_int_equal(pmc_session_run(&s), 0);
	assert_int_equal(s.end, PMC_END_SIGNAL);
}

static void test_attached_tasks_end_the_wait_when_gone_zombies_included(void **st)
{
	struct pmc_session s;
	struct calls c;
	pid_t child = fork();

	(void)st;
	if (child == 0) {
		usleep(60000);
		_exit(0);
	}
	assert_true(child > 0);
	assert_true(pmc_task_alive(getpid()));
	assert_true(pmc_task_alive(child));
	session_init(&s, &c);
	s.tasks = &child;
	s.ntasks = 1;
	s.timeout_ns = 5000000000ull;
	assert_int_equal(pmc_session_run(&s), 0);
	assert_int_equal(s.end, PMC_END_TASKS); /* not reaped yet: a zombie is gone */
	assert_false(pmc_task_alive(child));
	waitpid(child, NULL, 0);
	assert_false(pmc_task_alive(child));
}

static void test_count_add_sums_counted_and_keeps_the_reason_of_the_uncounted(void **st)
{
	static const struct {
		int line;
		struct pmc_count in[3];
		size_t n;
		enum pmc_count_status status;
		uint64_t value, enabled, running;
		int err;
	} rows[] = {
		{ __LINE__, { { 5, 10, 10, PMC_COUNT_OK, 0, 0 }, { 7, 10, 5, PMC_COUNT_OK, 0, 0 } }, 2, PMC_COUNT_OK, 12, 20, 15, 0 },
		{ __LINE__, { { 0, 0, 0, PMC_COUNT_NOT_SUPPORTED, EACCES, 0 }, { 3, 4, 4, PMC_COUNT_OK, 0, 0 } }, 2,
		  PMC_COUNT_OK, 3, 4, 4, 0 },
		{ __LINE__, { { 0, 0, 0, PMC_COUNT_NOT_COUNTED, 0, 0 }, { 0, 0, 0, PMC_COUNT_NOT_SUPPORTED, ESRCH, 0 } }, 2,
		  PMC_COUNT_NOT_SUPPORTED, 0, 0, 0, ESRCH },
		{ __LINE__, { { 0, 0, 0, PMC_COUNT_NOT_COUNTED, 0, 0 } }, 1, PMC_COUNT_NOT_COUNTED, 0, 0, 0, 0 },
		{ __LINE__, { { 0 } }, 0, PMC_COUNT_NOT_RUN, 0, 0, 0, 0 },
	};
	(void)st;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_count sum = { .status = PMC_COUNT_NOT_RUN };
		for (size_t k = 0; k < rows[i].n; k++)
			scope_count_add(&sum, &rows[i].in[k]);
		if (sum.status != rows[i].status || sum.value != rows[i].value || sum.enabled != rows[i].enabled ||
		    sum.running != rows[i].running || sum.err != rows[i].err)
			fail_msg("line %d: status %d value %llu enabled %llu running %llu err %d", rows[i].line, sum.status,
				 (unsigned long long)sum.value, (unsigned long long)sum.enabled,
				 (unsigned long long)sum.running, sum.err);
	}
}

static int collect(long v, void *ctx)
{
	char *out = ctx;
	size_t n = strlen(out);

	snprintf(out + n, 128 - n, "%s%ld", n ? " " : "", v);
	return 0;
}

static void test_lists_parse_as_perf_writes_them_and_malformed_ones_are_refused(void **st)
{
	static const struct {
		int line;
		char which; /* c: -C, p: -p */
		const char *in;
		int rc;
		const char *want;
	} rows[] = {
		{ __LINE__, 'c', "0,2-3", 0, "0 2 3" },   { __LINE__, 'c', "5", 0, "5" },
		{ __LINE__, 'c', "3-1", -EINVAL, "" },     { __LINE__, 'c', "1,", -EINVAL, "" },
		{ __LINE__, 'c', "", -EINVAL, "" },        { __LINE__, 'c', "a", -EINVAL, "" },
		{ __LINE__, 'c', "1-", -EINVAL, "" },      { __LINE__, 'c', "-1", -EINVAL, "" },
		{ __LINE__, 'c', "99999999999999999999999", -ERANGE, "" }, { __LINE__, 'c', "0-9223372036854775807", -ERANGE, "" },
		{ __LINE__, 'c', "1,2-1048577", -ERANGE, "1" },
		{ __LINE__, 'p', "1234,5678", 0, "1234 5678" }, { __LINE__, 'p', "0", -EINVAL, "" },
		{ __LINE__, 'p', "12,,3", -EINVAL, "12" }, { __LINE__, 'p', "1-3", -EINVAL, "" },
	};
	(void)st;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		char out[128] = "";
		int rc = rows[i].which == 'c' ? pmc_parse_cpu_list(rows[i].in, collect, out)
					       : pmc_parse_id_list(rows[i].in, collect, out);
		if (rc != rows[i].rc || strcmp(out, rows[i].want))
			fail_msg("line %d: '%s' gave %d '%s'", rows[i].line, rows[i].in, rc, out);
	}
}

static void test_control_spec_names_a_fifo_or_descriptors(void **st)
{
	char c[32], a[32];
	bool fd = true;

	(void)st;
	assert_int_equal(pmc_parse_control("fifo:/tmp/c,/tmp/a", c, sizeof(c), a, sizeof(a), &fd), 0);
	assert_string_equal(c, "/tmp/c");
	assert_string_equal(a, "/tmp/a");
	assert_false(fd);
	assert_int_equal(pmc_parse_control("fd:3", c, sizeof(c), a, sizeof(a), &fd), 0);
	assert_string_equal(c, "3");
	assert_string_equal(a, "");
	assert_true(fd);
	assert_int_equal(pmc_parse_control("fd:x,4", c, sizeof(c), a, sizeof(a), &fd), -EINVAL);
	assert_int_equal(pmc_parse_control("fifo:", c, sizeof(c), a, sizeof(a), &fd), -EINVAL);
	assert_int_equal(pmc_parse_control("fifo:a,", c, sizeof(c), a, sizeof(a), &fd), -EINVAL);
	assert_int_equal(pmc_parse_control("pipe:a", c, sizeof(c), a, sizeof(a), &fd), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_lines_are_obeyed_in_order_and_each_acked),
		cmocka_unit_test(test_timeout_ends_and_the_last_partial_interval_is_ticked),
		cmocka_unit_test(test_interval_count_ends_without_a_partial_tick),
		cmocka_unit_test(test_delay_starts_the_counters_after_it),
		cmocka_unit_test(test_a_signal_flag_ends_the_wait),
		cmocka_unit_test(test_attached_tasks_end_the_wait_when_gone_zombies_included),
		cmocka_unit_test(test_count_add_sums_counted_and_keeps_the_reason_of_the_uncounted),
		cmocka_unit_test(test_lists_parse_as_perf_writes_them_and_malformed_ones_are_refused),
		cmocka_unit_test(test_control_spec_names_a_fifo_or_descriptors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
