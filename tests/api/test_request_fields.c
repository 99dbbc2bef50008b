/* SPDX-License-Identifier: MIT */
/*
 * The library's request (include/pmctool_engine.h) field by field, through the public header only: every wrong
 * field is a REQUEST error naming that field (nothing runs); a running process attached with pids, a CPU counted
 * with cpus until timeout_ms, a command's intervals delivered to on_interval as they end, a kernel's params parsed
 * as --param, a command's libpmctool regions, and counting started by 'enable' on the caller's control descriptors. Software events are counted everywhere; a hardware event is
 * counted, or not supported with its reason (a machine without a PMU: this VM).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmctool_engine.h"

static const char *const true_cmd[] = { "true", NULL };
static const char *const bad_metric[] = { "x=(", NULL };
static const char *const bad_param[] = { "nosuch=1", NULL };
static const char *const inner8[] = { "inner=8", NULL };
static const int minus3[] = { -3 };
static const int cpu0[] = { 0 };
static const int pid1[] = { 1 };
static const int no_fds[] = { -1, -1 };

static void no_op(void *ctx, const struct pmctool_interval *iv)
{
	(void)ctx;
	(void)iv;
}

/* Each wrong field: kind REQUEST, its subject, a detail saying what to do, stat's exit status 2, and no result. */
static void test_each_wrong_field_is_a_request_error_naming_it(void **state)
{
	static const struct {
		const char *subject;
		struct pmctool_request rq;
	} cases[] = {
		{ "metrics", { .argv = true_cmd, .events = "task-clock", .metrics = bad_metric } },
		{ "kernel", { .kernel = "nosuchkernel" } },
		{ "params", { .kernel = "loop", .params = bad_param } },
		{ "params", { .argv = true_cmd, .params = inner8 } },
		{ "iters", { .argv = true_cmd, .iters = 5 } },
		{ "pids", { .pids = minus3, .npids = 1 } },
		{ "pids", { .npids = 1 } },
		{ "tids", { .tids = minus3, .ntids = 1 } },
		{ "cpus", { .cpus = minus3, .ncpus = 1 } },
		{ "system_wide", { .system_wide = 1, .cpus = cpu0, .ncpus = 1 } },
		{ "pids", { .pids = pid1, .npids = 1, .cpus = cpu0, .ncpus = 1 } },
		{ "kernel", { .kernel = "loop", .pids = pid1, .npids = 1 } },
		{ "runs", { .cpus = cpu0, .ncpus = 1, .runs = 3 } },
		{ "interval_ms", { .argv = true_cmd, .interval_ms = 5 } },
		{ "on_interval", { .argv = true_cmd, .on_interval = no_op } },
		{ "timeout_ms", { .argv = true_cmd, .timeout_ms = (uint64_t)1 << 41 } },
		{ "regions", { .argv = true_cmd, .regions = 1, .system_wide = 1 } },
		{ "regions", { .kernel = "loop", .regions = 1 } },
		{ "delay_ms", { .argv = true_cmd, .delay_ms = -2 } },
		{ "delay_ms", { .argv = true_cmd, .delay_ms = -1 } }, /* stopped until 'enable': on which control? */
		{ "control", { .argv = true_cmd, .control = no_fds } },
		{ "regions", { .argv = true_cmd, .regions = 1, .delay_ms = 10 } },
		{ "argv", { .events = "task-clock" } },
		{ "kernel", { .argv = true_cmd, .kernel = "loop" } },
		{ "batching", { .argv = true_cmd, .batching = (enum pmctool_batching)9 } },
	};
	struct pmctool_engine *e = pmctool_engine_new();

	(void)state;
	assert_non_null(e);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmctool_result *r = (struct pmctool_result *)&r;
		struct pmctool_error err;
		int kind = pmctool_measure(e, &cases[i].rq, &r, &err);

		if (kind != PMCTOOL_ERR_REQUEST || strcmp(err.subject, cases[i].subject))
			fail_msg("case %zu (%s): kind %d subject '%s': %s", i, cases[i].subject, kind, err.subject,
				 err.detail);
		assert_null(r);
		assert_int_equal(err.exit_status, 2);
		assert_true(strlen(err.detail) > 10);
		/* the library's words: no command-line flag in a request error (but the formula parser's own text,
		 * metrics/metrics.c, still says "--metric NAME:" after the field's word) */
		if (strstr(err.detail, "--") && strcmp(cases[i].subject, "metrics"))
			fail_msg("case %zu: a flag in the library's error: %s", i, err.detail);
	}
	pmctool_engine_free(e);
}

