/* SPDX-License-Identifier: MIT */
/* Hybrid CPUs after the kernel answered: per-core-type rows and their merged sum, from injected counts (what
 * read() would give for a task on P-cores only, split over both types, or multiplexed), and the planner's counter
 * budget kept per core PMU. No PMU is needed: the counts are written here, as the kernel would report them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/output.h"
#include "plan/plan.h"
#include "report/report.h"

static struct pmc_count cnt(uint64_t value, uint64_t enabled, uint64_t running)
{
	struct pmc_count c;

	memset(&c, 0, sizeof(c));
	c.value = value;
	c.enabled = enabled;
	c.running = running;
	c.status = running ? PMC_COUNT_OK : PMC_COUNT_NOT_COUNTED;
	return c;
}

/* An event row with one sample per run (batch 0). core_pmu 0: not a hybrid copy. */
static void set_event(struct pmc_report_event *e, const char *name, unsigned core_pmu, const struct pmc_count *c,
		      size_t nruns)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->ev.name, sizeof(e->ev.name), "%s", name);
	snprintf(e->ev.canonical, sizeof(e->ev.canonical), "%s", name);
	e->ev.core_pmu = core_pmu;
	e->ev.flags = PMC_EVF_HARDWARE;
	e->batch = 0;
	e->samples = calloc(nruns, sizeof(*e->samples));
	assert_non_null(e->samples);
	for (size_t r = 0; r < nruns; r++) {
		e->samples[r].run = (unsigned)r;
		e->samples[r].count = c[r];
	}
	e->nsamples = nruns;
}

static void report_of(struct pmc_report *rep, size_t n, unsigned nruns)
{
	memset(rep, 0, sizeof(*rep));
	rep->events = calloc(n, sizeof(*rep->events));
	assert_non_null(rep->events);
	rep->nevents = n;
	rep->nbatches = 1;
	rep->nruns = nruns;
}

static const struct pmc_report_event *find(const struct pmc_report *rep, const char *name)
{
	const struct pmc_report_event *e = pmc_report_find_event(rep, name);

	if (!e)
		fail_msg("no row '%s'", name);
	return e;
}

/* One run, table-driven: the per-type rows keep their raw counts, the merged row is their sum scaled only by the
 * time on no counter. */
