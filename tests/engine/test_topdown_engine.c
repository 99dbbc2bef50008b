/* SPDX-License-Identifier: MIT */
/* stat --topdown in the engine (engine/topdown.c) on forced libpfm4 PMUs, without a PMU: the tree chosen for the
 * forced model, its level-1 inputs planned as one group in one batch, the "does not fit" and "no tree" errors; then
 * the evaluation from a report whose counts are injected (written by hand, as a saved report's would be): the values
 * reach the right inputs by name, a node whose input was not counted is n/a with the reason, never 0%. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "report/regions.h"
#include "report/topdown.h"

static char diag_log[8192];

static void catch_diag(void *ctx, enum pmc_diag_kind kind, const char *msg)
{
	size_t off = strlen(diag_log);

	(void)ctx;
	snprintf(diag_log + off, sizeof(diag_log) - off, "%c %s\n", "ENT"[kind], msg);
}

static char *argv_true[] = { "true", NULL };

/* Prepare --topdown=level on the forced PMU: the exit status; se is the caller's to finish. */
static int prepare(const char *pmu, int level, unsigned counters, struct pmc_engine *se, struct pmc_engine_opts *o)
{
	struct pmc_metric_def *metrics = NULL;
	int rc;

	/* libpfm4 is forced once per process: main runs each PMU's tests in a child of its own */
	assert_string_equal(getenv("LIBPFM_FORCE_PMU"), pmu);
	diag_log[0] = '\0';
	pmc_engine_opts_init(o);
	o->argv = argv_true;
	o->topdown_level = level;
	o->counters = counters;
	pmc_engine_init(se, NULL);
	rc = pmc_engine_prepare(se, o, &metrics);
	free(metrics);
	return rc;
}

static int event_index(const struct pmc_engine *se, const char *name)
{
	for (size_t i = 0; i < se->n; i++)
		if (!strcmp(se->evs[i].name, name))
			return (int)i;
	return -1;
}

/* A report with se's events, each counted with the value the table gives (a name missing: not supported). */
struct injected {
	const char *name;
	double value;
};

/* The Skylake level-1 vector worked by hand in test_skl_level1_from_injected_counts_marks_backend_bound (10%, 10%,
 * 30%, 50%). */
static const struct injected skl_l1[] = {
	{ "cpu_clk_unhalted.thread", 1000 }, { "idq_uops_not_delivered.core", 400 }, { "uops_issued.any", 2200 },
	{ "uops_retired.retire_slots", 2000 }, { "int_misc.recovery_cycles", 50 },
};

static void inject(const struct pmc_engine *se, const struct injected *v, size_t nv, struct pmc_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->events = calloc(se->n, sizeof(*rep->events));
	assert_non_null(rep->events);
	rep->nevents = se->n;
	for (size_t i = 0; i < se->n; i++) {
		struct pmc_report_event *e = &rep->events[i];

		e->ev = se->evs[i];
		e->status = PMC_COUNT_NOT_SUPPORTED;
		snprintf(e->reason, sizeof(e->reason), "injected: not counted");
		for (size_t k = 0; k < nv; k++)
			if (!strcmp(v[k].name, e->ev.name)) {
				e->status = PMC_COUNT_OK;
				e->reason[0] = '\0';
				e->mean = v[k].value;
				e->running_pct = 100;
				e->nok = 1;
			}
	}
}

/* Prepare Skylake level 1 and evaluate it on the injected counts v[0..n). */
static void eval_injected(const struct injected *v, size_t n, struct pmc_engine *se, struct pmc_engine_opts *o,
			  struct pmc_report *rep)
{
	assert_int_equal(prepare("skl", 1, 0, se, o), 0);
	inject(se, v, n, rep);
	assert_int_equal(pmc_eng_topdown_eval(se, o, rep), 0);
	assert_non_null(rep->topdown);
}

static const struct pmc_report_td_node *node(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; rep->topdown && i < rep->topdown->nnodes; i++)
		if (!strcmp(rep->topdown->node[i].name, name))
			return &rep->topdown->node[i];
	fail_msg("no node %s", name);
	return NULL;
}

