/* SPDX-License-Identifier: MIT */
/* Metrics from vendor tables (metrics/tmetrics.c) over fixture tables written for these tests
 * (tests/metrics/tables: perf's pmu-events format for a made-up Ice Lake, Intel perfmon's for a made-up Skylake):
 * -M's selection, the plan (definitions, weak groups, notes), and the agreement of the tables' TopdownL1 with
 * pmctool's own trees on the same injected counts (no PMU: the counts are put in a report by hand). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "metrics/metrics.h"
#include "metrics/tmetrics.h"
#include "metrics/topdown.h"
#include "tables/tables.h"
#include "injected_report.h" /* add_event: an injected count, under the name the plan spells */

static char fixtures[PATH_MAX];

static struct pmc_tables *load(const char *sub, const char *cpuid)
{
	char dir[PATH_MAX + 64];
	struct pmc_tables *t = NULL;

	snprintf(dir, sizeof(dir), "%s/%s", fixtures, sub);
	unsetenv("PMCTOOL_CPUID");
	unsetenv("PMCTOOL_TABLES");
	assert_int_equal(pmc_tables_load(dir, cpuid, &t), 0);
	return t;
}

/* Every spelling resolves (an injected resolver: no PMU here), except names with "no_such". */
static int resolve_all(const char *spec, void *ctx, char *why, size_t len)
{
	(void)ctx;
	if (strcasestr(spec, "no_such")) {
		snprintf(why, len, "unknown event '%s' (injected)", spec);
		return -ENOENT;
	}
	return 0;
}

static void literals(struct pmc_tm_literals *l, double smt)
{
	memset(l, 0, sizeof(*l));
	pmc_tm_literal_set(l, "#smt_on", smt, "injected");
	pmc_tm_literal_set(l, "#num_cpus", 8, "injected");
	pmc_tm_literal_set(l, "#system_tsc_freq", 2e9, "injected");
	/* #slots stays unknown: the metric that needs it is left out with the reason */
	l->l[7].name = "#slots";
	snprintf(l->l[7].source, sizeof(l->l[7].source), "injected: no caps/slots");
}

static void plan(const struct pmc_tables *t, const char *items, double smt, struct pmc_tm_plan *p)
{
	const struct pmc_table_metric *ms;
	size_t n = pmc_tables_metrics(t, &ms);
	bool *sel = calloc(n + 1, sizeof(*sel));
	char buf[256], *save = NULL;
	struct pmc_tm_literals l;

	assert_non_null(sel);
	snprintf(buf, sizeof(buf), "%s", items);
	for (char *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save))
		assert_true(pmc_tm_select(t, it, sel) > 0);
	literals(&l, smt);
	assert_int_equal(pmc_tm_plan(t, sel, &l, resolve_all, NULL, NULL, p), 0);
	free(sel);
}

static const struct pmc_metric_def *def(const struct pmc_tm_plan *p, const char *name)
{
	for (size_t i = 0; i < p->ndefs; i++)
		if (!strcmp(p->defs[i].name, name))
			return &p->defs[i];
	return NULL;
}

static bool has_note(const struct pmc_tm_plan *p, const char *part)
{
	for (size_t i = 0; i < p->nnotes; i++)
		if (strstr(p->notes[i], part))
			return true;
	return false;
}

static const struct pmc_metric_value *row(const struct pmc_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->nmetrics; i++)
		if (!strcmp(rep->metrics[i].name, name))
			return &rep->metrics[i];
	fail_msg("no metric row %s", name);
	return NULL;
}

/* One injected count vector: the table's event name, the tree's input id, the value. */
struct inject {
	const char *spec, *input;
	double v;
};

/* Evaluate the plan's definitions and the tree on the same counts; each table metric (a percent) / 100 must be the
 * tree node's unclamped value. */
