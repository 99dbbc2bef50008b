/* SPDX-License-Identifier: MIT */
/* Units of sweep, compare and merge: ranges and their order, the JSON reader, -o templates, the tests' p-values,
 * step scores, --fail-if conditions, reading a report back. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/commands.h"
#include "cli/multi.h"
#include "cli/opts.h"
#include "report/load.h"
#include "report/multi.h"
#include "report/stats.h"
#include "util/json_read.h"
#include "util/path_template.h"
#include "util/range.h"
#include "util/util.h"

static void test_range_parses_lists_steps_and_geometric_ranges(void **s)
{
	static const struct {
		int line;
		const char *in;
		const char *want; /* the values joined by spaces */
		bool numeric;
	} rows[] = {
		{ __LINE__, "16..64:16", "16 32 48 64", true },
		{ __LINE__, "1..4", "1 2 3 4", true },
		{ __LINE__, "1..4096*4", "1 4 16 64 256 1024 4096", true },
		{ __LINE__, "1,2,4..16*2", "1 2 4 8 16", true },
		{ __LINE__, "0.5..2:0.5", "0.5 1 1.5 2", true },
		{ __LINE__, "-2..2:2", "-2 0 2", true },
		{ __LINE__, "5", "5", true },
		{ __LINE__, "static,dynamic", "static dynamic", false },
		{ __LINE__, "3..10:4", "3 7", true },
		{ __LINE__, "1..100*10", "1 10 100", true },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_range r;
		char err[256], got[512] = "";
		int rc = pmc_range_parse(rows[i].in, &r, err, sizeof(err));
		if (rc)
			fail_msg("line %d: '%s' refused: %s", rows[i].line, rows[i].in, err);
		for (size_t k = 0; k < r.n; k++) {
			strcat(got, k ? " " : "");
			strcat(got, r.text[k]);
		}
		if (strcmp(got, rows[i].want) || r.numeric != rows[i].numeric)
			fail_msg("line %d: '%s' gave '%s' (numeric %d)", rows[i].line, rows[i].in, got, r.numeric);
		pmc_range_fini(&r);
	}
}

static void test_range_refuses_bad_input_with_a_reason(void **s)
{
	static const struct {
		int line;
		const char *in;
		int rc;
		const char *says;
	} rows[] = {
		{ __LINE__, "", -EINVAL, "empty" },           { __LINE__, "1,,2", -EINVAL, "empty" },
		{ __LINE__, "4..1", -EINVAL, "larger" },      { __LINE__, "1..4:0", -EINVAL, "step" },
		{ __LINE__, "0..8*2", -EINVAL, "geometric" }, { __LINE__, "1..8*1", -EINVAL, "geometric" },
		{ __LINE__, "1..5000", -E2BIG, "more than" }, { __LINE__, "1,2,1", -EINVAL, "twice" },
		{ __LINE__, "a b", -EINVAL, "not a number" }, { __LINE__, "1..x", -EINVAL, "not a range" },
		{ __LINE__, "1..2:", -EINVAL, "not a range" }, { __LINE__, "x;y", -EINVAL, "not a number" },
		{ __LINE__, "1..4,2", -EINVAL, "twice" },     { __LINE__, "1..1e9:1", -EINVAL, "not a range" },
	};
	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_range r;
		char err[256] = "";
		int rc = pmc_range_parse(rows[i].in, &r, err, sizeof(err));
		if (rc == 0)
			pmc_range_fini(&r);
		if (rc != rows[i].rc || !strstr(err, rows[i].says))
			fail_msg("line %d: '%s' gave %d '%s', want %d '%s'", rows[i].line, rows[i].in, rc, err, rows[i].rc,
				 rows[i].says);
	}
}

