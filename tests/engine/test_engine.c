/* SPDX-License-Identifier: MIT */
/* The measurement engine as a library (src/engine/engine.h), linked without the command line: real
 * perf_event_open on real child processes (tests/core/pmc-workload), its messages caught by a diagnostics sink
 * instead of stderr, -I records by an interval sink. Breakpoints on the workload's bump() count exactly. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/engine.h"

static char bump_bp[64];       /* "mem:0xADDR:x" for the workload's bump() */
static char diag_log[8192];    /* what the engine said, one "E|N|T message" line each */
static unsigned interval_records;

static void catch_diag(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	size_t off = strlen(diag_log);

	(void)ctx;
	snprintf(diag_log + off, sizeof(diag_log) - off, "%c %s\n", "ENT"[kind], msg);
}

static void count_record(void *ctx, const struct pmc_interval_record *r)
{
	(void)ctx;
	(void)r;
	interval_records++;
}

static int setup(void **state)
{
	const char *w = getenv("PMC_WORKLOAD");
	char cmd[4096], addr[32] = "";
	FILE *p;

	(void)state;
	if (!w)
		return -1;
	snprintf(cmd, sizeof(cmd), "nm '%s' | awk '$3 == \"bump\" { print $1 }'", w);
	p = popen(cmd, "r");
	if (!p || !fgets(addr, sizeof(addr), p) || pclose(p) != 0)
		return -1;
	addr[strcspn(addr, "\n")] = '\0';
	snprintf(bump_bp, sizeof(bump_bp), "mem:0x%s:x", addr);
	pmc_diag_set(catch_diag, NULL);
	return 0;
}

struct engine_case {
	const char *name;
	const char *events;      /* "BP" stands for the breakpoint on bump() */
	const char *args[4];     /* the workload's arguments */
	unsigned runs;
	uint64_t interval_ms;
	int want_rc;
	double want_bp;          /* the breakpoint's mean, < 0: not checked */
	size_t want_batches;
	const char *want_diag;   /* a substring of what the sink got, "" none */
};

static const struct engine_case cases[] = {
	{ "breakpoint_counts_every_call_in_each_run", "BP,task-clock", { "calls", "12345" }, 3, 0, 0, 12345, 1, "" },
	{ "command_exit_status_passes_through", "task-clock", { "exit", "7" }, 1, 0, 7, -1, 1, "" },
	{ "unknown_event_is_told_to_the_sink_and_nothing_runs", "no_such_event_qq", { "calls", "1" }, 1, 0, 2, -1, 0,
	  "E unknown event 'no_such_event_qq'" },
	{ "five_breakpoints_rerun_in_two_batches_each_exact", "BP,BP,BP,BP,BP", { "calls", "777" }, 1, 0, 0, 777, 2,
	  " events need 2 batches (" },
	{ "intervals_go_to_the_interval_sink", "task-clock", { "calls", "1000" }, 1, 50, 0, -1, 1, "" },
};

static void expand_events(const char *in, char *out, size_t len)
{
	size_t off = 0;

	for (const char *p = in; *p && off < len - 1;) {
		if (!strncmp(p, "BP", 2)) {
			off += (size_t)snprintf(out + off, len - off, "%s", bump_bp);
			p += 2;
		} else {
			out[off++] = *p++;
		}
	}
	out[off < len ? off : len - 1] = '\0';
}

static void test_engine_case(void **state)
{
	const struct engine_case *c = *state;
	struct pmc_engine_opts o;
	struct pmc_engine_ctx ctx = { 0 }; /* the messages: the thread's sink, catch_diag */
	struct pmc_report rep;
	char events[512], errpath[] = "/tmp/pmc-engine-err-XXXXXX", *argv[6] = { 0 };
	struct stat st;
	int saved, errfd, rc;
	size_t n = 0;

	pmc_engine_opts_init(&o);
	memset(&rep, 0, sizeof(rep));
	expand_events(c->events, events, sizeof(events));
	o.event_lists[o.nlists++] = events;
	o.runs = c->runs;
	o.interval_ms = c->interval_ms;
	o.intervals.record = count_record;
	argv[n++] = getenv("PMC_WORKLOAD");
	for (size_t i = 0; i < 4 && c->args[i]; i++)
		argv[n++] = (char *)c->args[i];
	o.argv = argv;
	diag_log[0] = '\0';
	interval_records = 0;

	/* Nothing of the engine's reaches stderr: the sink has it all. */
	errfd = mkstemp(errpath);
	assert_true(errfd >= 0);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(errfd, STDERR_FILENO);
	rc = pmc_engine_run(&ctx, &o, &rep);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	assert_int_equal(fstat(errfd, &st), 0);
	close(errfd);
	unlink(errpath);
	if (st.st_size != 0)
		print_message("stderr had %lld bytes\n", (long long)st.st_size);
	assert_int_equal(st.st_size, 0);

	if (rc != c->want_rc)
		print_message("%s: rc %d, sink:\n%s", c->name, rc, diag_log);
	assert_int_equal(rc, c->want_rc);
	if (c->want_diag[0] && !strstr(diag_log, c->want_diag))
		fail_msg("%s: the sink lacks '%s':\n%s", c->name, c->want_diag, diag_log);
	if (c->want_batches) {
		assert_int_equal(rep.nruns, c->runs);
		assert_int_equal(rep.nbatches, c->want_batches);
	}
	for (size_t i = 0; c->want_bp >= 0 && i < rep.nevents; i++) {
		const struct pmc_report_event *e = &rep.events[i];

		if (strcmp(e->ev.name, bump_bp))
			continue;
		assert_int_equal(e->status, PMC_COUNT_OK);
		assert_true(e->mean == c->want_bp);
		for (size_t s = 0; s < e->nsamples; s++)
			assert_int_equal(e->samples[s].count.value, (uint64_t)c->want_bp);
	}
	if (c->interval_ms)
		assert_true(interval_records >= 1); /* at least the last interval, at the workload's end */
	pmc_report_fini(&rep);
}

int main(void)
{
	struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0])];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tests[i] = (struct CMUnitTest){ cases[i].name, test_engine_case, NULL, NULL, (void *)&cases[i] };
	return cmocka_run_group_tests(tests, setup, NULL);
}