static void test_hybrid_merge_injected_counts_table(void **state)
{
	static const struct {
		int line;
		const char *what;
		uint64_t atom_v, atom_run, core_v, core_run, enabled;
		enum pmc_count_status atom_status, core_status;
		double atom_mean, core_mean, merged_mean, merged_running_pct, core_share;
	} rows[] = {
		/* never ran on an E-core: cpu_atom is not counted, and cpu_core is not scaled by that */
		{ __LINE__, "P-cores only", 0, 0, 1000, 1000000, 1000000, PMC_COUNT_NOT_COUNTED, PMC_COUNT_OK, 0, 1000,
		  1000, 100, 100 },
		/* half on each: before, each copy was scaled x2 (1200 and 800) as if multiplexed */
		{ __LINE__, "half on each core type", 400, 500000, 600, 500000, 1000000, PMC_COUNT_OK, PMC_COUNT_OK,
		  400, 600, 1000, 100, 50 },
		/* a quarter on E-cores */
		{ __LINE__, "a quarter on E-cores", 100, 250000, 900, 750000, 1000000, PMC_COUNT_OK, PMC_COUNT_OK, 100,
		  900, 1000, 100, 75 },
		/* counters multiplexed on both types: only the time on no counter (half) scales the sum */
		{ __LINE__, "multiplexed on both", 200, 250000, 300, 250000, 1000000, PMC_COUNT_OK, PMC_COUNT_OK, 200,
		  300, 1000, 50, 25 },
		/* running times that add up to a little more than enabled (rounding): not scaled down */
		{ __LINE__, "running sum above enabled", 300, 600000, 700, 500000, 1000000, PMC_COUNT_OK, PMC_COUNT_OK,
		  300, 700, 1000, 100, 50 },
		/* E-cores only */
		{ __LINE__, "E-cores only", 700, 2000, 0, 0, 2000, PMC_COUNT_OK, PMC_COUNT_NOT_COUNTED, 700, 0, 700,
		  100, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_report rep;
		struct pmc_count a = cnt(rows[i].atom_v, rows[i].enabled, rows[i].atom_run);
		struct pmc_count c = cnt(rows[i].core_v, rows[i].enabled, rows[i].core_run);
		const struct pmc_report_event *ea, *ec, *m;

		report_of(&rep, 2, 1);
		set_event(&rep.events[0], "cycles [cpu_atom]", 1, &a, 1);
		set_event(&rep.events[1], "cycles [cpu_core]", 2, &c, 1);
		assert_int_equal(pmc_report_merge_core_pmus(&rep), 0);
		pmc_report_summarize(&rep);
		if (rep.nevents != 3)
			fail_msg("line %d (%s): %zu rows", rows[i].line, rows[i].what, rep.nevents);
		ea = find(&rep, "cycles [cpu_atom]");
		ec = find(&rep, "cycles [cpu_core]");
		m = find(&rep, "cycles");
		assert_ptr_equal(m, &rep.events[2]); /* after its copies */
		assert_int_equal(m->nparts, 2);
		assert_int_equal(m->ev.core_pmu, 0);
		assert_string_equal(m->ev.canonical, "cycles");
		if (ea->status != rows[i].atom_status || ec->status != rows[i].core_status)
			fail_msg("line %d (%s): status %d/%d", rows[i].line, rows[i].what, ea->status, ec->status);
		if ((ea->status == PMC_COUNT_OK && fabs(ea->mean - rows[i].atom_mean) > 1e-6) ||
		    (ec->status == PMC_COUNT_OK && fabs(ec->mean - rows[i].core_mean) > 1e-6) ||
		    fabs(m->mean - rows[i].merged_mean) > 1e-6)
			fail_msg("line %d (%s): atom %.1f core %.1f merged %.1f, expected %.1f %.1f %.1f", rows[i].line,
				 rows[i].what, ea->mean, ec->mean, m->mean, rows[i].atom_mean, rows[i].core_mean,
				 rows[i].merged_mean);
		if (m->status != PMC_COUNT_OK || fabs(m->running_pct - rows[i].merged_running_pct) > 1e-6)
			fail_msg("line %d (%s): merged running %.2f%%", rows[i].line, rows[i].what, m->running_pct);
		/* a copy's running below enabled is time on the other core type, never multiplexing */
		if ((ec->status == PMC_COUNT_OK && ec->running_pct != 100.0) ||
		    (ec->status == PMC_COUNT_OK && fabs(ec->core_share_pct - rows[i].core_share) > 1e-6))
			fail_msg("line %d (%s): cpu_core running %.2f%% share %.2f%%", rows[i].line, rows[i].what,
				 ec->running_pct, ec->core_share_pct);
		if (ea->status == PMC_COUNT_NOT_COUNTED && !strstr(ea->reason, "did not run on a cpu_atom CPU"))
			fail_msg("line %d (%s): reason '%s'", rows[i].line, rows[i].what, ea->reason);
		pmc_report_fini(&rep);
	}
}

static void test_hybrid_merge_pairs_samples_run_by_run_and_keeps_other_rows_in_place(void **state)
{
	struct pmc_report rep;
	struct pmc_count a[2] = { cnt(100, 1000, 500), cnt(0, 1000, 0) };
	struct pmc_count c[2] = { cnt(300, 1000, 500), cnt(900, 1000, 1000) };
	struct pmc_count t[2] = { cnt(5, 1000, 1000), cnt(7, 1000, 1000) };
	struct pmc_count ia[2] = { cnt(10, 1000, 500), cnt(20, 1000, 500) };
	struct pmc_count ic[2] = { cnt(30, 1000, 500), cnt(40, 1000, 500) };

	(void)state;
	report_of(&rep, 5, 2);
	set_event(&rep.events[0], "cycles [cpu_atom]", 1, a, 2);
	set_event(&rep.events[1], "cycles [cpu_core]", 2, c, 2);
	set_event(&rep.events[2], "task-clock", 0, t, 2);
	set_event(&rep.events[3], "instructions [cpu_atom]", 1, ia, 2);
	set_event(&rep.events[4], "instructions [cpu_core]", 2, ic, 2);
	assert_int_equal(pmc_report_merge_core_pmus(&rep), 0);
	pmc_report_summarize(&rep);
	assert_int_equal(rep.nevents, 7);
	assert_string_equal(rep.events[0].ev.name, "cycles [cpu_atom]");
	assert_string_equal(rep.events[1].ev.name, "cycles [cpu_core]");
	assert_string_equal(rep.events[2].ev.name, "cycles");
	assert_string_equal(rep.events[3].ev.name, "task-clock");
	assert_string_equal(rep.events[4].ev.name, "instructions [cpu_atom]");
	assert_string_equal(rep.events[5].ev.name, "instructions [cpu_core]");
	assert_string_equal(rep.events[6].ev.name, "instructions");
	assert_int_equal(rep.events[6].parts[0], 4);
	assert_int_equal(rep.events[6].parts[1], 5);
	/* run 1: 100 + 300 over half + half; run 2: P-cores only, 900 */
	assert_int_equal(rep.events[2].nsamples, 2);
	assert_int_equal(rep.events[2].samples[0].count.value, 400);
	assert_int_equal(rep.events[2].samples[1].count.value, 900);
	assert_true(fabs(rep.events[2].mean - 650) < 1e-9);
	assert_true(fabs(rep.events[6].mean - 50) < 1e-9);
	/* task-clock is untouched */
	assert_true(fabs(rep.events[3].mean - 6) < 1e-9);
	pmc_report_fini(&rep);
}

/* cycles asked for twice: two merged rows, each summing one copy per core PMU (not one row of three copies). */
static void test_hybrid_merge_an_event_asked_twice_gives_two_merged_rows(void **state)
{
	struct pmc_report rep;
	struct pmc_count a = cnt(100, 1000, 500), c = cnt(300, 1000, 500);

	(void)state;
	report_of(&rep, 4, 1);
	set_event(&rep.events[0], "cycles [cpu_atom]", 1, &a, 1);
	set_event(&rep.events[1], "cycles [cpu_core]", 2, &c, 1);
	set_event(&rep.events[2], "cycles [cpu_atom]", 1, &a, 1);
	set_event(&rep.events[3], "cycles [cpu_core]", 2, &c, 1);
	assert_int_equal(pmc_report_merge_core_pmus(&rep), 0);
	pmc_report_summarize(&rep);
	assert_int_equal(rep.nevents, 6);
	assert_string_equal(rep.events[2].ev.name, "cycles");
	assert_string_equal(rep.events[5].ev.name, "cycles");
	assert_int_equal(rep.events[2].nparts, 2);
	assert_int_equal(rep.events[5].nparts, 2);
	assert_true(fabs(rep.events[2].mean - 400) < 1e-9);
	assert_true(fabs(rep.events[5].mean - 400) < 1e-9);
	pmc_report_fini(&rep);
}

static void test_hybrid_merge_not_supported_on_both_types_is_not_supported(void **state)
{
	struct pmc_report rep;
	struct pmc_count u = { .status = PMC_COUNT_NOT_SUPPORTED, .err = ENOENT };

	(void)state;
	report_of(&rep, 2, 1);
	set_event(&rep.events[0], "branches [cpu_atom]", 1, &u, 1);
	set_event(&rep.events[1], "branches [cpu_core]", 2, &u, 1);
	assert_int_equal(pmc_report_merge_core_pmus(&rep), 0);
	pmc_report_summarize(&rep);
	assert_int_equal(rep.nevents, 3);
	assert_int_equal(rep.events[2].status, PMC_COUNT_NOT_SUPPORTED);
	assert_int_equal(rep.events[2].err, ENOENT);
	pmc_report_fini(&rep);
}

static void test_hybrid_merge_leaves_a_report_without_copies_alone(void **state)
{
	struct pmc_report rep;
	struct pmc_count c = cnt(10, 100, 50);

	(void)state;
	report_of(&rep, 2, 1);
	set_event(&rep.events[0], "cycles", 0, &c, 1);
	/* a single-PMU event the user named (core_pmu set, no "[pmu]" suffix) has nothing to merge with */
	set_event(&rep.events[1], "cpu_atom/event=0xc0/", 1, &c, 1);
	assert_int_equal(pmc_report_merge_core_pmus(&rep), 0);
	pmc_report_summarize(&rep);
	assert_int_equal(rep.nevents, 2);
	assert_true(fabs(rep.events[0].mean - 20) < 1e-9); /* scaled: not a hybrid copy */
	assert_true(fabs(rep.events[1].mean - 10) < 1e-9); /* a core PMU's own event: never scaled */
	pmc_report_fini(&rep);
}

/* Every output format gives the unscaled per-core-type counts and the merged sum: CSV's scaled column, the table's
 * note, JSON's core_pmu / core_share_pct / merged_from. Half the time on each core type: 400 + 600. */
static void test_hybrid_outputs_give_unscaled_copies_and_the_merged_sum(void **state)
{
	struct pmc_report rep;
	struct pmc_count a = cnt(400, 1000000, 500000), c = cnt(600, 1000000, 500000);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	report_of(&rep, 2, 1);
	snprintf(rep.workload, sizeof(rep.workload), "w");
	rep.mode = "single";
	set_event(&rep.events[0], "cycles [cpu_atom]", 1, &a, 1);
	set_event(&rep.events[1], "cycles [cpu_core]", 2, &c, 1);
	assert_int_equal(pmc_report_merge_core_pmus(&rep), 0);
	pmc_report_summarize(&rep);

	f = open_memstream(&buf, &len);
	assert_int_equal(pmc_output_csv(f, &rep), 0);
	fclose(f);
	assert_non_null(strstr(buf, "count,cycles [cpu_atom],cycles [cpu_atom],1,1,400,400,,1000000,500000,50,ok,"));
	assert_non_null(strstr(buf, "count,cycles [cpu_core],cycles [cpu_core],1,1,600,600,,1000000,500000,50,ok,"));
	assert_non_null(strstr(buf, "count,cycles,cycles,1,1,1000,1000,,1000000,1000000,100,ok,"));
	free(buf);

	f = open_memstream(&buf, &len);
	assert_int_equal(pmc_output_table(f, &rep), 0);
	fclose(f);
	assert_non_null(strstr(buf, "ran on cpu_atom 50.00% of the time (not scaled)"));
	assert_non_null(strstr(buf, "sum of 2 core types"));
	free(buf);

	f = open_memstream(&buf, &len);
	assert_int_equal(pmc_output_json(f, &rep), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"core_pmu\":\"cpu_core\",\"core_share_pct\":50"));
	assert_non_null(strstr(buf, "\"merged_from\":[\"cycles [cpu_atom]\",\"cycles [cpu_core]\"]"));
	free(buf);
	pmc_report_fini(&rep);
}

