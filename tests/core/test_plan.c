/* SPDX-License-Identifier: MIT */
/* The batch planner: fixed and free events in every batch, never more programmable events than the budget, split on
 * rejection. Events are built by hand: the planner is a pure function of their classes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>

#include <cmocka.h>

#include "plan/plan.h"

static struct pmc_event mk(enum pmc_counter_class cls, int fixed, unsigned flags)
{
	struct pmc_event e;

	memset(&e, 0, sizeof(e));
	e.cls = cls;
	e.fixed_index = fixed;
	e.flags = flags;
	return e;
}

static unsigned gp_in_batch(const struct pmc_event *evs, const struct pmc_batch *b)
{
	unsigned n = 0;
	for (size_t k = 0; k < b->n; k++)
		n += evs[b->events[k]].cls != PMC_CLASS_BREAKPOINT;
	return n;
}

static void test_plan_seed001_schedule_packs_71_events_in_18_batches_of_4(void **state)
{
	struct pmc_event evs[71 + 3];
	struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	for (int i = 0; i < 71; i++)
		evs[i] = mk(PMC_CLASS_GP, -1, 0);
	for (int f = 0; f < 3; f++)
		evs[71 + f] = mk(PMC_CLASS_FIXED, f, PMC_EVF_ANCHOR);
	assert_int_equal(pmc_plan_build(evs, 74, &o, &p), 0);
	assert_int_equal(p.nbatches, 18);
	assert_int_equal(p.nevery, 3);
	for (size_t b = 0; b < p.nbatches; b++) {
		assert_true(gp_in_batch(evs, &p.batches[b]) <= 4);
		/* in order: batch b holds events 4b .. 4b+3, as seed 001's schedule lists them */
		for (size_t k = 0; k < p.batches[b].n; k++)
			assert_int_equal(p.batches[b].events[k], 4 * b + k);
	}
	assert_int_equal(p.batches[17].n, 3);
	pmc_plan_fini(&p);
}

static void test_plan_never_exceeds_budget_table(void **state)
{
	static const struct {
		int line;
		unsigned ngp, budget, expect_batches;
	} rows[] = {
		{ __LINE__, 0, 4, 1 }, { __LINE__, 1, 4, 1 }, { __LINE__, 4, 4, 1 }, { __LINE__, 5, 4, 2 },
		{ __LINE__, 8, 4, 2 }, { __LINE__, 9, 4, 3 }, { __LINE__, 7, 1, 7 }, { __LINE__, 12, 6, 2 },
	};
	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct pmc_event evs[16];
		struct pmc_plan_opts o = { .gp_budget = rows[r].budget, .fixed_slots = 3, .bp_budget = 4 };
		struct pmc_plan p;
		unsigned total = 0;

		for (unsigned i = 0; i < rows[r].ngp; i++)
			evs[i] = mk(PMC_CLASS_GP, -1, 0);
		evs[rows[r].ngp] = mk(PMC_CLASS_FREE, -1, 0);
		assert_int_equal(pmc_plan_build(evs, rows[r].ngp + 1, &o, &p), 0);
		if (p.nbatches != rows[r].expect_batches)
			fail_msg("row at line %d: %zu batches, expected %u", rows[r].line, p.nbatches,
				 rows[r].expect_batches);
		for (size_t b = 0; b < p.nbatches; b++) {
			assert_true(gp_in_batch(evs, &p.batches[b]) <= rows[r].budget);
			total += gp_in_batch(evs, &p.batches[b]);
		}
		assert_int_equal(total, rows[r].ngp);
		assert_int_equal(p.nevery, 1); /* the free event rides in every batch */
		assert_true(p.in_every[rows[r].ngp]);
		pmc_plan_fini(&p);
	}
}