static void agree(const struct pmc_tm_plan *p, const struct inject *in, size_t nin, const char *tree_name,
		  const char *const pairs[][2], size_t npairs, int line)
{
	const struct pmc_td_tree *tree = pmc_td_tree_find(tree_name);
	struct pmc_td_value vals[PMC_TD_MAX_INPUTS];
	struct pmc_td_result res;
	struct pmc_report rep;

	assert_non_null(tree);
	memset(&rep, 0, sizeof(rep));
	rep.nbatches = rep.nruns = 1;
	memset(vals, 0, sizeof(vals));
	for (size_t i = 0; i < nin; i++) {
		int k = pmc_td_input_index(tree, in[i].input);

		add_event(&rep, in[i].spec, in[i].v);
		if (k >= 0) {
			vals[k].counted = true;
			vals[k].value = in[i].v;
		}
	}
	assert_int_equal(pmc_metrics_eval(&rep, p->defs, p->ndefs, 0), 0);
	assert_int_equal(pmc_td_eval(tree, vals, &res), 0);
	for (size_t i = 0; i < npairs; i++) {
		const struct pmc_metric_value *m = row(&rep, pairs[i][0]);
		int node = pmc_td_node_index(tree, pairs[i][1]);

		assert_true(node >= 0);
		if (!m->valid || !res.node[node].ok)
			fail_msg("line %d: %s n/a (%s) or %s n/a (%s)", line, pairs[i][0], m->reason, pairs[i][1],
				 res.node[node].reason);
		if (fabs(m->value / 100 - res.node[node].raw) > 1e-12)
			fail_msg("line %d: table %s = %.15g%%, pmctool's %s %s = %.15g", line, pairs[i][0], m->value,
				 tree_name, pairs[i][1], res.node[node].raw);
	}
	pmc_report_fini(&rep);
}

/* perf's pmu-events format (made-up Ice Lake): TopdownL1 = tma_{frontend,backend}_bound, tma_bad_speculation,
 * tma_retiring over topdown-* and the corrections; pmctool's intel-icl-tma is the same TMA level 1. */
static void test_table_topdownl1_agrees_with_icl_tma_on_injected_counts(void **state)
{
	static const char *const pairs[][2] = {
		{ "tma_frontend_bound", "frontend_bound" }, { "tma_backend_bound", "backend_bound" },
		{ "tma_bad_speculation", "bad_speculation" }, { "tma_retiring", "retiring" },
	};
	/* three vectors: a balanced one, a frontend-heavy one, one where the corrections push bad speculation to 0 */
	static const double v[][7] = {
		{ 300, 100, 400, 200, 1e6, 2e4, 1e7 },
		{ 700, 20, 200, 80, 3e5, 1e3, 4e6 },
		{ 10, 5, 900, 85, 5e4, 9e5, 2e6 },
	};
	struct pmc_tables *t = load("pmu-events", "GenuineIntel-6-7E-5");
	struct pmc_tm_plan p;

	(void)state;
	plan(t, "TopdownL1", 0, &p);
	assert_non_null(def(&p, "tma_frontend_bound"));
	assert_non_null(def(&p, "tma_info_thread_slots")); /* a metric the formulas reference comes with them */
	assert_string_equal(def(&p, "tma_frontend_bound")->unit, "%");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct inject in[] = {
			{ "topdown-fe-bound", "TD_FE_BOUND", v[i][0] }, { "topdown-bad-spec", "TD_BAD_SPEC", v[i][1] },
			{ "topdown-retiring", "TD_RETIRING", v[i][2] }, { "topdown-be-bound", "TD_BE_BOUND", v[i][3] },
			{ "INT_MISC.UOP_DROPPING", "UOP_DROPPING", v[i][4] },
			{ "INT_MISC.RECOVERY_CYCLES:c=1:e=1", "RECOVERY_C1E", v[i][5] },
			{ "TOPDOWN.SLOTS", "SLOTS", v[i][6] },
		};
		agree(&p, in, sizeof(in) / sizeof(in[0]), "intel-icl-tma", pairs, 4, __LINE__);
	}
	pmc_tm_plan_fini(&p);
	pmc_tables_free(t);
}

/* Intel perfmon's format (made-up Skylake): formulas over aliases a, b, c..., "X if smt_on else Y", group TmaL1
 * (what -M TopdownL1 picks there); pmctool's intel-skl (per thread, SMT off) on the same counts. */
