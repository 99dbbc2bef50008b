/* SPDX-License-Identifier: MIT */
/* The measurement engine as a library (src/engine/engine.h), linked without the command line: real
 * perf_event_open on real child processes (tests/core/pmc-workload), its messages caught by a diagnostics sink
 * instead of stderr, -I records by an interval sink. Breakpoints on the workload's bump() count exactly. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
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
#include "perf/probe.h"

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
		const struct pmc_bp_probe *bp = pmc_perf_probe_breakpoints(); /* the engine's, cached in this process */

		if (strcmp(e->ev.name, bump_bp))
			continue;
		if (bp->fires == PMC_BP_NEVER) {
			/* breakpoints never fire here: not counted with the reason, never a 0 */
			print_message("%s: breakpoints never fire here: asserted <not counted>, not %.0f\n", c->name,
				      c->want_bp);
			assert_int_equal(e->status, PMC_COUNT_NOT_COUNTED);
			assert_string_equal(e->reason, PMC_BP_NEVER_REASON);
			continue;
		}
		if (bp->fires != PMC_BP_FIRE) {
			char why[300];
			pmc_bp_probe_describe(bp, why, sizeof(why));
			print_message("skipped: exact breakpoint counts, and here %s\n", why);
			pmc_report_fini(&rep);
			skip();
		}
		assert_int_equal(e->status, PMC_COUNT_OK);
		assert_true(e->mean == c->want_bp);
		for (size_t s = 0; s < e->nsamples; s++)
			assert_int_equal(e->samples[s].count.value, (uint64_t)c->want_bp);
	}
	if (c->interval_ms)
		assert_true(interval_records >= 1); /* at least the last interval, at the workload's end */
	pmc_report_fini(&rep);
}

/* One caller of the engine: its context, what its sink got and what its observer saw. */
struct caller {
	struct pmc_engine_ctx ctx;
	volatile sig_atomic_t stop;
	char log[16384];             /* its sink: "E|N|T message" lines */
	unsigned opens;              /* its observer: perf_event_open calls */
	unsigned opens_on_child;     /* of them, on the pid its context named as the running command */
	unsigned opens_on_other;     /* on another process (pid > 0, not its context's child) */
};

static void caller_diag(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	struct caller *c = ctx;
	size_t off = strlen(c->log);

	snprintf(c->log + off, sizeof(c->log) - off, "%c %s\n", "ENT"[kind], msg);
}

static void caller_observe(const struct pmc_open_record *rec, void *ctx)
{
	struct caller *c = ctx;

	c->opens++;
	if (rec->pid > 0 && rec->pid == c->ctx.child)
		c->opens_on_child++;
	else if (rec->pid > 0)
		c->opens_on_other++;
	pmc_eng_trace_open(rec, NULL); /* the trace line goes to the sink of the call running now */
}

static void caller_init(struct caller *c, bool observe)
{
	memset(c, 0, sizeof(*c));
	c->ctx.diag = caller_diag;
	c->ctx.diag_ctx = c;
	c->ctx.stop = &c->stop;
	if (observe) {
		c->ctx.observer = caller_observe;
		c->ctx.observer_ctx = c;
	}
}

static int measure_as(struct caller *c, const char *events, const char *arg0, const char *arg1, unsigned runs,
		      struct pmc_report *rep)
{
	struct pmc_engine_opts o;
	char *argv[] = { getenv("PMC_WORKLOAD"), (char *)arg0, (char *)arg1, NULL };

	pmc_engine_opts_init(&o);
	o.event_lists[o.nlists++] = events;
	o.runs = runs;
	o.argv = argv;
	memset(rep, 0, sizeof(*rep));
	return pmc_engine_run(&c->ctx, &o, rep);
}

static bool has_event(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nevents; i++)
		if (!strcmp(rep->events[i].ev.name, name))
			return true;
	return false;
}