static void test_skl_level1_is_one_group_in_one_batch_forced_pmu(void **state)
{
	struct pmc_engine se;
	struct pmc_engine_opts o;
	static const char *const inputs[] = { "cpu_clk_unhalted.thread", "idq_uops_not_delivered.core", "uops_issued.any",
					      "uops_retired.retire_slots", "int_misc.recovery_cycles" };
	unsigned group = 0;
	size_t b = 0;

	(void)state;
	assert_int_equal(prepare("skl", 1, 0, &se, &o), 0);
	for (size_t k = 0; k < 5; k++) {
		int i = event_index(&se, inputs[k]);

		if (i < 0)
			fail_msg("input %s is not an event of the measurement: %s", inputs[k], diag_log);
		assert_int_equal(i, (int)k); /* the tree's events first, in its order */
		assert_true(se.evs[i].group != 0);
		if (!group)
			group = se.evs[i].group;
		assert_int_equal(se.evs[i].group, group);
	}
	assert_int_equal(pmc_plan_group_batch(&se.plan, se.evs, group, &b), 0);
	assert_int_equal(se.plan.nbatches, 1);
	pmc_engine_fini(&se);
}

/* Skylake level 1 worked by hand: S = 4 x 1000; FE = 400 / S = 10%; BS = (2200 - 2000 + 4 x 50) / S = 10%;
 * RET = 2000 / S = 50%; BE = the rest, 30%, over its 20% threshold: the bottleneck. */
static void test_skl_level1_from_injected_counts_marks_backend_bound(void **state)
{
	static const struct injected v[] = {
		{ "cpu_clk_unhalted.thread", 1000 }, { "idq_uops_not_delivered.core", 400 }, { "uops_issued.any", 2200 },
		{ "uops_retired.retire_slots", 2000 }, { "int_misc.recovery_cycles", 50 },
	};
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_report rep;

	(void)state;
	eval_injected(v, 5, &se, &o, &rep);
	assert_string_equal(rep.topdown->tree, "intel-skl");
	assert_int_equal(rep.topdown->nnodes, 4);
	assert_true(node(&rep, "frontend_bound")->ok);
	assert_float_equal(node(&rep, "frontend_bound")->value, 0.10, 1e-12);
	assert_float_equal(node(&rep, "bad_speculation")->value, 0.10, 1e-12);
	assert_float_equal(node(&rep, "retiring")->value, 0.50, 1e-12);
	assert_float_equal(node(&rep, "backend_bound")->value, 0.30, 1e-12);
	assert_true(node(&rep, "backend_bound")->bottleneck);
	assert_false(node(&rep, "retiring")->bottleneck);
	assert_int_equal(rep.nchecks, 0); /* sums to 100%, nothing clamped */
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
}

/* One input not counted: the nodes that need it are n/a naming it and the report's reason; never 0%. */
static void test_uncounted_input_makes_its_nodes_na_with_the_reason_injected(void **state)
{
	static const struct injected v[] = {
		{ "cpu_clk_unhalted.thread", 1000 }, { "uops_issued.any", 2200 },
		{ "uops_retired.retire_slots", 2000 }, { "int_misc.recovery_cycles", 50 },
	};
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_report rep;

	(void)state;
	eval_injected(v, 4, &se, &o, &rep);
	assert_false(node(&rep, "frontend_bound")->ok);
	assert_non_null(strstr(node(&rep, "frontend_bound")->reason, "idq_uops_not_delivered.core"));
	assert_non_null(strstr(node(&rep, "frontend_bound")->reason, "injected: not counted"));
	assert_false(node(&rep, "backend_bound")->ok); /* the rest of 1 - FE - BS - RET */
	assert_true(node(&rep, "retiring")->ok);
	assert_float_equal(node(&rep, "retiring")->value, 0.50, 1e-12);
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
}

/* The slots rule on Ice Lake: slots first (the leader), the four metric fields in its group, one batch. */
static void test_icl_slots_leads_the_metrics_group_forced_pmu(void **state)
{
	struct pmc_engine se;
	struct pmc_engine_opts o;

	(void)state;
	assert_int_equal(prepare("icl", 1, 0, &se, &o), 0);
	assert_true(se.n >= 5);
	assert_int_equal(se.evs[0].attr.config, 0x0400);
	for (size_t i = 1; i < 5; i++) {
		assert_int_equal(se.evs[i].attr.config & 0xff, 0);
		assert_int_equal((se.evs[i].attr.config >> 8) & 0xff, 0x80 + (i - 1));
		assert_int_equal(se.evs[i].group, se.evs[0].group);
	}
	assert_int_equal(pmc_plan_group_batch(&se.plan, se.evs, se.evs[0].group, NULL), 0);
	pmc_engine_fini(&se);
}

/* -I: the trees the sink was handed (copies). */
static struct pmc_report_topdown sunk[4];
static size_t nsunk;

static void sink_tree(void *ctx, const struct pmc_report_topdown *td)
{
	(void)ctx;
	assert_true(nsunk < 4);
	sunk[nsunk++] = *td;
}

/* Interval n's record of event name (value counted over the whole interval; value 0: not supported), of the total
 * or of a row. */