static void test_perfmon_topdownl1_agrees_with_skl_on_injected_counts(void **state)
{
	static const char *const pairs[][2] = {
		{ "Frontend_Bound", "frontend_bound" }, { "Backend_Bound", "backend_bound" },
		{ "Bad_Speculation", "bad_speculation" }, { "Retiring", "retiring" },
	};
	static const double v[][5] = {
		{ 1e6, 3e6, 2.6e6, 2.2e6, 4e4 },
		{ 2e5, 9e5, 1.9e6, 1.7e6, 1e3 },
	};
	struct pmc_tables *t = load("perfmon", "GenuineIntel-6-5E-3");
	struct pmc_tm_plan p;

	(void)state;
	plan(t, "TopdownL1", 0, &p);
	assert_int_equal(p.ndefs, 4);
	/* SMT off: the branch never taken names CPU_CLK_UNHALTED.THREAD_ANY, which is not planned (nor counted) */
	for (size_t g = 0; g < p.ngroups; g++)
		assert_null(strstr(p.groups[g], "THREAD_ANY"));
	assert_true(has_note(&p, "#smt_on = 0 (injected)"));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct inject in[] = {
			{ "IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_NOT_DELIVERED", v[i][0] },
			{ "CPU_CLK_UNHALTED.THREAD", "CLK", v[i][1] }, { "UOPS_ISSUED.ANY", "UOPS_ISSUED", v[i][2] },
			{ "UOPS_RETIRED.RETIRE_SLOTS", "RETIRE_SLOTS", v[i][3] },
			{ "INT_MISC.RECOVERY_CYCLES", "RECOVERY", v[i][4] },
		};
		agree(&p, in, sizeof(in) / sizeof(in[0]), "intel-skl", pairs, 4, __LINE__);
	}
	pmc_tm_plan_fini(&p);
	pmc_tables_free(t);
}

/* perf's format for arm64 (made-up A57 table, the one the rig loads): its TopdownL1 is the arm-cycles tree's stall
 * shares; the same fractions on the same injected counts. */
static void test_arm_table_topdownl1_agrees_with_arm_cycles_on_injected_counts(void **state)
{
	static const char *const pairs[][2] = {
		{ "fake_frontend_stalls", "frontend_stalls" }, { "fake_backend_stalls", "backend_stalls" },
	};
	static const double v[][3] = { { 2e5, 3e5, 1e6 }, { 0, 9e5, 1e6 } };
	struct pmc_tables *t = load("pmu-events", "0x00000000410fd070");
	struct pmc_tm_plan p;

	(void)state;
	plan(t, "TopdownL1", 0, &p);
	assert_int_equal(p.ndefs, 2);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct inject in[] = {
			{ "STALL_FRONTEND", "STALL_FE", v[i][0] }, { "STALL_BACKEND", "STALL_BE", v[i][1] },
			{ "CPU_CYCLES", "CYC", v[i][2] },
		};
		agree(&p, in, sizeof(in) / sizeof(in[0]), "arm-cycles", pairs, 2, __LINE__);
	}
	pmc_tm_plan_fini(&p);
	pmc_tables_free(t);
}

/* The plan: each metric's events one weak group, none for a metric another group holds; what is left out says why;
 * literals say where their value came from; a perfmon threshold over its LegacyName; ScaleUnit; TopdownL3 by Level. */