static void test_schedule_measures_every_point_once_per_round_in_a_seeded_shuffle(void **s)
{
	enum { N = 12, R = 5 };
	unsigned a[N * R], b[N * R], c[N * R];
	bool differs = false, rounds_differ = false;

	(void)s;
	pmc_range_schedule(N, R, 42, a);
	pmc_range_schedule(N, R, 42, b);
	pmc_range_schedule(N, R, 43, c);
	assert_memory_equal(a, b, sizeof(a));
	for (unsigned r = 0; r < R; r++) {
		unsigned seen[N] = { 0 };
		for (unsigned i = 0; i < N; i++) {
			assert_true(a[r * N + i] < N);
			seen[a[r * N + i]]++;
		}
		for (unsigned i = 0; i < N; i++)
			assert_int_equal(seen[i], 1);
		if (r && memcmp(a + r * N, a, N * sizeof(unsigned)))
			rounds_differ = true;
	}
	for (unsigned i = 0; i < N * R; i++)
		differs |= a[i] != c[i];
	assert_true(differs);       /* another seed, another order */
	assert_true(rounds_differ); /* each round is shuffled afresh */
}

static void test_json_reader_reads_values_and_refuses_malformed_documents(void **s)
{
	static const char doc[] = "{\"a\":[1,-2.5e3,true,false,null],\"s\":\"x\\u00e9\\ud83d\\ude00\\n\",\"a\":7}";
	static const char *const bad[] = {
		"", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "01", "1.", "-", "\"\\x\"", "\"a", "[1] 2", "tru",
		"\"\\ud800\"", "\"\x01\"", "{1:2}", "1e",
	};
	struct pmc_jvalue *v;
	char err[128];

	(void)s;
	assert_int_equal(pmc_json_parse(doc, strlen(doc), &v, err, sizeof(err)), 0);
	assert_int_equal(pmc_json_get_num(v, "a", 0), 7); /* a repeated member: the last one */
	assert_string_equal(pmc_json_get_str(v, "s", ""), "x\xc3\xa9\xf0\x9f\x98\x80\n");
	assert_int_equal(pmc_json_len(v->items[0]), 5);
	assert_true(pmc_json_at(v->items[0], 1)->num == -2500);
	assert_true(pmc_json_at(v->items[0], 2)->b);
	assert_false(pmc_json_at(v->items[0], 3)->b);
	assert_int_equal(pmc_json_at(v->items[0], 4)->type, PMC_J_NULL);
	pmc_json_free(v);
	for (size_t i = 0; i < PMC_ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		if (pmc_json_parse(bad[i], strlen(bad[i]), &v, err, sizeof(err)) != -EINVAL || !strstr(err, "column"))
			fail_msg("'%s' was not refused with a position (%s)", bad[i], err);
	}
}