static void record(const struct pmc_engine *se, const char *name, uint64_t value, const struct pmc_row_scope *row)
{
	int i = event_index(se, name);
	struct pmc_interval_record r = { .interval = 1, .batch = -1, .scope = row };

	assert_true(i >= 0);
	r.ev = &se->evs[i];
	r.count = (struct pmc_count){ .value = value, .enabled = 1000, .running = 1000, .status = PMC_COUNT_OK };
	if (!value)
		r.count = (struct pmc_count){ .status = PMC_COUNT_NOT_SUPPORTED, .err = EINVAL };
	pmc_eng_topdown_record(se, &r);
}

/* Each of v[0..n) as the total's record of an interval. */
static void records(const struct pmc_engine *se, const struct injected *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		record(se, v[k].name, (uint64_t)v[k].value, NULL);
}

static const struct pmc_report_td_node *sunk_node(size_t k, const char *name)
{
	for (size_t i = 0; i < sunk[k].nnodes; i++)
		if (!strcmp(sunk[k].node[i].name, name))
			return &sunk[k].node[i];
	fail_msg("interval tree %zu has no node %s", k, name);
	return NULL;
}

/* -I --topdown: each interval's tree from that interval's records of the total (injected records, as scope.c's
 * on_tick makes them), with its number and times; a row's record does not count towards it; an input without a
 * record in an interval makes its nodes n/a for that interval, never 0%, and the next interval starts afresh. */
static void test_interval_tree_from_each_intervals_records_injected(void **state)
{
	static const struct pmc_row_scope row = { .kind = PMC_ROW_CPU, .cpu = 1, .label = "CPU1" };
	static const struct injected i2[] = { /* the recovery cycles last: i2[0..4) is interval 3 */
		{ "cpu_clk_unhalted.thread", 1000 }, { "idq_uops_not_delivered.core", 1200 }, { "uops_issued.any", 1700 },
		{ "uops_retired.retire_slots", 1600 }, { "int_misc.recovery_cycles", 25 },
	};
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_interval_sink sink = { .topdown = sink_tree };

	(void)state;
	nsunk = 0;
	assert_int_equal(prepare("skl", 1, 0, &se, &o), 0);
	/* interval 1: the Skylake vector of test_skl_level1_from_injected_counts_marks_backend_bound */
	records(&se, skl_l1, 5);
	record(&se, "idq_uops_not_delivered.core", 4000, &row); /* a row's count: not the total's */
	pmc_eng_topdown_interval(&se, &sink, 1, 0.0, 0.1);
	/* interval 2: FE = 1200 / 4000 = 30%, RET = 40%, BS = (1700 - 1600 + 4 x 25) / 4000 = 5%, BE = 25%; then
	 * interval 3 without the recovery cycles' record */
	records(&se, i2, 5);
	pmc_eng_topdown_interval(&se, &sink, 2, 0.1, 0.2);
	records(&se, i2, 4);
	pmc_eng_topdown_interval(&se, &sink, 3, 0.2, 0.25);
	assert_int_equal(nsunk, 3);
	assert_int_equal(sunk[0].interval, 1);
	assert_float_equal(sunk[0].end_s, 0.1, 1e-12);
	assert_string_equal(sunk[0].tree, "intel-skl");
	assert_string_equal(sunk[0].scope, "");
	assert_float_equal(sunk_node(0, "frontend_bound")->value, 0.10, 1e-12);
	assert_float_equal(sunk_node(0, "backend_bound")->value, 0.30, 1e-12);
	assert_true(sunk_node(0, "backend_bound")->bottleneck);
	assert_int_equal(sunk[1].interval, 2);
	assert_float_equal(sunk[1].start_s, 0.1, 1e-12);
	assert_float_equal(sunk_node(1, "frontend_bound")->value, 0.30, 1e-12);
	assert_float_equal(sunk_node(1, "bad_speculation")->value, 0.05, 1e-12);
	assert_float_equal(sunk_node(1, "retiring")->value, 0.40, 1e-12);
	assert_float_equal(sunk_node(1, "backend_bound")->value, 0.25, 1e-12);
	assert_true(sunk_node(1, "frontend_bound")->bottleneck);
	assert_false(sunk_node(2, "bad_speculation")->ok);
	assert_non_null(strstr(sunk_node(2, "bad_speculation")->reason, "int_misc.recovery_cycles"));
	assert_non_null(strstr(sunk_node(2, "bad_speculation")->reason, "not counted in this interval"));
	assert_true(sunk_node(2, "frontend_bound")->ok);
	assert_float_equal(sunk_node(2, "frontend_bound")->value, 0.30, 1e-12);
	pmc_engine_fini(&se);
}