static const struct pmctool_count *count_of(const struct pmctool_result *r, const char *name)
{
	for (size_t i = 0; i < r->ncounts; i++)
		if (!strcmp(r->counts[i].event, name))
			return &r->counts[i];
	fail_msg("no count of %s", name);
	return NULL;
}

/* A hardware event: counted where the machine has a PMU, else not supported with its reason (never a silent 0). */
static void hardware_counted_or_said(const struct pmctool_count *c)
{
	if (c->status == PMCTOOL_COUNTED)
		return;
	assert_int_equal(c->status, PMCTOOL_NOT_SUPPORTED);
	assert_true(c->value == 0);
	assert_true(strlen(c->reason) > 10);
}

/* A child busy for a while: attached by pid for timeout_ms, then killed and reaped (nothing is left running). */
static void test_a_running_process_is_counted_through_pids_until_the_timeout(void **state)
{
	struct pmctool_engine *e = pmctool_engine_new();
	struct pmctool_result *r = NULL;
	struct pmctool_error err;
	int pid, status;
	int kind;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		volatile unsigned long x = 0;
		alarm(30); /* never outlives the test */
		for (;;) {
			x++;
			if (!(x & 0xfffff))
				usleep(100); /* a context switch now and then */
		}
	}
	{
		struct pmctool_request rq = { .events = "task-clock,context-switches,page-faults,instructions",
					      .pids = &pid, .npids = 1, .timeout_ms = 300 };
		kind = pmctool_measure(e, &rq, &r, &err);
	}
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (kind)
		fail_msg("kind %d subject '%s': %s", kind, err.subject, err.detail);
	assert_non_null(r);
	assert_int_equal(r->runs, 1);
	assert_int_equal(count_of(r, "task-clock")->status, PMCTOOL_COUNTED);
	/* busy for 300 ms on a machine shared with others: some of it on a CPU, never more than it lasted */
	assert_true(count_of(r, "task-clock")->value > 1e6);
	assert_true(count_of(r, "task-clock")->value < 10e9);
	assert_string_equal(count_of(r, "task-clock")->unit, "ns");
	/* a switch is counted in the kernel: refused, with the reason, without root where perf_event_paranoid is 2 */
	if (geteuid() != 0 && count_of(r, "context-switches")->status == PMCTOOL_NOT_SUPPORTED)
		assert_true(strlen(count_of(r, "context-switches")->reason) > 10);
	else
		assert_true(count_of(r, "context-switches")->status == PMCTOOL_COUNTED &&
			    count_of(r, "context-switches")->value >= 1);
	assert_int_equal(count_of(r, "page-faults")->status, PMCTOOL_COUNTED);
	hardware_counted_or_said(count_of(r, "instructions"));
	assert_true(r->seconds > 0.25 && r->seconds < 10);
	pmctool_result_free(r);
	pmctool_engine_free(e);
}

/* CPU 0 counted system-wide for 200 ms (as root or with perf_event_paranoid <= 0; without them the error says which
 * privilege, and the test is skipped). */
static void test_a_cpu_is_counted_until_the_timeout(void **state)
{
	struct pmctool_engine *e = pmctool_engine_new();
	struct pmctool_request rq = { .events = "task-clock,context-switches", .cpus = cpu0, .ncpus = 1,
				      .timeout_ms = 200 };
	struct pmctool_result *r = NULL;
	struct pmctool_error err;
	int kind = pmctool_measure(e, &rq, &r, &err);

	(void)state;
	if (kind && geteuid() != 0 && strstr(err.detail, "perf_event_paranoid")) {
		assert_int_equal(kind, PMCTOOL_ERR_NOCOUNT); /* stat's exit 3: nothing could be counted */
		pmctool_engine_free(e);
		skip();
	}
	if (kind)
		fail_msg("kind %d subject '%s': %s", kind, err.subject, err.detail);
	/* a CPU's clock runs the whole time: about 200 ms of task-clock (ns) on CPU 0 */
	assert_int_equal(count_of(r, "task-clock")->status, PMCTOOL_COUNTED);
	assert_true(count_of(r, "task-clock")->value > 100e6);
	assert_true(count_of(r, "task-clock")->value < 5e9);
	assert_true(r->seconds >= 0.19 && r->seconds < 10);
	pmctool_result_free(r);
	pmctool_engine_free(e);
}