static void test_json_reader_bounds_nesting(void **s)
{
	char deep[200];
	struct pmc_jvalue *v;
	char err[128];

	(void)s;
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	assert_int_equal(pmc_json_parse(deep, sizeof(deep), &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nested"));
	assert_int_equal(pmc_json_parse(deep + 40, 120, &v, err, sizeof(err)), 0); /* 60 levels are fine */
	pmc_json_free(v);
}

static void test_path_template_expands_host_pid_rank_job_and_percent(void **s)
{
	struct pmc_origin o = { .host = "node/1", .pid = 4242, .rank = 3, .job = "77" };
	struct pmc_origin none = { .host = "h", .pid = 1, .rank = -1 };
	char out[64], err[256];

	(void)s;
	assert_int_equal(pmc_path_template("run.%h.%r.%p.%j.100%%.json", &o, out, sizeof(out), err, sizeof(err)), 0);
	assert_string_equal(out, "run.node_1.3.4242.77.100%.json");
	assert_int_equal(pmc_path_template("r%r", &none, out, sizeof(out), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "OMPI_COMM_WORLD_RANK"));
	assert_int_equal(pmc_path_template("r%j", &none, out, sizeof(out), err, sizeof(err)), -EINVAL);
	assert_int_equal(pmc_path_template("r%x", &none, out, sizeof(out), err, sizeof(err)), -EINVAL);
	assert_int_equal(pmc_path_template("r%", &none, out, sizeof(out), err, sizeof(err)), -EINVAL);
	assert_int_equal(pmc_path_template("0123456789%h0123456789012345678901234567890123456789012345678901", &o, out,
					   sizeof(out), err, sizeof(err)), -ENAMETOOLONG);
}

static void test_origin_takes_the_first_rank_variable_set(void **s)
{
	struct pmc_origin o;

	(void)s;
	unsetenv("OMPI_COMM_WORLD_RANK");
	setenv("PMI_RANK", "5", 1);
	setenv("SLURM_PROCID", "9", 1);
	setenv("SLURM_JOB_ID", "123", 1);
	pmc_origin_get(&o);
	assert_int_equal(o.rank, 5);
	assert_string_equal(o.rank_from, "PMI_RANK");
	assert_string_equal(o.job, "123");
	setenv("PMI_RANK", "x", 1); /* not a number: the next variable */
	pmc_origin_get(&o);
	assert_int_equal(o.rank, 9);
	unsetenv("PMI_RANK");
	unsetenv("SLURM_PROCID");
	unsetenv("SLURM_JOB_ID");
}

/* Closed forms of Student's t: df 1 (Cauchy) p = 1 - 2 atan|t| / pi, df 2 p = 1 - |t| / sqrt(t^2 + 2). */
static void test_t_distribution_matches_closed_forms(void **s)
{
	static const double ts[] = { 0, 0.1, 0.5, 1, 2, 3.5, 10, 100 };

	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(ts); i++) {
		double t = ts[i];
		double p1 = 1 - 2 * atan(t) / M_PI, p2 = 1 - t / sqrt(t * t + 2);
		if (fabs(pmc_t_two_sided_p(t, 1) - p1) > 1e-10 || fabs(pmc_t_two_sided_p(-t, 2) - p2) > 1e-10)
			fail_msg("t = %g: got %.12g / %.12g, want %.12g / %.12g", t, pmc_t_two_sided_p(t, 1),
				 pmc_t_two_sided_p(-t, 2), p1, p2);
	}
	/* large df: the normal distribution, P(|Z| >= 1.959964) = 0.05 */
	assert_true(fabs(pmc_t_two_sided_p(1.959964, 1e7) - 0.05) < 1e-5);
}

static void test_welch_and_mann_whitney_separate_shifted_samples_and_not_equal_ones(void **s)
{
	static const double a[] = { 10.1, 9.8, 10.3, 9.9, 10.0, 10.2, 9.7, 10.1 };
	static const double b[] = { 11.0, 11.3, 10.9, 11.2, 11.1, 10.8, 11.4, 11.0 };
	static const double c[] = { 10.0, 10.2, 9.9, 10.1, 9.8, 10.3, 10.0, 9.9 };
	struct pmc_test_result r;

	(void)s;
	assert_int_equal(pmc_test_run(PMC_TEST_WELCH, a, 8, b, 8, &r), 0);
	assert_true(r.p < 1e-6 && r.stat > 0);
	assert_int_equal(pmc_test_run(PMC_TEST_WELCH, a, 8, c, 8, &r), 0);
	assert_true(r.p > 0.5);
	assert_int_equal(pmc_test_run(PMC_TEST_MANN_WHITNEY, a, 8, b, 8, &r), 0);
	assert_true(r.p < 0.01 && r.stat == 0); /* every a below every b: U = 0 */
	assert_int_equal(pmc_test_run(PMC_TEST_MANN_WHITNEY, a, 8, c, 8, &r), 0);
	assert_true(r.p > 0.5);
	assert_int_equal(pmc_test_run(PMC_TEST_WELCH, a, 1, b, 8, &r), -EDOM);
	assert_int_equal(pmc_test_run(PMC_TEST_MANN_WHITNEY, a, 3, b, 8, &r), -EDOM);
	/* exact counts: no spread, p 0 when they differ and 1 when equal */
	assert_int_equal(pmc_test_run(PMC_TEST_WELCH, (double[]){ 5, 5 }, 2, (double[]){ 6, 6 }, 2, &r), 0);
	assert_true(r.p == 0);
	assert_int_equal(pmc_test_run(PMC_TEST_WELCH, (double[]){ 5, 5 }, 2, (double[]){ 5, 5 }, 2, &r), 0);
	assert_true(r.p == 1);
}

static void test_steps_find_a_jump_but_not_a_slope(void **s)
{
	static const double bump[] = { 5, 5.1, 5.0, 5.2, 21, 21.1, 20.9 };
	static const double line[] = { 100, 200, 300, 400, 500, 600 };
	static const double noisy[] = { 10, 30, 12, 28, 11 };
	static const double err[] = { 15, 15, 15, 15, 15 };
	double score[8];

	(void)s;
	assert_int_equal(pmc_steps_score(bump, NULL, 7, score), 3);
	assert_true(score[3] >= PMC_STEP_MIN_SCORE);
	assert_true(score[0] < PMC_STEP_MIN_SCORE);
	pmc_steps_score(line, NULL, 6, score);
	for (int i = 0; i < 5; i++)
		assert_true(score[i] < PMC_STEP_MIN_SCORE); /* a steady slope is no step */
	pmc_steps_score(noisy, err, 5, score);
	for (int i = 0; i < 4; i++)
		assert_true(score[i] < PMC_STEP_MIN_SCORE); /* changes within the noise */
	assert_int_equal(pmc_steps_score(line, NULL, 1, score), -1);
}

/* Issue 33 item 11: a single-point spike is no step (neither edge holds its level); a real step holds on both sides. */
static void test_steps_level_must_hold_so_a_spike_is_no_step(void **s)
{
	const double spike[] = { 10, 10, 10, 50, 10, 10 }, step[] = { 10, 10, 10, 50, 50, 50 };
	const double dip_last[] = { 10, 10, 10, 10, 2 }, first[] = { 50, 10, 10, 10 };

	(void)s;
	assert_false(pmc_steps_level_holds(spike, 6, 2)); /* 10 -> 50, but 50 does not hold */
	assert_false(pmc_steps_level_holds(spike, 6, 3)); /* 50 -> 10, but 50 stood alone */
	assert_true(pmc_steps_level_holds(step, 6, 2));
	assert_true(pmc_steps_level_holds(dip_last, 5, 3)); /* the last pair: nothing after contradicts it */
	assert_true(pmc_steps_level_holds(first, 4, 0));
	assert_false(pmc_steps_level_holds(step, 6, 5));
}

static void test_fail_if_conditions_parse_and_judge(void **s)
{
	static const char *const bad[] = { "instructions", ">+2%", "x>", "x>+2%%", "x>+a%", "x>1e3", "x>" };
	struct pmc_series sa = { .name = "instructions", .ok = true, .mean = 100, .nruns = 0 };
	struct pmc_series sb = { .name = "instructions", .ok = true, .mean = 103, .nruns = 0 };
	struct pmc_loaded la = { .s = &sa, .n = 1 }, lb = { .s = &sb, .n = 1 };
	struct pmc_compare c;
	struct pmc_fail_cond f;
	char err[256];

	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(bad); i++)
		if (pmc_fail_cond_parse(bad[i], &f, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
	assert_int_equal(pmc_compare_build(&la, &lb, PMC_TEST_WELCH, 0.05, &c), 0);
	assert_string_equal(c.rows[0].verdict, "not enough runs");
	assert_int_equal(pmc_fail_cond_parse("instructions>+2%", &f, err, sizeof(err)), 0);
	pmc_fail_cond_eval(&c, &f);
	assert_int_equal(f.state, 1);
	assert_int_equal(pmc_fail_cond_parse("instructions>+5%", &f, err, sizeof(err)), 0);
	pmc_fail_cond_eval(&c, &f);
	assert_int_equal(f.state, 0);
	assert_int_equal(pmc_fail_cond_parse("INSTRUCTIONS<-1", &f, err, sizeof(err)), 0);
	pmc_fail_cond_eval(&c, &f);
	assert_int_equal(f.state, 0);
	assert_int_equal(pmc_fail_cond_parse("uops_issued.any>=2>+1%", &f, err, sizeof(err)), 0);
	assert_string_equal(f.name, "uops_issued.any>=2"); /* the last operator is the condition's */
	assert_int_equal(pmc_fail_cond_parse("cycles>+1%", &f, err, sizeof(err)), 0);
	pmc_fail_cond_eval(&c, &f);
	assert_int_equal(f.state, -1);
	pmc_compare_fini(&c);
}

/* NAME>+Ksd: the change in pooled standard deviations of the runs; exact counts (no spread) fail on any change and
 * never on none (the gate of issue 25). Table-driven over the runs of A and B. */
static void test_fail_if_in_standard_deviations_fails_on_change_never_on_noise(void **s)
{
	static const struct {
		const char *cond;
		double a[4], b[4];
		size_t na, nb;
		int state;
	} rows[] = {
		{ "i>+3sd", { 100, 100, 100, 100 }, { 100, 100, 100, 100 }, 4, 4, 0 },  /* exact, unchanged */
		{ "i>+3sd", { 100, 100, 100, 100 }, { 101, 101, 101, 101 }, 4, 4, 1 },  /* exact, one more */
		{ "i<-3sd", { 100, 100, 100, 100 }, { 101, 101, 101, 101 }, 4, 4, 0 },  /* the other direction */
		{ "i>+3sd", { 100, 102, 98, 100 }, { 101, 103, 99, 101 }, 4, 4, 0 },    /* +1 in a spread of ~1.6 */
		{ "i>+3sd", { 100, 102, 98, 100 }, { 110, 112, 108, 110 }, 4, 4, 1 },   /* +10: ~6 sd */
		{ "i<-3sd", { 100, 102, 98, 100 }, { 90, 92, 88, 90 }, 4, 4, 1 },
		{ "i>+3sd", { 100 }, { 200 }, 1, 1, -1 },                                /* one run: no spread known */
	};
	static const char *const bad[] = { "i>-3sd", "i<+3sd", "i>+3sdx", "i>+sd" };
	struct pmc_fail_cond f;
	char err[256];

	(void)s;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_series sa = { .name = "i", .ok = true, .runs = (double *)rows[i].a, .nruns = rows[i].na };
		struct pmc_series sb = { .name = "i", .ok = true, .runs = (double *)rows[i].b, .nruns = rows[i].nb };
		struct pmc_loaded la = { .s = &sa, .n = 1 }, lb = { .s = &sb, .n = 1 };
		struct pmc_compare c;

		pmc_series_summarize(&sa);
		pmc_series_summarize(&sb);
		assert_int_equal(pmc_compare_build(&la, &lb, PMC_TEST_WELCH, 0.05, &c), 0);
		assert_int_equal(pmc_fail_cond_parse(rows[i].cond, &f, err, sizeof(err)), 0);
		assert_true(f.sd);
		pmc_fail_cond_eval(&c, &f);
		if (f.state != rows[i].state)
			fail_msg("row %zu (%s): state %d, expected %d: %s", i, rows[i].cond, f.state, rows[i].state, f.why);
		pmc_compare_fini(&c);
	}
	for (size_t i = 0; i < PMC_ARRAY_SIZE(bad); i++)
		if (pmc_fail_cond_parse(bad[i], &f, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
}

static void test_loaded_report_takes_used_runs_scaled_and_refuses_other_kinds(void **s)
{
	static const char doc[] =
		"{\"schema_version\":1,\"kind\":\"stat\",\"workload\":\"w\",\"origin\":{\"host\":\"h\",\"pid\":9,\"rank\":2,"
		"\"rank_from\":\"PMI_RANK\",\"job\":null},\"partial\":false,\"exit_status\":0,"
		"\"runs\":{\"count\":3,\"used\":2,\"failed\":1,\"partial\":0},"
		"\"executions\":[{\"run\":1,\"used\":true,\"wall_ns\":10},{\"run\":2,\"used\":false,\"wall_ns\":99},"
		"{\"run\":3,\"used\":true,\"wall_ns\":30}],\"constants\":{\"ITERATIONS\":4,\"EXPECTED_INSTRUCTIONS\":40},"
		"\"events\":[{\"name\":\"cycles\",\"unit\":null,\"status\":\"ok\",\"reason\":null,\"samples\":["
		"{\"run\":1,\"status\":\"ok\",\"value\":100,\"enabled_ns\":10,\"running_ns\":5},"
		"{\"run\":2,\"status\":\"ok\",\"value\":999,\"enabled_ns\":1,\"running_ns\":1},"
		"{\"run\":3,\"status\":\"ok\",\"value\":300,\"enabled_ns\":1,\"running_ns\":1}]}],"
		"\"metrics\":[{\"name\":\"m\",\"unit\":null,\"value\":1,\"samples\":[{\"run\":1,\"value\":1},"
		"{\"run\":2,\"value\":5},{\"run\":3,\"value\":null}]}]}";
	static const char other[] = "{\"schema_version\":1,\"kind\":\"list\"}";
	struct pmc_loaded l;
	const struct pmc_series *x;
	char err[256];

	(void)s;
	assert_int_equal(pmc_loaded_parse(doc, strlen(doc), &l, err, sizeof(err)), 0);
	assert_int_equal(l.rank, 2);
	assert_true(l.iterations == 4);
	x = pmc_loaded_find(&l, "CYCLES");
	assert_non_null(x);
	assert_int_equal(x->nruns, 2);
	assert_true(x->runs[0] == 200 && x->runs[1] == 300); /* 100 scaled by enabled/running; run 2 not used */
	x = pmc_loaded_find(&l, "m");
	assert_int_equal(x->nruns, 1);
	x = pmc_loaded_find(&l, "wall-time");
	assert_true(x->mean == 20);
	x = pmc_loaded_find(&l, "EXPECTED_INSTRUCTIONS");
	assert_true(x && x->mean == 40 && x->kind == PMC_SERIES_DECLARED);
	pmc_loaded_fini(&l);
	assert_int_equal(pmc_loaded_parse(other, strlen(other), &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a pmctool stat report"));
}

/* Every option of stat's table, given alone, reaches the command's one stat parse spelled as the table spells it,
 * unless sweep refuses it by the option's refused_by (an accepts-mask on stat's table: no list of names anywhere
 * else); the refused ones are refused with exit 2 and their name. The table is walked, so an option added to it is
 * covered here without a line. */
static void test_every_stat_option_reaches_the_parse_unless_its_mask_refuses_it(void **s)
{
	size_t refused = 0, passed = 0, compare_refused = 0;

	(void)s;
	for (const struct pmc_opt *o = pmc_opts_stat.opts; o->kind != PMC_OPT_END; o++) {
		char *argv[4] = { "stat", NULL, NULL, NULL }, name[64], joined[80], *want[2];
		struct multi_stat_words sw;
		int operand, argc = 2, rc;
		size_t n;

		if (o->kind == PMC_OPT_TEXT || (o->flags & PMC_OPT_HELP))
			continue;
		pmc_opt_name(o, name, sizeof(name));
		argv[1] = name;
		if (o->flags & PMC_OPT_OPTIONAL) { /* --topdown[=LEVEL]: an optional value only ever follows '=' */
			snprintf(joined, sizeof(joined), "--%s=-1", o->long_name);
			argv[1] = joined;
		} else if (o->kind != PMC_OPT_FLAG) {
			argv[argc++] = "-1"; /* a value that looks like an option stays the value */
		}
		rc = multi_stat_words(&sw, &pmc_opts_stat, PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_SWEEP_TOTAL, argc, argv,
				      &operand, NULL, NULL);
		compare_refused += (o->refused_by & PMC_OPT_NOT_COMPARE) != 0;
		if (o->refused_by & (PMC_OPT_NOT_SWEEP | PMC_OPT_NOT_SWEEP_TOTAL)) {
			assert_int_equal(rc, 2);
			assert_int_equal(sw.nall, 0);
			refused++;
		} else {
			assert_int_equal(rc, 0);
			assert_int_equal(operand, argc);
			n = pmc_opt_words(o, o->kind == PMC_OPT_FLAG ? NULL : "-1", want);
			assert_int_equal(sw.nall, n);
			if (strcmp(sw.all[0], want[0]) || (n == 2 && strcmp(sw.all[1], want[1])))
				fail_msg("%s: the parse got '%s'", name, sw.all[0]);
			free(want[0]);
			passed++;
		}
		multi_stat_words_fini(&sw);
		/* stat --compare is stat's own parse: the walk refuses nothing there */
		assert_int_equal(multi_stat_words(&sw, &pmc_opts_stat, 0, argc, argv, &operand, NULL, NULL), 0);
		multi_stat_words_fini(&sw);
	}
	assert_int_equal(refused, 28);
	assert_int_equal(compare_refused, 8); /* -x, -j, --log-fd, -q, --append, --no-big-num, --table, --metric-only */
	assert_true(passed >= 30);
	{ /* one word of argv bundling many flags and a value: more words than argv has */
		char *argv[] = { "stat", "-vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvavC0-1", "-r3", NULL };
		struct multi_stat_words sw;
		int operand;

		assert_int_equal(multi_stat_words(&sw, &pmc_opts_stat, 0, 3, argv, &operand, NULL, NULL), 0);
		assert_int_equal(sw.nall, 45); /* 40 --verbose, --all-cpus, --verbose, -C and its value, --repeat=3 */
		assert_string_equal(sw.all[40], "--all-cpus");
		assert_string_equal(sw.all[41], "--verbose");
		assert_string_equal(sw.all[42], "-C");
		assert_string_equal(sw.all[43], "0-1");
		assert_string_equal(sw.all[44], "--repeat=3");
		multi_stat_words_fini(&sw);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_parses_lists_steps_and_geometric_ranges),
		cmocka_unit_test(test_range_refuses_bad_input_with_a_reason),
		cmocka_unit_test(test_schedule_measures_every_point_once_per_round_in_a_seeded_shuffle),
		cmocka_unit_test(test_json_reader_reads_values_and_refuses_malformed_documents),
		cmocka_unit_test(test_json_reader_bounds_nesting),
		cmocka_unit_test(test_path_template_expands_host_pid_rank_job_and_percent),
		cmocka_unit_test(test_origin_takes_the_first_rank_variable_set),
		cmocka_unit_test(test_t_distribution_matches_closed_forms),
		cmocka_unit_test(test_welch_and_mann_whitney_separate_shifted_samples_and_not_equal_ones),
		cmocka_unit_test(test_steps_find_a_jump_but_not_a_slope),
		cmocka_unit_test(test_steps_level_must_hold_so_a_spike_is_no_step),
		cmocka_unit_test(test_fail_if_conditions_parse_and_judge),
		cmocka_unit_test(test_fail_if_in_standard_deviations_fails_on_change_never_on_noise),
		cmocka_unit_test(test_loaded_report_takes_used_runs_scaled_and_refuses_other_kinds),
		cmocka_unit_test(test_every_stat_option_reaches_the_parse_unless_its_mask_refuses_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