/* An input whose event could not be opened: n/a in the interval with the open's reason. */
static void test_interval_tree_says_why_an_input_could_not_open_injected(void **state)
{
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_interval_sink sink = { .topdown = sink_tree };

	(void)state;
	nsunk = 0;
	assert_int_equal(prepare("skl", 1, 0, &se, &o), 0);
	record(&se, "cpu_clk_unhalted.thread", 1000, NULL);
	record(&se, "idq_uops_not_delivered.core", 0, NULL); /* not supported, EINVAL */
	pmc_eng_topdown_interval(&se, &sink, 1, 0.0, 0.1);
	assert_int_equal(nsunk, 1);
	assert_false(sunk_node(0, "frontend_bound")->ok);
	assert_non_null(strstr(sunk_node(0, "frontend_bound")->reason, "the kernel rejected the encoding"));
	pmc_engine_fini(&se);
}

/* A region named name whose merged counts are vals[event index] (NAN: no execution counted it), in rr->r[k]. */
static void add_region(struct pmc_report_regions *rr, size_t k, const char *name, const double *vals, size_t nev)
{
	struct pmc_report_region *rg = &rr->r[k];

	snprintf(rg->name, sizeof(rg->name), "%s", name);
	rg->all.sum = calloc(nev, sizeof(double));
	rg->all.n = calloc(nev, sizeof(unsigned));
	assert_non_null(rg->all.sum);
	assert_non_null(rg->all.n);
	for (size_t i = 0; i < nev; i++)
		if (vals[i] == vals[i]) {
			rg->all.sum[i] = 2 * vals[i]; /* two executions: the mean is vals[i] */
			rg->all.n[i] = 2;
		}
}

/* --regions --topdown: a tree per region after the total's, from the program's counts of that region (injected as
 * rg_collect.c fills them: sum over executions / their number); an input no execution counted in a region makes its
 * nodes n/a there with the reason; the note names how the program read its counters. */
static void test_region_trees_from_each_regions_counts_injected(void **state)
{
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_report rep;
	struct pmc_report_regions *rr;
	double hot[8], cold[8];
	const struct pmc_report_topdown *t;
	bool note = false;

	(void)state;
	assert_int_equal(prepare("skl", 1, 0, &se, &o), 0);
	inject(&se, skl_l1, 5, &rep);
	assert_true(se.n <= 8);
	/* hot: S = 4 x 500; FE = 600 / S = 30%; BS = (1100 - 1000 + 4 x 0) / S = 5%; RET = 1000 / S = 50%; BE = 15% */
	for (size_t i = 0; i < se.n; i++)
		hot[i] = cold[i] = NAN;
	hot[event_index(&se, "cpu_clk_unhalted.thread")] = cold[event_index(&se, "cpu_clk_unhalted.thread")] = 500;
	hot[event_index(&se, "idq_uops_not_delivered.core")] = 600;
	hot[event_index(&se, "uops_issued.any")] = cold[event_index(&se, "uops_issued.any")] = 1100;
	hot[event_index(&se, "uops_retired.retire_slots")] = cold[event_index(&se, "uops_retired.retire_slots")] = 1000;
	hot[event_index(&se, "int_misc.recovery_cycles")] = cold[event_index(&se, "int_misc.recovery_cycles")] = 0.25;
	rr = calloc(1, sizeof(*rr));
	assert_non_null(rr);
	rr->r = calloc(2, sizeof(*rr->r));
	assert_non_null(rr->r);
	rr->n = 2;
	rr->nevents = se.n;
	rr->reads_inproc = 10;
	add_region(rr, 0, "hot", hot, se.n);
	add_region(rr, 1, "cold", cold, se.n); /* the frontend input never counted in it */
	rep.regions = rr;
	assert_int_equal(pmc_eng_topdown_eval(&se, &o, &rep), 0);
	t = rep.topdown;
	assert_non_null(t);
	assert_string_equal(t->scope, "");
	assert_float_equal(t->node[0].value, 0.10, 1e-12); /* the total's tree is pmctool's counts */
	t = t->next;
	assert_non_null(t);
	assert_string_equal(t->scope, "region hot");
	assert_string_equal(t->node[0].name, "frontend_bound");
	assert_float_equal(t->node[0].value, 0.30, 1e-12);
	assert_float_equal(t->node[1].value, (1100 - 1000 + 4 * 0.25) / 2000.0, 1e-12);
	assert_float_equal(t->node[3].value, 0.50, 1e-12);
	t = t->next;
	assert_non_null(t);
	assert_string_equal(t->scope, "region cold");
	assert_false(t->node[0].ok);
	assert_non_null(strstr(t->node[0].reason, "idq_uops_not_delivered.core"));
	assert_non_null(strstr(t->node[0].reason, "the program counted it in no execution of this region"));
	assert_true(t->node[3].ok);
	assert_null(t->next);
	for (size_t c = 0; c < rep.nchecks; c++)
		note |= !strcmp(rep.checks[c].name, "topdown-regions") && strstr(rep.checks[c].msg, "read: in process");
	assert_true(note);
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
}