struct seen {
	unsigned n, last_index, with_clock;
	double last_end;
	int bad;
};

static void on_interval(void *ctx, const struct pmctool_interval *iv)
{
	struct seen *s = ctx;

	s->bad |= iv->index != s->last_index + 1 || !(iv->end_s > iv->start_s) || iv->start_s + 1e-9 < s->last_end;
	s->n++;
	s->last_index = iv->index;
	s->last_end = iv->end_s;
	for (size_t i = 0; i < iv->ncounts; i++)
		if (!strcmp(iv->counts[i].event, "task-clock") && iv->counts[i].status == PMCTOOL_COUNTED &&
		    !strcmp(iv->counts[i].unit, "ns"))
			s->with_clock++;
}

/* sleep 0.65 with interval_ms 100: an interval each 100 ms while it runs, then the last (partial) one. */
static void test_intervals_reach_the_callback_as_they_end(void **state)
{
	static const char *const cmd[] = { "sleep", "0.65", NULL };
	struct pmctool_engine *e = pmctool_engine_new();
	struct seen s = { 0 };
	struct pmctool_request rq = { .argv = cmd, .events = "task-clock,context-switches", .interval_ms = 100,
				      .on_interval = on_interval, .interval_ctx = &s };
	struct pmctool_result *r = NULL;
	struct pmctool_error err;
	int kind = pmctool_measure(e, &rq, &r, &err);

	(void)state;
	if (kind)
		fail_msg("kind %d subject '%s': %s", kind, err.subject, err.detail);
	/* 6 whole intervals and a partial seventh; a loaded machine may end an interval late, never add one */
	if (s.n < 5 || s.n > 8 || s.bad || s.with_clock != s.n)
		fail_msg("%u intervals (%u with task-clock), order %s, last ends at %.3f s", s.n, s.with_clock,
			 s.bad ? "wrong" : "right", s.last_end);
	print_message("%u intervals, the last ending at %.3f s\n", s.n, s.last_end);
	assert_true(s.last_end >= 0.6);
	assert_int_equal(count_of(r, "task-clock")->status, PMCTOOL_COUNTED);
	pmctool_result_free(r);
	pmctool_engine_free(e);
}

/* The loop kernel with params {"inner=8"}: the workload names the parameter, and the default differs. */
static void test_kernel_params_are_parsed_as_stat_param(void **state)
{
	struct pmctool_engine *e = pmctool_engine_new();
	struct pmctool_request rq = { .kernel = "loop", .params = inner8, .iters = 1000, .events = "task-clock" };
	struct pmctool_result *r = NULL;
	struct pmctool_error err;
	char *json = NULL;
	int kind = pmctool_measure(e, &rq, &r, &err);

	(void)state;
	if (kind)
		fail_msg("kind %d subject '%s': %s", kind, err.subject, err.detail);
	assert_int_equal(pmctool_result_json(r, &json, NULL), 0);
	assert_non_null(strstr(json, "inner=8"));
	free(json);
	pmctool_result_free(r);
	pmctool_engine_free(e);
}