static void test_plan_second_user_of_a_fixed_counter_takes_a_gp_slot(void **state)
{
	/* instructions (fixed 0) and instructions:u (also fixed 0): only one can have the fixed counter. */
	struct pmc_event evs[2] = { mk(PMC_CLASS_FIXED, 0, 0), mk(PMC_CLASS_FIXED, 0, 0) };
	struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	assert_int_equal(pmc_plan_build(evs, 2, &o, &p), 0);
	assert_int_equal(p.nevery, 1);
	assert_int_equal(p.every[0], 0);
	assert_int_equal(p.batches[0].n, 1);
	assert_int_equal(p.batches[0].events[0], 1);
	pmc_plan_fini(&p);
}

static void test_plan_anchor_wins_fixed_counter_over_earlier_user_event(void **state)
{
	struct pmc_event evs[2] = { mk(PMC_CLASS_FIXED, 1, 0), mk(PMC_CLASS_FIXED, 1, PMC_EVF_ANCHOR) };
	struct pmc_plan_opts o = { .gp_budget = 2, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	assert_int_equal(pmc_plan_build(evs, 2, &o, &p), 0);
	assert_true(p.in_every[1]);
	assert_false(p.in_every[0]);
	pmc_plan_fini(&p);
}

static void test_plan_without_fixed_counters_anchors_cost_gp_slots(void **state)
{
	/* AMD: cycles and instructions anchors are programmable: 6 counters - 2 anchors = 4 per batch. */
	struct pmc_event evs[10];
	struct pmc_plan_opts o = { .gp_budget = 6, .fixed_slots = 0, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	for (int i = 0; i < 8; i++)
		evs[i] = mk(PMC_CLASS_GP, -1, 0);
	evs[8] = mk(PMC_CLASS_FIXED, 0, PMC_EVF_ANCHOR);
	evs[9] = mk(PMC_CLASS_FIXED, 1, PMC_EVF_ANCHOR);
	assert_int_equal(pmc_plan_build(evs, 10, &o, &p), 0);
	assert_int_equal(p.nevery, 2);
	assert_int_equal(p.nbatches, 2);
	assert_int_equal(p.batches[0].n, 4);
	assert_int_equal(p.batches[1].n, 4);
	pmc_plan_fini(&p);
}

static void test_plan_breakpoints_fill_debug_registers_per_batch(void **state)
{
	struct pmc_event evs[6];
	struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	for (int i = 0; i < 6; i++)
		evs[i] = mk(PMC_CLASS_BREAKPOINT, -1, 0);
	assert_int_equal(pmc_plan_build(evs, 6, &o, &p), 0);
	assert_int_equal(p.nbatches, 2);
	assert_int_equal(p.batches[0].n, 4);
	assert_int_equal(p.batches[1].n, 2);
	pmc_plan_fini(&p);
}

static void test_plan_multiplex_puts_everything_in_one_batch(void **state)
{
	struct pmc_event evs[9];
	struct pmc_plan_opts o = { .gp_budget = 2, .fixed_slots = 3, .bp_budget = 4, .multiplex = true };
	struct pmc_plan p;

	(void)state;
	for (int i = 0; i < 9; i++)
		evs[i] = mk(PMC_CLASS_GP, -1, 0);
	assert_int_equal(pmc_plan_build(evs, 9, &o, &p), 0);
	assert_int_equal(p.nbatches, 1);
	assert_int_equal(p.nevery, 9);
	pmc_plan_fini(&p);
}

static void test_plan_split_moves_the_rejected_tail_to_a_new_batch(void **state)
{
	struct pmc_event evs[8];
	struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	for (int i = 0; i < 8; i++)
		evs[i] = mk(PMC_CLASS_GP, -1, 0);
	assert_int_equal(pmc_plan_build(evs, 8, &o, &p), 0);
	assert_int_equal(p.nbatches, 2);
	assert_int_equal(pmc_plan_split(&p, 0, 2), 0);
	assert_int_equal(p.nbatches, 3);
	assert_int_equal(p.batches[0].n, 2);
	assert_int_equal(p.batches[1].n, 2);
	assert_int_equal(p.batches[1].events[0], 2);
	assert_int_equal(p.batches[1].events[1], 3);
	assert_int_equal(p.batches[2].events[0], 4); /* the old second batch follows */
	/* nothing to split: the first member, or past the end */
	assert_int_equal(pmc_plan_split(&p, 0, 0), -EINVAL);
	assert_int_equal(pmc_plan_split(&p, 1, 2), -EINVAL);
	assert_int_equal(pmc_plan_split(&p, 9, 1), -EINVAL);
	pmc_plan_fini(&p);
}

/* ref-cycles twice (generic and raw 0x0300): the second fits only fixed counter 2, so it gets a batch of its own in
 * which the first is left out, never a GP slot, where the kernel would refuse the group (issue 11 item 4). */
static void test_plan_second_user_of_a_fixed_only_encoding_gets_its_own_batch_not_a_gp_slot(void **state)
{
	struct pmc_event evs[4];
	struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	evs[0] = mk(PMC_CLASS_FIXED, 2, PMC_EVF_ANCHOR | PMC_EVF_HARDWARE | PMC_EVF_FIXED_ONLY);
	evs[0].attr.type = PERF_TYPE_HARDWARE;
	evs[0].attr.config = PERF_COUNT_HW_REF_CPU_CYCLES;
	evs[1] = mk(PMC_CLASS_FIXED, 2, PMC_EVF_HARDWARE | PMC_EVF_FIXED_ONLY);
	evs[1].attr.type = PERF_TYPE_RAW;
	evs[1].attr.config = 0x0300;
	evs[2] = mk(PMC_CLASS_GP, -1, PMC_EVF_HARDWARE);
	evs[3] = mk(PMC_CLASS_FIXED, 0, PMC_EVF_HARDWARE); /* 0x00c0 fits a GP counter too: not fixed-only */
	evs[3].attr.type = PERF_TYPE_RAW;
	evs[3].attr.config = 0x00c0;
	assert_true(pmc_plan_fixed_only(&evs[0], 3));
	assert_true(pmc_plan_fixed_only(&evs[1], 3));
	assert_false(pmc_plan_fixed_only(&evs[3], 3));
	assert_int_equal(pmc_plan_build(evs, 4, &o, &p), 0);
	assert_int_equal(p.nevery, 2); /* ref-cycles and 0x00c0 on their fixed counters */
	assert_int_equal(p.nbatches, 2);
	assert_int_equal(p.batches[0].n, 1); /* the GP event */
	assert_int_equal(p.batches[0].fixed_own, 0);
	assert_true(pmc_plan_every_in_batch(&p, 0, &evs[0]));
	assert_int_equal(p.batches[1].n, 1);
	assert_int_equal(p.batches[1].events[0], 1);
	assert_int_equal(p.batches[1].fixed_own, 1u << 2);
	assert_false(pmc_plan_every_in_batch(&p, 1, &evs[0]));
	pmc_plan_fini(&p);
}

/* Fixed-only is the resolver's verdict (PMC_EVF_FIXED_ONLY, from the arch seam: tests/pmu/test_x86_fixed.c), kept
 * only while the event's fixed counter is one of the plan's: with fewer fixed slots it is an ordinary event. */
static void test_plan_fixed_only_follows_the_flag_and_the_fixed_slots(void **state)
{
	static const struct {
		int line;
		int index;
		unsigned flags, fixed;
		bool want;
	} rows[] = {
		{ __LINE__, 2, PMC_EVF_FIXED_ONLY, 3, true }, { __LINE__, 3, PMC_EVF_FIXED_ONLY, 4, true },
		{ __LINE__, 3, PMC_EVF_FIXED_ONLY, 3, false }, { __LINE__, 0, 0, 4, false },
		{ __LINE__, 2, PMC_EVF_FIXED_ONLY, 0, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_event e = mk(PMC_CLASS_FIXED, rows[i].index, PMC_EVF_HARDWARE | rows[i].flags);
		e.attr.type = PERF_TYPE_RAW;
		if (pmc_plan_fixed_only(&e, rows[i].fixed) != rows[i].want)
			fail_msg("row at line %d", rows[i].line);
	}
}

static void test_plan_rejects_zero_budget(void **state)
{
	struct pmc_event ev = mk(PMC_CLASS_GP, -1, 0);
	struct pmc_plan_opts o = { .gp_budget = 0, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	assert_int_equal(pmc_plan_build(&ev, 1, &o, &p), -EINVAL);
}

/* The slots group rule (issue 27): a group {slots, metric, metric} whose slots is a second user of its fixed-only
 * counter (a plain slots event took it first) is counted whole: slots joins its group's batch, not a batch of its own
 * after the others, and pmc_plan_group_batch names that batch; a group cut in two is -E2BIG. */
static void test_plan_fixed_only_group_member_joins_its_groups_batch_slots_rule(void **state)
{
	struct pmc_event evs[6];
	struct pmc_plan_opts o = { .gp_budget = 2, .fixed_slots = 4, .bp_budget = 4 };
	struct pmc_plan p;
	size_t b = 0;

	(void)state;
	evs[0] = mk(PMC_CLASS_FIXED, 3, PMC_EVF_HARDWARE | PMC_EVF_FIXED_ONLY); /* slots alone: every batch */
	evs[1] = mk(PMC_CLASS_GP, -1, PMC_EVF_HARDWARE);
	evs[2] = mk(PMC_CLASS_GP, -1, PMC_EVF_HARDWARE);
	evs[3] = mk(PMC_CLASS_FIXED, 3, PMC_EVF_HARDWARE | PMC_EVF_FIXED_ONLY); /* {slots, */
	evs[4] = mk(PMC_CLASS_GP, -1, PMC_EVF_HARDWARE);                        /*  metric, */
	evs[5] = mk(PMC_CLASS_GP, -1, PMC_EVF_HARDWARE);                        /*  metric} */
	for (int i = 3; i < 6; i++)
		evs[i].group = 1;
	assert_int_equal(pmc_plan_build(evs, 6, &o, &p), 0);
	assert_int_equal(p.nevery, 1);
	assert_int_equal(p.nbatches, 2);
	assert_int_equal(p.batches[1].n, 3); /* the group's metrics and its own slots, one batch */
	assert_int_equal(p.batches[1].events[2], 3);
	assert_int_equal(p.batches[1].fixed_own, 1u << 3);
	assert_false(pmc_plan_every_in_batch(&p, 1, &evs[0]));
	assert_int_equal(pmc_plan_group_batch(&p, evs, 1, &b), 0);
	assert_int_equal(b, 1);
	assert_int_equal(pmc_plan_split(&p, 1, 1), 0); /* a refusal cut it: no longer one group */
	assert_int_equal(pmc_plan_group_batch(&p, evs, 1, &b), -E2BIG);
	pmc_plan_fini(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_seed001_schedule_packs_71_events_in_18_batches_of_4),
		cmocka_unit_test(test_plan_never_exceeds_budget_table),
		cmocka_unit_test(test_plan_second_user_of_a_fixed_counter_takes_a_gp_slot),
		cmocka_unit_test(test_plan_anchor_wins_fixed_counter_over_earlier_user_event),
		cmocka_unit_test(test_plan_without_fixed_counters_anchors_cost_gp_slots),
		cmocka_unit_test(test_plan_breakpoints_fill_debug_registers_per_batch),
		cmocka_unit_test(test_plan_multiplex_puts_everything_in_one_batch),
		cmocka_unit_test(test_plan_split_moves_the_rejected_tail_to_a_new_batch),
		cmocka_unit_test(test_plan_second_user_of_a_fixed_only_encoding_gets_its_own_batch_not_a_gp_slot),
		cmocka_unit_test(test_plan_fixed_only_follows_the_flag_and_the_fixed_slots),
		cmocka_unit_test(test_plan_rejects_zero_budget),
		cmocka_unit_test(test_plan_fixed_only_group_member_joins_its_groups_batch_slots_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