/* A report with se's events counted with v (by name) for the total and for each row of rows[], each row's counts the
 * total's times its share (as the rows of -a --per-core sum to the total). */
static void inject_rows(const struct pmc_engine *se, const struct injected *v, size_t nv,
			const struct pmc_row_scope *rows, const double *share, size_t nrows, struct pmc_report *rep)
{
	struct pmc_report_event *evs;

	inject(se, v, nv, rep);
	evs = realloc(rep->events, se->n * (nrows + 1) * sizeof(*evs));
	assert_non_null(evs);
	for (size_t r = 0; r < nrows; r++)
		for (size_t i = 0; i < se->n; i++) {
			struct pmc_report_event *e = &evs[se->n * (r + 1) + i];

			*e = evs[i];
			e->scope = rows[r];
			e->mean *= share[r];
		}
	rep->events = evs;
	rep->nevents = se->n * (nrows + 1);
}

static void prepare_with(const char *pmu, struct pmc_engine *se, struct pmc_engine_opts *o, bool all_cpus,
			 enum pmc_aggr aggr)
{
	struct pmc_metric_def *metrics = NULL;

	assert_string_equal(getenv("LIBPFM_FORCE_PMU"), pmu);
	diag_log[0] = '\0';
	pmc_engine_opts_init(o);
	o->argv = argv_true;
	o->topdown_level = 1;
	o->targets.system_wide = all_cpus;
	o->aggr = aggr;
	pmc_engine_init(se, NULL);
	if (pmc_engine_prepare(se, o, &metrics))
		fail_msg("prepare: %s", diag_log);
	free(metrics);
}

static bool has_check(const struct pmc_report *rep, const char *name, const char *needle)
{
	for (size_t c = 0; c < rep->nchecks; c++)
		if (!strcmp(rep->checks[c].name, name) && strstr(rep->checks[c].msg, needle))
			return true;
	return false;
}

static const struct pmc_row_scope core_rows[] = {
	{ .kind = PMC_ROW_CORE, .core = 0, .label = "S0-D0-C0", .ncpus = 2 },
	{ .kind = PMC_ROW_CORE, .core = 1, .label = "S0-D0-C1", .ncpus = 2 },
};
static const double core_share[] = { 0.25, 0.75 };
static const struct injected skl_vec[] = {
	{ "cpu_clk_unhalted.thread", 1000 }, { "idq_uops_not_delivered.core", 400 }, { "uops_issued.any", 2200 },
	{ "uops_retired.retire_slots", 2000 }, { "int_misc.recovery_cycles", 50 },
	{ "cpu_clk_unhalted.thread_any", 2000 }, { "int_misc.recovery_cycles_any", 100 },
};

/* -a --per-core on a CPU without SMT: a tree per core after the total's, from that core's row (injected rows whose
 * counts are shares of the total's: the same fractions), labelled with the row. */
static void test_per_core_rows_get_a_tree_each_injected(void **state)
{
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_report rep;
	const struct pmc_report_topdown *t;

	(void)state;
	prepare_with("skl", &se, &o, true, PMC_AGGR_CORE);
	assert_string_equal(se.evs[0].name, "cpu_clk_unhalted.thread"); /* no SMT here: the thread's tree */
	inject_rows(&se, skl_vec, 5, core_rows, core_share, 2, &rep);
	assert_int_equal(pmc_eng_topdown_eval(&se, &o, &rep), 0);
	t = rep.topdown;
	assert_string_equal(t->scope, "");
	for (size_t k = 0; k < 2; k++) {
		t = t->next;
		assert_non_null(t);
		assert_string_equal(t->scope, core_rows[k].label);
		assert_float_equal(t->node[0].value, 0.10, 1e-12);
		assert_float_equal(t->node[2].value, 0.30, 1e-12);
		assert_true(t->node[2].bottleneck);
	}
	assert_null(t->next);
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
}

/* SMT on (sysfs fixture smt/active = 1), a command: the per-core tree cannot be counted (the sibling's counts are not
 * the command's), so the thread's tree with the warning topdown-smt: never the core's answer. */
