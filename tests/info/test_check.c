/* SPDX-License-Identifier: MIT */
/*
 * pmctool check's judgements (info/check.c), driven through an injected fake PMU in place of the measuring children:
 * the fake computes each count from the loop kernel's declared work (67 instructions and 33 branches an iteration
 * plus a constant), and each fault a real machine shows is one knob. Every verdict the issue names is produced here,
 * on a machine without counters.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "info/check.h"

struct fake_pmu {
	const char *name;
	/* faults */
	bool no_pmu;              /* info's verdict: unavailable */
	bool instructions_zero;   /* opens but reads 0 */
	double syscall_extra;     /* read() path counts this much more per iteration */
	bool no_cycles;           /* the fixed cycle counter is missing */
	bool no_in_process;       /* the in-process read is off */
	double mux_error;         /* multiplexed estimates off by this fraction */
	double kernel_leak;       /* per kernel instruction, this much lands in :u */
	int nmi_watchdog;
	bool hybrid;
	bool wrong_branches;      /* branches count 1% too many */
	bool mux_starve;          /* multiplexed: the last event never gets a counter */
	/* expectations */
	int exit_status;
	const char *item;         /* the item that must carry verdict (NULL: none) */
	enum pmc_check_verdict verdict;
	const char *words;        /* in that item's detail */
	unsigned calls;           /* measurements the fake was asked for */
};

static void put(struct pmc_check_sample *s, const char *name, bool counted, double v, double running)
{
	struct pmc_check_count *c = &s->ev[s->n++];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->counted = counted;
	c->value = counted ? v : 0;
	c->running_pct = running;
	snprintf(c->reason, sizeof(c->reason), "%s", counted ? "" : "event not supported by this PMU (fake)");
}

/* The fake PMU: the counts a machine with these faults gives for one 'stat -k loop' measurement. */
static int fake_measure(void *ctx, const struct pmc_check_req *q, struct pmc_check_sample *s)
{
	struct fake_pmu *f = ctx;
	double it = (double)q->iters, instr = 67 * it + 5, br = 33 * it + 2, kern = 4000 + it / 8;
	double running = 100;

	f->calls++;
	s->expected_instructions = 67 * it + 4;
	s->expected_branches = 33 * it + 2;
	s->counter_width = 48;
	s->in_process = !q->syscall_reads && !f->no_in_process;
	snprintf(s->read_method, sizeof(s->read_method), "%s", s->in_process ? "RDPMC (in process)" : "read(): fake");
	if (q->syscall_reads) {
		instr += f->syscall_extra * it;
		instr += f->kernel_leak * kern;
	}
	if (f->instructions_zero)
		instr = 0;
	if (f->wrong_branches)
		br *= 1.01;
	if (q->command)
		instr = 67 * it + 1234567; /* the loop in a launched pmctool: its own start-up too */
	if (q->multiplex) {
		running = 100.0 * 4 / (double)q->nevents;
		instr = (67 * it + 1234567) * (1 + f->mux_error);
	}
	for (size_t i = 0; i < q->nevents; i++) {
		const char *e = q->events[i];

		if (!strcmp(e, "instructions:u"))
			put(s, e, !(f->mux_starve && q->multiplex && i == q->nevents - 1), instr, running);
		else if (!strcmp(e, "branches:u"))
			put(s, e, true, br, running);
		else if (!strcmp(e, "instructions:k"))
			put(s, e, true, kern, running);
		else if (!strcmp(e, "cycles:u"))
			put(s, e, !f->no_cycles, instr / 2 + 1, running);
		else if (!strcmp(e, "ref-cycles:u"))
			put(s, e, true, instr / 3 + 1, running);
		else
			put(s, e, false, 0, running);
	}
	return 0;
}