/* The planner: each core PMU has its own counters, so 4 + 4 programmable events with a budget of 4 fit one batch,
 * and both types' instructions take their own fixed counter 0. */
static void test_plan_keeps_a_counter_budget_per_core_pmu(void **state)
{
	struct pmc_event evs[10];
	struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = 4 };
	struct pmc_plan p;

	(void)state;
	memset(evs, 0, sizeof(evs));
	for (int i = 0; i < 8; i++) {
		evs[i].cls = PMC_CLASS_GP;
		evs[i].fixed_index = -1;
		evs[i].flags = PMC_EVF_HARDWARE;
		evs[i].core_pmu = 1 + (i & 1);
	}
	for (int i = 8; i < 10; i++) {
		evs[i].cls = PMC_CLASS_FIXED;
		evs[i].fixed_index = 0;
		evs[i].flags = PMC_EVF_HARDWARE;
		evs[i].core_pmu = 1 + (i & 1);
	}
	assert_int_equal(pmc_plan_build(evs, 10, &o, &p), 0);
	assert_int_equal(p.nbatches, 1);
	assert_int_equal(p.batches[0].n, 8);
	assert_int_equal(p.nevery, 2);
	pmc_plan_fini(&p);

	/* one more on cpu_atom: it alone moves to a second batch */
	evs[8].cls = PMC_CLASS_GP;
	evs[8].fixed_index = -1;
	assert_int_equal(pmc_plan_build(evs, 10, &o, &p), 0);
	assert_int_equal(p.nbatches, 2);
	assert_int_equal(p.batches[1].n, 1);
	assert_int_equal(p.batches[1].events[0], 8);
	pmc_plan_fini(&p);
}

