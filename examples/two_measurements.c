/* SPDX-License-Identifier: MIT */
/*
 * Two measurements in one process through pmctool's engine library (include/pmctool_engine.h): a command measured
 * once with one event list, then three times with another, then a request with a mistake in it, which the engine
 * refuses with the field it is about, and a command that does not exist. Build: cc two_measurements.c $(pkg-config --cflags --libs pmctool-engine)
 *   two_measurements [--json] [COMMAND ARGS...]      (default command: true)
 * Prints each count (or why it has none) and metric; --json prints the second result as `pmctool stat --json` would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmctool_engine.h"

static const char *status_word(enum pmctool_count_status s)
{
	return s == PMCTOOL_COUNTED ? "counted" : s == PMCTOOL_NOT_COUNTED ? "not counted"
	       : s == PMCTOOL_NOT_SUPPORTED ? "not supported" : "not run";
}

static void show(const char *what, const struct pmctool_result *r)
{
	printf("%s: %u run%s, %.6f s each\n", what, r->runs, r->runs == 1 ? "" : "s", r->seconds);
	for (size_t i = 0; i < r->ncounts; i++) {
		const struct pmctool_count *c = &r->counts[i];

		if (c->status == PMCTOOL_COUNTED)
			printf("  count %s %.0f %s running %.2f\n", c->event, c->value, c->unit, c->running);
		else
			printf("  count %s <%s> %s\n", c->event, status_word(c->status), c->reason);
	}
	for (size_t i = 0; i < r->nmetrics; i++)
		if (r->metrics[i].valid)
			printf("  metric %s %g %s\n", r->metrics[i].name, r->metrics[i].value, r->metrics[i].unit);
		else
			printf("  metric %s n/a: %s\n", r->metrics[i].name, r->metrics[i].reason);
}

/* One measurement: its result shown, or its error; the error's kind (0: none). */
static int measure(struct pmctool_engine *e, const char *what, const struct pmctool_request *rq,
		   struct pmctool_result **r)
{
	struct pmctool_error err;
	int kind = pmctool_measure(e, rq, r, &err);

	if (kind)
		printf("%s: error kind %d, subject '%s': %s (pmctool stat exits %d)%s\n", what, kind, err.subject,
		       err.detail, err.exit_status, *r ? ", and a result" : "");
	if (*r)
		show(what, *r);
	return kind;
}

int main(int argc, char **argv)
{
	int json = argc > 1 && !strcmp(argv[1], "--json");
	const char *dflt[] = { "true", NULL };
	const char *const *cmd = argc > 1 + json ? (const char *const *)argv + 1 + json : dflt;
	const char *metrics[] = { "faults_per_ms={page-faults} / ({task-clock} / 1e6)", NULL };
	const char *missing_cmd[] = { "/nonexistent/pmctool-example", NULL };
	const struct pmctool_request rq[] = {
		{ .argv = cmd, .events = "task-clock" },
		{ .argv = cmd, .events = "task-clock,page-faults,context-switches", .metrics = metrics, .runs = 3 },
		{ .argv = cmd, .events = "task-clock,no-such-event" },
		{ .argv = missing_cmd, .events = "task-clock" },
	};
	const char *what[] = { "first", "second", "wrong", "missing" };
	struct pmctool_engine *e = pmctool_engine_new();
	struct pmctool_result *r[4] = { NULL };
	int kind[4], rc = 0;

	if (!e)
		return 1;
	printf("pmctool engine %s\n", pmctool_version());
	for (int i = 0; i < 4; i++)
		kind[i] = measure(e, what[i], &rq[i], &r[i]);
	if (json && r[1]) {
		char *doc;
		size_t len;

		if (pmctool_result_json(r[1], &doc, &len) == 0) {
			fwrite(doc, 1, len, stdout);
			free(doc);
		} else {
			rc = 1;
		}
	}
	for (int i = 0; i < 4; i++)
		pmctool_result_free(r[i]);
	pmctool_engine_free(e);
	/* the first two must measure (a failing command still counts); the other two must be refused */
	for (int i = 0; i < 2; i++)
		rc |= kind[i] && kind[i] != PMCTOOL_ERR_COMMAND;
	return rc || kind[2] != PMCTOOL_ERR_REQUEST || kind[3] != PMCTOOL_ERR_LAUNCH;
}