static void test_smt_on_command_gets_the_thread_tree_and_a_warning_forced_pmu(void **state)
{
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_report rep;

	(void)state;
	prepare_with("skl", &se, &o, false, PMC_AGGR_GLOBAL);
	assert_int_equal(event_index(&se, "cpu_clk_unhalted.thread_any"), -1);
	assert_true(event_index(&se, "cpu_clk_unhalted.thread") >= 0);
	inject(&se, skl_vec, 5, &rep);
	assert_int_equal(pmc_eng_topdown_eval(&se, &o, &rep), 0);
	assert_string_equal(rep.topdown->tree, "intel-skl");
	assert_true(has_check(&rep, "topdown-smt", "not the cores' answer"));
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
}

/* SMT on, -a --per-core: the per-core tree (AnyThread clocks halved, the other counts both threads' sums), a tree per
 * core: S = 4 x 2000 / 2 = 4000, FE = 400 / 4000 = 10%; BS = (2200 - 2000 + 4 x 100 / 2) / 4000 = 10%. With -A (CPU
 * rows) the per-core tree gives no CPU row a tree and says so. */
static void test_smt_on_per_core_gets_the_core_tree_per_core_forced_pmu(void **state)
{
	static const struct pmc_row_scope cpu_rows[] = {
		{ .kind = PMC_ROW_CPU, .cpu = 0, .label = "CPU0" }, { .kind = PMC_ROW_CPU, .cpu = 1, .label = "CPU1" },
	};
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_report rep;

	(void)state;
	prepare_with("skl", &se, &o, true, PMC_AGGR_CORE);
	assert_true(event_index(&se, "cpu_clk_unhalted.thread_any") >= 0);
	assert_true(event_index(&se, "int_misc.recovery_cycles_any") >= 0);
	inject_rows(&se, skl_vec, 7, core_rows, core_share, 2, &rep);
	assert_int_equal(pmc_eng_topdown_eval(&se, &o, &rep), 0);
	assert_string_equal(rep.topdown->tree, "intel-skl-smt");
	assert_float_equal(rep.topdown->node[0].value, 0.10, 1e-12);
	assert_float_equal(rep.topdown->node[1].value, 0.10, 1e-12);
	assert_non_null(rep.topdown->next);
	assert_string_equal(rep.topdown->next->scope, "S0-D0-C0");
	assert_float_equal(rep.topdown->next->node[0].value, 0.10, 1e-12);
	assert_false(has_check(&rep, "topdown-smt", ""));
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);

	prepare_with("skl", &se, &o, true, PMC_AGGR_CPU);
	assert_true(event_index(&se, "cpu_clk_unhalted.thread") >= 0); /* -A: rows are threads */
	pmc_engine_fini(&se);
	prepare_with("skl", &se, &o, true, PMC_AGGR_GLOBAL);
	inject_rows(&se, skl_vec, 7, cpu_rows, core_share, 2, &rep); /* CPU rows beside the core tree */
	assert_int_equal(pmc_eng_topdown_eval(&se, &o, &rep), 0);
	assert_null(rep.topdown->next);
	assert_true(has_check(&rep, "topdown-rows", "2 rows (a CPU, a task or a cgroup) have no tree"));
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
}

/* A report of se's events as the runs of its plan give them: an event of one batch has one sample there; an event
 * counted in every batch (an anchor) one sample per batch, per_batch[b] when given, else its value. */
static void inject_batches(const struct pmc_engine *se, const struct injected *v, size_t nv, const char *anchor,
			   const double *per_batch, struct pmc_report *rep)
{
	inject(se, v, nv, rep);
	for (size_t i = 0; i < se->n; i++) {
		struct pmc_report_event *e = &rep->events[i];

		e->in_every_batch = se->plan.in_every[i];
		e->batch = -1;
		for (size_t b = 0; b < se->plan.nbatches; b++)
			for (size_t k = 0; k < se->plan.batches[b].n; k++)
				if (se->plan.batches[b].events[k] == i)
					e->batch = (int)b;
		if (e->status != PMC_COUNT_OK)
			continue;
		e->samples = calloc(se->plan.nbatches, sizeof(*e->samples));
		assert_non_null(e->samples);
		for (size_t b = 0; b < se->plan.nbatches; b++) {
			double x = anchor && !strcmp(e->ev.name, anchor) ? per_batch[b] : e->mean;

			if (!e->in_every_batch && (int)b != e->batch)
				continue;
			e->samples[e->nsamples++] = (struct pmc_sample){
				.batch = (unsigned)b,
				.count = { .value = (uint64_t)x, .enabled = 1, .running = 1, .status = PMC_COUNT_OK } };
		}
	}
}