/* A second user of cpu_atom's ref-cycles fixed counter gets a batch of its own, where only cpu_atom's every-batch
 * ref-cycles is left out: cpu_core's fixed counter 2 is another counter. Both spellings of the fixed-only encoding
 * count: a generic copy (PMU type in config bits 32-63) and a raw one. */
static void test_plan_fixed_only_second_user_frees_its_own_core_pmus_counter_only(void **state)
{
	static const struct {
		uint32_t type;
		uint64_t config;
	} second[] = { { PERF_TYPE_HARDWARE, 0xa00000009ull }, { 10, 0x0300 } };

	(void)state;
	for (size_t s = 0; s < 2; s++) {
		struct pmc_event evs[3];
		struct pmc_plan_opts o = { .gp_budget = 4, .fixed_slots = 3, .bp_budget = 4 };
		struct pmc_plan p;

		memset(evs, 0, sizeof(evs));
		for (int i = 0; i < 3; i++) {
			evs[i].cls = PMC_CLASS_FIXED;
			evs[i].fixed_index = 2;
			evs[i].flags = PMC_EVF_HARDWARE | PMC_EVF_FIXED_ONLY | (i < 2 ? PMC_EVF_ANCHOR : 0);
			evs[i].core_pmu = i == 1 ? 2 : 1;
			evs[i].attr.type = PERF_TYPE_HARDWARE;
			evs[i].attr.config = (i == 1 ? 0x400000000ull : 0xa00000000ull) | PERF_COUNT_HW_REF_CPU_CYCLES;
		}
		evs[2].attr.type = second[s].type;
		evs[2].attr.config = second[s].config;
		assert_true(pmc_plan_fixed_only(&evs[2], 3));
		assert_int_equal(pmc_plan_build(evs, 3, &o, &p), 0);
		assert_int_equal(p.nevery, 2);
		assert_int_equal(p.nbatches, 1);
		assert_int_equal(p.batches[0].n, 1);
		assert_int_equal(p.batches[0].events[0], 2);
		assert_false(pmc_plan_every_in_batch(&p, 0, &evs[0])); /* cpu_atom's counter 2 is taken */
		assert_true(pmc_plan_every_in_batch(&p, 0, &evs[1]));  /* cpu_core's is free */
		pmc_plan_fini(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hybrid_merge_injected_counts_table),
		cmocka_unit_test(test_hybrid_merge_pairs_samples_run_by_run_and_keeps_other_rows_in_place),
		cmocka_unit_test(test_hybrid_merge_an_event_asked_twice_gives_two_merged_rows),
		cmocka_unit_test(test_hybrid_merge_not_supported_on_both_types_is_not_supported),
		cmocka_unit_test(test_hybrid_merge_leaves_a_report_without_copies_alone),
		cmocka_unit_test(test_hybrid_outputs_give_unscaled_copies_and_the_merged_sum),
		cmocka_unit_test(test_plan_keeps_a_counter_budget_per_core_pmu),
		cmocka_unit_test(test_plan_fixed_only_second_user_frees_its_own_core_pmus_counter_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
