/* SPDX-License-Identifier: MIT */
/* Issue 35 item 2: sweep, compare and stat --compare read a measurement's series from the report's typed fields
 * (pmc_loaded_from_report), where they read them from the JSON a 'pmctool stat --json' child wrote. Both readings of
 * one real measurement (run in this process with multi_measure_report, as sweep runs them) must be the same series,
 * numbers bit for bit: a command over three runs with a metric and an event this machine may not count, a kernel with
 * its declared counts, a command that fails, a null run. check's read method is a field that says what the report's
 * check says. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/multi.h"
#include "output/output.h"
#include "report/load.h"

static void same_num(double a, double b, const char *what, const char *name)
{
	if (!(a == b || (isnan(a) && isnan(b))))
		fail_msg("%s of '%s': %.17g from the fields, %.17g from the JSON", what, name, a, b);
}

static void same_series(const struct pmc_series *a, const struct pmc_series *b)
{
	assert_string_equal(a->name, b->name);
	assert_string_equal(a->region, b->region);
	assert_string_equal(a->unit, b->unit);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->ok, b->ok);
	assert_string_equal(a->reason, b->reason);
	assert_int_equal(a->nruns, b->nruns);
	for (size_t r = 0; r < a->nruns; r++)
		same_num(a->runs[r], b->runs[r], "a run", a->name);
	same_num(a->mean, b->mean, "the mean", a->name);
	same_num(a->sd, b->sd, "the sd", a->name);
	same_num(a->min, b->min, "the min", a->name);
	same_num(a->max, b->max, "the max", a->name);
	assert_int_equal(!a->ev, !b->ev);
	if (!a->ev)
		return;
	/* what pmctool report replays (the class name is the output's word: not compared) */
	assert_string_equal(a->ev->canonical, b->ev->canonical);
	assert_string_equal(a->ev->status, b->ev->status);
	assert_int_equal(a->ev->type, b->ev->type);
	assert_true(a->ev->config == b->ev->config && a->ev->config1 == b->ev->config1);
	assert_int_equal(a->ev->fixed_index, b->ev->fixed_index);
	assert_int_equal(a->ev->anchor, b->ev->anchor);
	assert_int_equal(a->ev->every_batch, b->ev->every_batch);
	assert_int_equal(a->ev->batch, b->ev->batch);
	assert_int_equal(a->ev->total, b->ev->total);
	assert_int_equal(a->ev->time_ns, b->ev->time_ns);
	assert_int_equal(a->ev->nsamples, b->ev->nsamples);
	for (size_t i = 0; i < a->ev->nsamples; i++) {
		const struct pmc_loaded_sample *x = &a->ev->samples[i], *y = &b->ev->samples[i];

		assert_true(x->run == y->run && x->batch == y->batch && x->ok == y->ok && x->err == y->err);
		same_num(x->value, y->value, "a sample", a->name);
		same_num(x->enabled_ns, y->enabled_ns, "a sample's enabled time", a->name);
		same_num(x->running_ns, y->running_ns, "a sample's running time", a->name);
	}
}

static void same_loaded(const struct pmc_loaded *a, const struct pmc_loaded *b)
{
	assert_string_equal(a->workload, b->workload);
	assert_int_equal(a->partial, b->partial);
	assert_int_equal(a->exit_status, b->exit_status);
	assert_true(a->runs == b->runs && a->runs_used == b->runs_used && a->runs_failed == b->runs_failed &&
		    a->runs_partial == b->runs_partial);
	assert_true(a->has_origin == b->has_origin && a->pid == b->pid && a->rank == b->rank);
	assert_string_equal(a->host, b->host);
	same_num(a->iterations, b->iterations, "ITERATIONS", a->workload);
	assert_int_equal(a->env.present, b->env.present);
	assert_string_equal(a->env.cpu, b->env.cpu);
	assert_string_equal(a->env.kernel, b->env.kernel);
	assert_string_equal(a->env.core_pmu, b->env.core_pmu);
	assert_string_equal(a->env.backend, b->env.backend);
	assert_string_equal(a->cpu_pmu, b->cpu_pmu);
	assert_int_equal(a->cpu_smt, b->cpu_smt);
	assert_string_equal(a->target_kind, b->target_kind);
	assert_string_equal(a->mode, b->mode);
	assert_int_equal(a->batches, b->batches);
	same_num(a->tsc_hz, b->tsc_hz, "tsc_hz", a->workload);
	assert_string_equal(a->tsc_source, b->tsc_source);
	assert_int_equal(a->nconsts, b->nconsts);
	for (size_t i = 0; i < a->nconsts; i++) {
		assert_string_equal(a->consts[i].name, b->consts[i].name);
		same_num(a->consts[i].value, b->consts[i].value, "a constant", a->consts[i].name);
	}
	assert_int_equal(a->nexecs, b->nexecs);
	for (size_t i = 0; i < a->nexecs; i++) {
		const struct pmc_loaded_exec *x = &a->execs[i], *y = &b->execs[i];

		assert_true(x->run == y->run && x->batch == y->batch && x->used == y->used);
		assert_true(x->interrupted == y->interrupted && x->exit_status == y->exit_status);
		assert_int_equal(x->signal, y->signal);
		same_num(x->wall_ns, y->wall_ns, "an execution's wall time", a->workload);
		same_num(x->user_ns, y->user_ns, "an execution's user time", a->workload);
	}
	assert_int_equal(a->nchecks, b->nchecks);
	for (size_t i = 0; i < a->nchecks; i++) {
		assert_string_equal(a->checks[i].name, b->checks[i].name);
		assert_string_equal(a->checks[i].severity, b->checks[i].severity);
		assert_string_equal(a->checks[i].msg, b->checks[i].msg);
	}
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		same_series(&a->s[i], &b->s[i]);
}