/* Zen 4 level 2 (six counters, level 1 takes them all): level 1's clock and retired ops are the anchors of the
 * level-2 batches (no instructions/cycles added), each level-2 family a group of its own beside them; a level-1 ratio
 * uses the clock of level 1's run, and a level-2 input is scaled by the clock's ratio between level 1's run and its
 * own: fetch latency is its own run's share. Worked by hand: level 1 (batch of the level-1 group) CYC = 1000, so
 * S = 6000; FE = 2400 / S = 40%; the fetch-latency batch ran 2000 cycles and counted 600 cycles with no op:
 * 6 x 600 x (1000 / 2000) / 6000 = 30% (600 / 2000 cycles of its own run), bandwidth = 10%. Injected counts. */
static void test_zen4_level2_own_anchors_and_run_scaled_inputs_forced_pmu(void **state)
{
	static const struct injected v[] = {
		{ "ls_not_halted_cyc", 1000 }, { "de_no_dispatch_per_slot.no_ops_from_frontend", 2400 },
		{ "de_no_dispatch_per_slot.backend_stalls", 1200 }, { "de_no_dispatch_per_slot.smt_contention", 0.5 },
		{ "de_src_op_disp.all", 700 }, { "ex_ret_ops", 600 },
		{ "de_no_dispatch_per_slot.no_ops_from_frontend:cmask=6", 600 }, { "ex_ret_brn_misp", 10 },
		{ "resyncs_or_nc_redirects", 10 }, { "ex_no_retire.load_not_complete", 300 },
		{ "ex_no_retire.not_complete", 600 }, { "ex_ret_ucode_ops", 60 },
	};
	struct pmc_engine se;
	struct pmc_engine_opts o;
	struct pmc_report rep;
	double clk[8];
	size_t l1 = SIZE_MAX, fe2 = SIZE_MAX;
	int ifl = -1;
	const struct pmc_report_topdown *t;

	(void)state;
	assert_int_equal(prepare("amd64_fam19h_zen4", 2, 0, &se, &o), 0);
	assert_int_equal(event_index(&se, "instructions"), -1); /* no anchors of pmctool's beside the tree's own */
	assert_int_equal(event_index(&se, "cycles"), -1);
	assert_true(se.plan.in_every[event_index(&se, "ls_not_halted_cyc")]);
	assert_true(se.plan.in_every[event_index(&se, "ex_ret_ops")]);
	assert_int_equal(pmc_plan_group_batch(&se.plan, se.evs, se.evs[event_index(&se, "de_src_op_disp.all")].group, &l1),
			 0);
	ifl = event_index(&se, "de_no_dispatch_per_slot.no_ops_from_frontend:cmask=6");
	assert_true(ifl >= 0);
	assert_int_equal(pmc_plan_group_batch(&se.plan, se.evs, se.evs[ifl].group, &fe2), 0);
	assert_true(fe2 != l1 && se.plan.nbatches <= 8);
	/* each level-2 split's inputs in one group: mispredicts with resyncs, loads with all not-complete cycles */
	assert_int_equal(se.evs[event_index(&se, "ex_ret_brn_misp")].group,
			 se.evs[event_index(&se, "resyncs_or_nc_redirects")].group);
	assert_int_equal(se.evs[event_index(&se, "ex_no_retire.load_not_complete")].group,
			 se.evs[event_index(&se, "ex_no_retire.not_complete")].group);
	for (size_t b = 0; b < se.plan.nbatches; b++)
		clk[b] = b == l1 ? 1000 : b == fe2 ? 2000 : 500;
	inject_batches(&se, v, sizeof(v) / sizeof(v[0]), "ls_not_halted_cyc", clk, &rep);
	rep.events[event_index(&se, "ls_not_halted_cyc")].mean = 1250; /* the mean over batches is not level 1's */
	assert_int_equal(pmc_eng_topdown_eval(&se, &o, &rep), 0);
	t = rep.topdown;
	assert_string_equal(t->tree, "amd-zen4");
	assert_string_equal(t->node[0].name, "frontend_bound");
	assert_float_equal(t->node[0].value, 0.40, 1e-12);
	for (size_t k = 0; k < t->nnodes; k++) {
		if (!strcmp(t->node[k].name, "fetch_latency"))
			assert_float_equal(t->node[k].value, 0.30, 1e-12);
		if (!strcmp(t->node[k].name, "fetch_bandwidth"))
			assert_float_equal(t->node[k].value, 0.10, 1e-12);
	}
	pmc_report_fini(&rep);
	pmc_engine_fini(&se);
}

/* Preparing --topdown=level on the forced PMU is a usage error whose message holds needle. */
static void expect_usage(const char *pmu, int level, unsigned counters, const char *needle)
{
	struct pmc_engine se;
	struct pmc_engine_opts o;

	assert_int_equal(prepare(pmu, level, counters, &se, &o), PMC_EXIT_USAGE);
	if (!strstr(diag_log, needle))
		fail_msg("%s --topdown=%d: the message lacks '%s': %s", pmu, level, needle, diag_log);
	pmc_engine_fini(&se);
}