static void env_for(const struct fake_pmu *f, struct pmc_check_env *env)
{
	memset(env, 0, sizeof(*env));
	env->pmu.verdict = f->no_pmu ? PMC_VERDICT_UNAVAILABLE : PMC_VERDICT_AVAILABLE;
	if (f->no_pmu)
		snprintf(env->pmu.reason, sizeof(env->pmu.reason), "the kernel has no driver for this CPU's counters");
	env->nmi_watchdog = f->nmi_watchdog;
	env->gp_budget = 4;
	env->can_count_kernel = true;
	env->user_read_name = "RDPMC";
	env->emulator = "/usr/bin/valgrind";
	env->ncores = f->hybrid ? 2 : 1;
	snprintf(env->core[0].pmu, sizeof(env->core[0].pmu), "%s", f->hybrid ? "cpu_core" : "cpu");
	env->core[0].cpu = f->hybrid ? 0 : -1;
	snprintf(env->core[1].pmu, sizeof(env->core[1].pmu), "cpu_atom");
	env->core[1].cpu = 16;
}

static const struct pmc_check_item *find_item(const struct pmc_check_result *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->item[i].name, name))
			return &r->item[i];
	return NULL;
}

static struct fake_pmu cases[] = {
	{ .name = "healthy machine: every item trustworthy, exit 0", .exit_status = 0, .item = "exact:cpu",
	  .verdict = PMC_CHECK_TRUSTWORTHY, .words = "instructions:u 2680000 = 2680000 declared (exact)" },
	{ .name = "no PMU: unavailable with the reason, the emulator offered, exit 11", .no_pmu = true,
	  .exit_status = 11, .item = "instructions", .verdict = PMC_CHECK_UNAVAILABLE, .words = "--emulate" },
	{ .name = "an event that reads 0: exact degraded (partial virtual PMU)", .instructions_zero = true,
	  .exit_status = 10, .item = "exact:cpu", .verdict = PMC_CHECK_DEGRADED, .words = "opens but reads 0" },
	{ .name = "a read path that disagrees: read-paths degraded", .syscall_extra = 0.5, .exit_status = 10,
	  .item = "read-paths:cpu", .verdict = PMC_CHECK_DEGRADED, .words = "disagree" },
	{ .name = "the fixed cycle counter missing: fixed degraded", .no_cycles = true, .exit_status = 10,
	  .item = "fixed", .verdict = PMC_CHECK_DEGRADED, .words = "cycles:u not counted" },
	{ .name = "in-process read off: read-paths degraded with the read method", .no_in_process = true,
	  .exit_status = 10, .item = "read-paths:cpu", .verdict = PMC_CHECK_DEGRADED, .words = "was not used" },
	{ .name = "multiplexed estimates 5% off: multiplex degraded", .mux_error = 0.05, .exit_status = 10,
	  .item = "multiplex", .verdict = PMC_CHECK_DEGRADED, .words = "off here" },
	{ .name = "multiplexed estimates 0.5% off: multiplex trustworthy", .mux_error = 0.005, .exit_status = 0,
	  .item = "multiplex", .verdict = PMC_CHECK_TRUSTWORTHY, .words = "within 0.500%" },
	{ .name = "kernel work counted as user work: user-kernel degraded", .kernel_leak = 0.5, .exit_status = 10,
	  .item = "user-kernel", .verdict = PMC_CHECK_DEGRADED, .words = "kernel work may be counted" },
	{ .name = "NMI watchdog on: degraded, never changed", .nmi_watchdog = 1, .exit_status = 10,
	  .item = "nmi-watchdog", .verdict = PMC_CHECK_DEGRADED, .words = "pmctool never changes it" },
	{ .name = "hybrid: each core type has its exact item", .hybrid = true, .exit_status = 0, .item = "exact:cpu_atom",
	  .verdict = PMC_CHECK_TRUSTWORTHY, .words = "(exact)" },
	{ .name = "a multiplexed event never scheduled: multiplex degraded", .mux_starve = true, .exit_status = 10,
	  .item = "multiplex", .verdict = PMC_CHECK_DEGRADED, .words = "1 of 6 never counted" },
	{ .name = "branches 1% too many: exact degraded", .wrong_branches = true, .exit_status = 10, .item = "exact:cpu",
	  .verdict = PMC_CHECK_DEGRADED, .words = "branches:u" },
};