/* Measure e in this process; the series from the fields and from the JSON must agree. Returns the exit status. */
static int measure_both_ways(const struct pmc_engine_opts *e, size_t want_series_at_least, struct pmc_report *keep)
{
	struct pmc_output_opts out = { .format = PMC_OUTPUT_JSON };
	struct pmc_report rep;
	struct pmc_loaded fields, json;
	char why[256], err[256], *buf = NULL;
	size_t len = 0;
	int status;
	FILE *f;

	if (multi_measure_report(NULL, e, &rep, &status, why, sizeof(why)))
		fail_msg("the measurement failed (%d): %s", status, why);
	assert_int_equal(pmc_loaded_from_report(&rep, &fields), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(pmc_output_write(f, &rep, &out), 0);
	assert_int_equal(fclose(f), 0);
	if (pmc_loaded_parse(buf, len, &json, err, sizeof(err)))
		fail_msg("its JSON does not read back: %s", err);
	same_loaded(&fields, &json);
	assert_true(fields.n >= want_series_at_least);
	pmc_loaded_fini(&fields);
	pmc_loaded_fini(&json);
	free(buf);
	if (keep)
		*keep = rep;
	else
		pmc_report_fini(&rep);
	return status;
}

static void test_a_command_over_runs_reads_the_same_from_the_fields_as_from_its_json(void **s)
{
	struct pmc_engine_opts e;
	char *argv[] = { getenv("PMC_WORKLOAD"), "pages", "50", NULL };
	const char *metric_args[] = { "pf2={page-faults}*2", "ipc={instructions:u}/{task-clock}" };
	struct pmc_metric_def *metrics = NULL;

	(void)s;
	assert_non_null(argv[0]);
	pmc_engine_opts_init(&e);
	e.event_lists[e.nlists++] = "task-clock,page-faults,context-switches,instructions:u";
	assert_int_equal(pmc_eng_metrics_parse(metric_args, 2, &metrics), 0);
	e.metrics = metrics;
	e.nmetrics = 2;
	e.runs = 3;
	e.runs_given = true;
	e.argv = argv;
	/* 4 events, 2 metrics (at least), the wall time */
	assert_int_equal(measure_both_ways(&e, 7, NULL), 0);
	free(metrics);
}

static void test_a_kernel_reads_the_same_and_its_read_method_is_a_field(void **s)
{
	struct pmc_engine_opts e;
	struct pmc_report rep;
	const char *msg = NULL;

	(void)s;
	pmc_engine_opts_init(&e);
	e.event_lists[e.nlists++] = "task-clock";
	e.k = pmc_kernel_find("loop");
	assert_non_null(e.k);
	pmc_kernel_params_init(e.k, &e.kp);
	e.iters = 1000;
	e.warmup_s = 0;
	e.runs = 2;
	e.runs_given = true;
	assert_int_equal(measure_both_ways(&e, 3, &rep), 0);
	for (size_t i = 0; i < rep.nchecks; i++)
		if (!strcmp(rep.checks[i].name, "read-method"))
			msg = rep.checks[i].msg;
	assert_non_null(msg);
	assert_true(rep.read_method[0] != '\0');
	/* the check's words are the field's: "counters read with FIELD", or the field itself when nothing was read */
	if (strncmp(msg, "counters read with ", 19) || strcmp(msg + 19, rep.read_method))
		assert_string_equal(msg, rep.read_method);
	/* in process exactly when every counter was (task-clock is a software event: never RDPMC) */
	assert_false(rep.read_in_process);
	pmc_report_fini(&rep);
}

static void test_a_failing_command_and_a_null_run_read_the_same(void **s)
{
	struct pmc_engine_opts e;
	char *fails[] = { "sh", "-c", "exit 3", NULL }, *ok[] = { "true", NULL };

	(void)s;
	pmc_engine_opts_init(&e);
	e.event_lists[e.nlists++] = "task-clock";
	e.runs = 2;
	e.runs_given = true;
	e.argv = fails;
	assert_int_equal(measure_both_ways(&e, 2, NULL), 3);
	pmc_engine_opts_init(&e);
	e.null_run = true;
	e.argv = ok;
	assert_int_equal(measure_both_ways(&e, 1, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_command_over_runs_reads_the_same_from_the_fields_as_from_its_json),
		cmocka_unit_test(test_a_kernel_reads_the_same_and_its_read_method_is_a_field),
		cmocka_unit_test(test_a_failing_command_and_a_null_run_read_the_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