static void test_plan_groups_notes_thresholds(void **state)
{
	struct pmc_tables *t = load("pmu-events", "GenuineIntel-6-7E-5"), *pm;
	struct pmc_tm_plan p;
	const struct pmc_metric_def *d;
	const struct pmc_table_metric *ms;
	bool sel[64] = { false };

	(void)state;
	plan(t, "TopdownL1,Fake,tma_info_core_coreipc", 0, &p);
	/* tma_bad_speculation uses the other three: one group holds its events, the others need none */
	/* TopdownL1's seven events in one group, fake_kernel_ghz's one event (no braces), coreipc's two (SMT off: not
	 * THREAD_ANY) */
	assert_int_equal(p.ngroups, 3);
	assert_string_equal(p.groups[0], "{topdown-fe-bound,topdown-bad-spec,topdown-retiring,topdown-be-bound,"
					 "INT_MISC.UOP_DROPPING,TOPDOWN.SLOTS,INT_MISC.RECOVERY_CYCLES:c=1:e=1}:W");
	assert_string_equal(p.groups[1], "{INST_RETIRED.ANY,CPU_CLK_UNHALTED.THREAD}:W");
	assert_string_equal(p.groups[2], "CPU_CLK_UNHALTED.THREAD_P:k");
	for (size_t g = 0; g < p.ngroups; g++)
		if (strchr(p.groups[g], ','))
			assert_non_null(strstr(p.groups[g], "}:W"));
	assert_true(has_note(&p, "metric fake_slots_literal is left out: #slots: injected: no caps/slots"));
	assert_true(has_note(&p, "metric fake_no_event is left out: event no_such.event: unknown event"));
	d = def(&p, "fake_kernel_ghz");
	assert_non_null(d);
	assert_string_equal(d->unit, "GHz");
	assert_non_null(strstr(d->formula, "{CPU_CLK_UNHALTED.THREAD_P:k}"));
	assert_non_null(strstr(d->formula, "{SECONDS}")); /* duration_time: the wall time in seconds */
	/* the threshold compares the unscaled fraction, as perf does: the percent row divided by 100 */
	assert_non_null(strstr(def(&p, "tma_frontend_bound")->threshold, "({tma_frontend_bound} / 100) > 0.15"));
	pmc_tm_plan_fini(&p);
	pmc_tables_free(t);

	pm = load("perfmon", "GenuineIntel-6-5E-3");
	assert_int_equal(pmc_tm_select(pm, "TopdownL3", sel), 1); /* perfmon's Level 3 (its group is not TmaL3) */
	pmc_tables_metrics(pm, &ms);
	plan(pm, "Frontend_Bound,Kernel_Share", 0, &p);
	assert_string_equal(def(&p, "Frontend_Bound")->threshold, "({Frontend_Bound} > 15)");
	assert_string_equal(def(&p, "Frontend_Bound")->unit, "%");
	d = def(&p, "Kernel_Share");
	assert_non_null(d);
	assert_non_null(strstr(d->formula, "{CPU_CLK_UNHALTED.THREAD_P:k}")); /* perfmon's :SUP */
	assert_non_null(strstr(d->formula, "{UOPS_ISSUED.ANY:c=1}"));        /* perfmon's :c1 */
	assert_non_null(strstr(d->formula, "/ 20)"));                        /* a numeric constant */
	pmc_tm_plan_fini(&p);
	pmc_tables_free(pm);
}

/* A table metric named as one of pmctool's own is renamed table:NAME (with a note), and what references it follows. */
static bool reserved_ipc(const char *name)
{
	return !strcmp(name, "IPC");
}

static void test_table_metric_never_shadows_a_builtin_name(void **state)
{
	struct pmc_tables *t = load("pmu-events", "GenuineIntel-6-7E-5");
	const struct pmc_table_metric *ms;
	size_t n = pmc_tables_metrics(t, &ms);
	bool *sel = calloc(n, sizeof(*sel));
	struct pmc_tm_literals l;
	struct pmc_tm_plan p;

	(void)state;
	assert_int_equal(pmc_tm_select(t, "ipc", sel), 1); /* names are case-insensitive */
	literals(&l, 0);
	assert_int_equal(pmc_tm_plan(t, sel, &l, resolve_all, NULL, reserved_ipc, &p), 0);
	assert_non_null(def(&p, "table:IPC"));
	assert_null(def(&p, "IPC"));
	assert_true(has_note(&p, "the table's metric IPC is shown as table:IPC"));
	pmc_tm_plan_fini(&p);
	free(sel);
	pmc_tables_free(t);
}

/* The evaluated thresholds: "[over threshold] " where the table's threshold holds, on injected counts. */
static void test_thresholds_mark_rows_on_injected_counts(void **state)
{
	struct pmc_tables *t = load("pmu-events", "GenuineIntel-6-7E-5");
	struct pmc_tm_plan p;
	struct pmc_report rep;

	(void)state;
	plan(t, "TopdownL1", 0, &p);
	memset(&rep, 0, sizeof(rep));
	rep.nbatches = rep.nruns = 1;
	add_event(&rep, "topdown-fe-bound", 700); /* frontend 70%: over 15% */
	add_event(&rep, "topdown-bad-spec", 0);
	add_event(&rep, "topdown-retiring", 200); /* 20%: under 70% */
	add_event(&rep, "topdown-be-bound", 100);
	add_event(&rep, "INT_MISC.UOP_DROPPING", 0);
	add_event(&rep, "INT_MISC.RECOVERY_CYCLES:c=1:e=1", 0);
	add_event(&rep, "TOPDOWN.SLOTS", 1e6);
	assert_int_equal(pmc_metrics_eval(&rep, p.defs, p.ndefs, 0), 0);
	assert_non_null(strstr(row(&rep, "tma_frontend_bound")->desc, "[over threshold] "));
	assert_null(strstr(row(&rep, "tma_retiring")->desc, "[over threshold]"));
	assert_null(strstr(row(&rep, "tma_bad_speculation")->desc, "[over threshold]"));
	pmc_report_fini(&rep);
	pmc_tm_plan_fini(&p);
	pmc_tables_free(t);
}