static void test_zen3_has_no_tree_and_says_why_forced_pmu(void **state)
{
	(void)state;
	expect_usage("amd64_fam19h_zen3", 1, 0, "no top-down tree for this CPU");
	expect_usage("amd64_fam19h_zen3", 1, 0, "Zen 3 has no per-slot dispatch events");
}

static void test_icl_has_no_level_2_forced_pmu(void **state)
{
	(void)state;
	expect_usage("icl", 2, 0, "topdown_level=2: the tree intel-icl"); /* field words: no CLI speller here */
}

static void test_skl_level1_on_two_counters_does_not_fit_and_says_so_forced_pmu(void **state)
{
	(void)state;
	expect_usage("skl", 1, 2, "level 1 of intel-skl needs its 5 events in one group");
}

/* Run tests[0..n) with LIBPFM_FORCE_PMU=pmu in a child process; its failures. */
static int run_forced(const char *group, const char *pmu, const struct CMUnitTest *tests, size_t n)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		pmc_diag_set(catch_diag, NULL);
		_exit(_cmocka_run_group_tests(group, tests, n, NULL, NULL) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(void)
{
	const struct CMUnitTest skl[] = {
		cmocka_unit_test(test_skl_level1_is_one_group_in_one_batch_forced_pmu),
		cmocka_unit_test(test_skl_level1_from_injected_counts_marks_backend_bound),
		cmocka_unit_test(test_uncounted_input_makes_its_nodes_na_with_the_reason_injected),
		cmocka_unit_test(test_skl_level1_on_two_counters_does_not_fit_and_says_so_forced_pmu),
		cmocka_unit_test(test_interval_tree_from_each_intervals_records_injected),
		cmocka_unit_test(test_interval_tree_says_why_an_input_could_not_open_injected),
		cmocka_unit_test(test_region_trees_from_each_regions_counts_injected),
		cmocka_unit_test(test_per_core_rows_get_a_tree_each_injected),
	};
	const struct CMUnitTest skl_smt[] = {
		cmocka_unit_test(test_smt_on_command_gets_the_thread_tree_and_a_warning_forced_pmu),
		cmocka_unit_test(test_smt_on_per_core_gets_the_core_tree_per_core_forced_pmu),
	};
	char smt_root[4096];
	const struct CMUnitTest icl[] = {
		cmocka_unit_test(test_icl_slots_leads_the_metrics_group_forced_pmu),
		cmocka_unit_test(test_icl_has_no_level_2_forced_pmu),
	};
	const struct CMUnitTest zen4[] = {
		cmocka_unit_test(test_zen4_level2_own_anchors_and_run_scaled_inputs_forced_pmu),
	};
	const struct CMUnitTest zen3[] = {
		cmocka_unit_test(test_zen3_has_no_tree_and_says_why_forced_pmu),
	};
	int failed = 0;

	/* SMT off whatever this machine's: a private sysfs root whose smt/active is 0 (and no PMU, as in a VM) */
	{
		char dir[] = "/tmp/pmc-td-XXXXXX", path[256];
		FILE *f;

		assert_non_null(mkdtemp(dir));
		snprintf(path, sizeof(path), "mkdir -p %s/devices/system/cpu/smt", dir);
		assert_int_equal(system(path), 0);
		snprintf(path, sizeof(path), "%s/devices/system/cpu/smt/active", dir);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs("0\n", f);
		fclose(f);
		setenv("PMCTOOL_SYSFS_ROOT", dir, 1);
		failed += run_forced("skl", "skl", skl, sizeof(skl) / sizeof(skl[0]));
		snprintf(path, sizeof(path), "rm -rf %s", dir);
		assert_int_equal(system(path), 0);
	}
	/* SMT on: the sysfs fixture of tests/info (smt/active = 1) */
	snprintf(smt_root, sizeof(smt_root), "%s/tests/info/sysfs", getenv("PMC_SOURCE_DIR") ? getenv("PMC_SOURCE_DIR") : ".");
	setenv("PMCTOOL_SYSFS_ROOT", smt_root, 1);
	failed += run_forced("skl-smt", "skl", skl_smt, sizeof(skl_smt) / sizeof(skl_smt[0]));
	unsetenv("PMCTOOL_SYSFS_ROOT");
	failed += run_forced("icl", "icl", icl, sizeof(icl) / sizeof(icl[0]));
	failed += run_forced("zen3", "amd64_fam19h_zen3", zen3, 1);
	failed += run_forced("zen4", "amd64_fam19h_zen4", zen4, 1);
	return failed ? 1 : 0;
}