/* rg-prog basic enters inner 6 times, outer 3 and b-only once: regions = 1 counts them, typed and in the JSON. */
static void test_regions_of_a_command_are_in_its_result(void **state)
{
	char prog[4096];
	const char *build = getenv("PMC_BUILD_DIR");
	const char *cmd[] = { prog, "basic", NULL };
	struct pmctool_engine *e = pmctool_engine_new();
	struct pmctool_request rq = { .argv = cmd, .events = "task-clock", .regions = 1 };
	struct pmctool_result *r = NULL;
	struct pmctool_error err;
	char *json = NULL;
	int kind;

	(void)state;
	if (!build) {
		pmctool_engine_free(e);
		skip();
	}
	snprintf(prog, sizeof(prog), "%s/tests/regions/prog/rg-prog", build);
	if (access(prog, X_OK)) {
		pmctool_engine_free(e);
		skip();
	}
	kind = pmctool_measure(e, &rq, &r, &err);
	if (kind)
		fail_msg("kind %d subject '%s': %s", kind, err.subject, err.detail);
	/* typed: rg-prog's three regions with their calls, inner's task-clock (ns) less than the whole program's */
	assert_int_equal(r->nregions, 3);
	for (size_t i = 0; i < r->nregions; i++) {
		const struct pmctool_region *g = &r->regions[i];

		if (!strcmp(g->name, "inner")) {
			assert_true(g->calls == 6);
			assert_true(g->values[0] > 0 && g->values[0] < count_of(r, "task-clock")->value);
		} else if (!(!strcmp(g->name, "outer") && g->calls == 3) && !(!strcmp(g->name, "b-only") && g->calls == 1)) {
			fail_msg("region %s called %g times", g->name, g->calls);
		}
	}
	assert_int_equal(pmctool_result_json(r, &json, NULL), 0);
	assert_non_null(strstr(json, "\"regions\""));
	if (!strstr(json, "\"name\":\"inner\",\"calls\":6"))
		fail_msg("no region inner called 6 times: %.600s", strstr(json, "\"regions\""));
	free(json);
	pmctool_result_free(r);
	pmctool_engine_free(e);
}

/* The caller's end of the control channel: 'enable' after 200 ms, then the engine's 'ack' read back. */
struct controller {
	int ctl_w, ack_r;
	char ack[16];
};

static void *control_later(void *arg)
{
	struct controller *c = arg;
	ssize_t n;

	usleep(200000);
	if (write(c->ctl_w, "enable\n", 7) != 7)
		return NULL;
	if (poll(&(struct pollfd){ .fd = c->ack_r, .events = POLLIN }, 1, 10000) != 1)
		return NULL; /* no ack in 10 s: c->ack stays "" */
	n = read(c->ack_r, c->ack, sizeof(c->ack) - 1);
	c->ack[n > 0 ? n : 0] = '\0';
	return NULL;
}

/* delay_ms -1 with control {CTL, ACK}: counting waits for 'enable' written 200 ms in, which is acknowledged, and the
 * result says counting was paused. */
static void test_control_descriptors_start_the_counting(void **state)
{
	static const char *const cmd[] = { "sleep", "0.6", NULL };
	struct pmctool_engine *e = pmctool_engine_new();
	int ctl[2], ack[2], fds[2];
	struct controller c = { 0 };
	struct pmctool_result *r = NULL;
	struct pmctool_error err;
	pthread_t t;
	bool paused = false;
	int kind;

	(void)state;
	assert_int_equal(pipe(ctl), 0);
	assert_int_equal(pipe(ack), 0);
	fds[0] = ctl[0];
	fds[1] = ack[1];
	c.ctl_w = ctl[1];
	c.ack_r = ack[0];
	assert_int_equal(pthread_create(&t, NULL, control_later, &c), 0);
	{
		struct pmctool_request rq = { .argv = cmd, .events = "task-clock", .delay_ms = -1, .control = fds };
		kind = pmctool_measure(e, &rq, &r, &err);
	}
	pthread_join(t, NULL);
	for (int i = 0; i < 2; i++) {
		close(ctl[i]);
		close(ack[i]);
	}
	if (kind && kind != PMCTOOL_ERR_NOCOUNT) /* sleep may never be on a CPU while counting is on */
		fail_msg("kind %d subject '%s': %s", kind, err.subject, err.detail);
	assert_non_null(r);
	assert_string_equal(c.ack, "ack\n");
	for (size_t i = 0; i < r->nchecks; i++)
		paused |= !strcmp(r->checks[i].name, "counting-paused") && strstr(r->checks[i].message, "delayed");
	assert_true(paused);
	pmctool_result_free(r);
	pmctool_engine_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_wrong_field_is_a_request_error_naming_it),
		cmocka_unit_test(test_a_running_process_is_counted_through_pids_until_the_timeout),
		cmocka_unit_test(test_a_cpu_is_counted_until_the_timeout),
		cmocka_unit_test(test_intervals_reach_the_callback_as_they_end),
		cmocka_unit_test(test_kernel_params_are_parsed_as_stat_param),
		cmocka_unit_test(test_regions_of_a_command_are_in_its_result),
		cmocka_unit_test(test_control_descriptors_start_the_counting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