/* Writes text to root/rel, making its folders. */
static void put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

/* #core_wide as perf 6.1 decides it (tools/perf/util/smt.c core_wide()): 1 only when every thread of each counted core
 * is counted. A made-up topology: cpu0 and cpu1 one core, cpu2 a core of its own; SMT on, then off. */
static void test_core_wide_follows_scope_and_smt_as_perf(void **state)
{
	static const int c01[] = { 0, 1 }, c0[] = { 0 }, c2[] = { 2 }, c0_2[] = { 0, 2 };
	static const struct {
		bool smt_off;
		bool cpus;
		const int *cpu;
		size_t ncpu;
		bool null_scope;
		double want;
	} cases[] = {
		{ false, false, NULL, 0, true, 0 },  /* a command (no scope given): per thread */
		{ false, false, NULL, 0, false, 0 }, /* -p/-t: per thread */
		{ true, false, NULL, 0, false, 0 },  /* per thread with SMT off: still 0, as perf */
		{ false, true, NULL, 0, false, 1 },  /* -a with SMT on */
		{ true, true, NULL, 0, false, 1 },   /* -a with SMT off */
		{ false, true, c01, 2, false, 1 },   /* -C 0,1: the whole core */
		{ false, true, c0, 1, false, 0 },    /* -C 0: its sibling 1 left out */
		{ false, true, c2, 1, false, 1 },    /* -C 2: a core of one thread */
		{ false, true, c0_2, 2, false, 0 },
		{ true, true, c0, 1, false, 1 },     /* -C 0 with SMT off */
	};
	char on[] = "/tmp/test_tmetrics.XXXXXX", off[] = "/tmp/test_tmetrics.XXXXXX", cmd[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(on));
	assert_non_null(mkdtemp(off));
	put(on, "devices/system/cpu/smt/active", "1\n");
	put(on, "devices/system/cpu/cpu0/topology/core_cpus_list", "0-1\n");
	put(on, "devices/system/cpu/cpu1/topology/core_cpus_list", "0-1\n");
	put(on, "devices/system/cpu/cpu2/topology/core_cpus_list", "2\n");
	put(off, "devices/system/cpu/smt/active", "0\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pmc_tm_literals lits;
		const struct pmc_tm_scope scope = { cases[i].cpus, cases[i].cpu, cases[i].ncpu };
		const struct pmc_tm_literal *l = NULL;

		setenv("PMCTOOL_SYSFS_ROOT", cases[i].smt_off ? off : on, 1);
		pmc_tm_literals_read(&lits, cases[i].null_scope ? NULL : &scope);
		for (size_t k = 0; k < PMC_TM_LITERALS; k++)
			if (lits.l[k].name && !strcmp(lits.l[k].name, "#core_wide"))
				l = &lits.l[k];
		assert_non_null(l);
		if (!l->known || l->value != cases[i].want)
			fail_msg("case %zu: #core_wide %s %g (%s), want %g", i, l->known ? "=" : "unknown", l->value,
				 l->source, cases[i].want);
	}
	unsetenv("PMCTOOL_SYSFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -r '%s' '%s'", on, off);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const char *src = getenv("PMC_SOURCE_DIR");
	char rel[PATH_MAX];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_topdownl1_agrees_with_icl_tma_on_injected_counts),
		cmocka_unit_test(test_perfmon_topdownl1_agrees_with_skl_on_injected_counts),
		cmocka_unit_test(test_arm_table_topdownl1_agrees_with_arm_cycles_on_injected_counts),
		cmocka_unit_test(test_plan_groups_notes_thresholds),
		cmocka_unit_test(test_table_metric_never_shadows_a_builtin_name),
		cmocka_unit_test(test_thresholds_mark_rows_on_injected_counts),
		cmocka_unit_test(test_core_wide_follows_scope_and_smt_as_perf),
	};

	snprintf(rel, sizeof(rel), "%s/tests/metrics/tables", src ? src : ".");
	if (!realpath(rel, fixtures)) {
		fprintf(stderr, "test_tmetrics: no fixtures at %s (set PMC_SOURCE_DIR)\n", rel);
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
