/* SPDX-License-Identifier: MIT */
/*
 * Live counting through the public API (include/pmctool_engine.h): task-clock and page-faults opened on this very
 * process (pids: no privilege beyond counting one's own process), then snapshots read at the call. Between two
 * snapshots the process burns about 60 ms of CPU and touches 16 MiB: task-clock must grow by at least 40 ms and
 * page-faults by at least 2000, and a third snapshot right after must not go backwards (a read never resets). An
 * unknown event is refused with subject "events", cpus and pids together with their subject. Prints what it saw;
 * exits 0 when all holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pmctool_engine.h"

static int bad(const char *what)
{
	printf("FAIL: %s\n", what);
	return 1;
}

static double value(const struct pmctool_result *r, const char *ev, enum pmctool_count_status *st)
{
	for (size_t i = 0; i < r->ncounts; i++)
		if (!strcmp(r->counts[i].event, ev)) {
			*st = r->counts[i].status;
			return r->counts[i].value;
		}
	*st = PMCTOOL_NOT_RUN;
	return -1;
}

static void burn(double secs)
{
	struct timespec t0, t;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
}

int main(void)
{
	struct pmctool_engine *e = pmctool_engine_new();
	int self = (int)getpid(), cpu0 = 0;
	struct pmctool_live_request rq = { .events = "task-clock,page-faults", .pids = &self, .npids = 1 };
	struct pmctool_live *l = NULL;
	struct pmctool_result *a = NULL, *b = NULL, *c = NULL;
	struct pmctool_error err;
	enum pmctool_count_status sa, sb, sc, fa, fb;
	double ta, tb, tc, pa, pb;
	size_t mib = 16u << 20;
	char *mem;
	int rc;

	if (!e)
		return bad("pmctool_engine_new");
	if ((rc = pmctool_live_open(e, &rq, &l, &err))) {
		printf("FAIL: pmctool_live_open: kind %d, subject '%s': %s\n", rc, err.subject, err.detail);
		return 1;
	}
	if (pmctool_live_snapshot(l, &a, &err))
		return bad(err.detail);
	burn(0.06);
	mem = malloc(mib);
	if (!mem)
		return bad("malloc");
	for (size_t i = 0; i < mib; i += 4096)
		mem[i] = (char)i;
	if (pmctool_live_snapshot(l, &b, &err) || pmctool_live_snapshot(l, &c, &err))
		return bad(err.detail);
	free(mem);
	ta = value(a, "task-clock", &sa);
	tb = value(b, "task-clock", &sb);
	tc = value(c, "task-clock", &sc);
	pa = value(a, "page-faults", &fa);
	pb = value(b, "page-faults", &fb);
	printf("live: task-clock %.0f -> %.0f -> %.0f ns, page-faults %.0f -> %.0f, runs %u\n", ta, tb, tc, pa, pb, b->runs);
	if (sa != PMCTOOL_COUNTED || sb != PMCTOOL_COUNTED || sc != PMCTOOL_COUNTED || fa != PMCTOOL_COUNTED ||
	    fb != PMCTOOL_COUNTED)
		return bad("an event is not counted");
	if (tb - ta < 40e6)
		return bad("task-clock did not grow by the 60 ms burnt");
	if (pb - pa < 2000)
		return bad("page-faults did not grow by the 4096 pages touched");
	if (tc < tb)
		return bad("a snapshot went backwards: a read reset the counting");
	pmctool_result_free(a);
	pmctool_result_free(b);
	pmctool_result_free(c);
	pmctool_live_close(l);

	rq = (struct pmctool_live_request){ .events = "no-such-event", .pids = &self, .npids = 1 };
	rc = pmctool_live_open(e, &rq, &l, &err);
	printf("unknown: kind %d, subject '%s'\n", rc, err.subject);
	if (rc != PMCTOOL_ERR_REQUEST || strcmp(err.subject, "events") || l)
		return bad("an unknown event is not a request error about events");
	rq = (struct pmctool_live_request){ .events = "task-clock", .pids = &self, .npids = 1, .cpus = &cpu0, .ncpus = 1 };
	rc = pmctool_live_open(e, &rq, &l, &err);
	printf("both: kind %d, subject '%s'\n", rc, err.subject);
	if (rc != PMCTOOL_ERR_REQUEST || l)
		return bad("cpus and pids together are not a request error");
	pmctool_engine_free(e);
	printf("ok\n");
	return 0;
}