static void test_check_verdicts_from_injected_fake_pmu(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct pmc_check_result r;
		struct fake_pmu *f = &cases[i];
		struct pmc_check_env env;
		struct pmc_check_ops ops = { .measure = fake_measure, .ctx = f };
		const struct pmc_check_item *it;

		env_for(f, &env);
		f->calls = 0;
		pmc_check_run(&env, &ops, &r);
		it = find_item(&r, f->item);
		if (!it || it->verdict != f->verdict || !strstr(it->detail, f->words) ||
		    pmc_check_exit_status(&r) != f->exit_status) {
			for (size_t j = 0; j < r.n; j++)
				fprintf(stderr, "  %s %s: %s\n", r.item[j].name, pmc_check_verdict_name(r.item[j].verdict),
					r.item[j].detail);
			fail_msg("case '%s': item %s %s (want %s, words '%s'), exit %d (want %d)", f->name, f->item,
				 it ? pmc_check_verdict_name(it->verdict) : "missing", pmc_check_verdict_name(f->verdict),
				 f->words, pmc_check_exit_status(&r), f->exit_status);
		}
		/* No PMU: nothing is measured at all. */
		if (f->no_pmu)
			assert_int_equal(f->calls, 0);
	}
}

/* A healthy machine has nothing degraded anywhere, not only in the item a case looks at. */
static void test_check_healthy_fake_pmu_has_no_degraded_item(void **state)
{
	static struct pmc_check_result r;
	struct fake_pmu f = { .name = "healthy" };
	struct pmc_check_env env;
	struct pmc_check_ops ops = { .measure = fake_measure, .ctx = &f };

	(void)state;
	env_for(&f, &env);
	pmc_check_run(&env, &ops, &r);
	for (size_t i = 0; i < r.n; i++)
		if (r.item[i].verdict != PMC_CHECK_TRUSTWORTHY)
			fail_msg("%s: %s: %s", r.item[i].name, pmc_check_verdict_name(r.item[i].verdict), r.item[i].detail);
	assert_int_equal(r.overall, PMC_CHECK_TRUSTWORTHY);
	assert_non_null(find_item(&r, "user-kernel"));
	assert_non_null(find_item(&r, "width"));
}

/* --quick (stat --check): the exactness and the read paths only, nothing multiplexed. */
static void test_check_quick_runs_exact_and_read_paths_only(void **state)
{
	static struct pmc_check_result r;
	struct fake_pmu f = { .name = "quick" };
	struct pmc_check_env env;
	struct pmc_check_ops ops = { .measure = fake_measure, .ctx = &f };

	(void)state;
	env_for(&f, &env);
	env.quick = true;
	pmc_check_run(&env, &ops, &r);
	assert_non_null(find_item(&r, "exact:cpu"));
	assert_non_null(find_item(&r, "read-paths:cpu"));
	assert_null(find_item(&r, "multiplex"));
	assert_null(find_item(&r, "fixed"));
	assert_int_equal(f.calls, 4);
}

/* A measurement that fails (the child could not run) is degraded with its words, never a silent pass. */
static int failing_measure(void *ctx, const struct pmc_check_req *q, struct pmc_check_sample *s)
{
	(void)ctx;
	(void)q;
	s->rc = -1;
	snprintf(s->err, sizeof(s->err), "pmctool stat exited 5 without a report (fake)");
	return 0;
}

static void test_check_failed_measurement_is_degraded_with_its_reason(void **state)
{
	static struct pmc_check_result r;
	struct fake_pmu f = { .name = "failing" };
	struct pmc_check_env env;
	struct pmc_check_ops ops = { .measure = failing_measure, .ctx = NULL };
	const struct pmc_check_item *it;

	(void)state;
	env_for(&f, &env);
	pmc_check_run(&env, &ops, &r);
	it = find_item(&r, "exact:cpu");
	assert_non_null(it);
	assert_int_equal(it->verdict, PMC_CHECK_DEGRADED);
	assert_non_null(strstr(it->detail, "exited 5"));
	assert_int_equal(pmc_check_exit_status(&r), 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_verdicts_from_injected_fake_pmu),
		cmocka_unit_test(test_check_healthy_fake_pmu_has_no_degraded_item),
		cmocka_unit_test(test_check_quick_runs_exact_and_read_paths_only),
		cmocka_unit_test(test_check_failed_measurement_is_degraded_with_its_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