/* Issue 26 step 16: the engine keeps no state between measurements. A measures software events with -v's observer;
 * B, another context with another request, was stopped by its own flag before it ran; A again measures after B.
 * Each context's messages, trace lines, stop flag and running command stay its own; the thread's sink gets nothing. */
static void test_two_measurements_two_contexts_share_nothing(void **state)
{
	static struct caller a, b;
	struct pmc_report ra, rb, ra2;
	char five_bps[512];
	size_t a_log;
	int rc;

	(void)state;
	caller_init(&a, true);
	caller_init(&b, false);
	b.stop = SIGTERM; /* B's caller was told to stop before B began */
	diag_log[0] = '\0';

	rc = measure_as(&a, "task-clock,context-switches", "calls", "1000", 2, &ra);
	assert_int_equal(rc, 0);
	assert_int_equal(ra.nruns, 2);
	assert_int_equal(ra.nevents, 2);
	assert_false(ra.partial);
	assert_true(a.opens_on_child >= 4);           /* two events, two runs, on the command A's context named */
	assert_int_equal(a.opens_on_other, 0);        /* (the others: pmctool's own probes, pid 0 or -1) */
	assert_int_equal(a.ctx.child, 0);             /* none running once it returned */
	assert_non_null(strstr(a.log, "T perf_event_open("));
	a_log = strlen(a.log);

	snprintf(five_bps, sizeof(five_bps), "%s,%s,%s,%s,%s", bump_bp, bump_bp, bump_bp, bump_bp, bump_bp);
	rc = measure_as(&b, five_bps, "exit", "7", 1, &rb);
	if (rc != 128 + SIGTERM)
		print_message("B: rc %d, its sink:\n%s", rc, b.log);
	assert_int_equal(rc, 128 + SIGTERM);          /* its own flag's signal, not the command's status */
	assert_int_equal(rb.nruns, 0);
	assert_true(rb.partial);
	assert_int_equal(b.opens, 0);
	if (strncmp(b.log, "N ", 2) || !strstr(b.log, " events need 2 batches ("))
		fail_msg("B's note is not in B's sink:\n%s", b.log);            /* B's note went to B */
	assert_null(strstr(b.log, "T "));                                 /* no observer, no trace */
	assert_int_equal(strlen(a.log), a_log);                           /* nothing of B's reached A */
	assert_false(has_event(&rb, "task-clock"));

	a.opens = a.opens_on_child = a.opens_on_other = 0;
	rc = measure_as(&a, "task-clock", "exit", "0", 1, &ra2);
	assert_int_equal(rc, 0);                      /* B's stop flag did not stop A */
	assert_int_equal(ra2.nruns, 1);
	assert_false(ra2.partial);
	assert_int_equal(ra2.nevents, 1);             /* A's new request, nothing of A's first or of B's */
	assert_true(has_event(&ra2, "task-clock"));
	assert_int_equal(ra2.events[0].status, PMC_COUNT_OK);
	assert_true(a.opens_on_child >= 1);
	assert_int_equal(a.opens_on_other, 0);
	assert_null(strstr(a.log, "need 2 batches"));
	assert_string_equal(diag_log, "");            /* the thread's own sink heard nothing */
	assert_int_equal(ra.events[0].status, PMC_COUNT_OK);
	pmc_report_fini(&ra);
	pmc_report_fini(&rb);
	pmc_report_fini(&ra2);
}

static int teardown(void **state)
{
	(void)state;
	pmc_pmu_fini(); /* the engine leaves libpfm4 to the process */
	return 0;
}

int main(void)
{
	struct CMUnitTest tests[sizeof(cases) / sizeof(cases[0]) + 1];
	size_t n = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tests[n++] = (struct CMUnitTest){ cases[i].name, test_engine_case, NULL, NULL, (void *)&cases[i] };
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_two_measurements_two_contexts_share_nothing);
	return cmocka_run_group_tests(tests, setup, teardown);
}
