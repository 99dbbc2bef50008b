/* SPDX-License-Identifier: MIT */
/* perf's spellings: groups {a,b}:mods in -e lists, modifiers, breakpoints' mem:ADDR:xu, hardware cache names and
 * named tracepoints (fixture tracefs under tests/pmu/tracefs), and groups kept in one batch by the planner. */
#include <linux/hw_breakpoint.h>

#include "plan/plan.h"
#include "pmu_test.h"

struct walked {
	char spec[16][64];
	unsigned group[16];
	char mods[16][16];
	bool leader[16];
	int n;
};

static int walk_cb(const struct pmc_spec_item *it, void *ctx)
{
	struct walked *w = ctx;

	if (w->n == 16)
		return -ENOSPC;
	snprintf(w->spec[w->n], sizeof(w->spec[0]), "%s", it->spec);
	snprintf(w->mods[w->n], sizeof(w->mods[0]), "%s", it->group_mods);
	w->group[w->n] = it->group;
	w->leader[w->n++] = it->leader;
	return 0;
}

static void test_list_walk_hands_over_groups_with_their_modifiers(void **state)
{
	static const struct {
		int line;
		const char *list;
		const char *want; /* "spec/group/mods/leader;..." */
	} rows[] = {
		{ __LINE__, "{cycles,instructions}", "cycles/1//1;instructions/1//0;" },
		{ __LINE__, "{cycles,instructions}:u,branches", "cycles/1/u/1;instructions/1/u/0;branches/0//0;" },
		{ __LINE__, "a, { b , cpu/event=1,umask=2/ }:W ,c", "a/0//0;b/1/W/1;cpu/event=1,umask=2//1/W/0;c/0//0;" },
		{ __LINE__, "{a},{b,c}:uW", "a/1//1;b/2/uW/1;c/2/uW/0;" },
		{ __LINE__, "{mem:0x1000/8:x,cs}", "mem:0x1000/8:x/1//1;cs/1//0;" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct walked w = { 0 };
		unsigned groups = 0;
		char got[1024] = "", err[200];
		int rc = pmc_event_list_walk(rows[i].list, &groups, walk_cb, &w, err, sizeof(err));

		if (rc)
			fail_msg("line %d: rc %d: %s", rows[i].line, rc, err);
		for (int k = 0; k < w.n; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s/%u/%s/%d;", w.spec[k], w.group[k],
				 w.mods[k], w.leader[k]);
		if (strcmp(got, rows[i].want))
			fail_msg("line %d: got '%s', want '%s'", rows[i].line, got, rows[i].want);
	}
}

static void test_list_walk_rejects_bad_groups_with_a_message(void **state)
{
	static const struct {
		int line;
		const char *list, *msg;
	} rows[] = {
		{ __LINE__, "{cycles,instructions", "not closed by '}'" },
		{ __LINE__, "cycles}", "without a group" },
		{ __LINE__, "{a,{b}}", "do not nest" },
		{ __LINE__, "{}", "empty event" },
		{ __LINE__, "{a,b}:", "modifiers follow" },
		{ __LINE__, "{a,b}x", "without a group" },
		{ __LINE__, "a{b}", "do not nest" },
		{ __LINE__, "{a,}", "empty event" },
		/* the '}' sits inside a member's /.../: the member ran to the end of the list (read past it once) */
		{ __LINE__, "{/}/", "inside a member's pmu/terms/" },
		{ __LINE__, "{cpu/event=1}/,b}:u", "inside a member's pmu/terms/" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct walked w = { 0 };
		char err[200] = "";

		if (pmc_event_list_walk(rows[i].list, NULL, walk_cb, &w, err, sizeof(err)) != -EINVAL)
			fail_msg("line %d: '%s' accepted", rows[i].line, rows[i].list);
		if (!strstr(err, rows[i].msg))
			fail_msg("line %d: '%s': message '%s' lacks '%s'", rows[i].line, rows[i].list, err, rows[i].msg);
	}
}

static int count_cb(const struct pmc_spec_item *it, void *ctx)
{
	(void)it;
	++*(unsigned *)ctx;
	return 0;
}

static void test_list_cap_follows_the_event_count(void **state)
{
	/* PMC_MAX_EVENTS names of 120 characters each fit; one character past PMC_MAX_LIST_LEN does not, and the
	 * message names the limit */
	size_t n = PMC_MAX_LIST_LEN + 1;
	char *big = malloc(n + 1), err[200];
	unsigned count = 0;

	(void)state;
	assert_non_null(big);
	for (size_t i = 0; i < PMC_MAX_EVENTS; i++) {
		memset(big + i * 121, 'a', 120);
		big[i * 121 + 120] = ',';
	}
	big[PMC_MAX_EVENTS * 121 - 1] = '\0';
	assert_int_equal(pmc_event_list_walk(big, NULL, count_cb, &count, err, sizeof(err)), 0);
	assert_int_equal(count, PMC_MAX_EVENTS);
	memset(big, 'a', n);
	big[n] = '\0';
	assert_int_equal(pmc_event_list_walk(big, NULL, count_cb, &count, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "1024 events of up to 255 characters"));
	free(big);
}

static void test_perf_modifiers_set_levels_and_flags(void **state)
{
	static const struct {
		int line;
		const char *spec;
		unsigned excl, flags;
		bool guest, host, idle;
	} rows[] = {
		{ __LINE__, "cycles:pp", 0, PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "cycles:ppp", 0, PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "cycles:P", 0, PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "instructions:uk", 0, 0, false, false, false },
		{ __LINE__, "instructions:ukp", 0, PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "cs:u", EXCL_K | EXCL_H, 0, false, false, false },
		{ __LINE__, "cs:kh", EXCL_U, 0, false, false, false },
		{ __LINE__, "cycles:G", 0, PMC_EVF_GUEST_ONLY, false, true, false },
		{ __LINE__, "cycles:H", 0, PMC_EVF_HOST_ONLY, true, false, false },
		{ __LINE__, "cycles:GH", 0, 0, false, false, false },
		{ __LINE__, "task-clock:I", 0, 0, false, false, true },
		{ __LINE__, "task-clock:D", 0, PMC_EVF_PINNED, false, false, false },
		{ __LINE__, "task-clock:S", 0, PMC_EVF_SAMPLE_READ, false, false, false },
		{ __LINE__, "UOPS_ISSUED:ANY:pp", 0, PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "UOPS_ISSUED:ANY:uk", 0, 0, false, false, false },
		{ __LINE__, "uops_issued.any:u", EXCL_K | EXCL_H, 0, false, false, false },
		{ __LINE__, "uops_issued.any:Dp", 0, PMC_EVF_PINNED | PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "r53010e:pp", 0, PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "msr/tsc/pp", 0, PMC_EVF_PRECISE, false, false, false },
		{ __LINE__, "L1-dcache-load-misses:u", EXCL_K | EXCL_H, 0, false, false, false },
	};
	const unsigned mask = PMC_EVF_PRECISE | PMC_EVF_PINNED | PMC_EVF_SAMPLE_READ | PMC_EVF_GUEST_ONLY |
			      PMC_EVF_HOST_ONLY;

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_event ev;
		struct pmc_resolve_error err;

		if (pmc_event_resolve(rows[i].spec, &ev, &err))
			fail_msg("line %d: %s", rows[i].line, err.msg);
		if (excl_bits(&ev.attr) != rows[i].excl || (ev.flags & mask) != rows[i].flags ||
		    ev.attr.exclude_guest != rows[i].guest || ev.attr.exclude_host != rows[i].host ||
		    ev.attr.exclude_idle != rows[i].idle)
			fail_msg("line %d: '%s': excl %u flags %#x guest %d host %d idle %d", rows[i].line, rows[i].spec,
				 excl_bits(&ev.attr), ev.flags & mask, ev.attr.exclude_guest, ev.attr.exclude_host,
				 ev.attr.exclude_idle);
		assert_string_equal(ev.name, rows[i].spec);
	}
}

static void test_bad_modifiers_say_what_perf_takes(void **state)
{
	static const struct {
		int line;
		const char *spec, *msg;
	} rows[] = {
		{ __LINE__, "cycles:x", "perf's are u k h" },
		{ __LINE__, "cycles:h", "write :k or :hk" },
		{ __LINE__, "cycles:W", "belongs to a group" },
		{ __LINE__, "cycles:pppp", "p, pp or ppp" },
		{ __LINE__, "mem:0x1000:xq", "mem:0x401136:xu" },
		{ __LINE__, "mem:0x1000:", "mem:ADDRESS" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_event ev;
		struct pmc_resolve_error err;

		if (!pmc_event_resolve(rows[i].spec, &ev, &err))
			fail_msg("line %d: '%s' accepted", rows[i].line, rows[i].spec);
		if (!strstr(err.msg, rows[i].msg))
			fail_msg("line %d: '%s': '%s' lacks '%s'", rows[i].line, rows[i].spec, err.msg, rows[i].msg);
	}
}

static void test_breakpoint_access_and_modifiers_in_perf_spellings(void **state)
{
	static const struct {
		int line;
		const char *spec;
		unsigned type, excl;
		uint64_t len;
		const char *perf;
	} rows[] = {
		{ __LINE__, "mem:0x401136:xu", HW_BREAKPOINT_X, EXCL_K | EXCL_H, sizeof(long), "mem:0x401136/8:xu" },
		{ __LINE__, "mem:0x401136:X", HW_BREAKPOINT_X, 0, sizeof(long), "mem:0x401136/8:x" },
		{ __LINE__, "MEM:0x401136/8:x:u", HW_BREAKPOINT_X, EXCL_K | EXCL_H, 8, "mem:0x401136/8:xu" },
		{ __LINE__, "mem:0x1000:RWk", HW_BREAKPOINT_R | HW_BREAKPOINT_W, EXCL_U, 4, "mem:0x1000/4:rwk" },
		{ __LINE__, "mem:0x1000/2:w", HW_BREAKPOINT_W, 0, 2, "mem:0x1000/2:w" },
	};

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		struct pmc_event ev;
		struct pmc_resolve_error err;
		char perf[128];

		if (pmc_event_resolve(rows[i].spec, &ev, &err))
			fail_msg("line %d: %s", rows[i].line, err.msg);
		assert_int_equal(ev.attr.bp_type, rows[i].type);
		assert_int_equal(ev.attr.bp_len, rows[i].len);
		assert_int_equal(excl_bits(&ev.attr), rows[i].excl);
		assert_int_equal(pmc_event_perf_spelling(&ev, perf, sizeof(perf)), 0);
		if (strcmp(perf, rows[i].perf))
			fail_msg("line %d: perf spelling '%s', want '%s'", rows[i].line, perf, rows[i].perf);
	}
}

static void test_cache_names_resolve_with_perf_aliases(void **state)
{
	static const struct resolve_row rows[] = {
		{ __LINE__, "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, 0x10000, 0, 0, PMC_CLASS_GP, -1,
		  "L1-dcache-load-misses" },
		{ __LINE__, "L1-dcache-loads", PERF_TYPE_HW_CACHE, 0x0, 0, 0, PMC_CLASS_GP, -1, "L1-dcache-loads" },
		{ __LINE__, "l1d-load-miss", PERF_TYPE_HW_CACHE, 0x10000, 0, 0, PMC_CLASS_GP, -1, "L1-dcache-load-misses" },
		{ __LINE__, "LLC-store-misses", PERF_TYPE_HW_CACHE, 0x10102, 0, 0, PMC_CLASS_GP, -1, "LLC-store-misses" },
		{ __LINE__, "dTLB-prefetches", PERF_TYPE_HW_CACHE, 0x203, 0, 0, PMC_CLASS_GP, -1, "dTLB-prefetches" },
		{ __LINE__, "iTLB-load-misses", PERF_TYPE_HW_CACHE, 0x10004, 0, 0, PMC_CLASS_GP, -1, "iTLB-load-misses" },
		{ __LINE__, "branch-loads", PERF_TYPE_HW_CACHE, 0x5, 0, 0, PMC_CLASS_GP, -1, "branch-loads" },
		{ __LINE__, "node-read-access", PERF_TYPE_HW_CACHE, 0x6, 0, 0, PMC_CLASS_GP, -1, "node-loads" },
	};
	char name[64];
	size_t i;

	(void)state;
	for (i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		check_row(&rows[i]);
	/* every listed name resolves to itself, and perf's spelling of it is the name */
	for (i = 0; !pmc_cache_name_at(i, name, sizeof(name)); i++) {
		struct pmc_event ev;
		char perf[64];

		assert_int_equal(pmc_event_resolve(name, &ev, NULL), 0);
		assert_int_equal(ev.attr.type, PERF_TYPE_HW_CACHE);
		assert_int_equal(pmc_event_perf_spelling(&ev, perf, sizeof(perf)), 0);
		assert_string_equal(perf, name);
	}
	assert_int_equal(i, 2 * (3 + 2 + 3 + 3 + 1 + 1 + 3));
}

static void test_tracepoints_resolve_by_name_through_tracefs(void **state)
{
	static const struct resolve_row rows[] = {
		{ __LINE__, "sched:sched_switch", PERF_TYPE_TRACEPOINT, 314, 0, 0, PMC_CLASS_FREE, -1,
		  "sched:sched_switch" },
		{ __LINE__, "syscalls:sys_enter_write", PERF_TYPE_TRACEPOINT, 700, 0, 0, PMC_CLASS_FREE, -1, NULL },
		{ __LINE__, "sched:sched_switch:u", PERF_TYPE_TRACEPOINT, 314, 0, EXCL_K | EXCL_H, PMC_CLASS_FREE, -1,
		  NULL },
	};
	struct pmc_event ev;
	struct pmc_resolve_error err;
	char perf[64];

	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++)
		check_row(&rows[i]);
	assert_int_equal(pmc_event_resolve("sched:sched_switch", &ev, NULL), 0);
	assert_int_equal(pmc_event_perf_spelling(&ev, perf, sizeof(perf)), 0);
	assert_string_equal(perf, "sched:sched_switch");
	/* a misspelt event of a known system: named, with the system's nearest events */
	assert_int_equal(pmc_event_resolve("sched:sched_swich", &ev, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "unknown tracepoint 'sched:sched_swich'"));
	assert_non_null(strstr(err.msg, "did you mean 'sched:sched_switch'"));
	/* a misspelt system: the same event under the nearest system */
	assert_int_equal(pmc_event_resolve("schd:sched_switch", &ev, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "did you mean 'sched:sched_switch'"));
}

static int collect_cb(const char *name, void *ctx)
{
	char *out = ctx;

	snprintf(out + strlen(out), 512 - strlen(out), "%s;", name);
	return 0;
}

static void test_tracepoint_walk_lists_events_sorted_without_control_files(void **state)
{
	char out[512] = "";

	(void)state;
	assert_int_equal(pmc_tracepoint_walk(collect_cb, out), 0);
	assert_string_equal(out, "sched:sched_switch;sched:sched_waking;syscalls:sys_enter_write;");
}

static void test_plan_keeps_a_group_in_one_batch(void **state)
{
	/* 3 counters: a, b, then the group {c,d} does not fit the 1 left: it starts batch 2 whole, e fills it */
	const char *specs[] = { "branches", "branch-misses", "cache-misses", "cache-references", "bus-cycles" };
	unsigned group[] = { 0, 0, 1, 1, 0 };
	struct pmc_event evs[5];
	struct pmc_plan_opts o = { .gp_budget = 3, .fixed_slots = 0, .bp_budget = PMC_BREAKPOINT_SLOTS };
	struct pmc_plan p;

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(pmc_event_resolve(specs[i], &evs[i], NULL), 0);
		evs[i].group = group[i];
	}
	assert_int_equal(pmc_plan_build(evs, 5, &o, &p), 0);
	assert_int_equal(p.nbatches, 2);
	assert_int_equal(p.batches[0].n, 2);
	assert_int_equal(p.batches[1].n, 3);
	assert_int_equal(p.batches[1].events[0], 2);
	assert_int_equal(p.batches[1].events[1], 3);
	pmc_plan_fini(&p);
	/* without the group the same events pack 3 + 2 */
	evs[2].group = evs[3].group = 0;
	assert_int_equal(pmc_plan_build(evs, 5, &o, &p), 0);
	assert_int_equal(p.batches[0].n, 3);
	pmc_plan_fini(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_walk_hands_over_groups_with_their_modifiers),
		cmocka_unit_test(test_list_walk_rejects_bad_groups_with_a_message),
		cmocka_unit_test(test_list_cap_follows_the_event_count),
		cmocka_unit_test(test_perf_modifiers_set_levels_and_flags),
		cmocka_unit_test(test_bad_modifiers_say_what_perf_takes),
		cmocka_unit_test(test_breakpoint_access_and_modifiers_in_perf_spellings),
		cmocka_unit_test(test_cache_names_resolve_with_perf_aliases),
		cmocka_unit_test(test_tracepoints_resolve_by_name_through_tracefs),
		cmocka_unit_test(test_tracepoint_walk_lists_events_sorted_without_control_files),
		cmocka_unit_test(test_plan_keeps_a_group_in_one_batch),
	};
	char root[4096];
	const char *src = getenv("PMC_SOURCE_DIR");

	snprintf(root, sizeof(root), "%s/tests/pmu/tracefs", src ? src : ".");
	setenv("PMCTOOL_TRACEFS", root, 1);
	test_force("hsw", "sysfs");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
