/* SPDX-License-Identifier: MIT */
/* Vendor event tables (src/tables): every event shape encodes as perf's jevents would, the mapfile picks the model
 * (PMCTOOL_CPUID overriding the caller), a malformed file is skipped and named, lookup ignores case, the search
 * order is as documented. Fixture tables written for these tests: tests/tables/fixtures/{perfmon,pmu-events,arm}. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tables/tables.h"

#define INTEL_FAKELAKE "GenuineIntel-6-9A-3"
#define INTEL_FAKESKY "GenuineIntel-6-55-4"
#define AMD_FAKEZEN "AuthenticAMD-25-1-1"
#define ARM_A57 "0x00000000410fd070"
#define ARM_N1 "0x00000000410fd0c0"

static char fixtures[PATH_MAX];

static const char *fx(const char *sub)
{
	static char buf[4][PATH_MAX + 64];
	static int k;
	char *b = buf[k++ % 4];

	snprintf(b, PATH_MAX + 64, "%s/%s", fixtures, sub);
	return b;
}

static int clean_env(void **state)
{
	unsetenv("PMCTOOL_CPUID");
	unsetenv("PMCTOOL_TABLES");
	setenv("HOME", "/nonexistent-pmctool-test-home", 1);
	unsetenv("XDG_DATA_HOME");
	return 0;
}

static struct pmc_tables *load_ok(const char *dir, const char *cpuid)
{
	struct pmc_tables *t = NULL;
	int r = pmc_tables_load(dir, cpuid, &t);

	if (r != 0) {
		const struct pmc_tables_report *rep;
		fprintf(stderr, "load %s for %s: %d\n", dir, cpuid, r);
		for (size_t i = 0; t && pmc_tables_report(t, &rep) == 0 && i < rep->nlocations; i++)
			fprintf(stderr, "  %s: %s\n", rep->locations[i].path, rep->locations[i].why);
	}
	assert_int_equal(r, 0);
	assert_non_null(t);
	return t;
}

static const struct pmc_table_note *file_note(const struct pmc_tables_report *rep, const char *tail)
{
	for (size_t i = 0; i < rep->nfiles; i++) {
		size_t a = strlen(rep->files[i].path), b = strlen(tail);
		if (a >= b && strcmp(rep->files[i].path + a - b, tail) == 0)
			return &rep->files[i];
	}
	return NULL;
}

/* ---- every name shape -> the config perf would give it ---- */
static const struct shape {
	int line;
	const char *dir, *cpuid, *name;
	uint64_t config, config1;
	int enc;
	bool deprecated, fixed;
} shapes[] = {
	/* perfmon: perf's fixed-counter names take perf's encoding, the others keep the event-0 pseudo code */
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "inst_retired.any", 0xc0, 0, 0, false, true },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "cpu_clk_unhalted.thread", 0x3c, 0, 0, false, true },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "cpu_clk_unhalted.ref_tsc", 0x0300, 0, 0, false, true },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "topdown.slots", 0x0400, 0, 0, false, true },
	/* the first code of "0xB7,0xBB", the MSR value into config1 */
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "ocr.demand_data_rd.any_response", 0x01b7, 0x10001, 0, false, false },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "mem_trans_retired.load_latency_gt_8", 0x01cd, 8, 0, false, false },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "frontend_retired.fake_miss", 0x01c6, 0x11, 0, false, false },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "uops_issued.stall_cycles", 0x0e | 0x01 << 8 | 1 << 23 | 1ull << 24, 0, 0,
	  false, false },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "uops_retired.fake_starts", 0xc2 | 0x02 << 8 | 1 << 18 | 1ull << 24, 0, 0,
	  false, false },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "fake_any.thread_cycles", 0x3c | 1 << 21, 0, 0, false, false },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "old_fake.gone", 0x3f24, 0, 0, true, false },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "idq_fake.cycles_0_uops.core", 0x019c | 4ull << 24, 0, 0, false, false },
	/* perf's pmu-events, x86: a list with a space, a 40-bit MSR value, a stepping-less mapfile row */
	{ __LINE__, "pmu-events", INTEL_FAKESKY, "ocr.demand_data_rd.l3_hit.snoop_hitm", 0x01b7, 0x10003C0001, 0, false,
	  false },
	{ __LINE__, "pmu-events", INTEL_FAKESKY, "mem_trans_retired.load_latency_gt_4", 0x01cd, 4, 0, false, false },
	{ __LINE__, "pmu-events", INTEL_FAKESKY, "cpu_clk_unhalted.core", 0x3c, 0, 0, false, true },
	{ __LINE__, "pmu-events", INTEL_FAKESKY, "cpu_clk_unhalted.thread_any", 0x3c | 1 << 21, 0, 0, false, true },
	{ __LINE__, "pmu-events", INTEL_FAKESKY, "idq_uops_not_delivered.cycles_0_uops_deliv.core", 0x019c | 4ull << 24,
	  0, 0, false, false },
	{ __LINE__, "pmu-events", "GenuineIntel-6-3D-4", "br_fake.all", 0xc4, 0, 0, false, false },
	/* AMD: codes above 0xff put their high nibble in config bits 32-35 */
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "ex_ret_instr", 0xc0, 0, 0, false, false },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "ls_dispatch.ld_dispatch", 0x0129, 0, 0, false, false },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "de_src_op_disp.all", 0xaa | 0x07 << 8 | 1ull << 32, 0, 0, false, false },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "ls_fake_high.code", 0xff | 0xff << 8 | 0xfull << 32, 0, 0, false, false },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "ex_fake_cmask", 0x76 | 1 << 23 | 2ull << 24, 0, 0, false, false },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "ex_fake_old", 0x77, 0, 0, true, false },
	/* a trailing comma and a raw tab (older perf trees) are tolerated */
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "ex_fake_trailing.comma", 0x032c, 0, 0, false, false },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "ex_fake_after_nocomma", 0x2e, 0, 0, false, false }, /* "}" "{" */
	/* arm64: the event number; ArchStdEvent takes the architecture's standard entry */
	{ __LINE__, "pmu-events", ARM_A57, "cpu_cycles", 0x11, 0, 1, false, false },
	{ __LINE__, "pmu-events", ARM_A57, "l1d_cache_refill", 0x03, 0, 1, false, false },
	{ __LINE__, "pmu-events", ARM_A57, "bus_access_rd_fake", 0x60, 0, 1, false, false },
	/* Arm Neoverse telemetry: events keyed by name with a numeric code */
	{ __LINE__, "arm", ARM_N1, "stall_backend", 36, 0, 1, false, false },
	{ __LINE__, "arm", ARM_N1, "fake_impdef_event", 0x1f0, 0, 1, false, false },
};

static void test_every_event_shape_encodes_as_perf_does(void **state)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *s = &shapes[i];
		struct pmc_tables *t = load_ok(fx(s->dir), s->cpuid);
		const struct pmc_table_event *e;
		int r = pmc_tables_find(t, s->name, &e);
		if (r != 0)
			fprintf(stderr, "line %d: %s not found\n", s->line, s->name);
		assert_int_equal(r, 0);
		if (e->config != s->config || e->config1 != s->config1 || (int)e->enc != s->enc ||
		    e->deprecated != s->deprecated || e->fixed_name != s->fixed)
			fprintf(stderr, "line %d: %s: config 0x%llx config1 0x%llx enc %d dep %d fixed %d\n", s->line,
			        s->name, (unsigned long long)e->config, (unsigned long long)e->config1, (int)e->enc,
			        e->deprecated, e->fixed_name);
		assert_int_equal(e->config, s->config);
		assert_int_equal(e->config1, s->config1);
		assert_int_equal(e->enc, s->enc);
		assert_int_equal(e->deprecated, s->deprecated);
		assert_int_equal(e->fixed_name, s->fixed);
		assert_non_null(e->source);
		assert_non_null(e->desc);
		pmc_tables_free(t);
	}
}

static void test_arch_std_event_keeps_own_description(void **state)
{
	struct pmc_tables *t = load_ok(fx("pmu-events"), ARM_A57);
	const struct pmc_table_event *e;

	assert_int_equal(pmc_tables_find(t, "inst_retired", &e), 0);
	assert_int_equal(e->config, 0x08);
	assert_string_equal(e->desc, "Fixture: own description over the standard one.");
	assert_int_equal(pmc_tables_find(t, "cpu_cycles", &e), 0);
	assert_string_equal(e->desc, "Fixture: architecture-standard cycles (made up text).");
	pmc_tables_free(t);
}

/* ---- the mapfile match, as perf's regcomp/regexec rule ---- */
static const struct match {
	int line;
	const char *pattern, *cpuid;
	int want;
} matches[] = {
	{ __LINE__, "GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-4", 1 },
	{ __LINE__, "GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-7", 0 },   /* another stepping */
	{ __LINE__, "GenuineIntel-6-55-[01234]", "GenuineIntel-6-55-41", 0 },  /* the whole CPUID must match */
	{ __LINE__, "GenuineIntel-6-3D", "GenuineIntel-6-3D-4", 1 },           /* no stepping in the row: ignored */
	{ __LINE__, "GenuineIntel-6-3D", "GenuineIntel-6-3DA-4", 0 },
	{ __LINE__, "GenuineIntel-6-(9A|9B)-[0-9A-F]", "GenuineIntel-6-9B-0", 1 },
	{ __LINE__, "AuthenticAMD-25-([01][[:xdigit:]])", "AuthenticAMD-25-01", 1 },
	{ __LINE__, "AuthenticAMD-25-([01][[:xdigit:]])", "AuthenticAMD-25-1-1", 0 },
	{ __LINE__, "AuthenticAMD-25-[[:xdigit:]]+", "AuthenticAMD-25-1-1", 1 },
	{ __LINE__, "AuthenticAMD-25-[[:xdigit:]]+", "AuthenticAMD-26-1-1", 0 },
	{ __LINE__, "0x00000000410fd0c0", "0x00000000410fd0c0", 1 },
	{ __LINE__, "0x00000000410fd0c0", "0x00000000410fd0c1", 0 },
	{ __LINE__, "0x00000000410fd0c0", "x0x00000000410fd0c0", 0 },         /* anchored at the start */
	{ __LINE__, "GenuineIntel-6-(9A", "GenuineIntel-6-9A-1", -EINVAL },
	/* bounded whatever the table says: repetitions that expand past the state limit are refused before regcomp */
	{ __LINE__, "a++++++++++++++++++++++++++++++++", "aaaa", -E2BIG },              /* fuzz_tables' 33 bytes */
	{ __LINE__, "a{255}{255}", "aaaa", -E2BIG },
	{ __LINE__, "((a{100}){100}){100}", "aaaa", -E2BIG },
	{ __LINE__, "(a)\\1", "aa", -E2BIG },                                           /* a back-reference */
	{ __LINE__, "0x0066[[:xdigit:]]{4}", "0x00661234", 1 },                         /* perf's powerpc rows */
	{ __LINE__, "((((((a+)+)+)+)+)+)+", "aaaa", 1 },
	{ __LINE__, "AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]])", "AuthenticAMD-25-4A", 1 },
};

static void test_mapfile_patterns_match_whole_cpuid_as_perf(void **state)
{
	for (size_t i = 0; i < sizeof(matches) / sizeof(matches[0]); i++) {
		int r = pmc_table_cpuid_match(matches[i].pattern, matches[i].cpuid);
		if (r != matches[i].want)
			fprintf(stderr, "line %d: '%s' on '%s' gave %d\n", matches[i].line, matches[i].pattern,
			        matches[i].cpuid, r);
		assert_int_equal(r, matches[i].want);
	}
}

/* ---- which model each CPUID loads, with the counts the report gives ---- */
static const struct model {
	int line;
	const char *dir, *cpuid;
	int rc;
	enum pmc_table_format format;
	const char *model;
	size_t events, metrics, deprecated;
} models[] = {
	{ __LINE__, "perfmon", INTEL_FAKELAKE, 0, PMC_TABLE_PERFMON, "FAKELAKE/events/fakelake_core.json", 12, 2, 1 },
	{ __LINE__, "perfmon", "GenuineIntel-6-77-0", 0, PMC_TABLE_PERFMON, "OTHERLAKE/events/otherlake_core.json", 1, 0,
	  0 },
	{ __LINE__, "perfmon", "GenuineIntel-6-99-1", -ENOENT, PMC_TABLE_NONE, NULL, 0, 0, 0 },
	{ __LINE__, "perfmon", "GenuineIntel-6-AA-4", 0, PMC_TABLE_PERFMON, "HYBRIDLAKE/events/hybridlake_big_core.json", 4,
	  0, 0 },
	{ __LINE__, "pmu-events", INTEL_FAKESKY, 0, PMC_TABLE_PERF, "fakesky", 8, 1, 0 }, /* 7 core, 1 uncore (CAS) */
	{ __LINE__, "pmu-events", AMD_FAKEZEN, 0, PMC_TABLE_PERF, "fakezen", 9, 2, 1 },
	{ __LINE__, "pmu-events", ARM_A57, 0, PMC_TABLE_PERF, "arm/fake-a57", 4, 1, 0 },
	{ __LINE__, "pmu-events/arch", ARM_A57, 0, PMC_TABLE_PERF, "arm/fake-a57", 4, 1, 0 },
	{ __LINE__, "pmu-events/arch/x86", AMD_FAKEZEN, 0, PMC_TABLE_PERF, "fakezen", 9, 2, 1 },
	{ __LINE__, "pmu-events", "AuthenticAMD-23-1-1", -ENOENT, PMC_TABLE_NONE, NULL, 0, 0, 0 },
	{ __LINE__, "arm", ARM_N1, 0, PMC_TABLE_ARM, "fake-neoverse-n.json", 5, 2, 0 },
	{ __LINE__, "arm", ARM_A57, -ENOENT, PMC_TABLE_NONE, NULL, 0, 0, 0 },
	{ __LINE__, "arm", INTEL_FAKESKY, -ENOENT, PMC_TABLE_NONE, NULL, 0, 0, 0 },
};

static void test_mapfile_picks_the_model_of_the_cpuid(void **state)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		const struct model *m = &models[i];
		const struct pmc_tables_report *rep;
		struct pmc_tables *t = NULL;
		int r = pmc_tables_load(fx(m->dir), m->cpuid, &t);
		assert_non_null(t);
		assert_int_equal(pmc_tables_report(t, &rep), 0);
		if (r != m->rc || rep->format != m->format || rep->nevents != m->events || rep->nmetrics != m->metrics)
			fprintf(stderr, "line %d: rc %d format %d events %zu metrics %zu\n", m->line, r, rep->format,
			        rep->nevents, rep->nmetrics);
		assert_int_equal(r, m->rc);
		assert_int_equal(rep->format, m->format);
		assert_int_equal(rep->nevents, m->events);
		assert_int_equal(rep->nmetrics, m->metrics);
		assert_int_equal(rep->ndeprecated, m->deprecated);
		assert_string_equal(rep->cpuid, m->cpuid);
		if (m->model) {
			size_t a = strlen(rep->model), b = strlen(m->model);
			assert_true(a >= b && strcmp(rep->model + a - b, m->model) == 0);
			assert_string_equal(rep->dir_from, "argument");
		} else {
			assert_null(rep->dir);
			assert_true(rep->nlocations >= 1);
			assert_true(rep->locations[0].why[0] != '\0'); /* says why the location gave nothing */
		}
		pmc_tables_free(t);
	}
}

static void test_unmatched_cpuid_report_names_the_mapfile(void **state)
{
	struct pmc_tables *t = NULL;
	const struct pmc_tables_report *rep;

	assert_int_equal(pmc_tables_load(fx("pmu-events"), "GenuineIntel-6-99-1", &t), -ENOENT);
	assert_int_equal(pmc_tables_report(t, &rep), 0);
	assert_non_null(strstr(rep->locations[0].why, "mapfile.csv: none of its 3 rows matches CPUID GenuineIntel-6-99-1"));
	pmc_tables_free(t);
}

static void test_pmctool_cpuid_overrides_the_callers(void **state)
{
	struct pmc_tables *t;
	const struct pmc_tables_report *rep;
	const struct pmc_table_event *e;

	setenv("PMCTOOL_CPUID", AMD_FAKEZEN, 1);
	t = load_ok(fx("pmu-events"), INTEL_FAKESKY);
	assert_int_equal(pmc_tables_report(t, &rep), 0);
	assert_string_equal(rep->cpuid, AMD_FAKEZEN);
	assert_string_equal(rep->cpuid_from, "PMCTOOL_CPUID");
	assert_int_equal(pmc_tables_find(t, "ex_ret_instr", &e), 0);
	assert_int_equal(pmc_tables_find(t, "uops_issued.any", &e), -ENOENT);
	pmc_tables_free(t);
	setenv("PMCTOOL_CPUID", "", 1); /* empty: the caller's */
	t = load_ok(fx("pmu-events"), INTEL_FAKESKY);
	assert_int_equal(pmc_tables_find(t, "uops_issued.any", &e), 0);
	pmc_tables_report(t, &rep);
	assert_string_equal(rep->cpuid_from, "caller");
	pmc_tables_free(t);
	unsetenv("PMCTOOL_CPUID");
}

static void test_no_cpuid_is_enoent_with_a_report(void **state)
{
	struct pmc_tables *t = NULL;
	const struct pmc_tables_report *rep;

	assert_int_equal(pmc_tables_load(fx("pmu-events"), NULL, &t), -ENOENT);
	assert_int_equal(pmc_tables_report(t, &rep), 0);
	assert_null(rep->cpuid);
	assert_int_equal(rep->nevents, 0);
	pmc_tables_free(t);
}

/* ---- malformed files: skipped, named, with the reason; bad items counted ---- */
static const struct skip {
	int line;
	const char *dir, *cpuid, *file, *why;
} skips[] = {
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "fakezen/broken.json", "not valid JSON: line 2" },
	{ __LINE__, "pmu-events", INTEL_FAKESKY, "fakesky/uncore-unspelt.json", "only uncore events (2) pmctool cannot spell" },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "FAKELAKE/events/fakelake_offcore.json", "not valid JSON: line 1" },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "FAKELAKE/events/fakelake_uncore.json", "a uncore table: only core-PMU events" },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "perfmon/mapfile.csv", "row 6: 'GenuineIntel-6-(9A' is not a POSIX" },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "fakelake_matrix.json", "an offcore matrix (1 request and response" },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "fakelake_retire_latency.json", "a retire latency table: only core-PMU" },
	{ __LINE__, "arm", ARM_N1, "fake-neoverse-broken.json", "not valid JSON" },
};

static void test_malformed_file_is_skipped_and_named(void **state)
{
	for (size_t i = 0; i < sizeof(skips) / sizeof(skips[0]); i++) {
		struct pmc_tables *t = load_ok(fx(skips[i].dir), skips[i].cpuid);
		const struct pmc_tables_report *rep;
		pmc_tables_report(t, &rep);
		const struct pmc_table_note *n = file_note(rep, skips[i].file);
		if (!n || !n->skipped || !strstr(n->why, skips[i].why))
			fprintf(stderr, "line %d: %s: %s\n", skips[i].line, skips[i].file, n ? n->why : "(no note)");
		assert_non_null(n);
		assert_true(n->skipped);
		assert_non_null(strstr(n->why, skips[i].why));
		pmc_tables_free(t);
	}
}

static const struct bad {
	int line;
	const char *dir, *cpuid, *file, *why, *absent;
	size_t nbad, events;
} bads[] = {
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "fakelake_core.json", "event bad_code.event: EventCode is not a number",
	  "bad_code.event", 1, 12 },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "fakezen/core.json", "event ex_fake_toobig: EventCode is not a number up "
	  "to 0xfff", "ex_fake_toobig", 2, 6 },
	{ __LINE__, "pmu-events", ARM_A57, "fake-a57/pipeline.json", "ArchStdEvent NOT_A_STANDARD_EVENT is not among",
	  "not_a_standard_event", 1, 4 },
};

static void test_bad_event_is_left_out_and_counted(void **state)
{
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct pmc_tables *t = load_ok(fx(bads[i].dir), bads[i].cpuid);
		const struct pmc_tables_report *rep;
		const struct pmc_table_event *e;
		pmc_tables_report(t, &rep);
		const struct pmc_table_note *n = file_note(rep, bads[i].file);
		assert_non_null(n);
		if (n->skipped || n->bad != bads[i].nbad || !strstr(n->why, bads[i].why))
			fprintf(stderr, "line %d: skipped %d bad %zu why '%s'\n", bads[i].line, n->skipped, n->bad, n->why);
		assert_false(n->skipped);
		assert_int_equal(n->bad, bads[i].nbad);
		assert_int_equal(n->events, bads[i].events);
		assert_non_null(strstr(n->why, bads[i].why));
		assert_int_equal(pmc_tables_find(t, bads[i].absent, &e), -ENOENT);
		pmc_tables_free(t);
	}
}

/* ---- lookup ---- */
/* a hybrid CPU: each core type's file gives its events that PMU (perfmon's Core Role Name); the same name in both
 * is found once, the big core's (read first) */
static void test_hybrid_rows_name_the_core_pmu(void **state)
{
	static const struct {
		const char *name, *pmu;
		const char *desc;
	} rows[] = {
		{ "big_only.fake", "cpu_core", NULL },
		{ "small_only.fake", "cpu_atom", NULL },
		{ "br_fake_retired.all", "cpu_core", "Fixture: big-core branches (made up)." },
	};
	struct pmc_tables *t = load_ok(fx("perfmon"), "GenuineIntel-6-AA-4");
	const struct pmc_table_event *e;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(pmc_tables_find(t, rows[i].name, &e), 0);
		assert_string_equal(e->pmu, rows[i].pmu);
		if (rows[i].desc)
			assert_string_equal(e->desc, rows[i].desc);
	}
	pmc_tables_free(t);
}

static void test_lookup_ignores_case(void **state)
{
	static const char *const spellings[] = { "ocr.demand_data_rd.any_response", "OCR.DEMAND_DATA_RD.ANY_RESPONSE",
		                                  "Ocr.Demand_Data_Rd.Any_Response" };
	struct pmc_tables *t = load_ok(fx("perfmon"), INTEL_FAKELAKE);
	const struct pmc_table_event *e;
	const struct pmc_table_metric *m;

	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(pmc_tables_find(t, spellings[i], &e), 0);
		assert_string_equal(e->name, "ocr.demand_data_rd.any_response");
	}
	assert_int_equal(pmc_tables_find(t, "ocr.demand_data_rd", &e), -ENOENT);          /* a prefix is no match */
	assert_int_equal(pmc_tables_find(t, "ocr.demand_data_rd.any_responsex", &e), -ENOENT);
	assert_int_equal(pmc_tables_find(t, "zzz", &e), -ENOENT);
	assert_int_equal(pmc_tables_find(t, "", &e), -ENOENT);
	assert_int_equal(pmc_tables_find(NULL, "x", &e), -EINVAL);
	assert_int_equal(pmc_tables_find_metric(t, "FAKE_IPC", &m), 0);
	assert_string_equal(m->name, "fake_ipc");
	pmc_tables_free(t);
}

static void test_events_listed_sorted_by_name(void **state)
{
	struct pmc_tables *t = load_ok(fx("perfmon"), INTEL_FAKELAKE);
	const struct pmc_table_event *ev;
	size_t n = pmc_tables_events(t, &ev);

	assert_int_equal(n, 12);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(ev[i - 1].name, ev[i].name) < 0);
	pmc_tables_free(t);
}

/* ---- metrics kept as text for -M ---- */
static const struct met {
	int line;
	const char *dir, *cpuid, *name, *expr, *groups, *threshold, *unit;
} mets[] = {
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "fake_ipc", "a / b", "FakeGroup;Summary", "a < 1", "per cycle" },
	{ __LINE__, "perfmon", INTEL_FAKELAKE, "fake_slots_share", "100 * a / a", "TopdownL1", NULL, "percent" },
	{ __LINE__, "pmu-events", AMD_FAKEZEN, "fake_zen_load_share", "d_ratio(ls_dispatch.ld_dispatch, de_src_op_disp.all)",
	  "FakeZen;Loads", "fake_zen_load_share > 0.5", "100%" },
	{ __LINE__, "pmu-events", INTEL_FAKESKY, "fake_sky_cpi", "1 / (INST_RETIRED.ANY / CPU_CLK_UNHALTED.THREAD)",
	  "FakeSky", NULL, NULL },
	{ __LINE__, "pmu-events", ARM_A57, "fake_a57_ipc", "INST_RETIRED / CPU_CYCLES", "FakeArm", NULL, NULL },
	{ __LINE__, "arm", ARM_N1, "fake_backend_bound", "STALL_BACKEND / CPU_CYCLES * 100", NULL, NULL,
	  "percent of cycles" },
};

static void check_opt(const char *got, const char *want)
{
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
}

static void test_metrics_kept_with_groups_threshold_unit(void **state)
{
	for (size_t i = 0; i < sizeof(mets) / sizeof(mets[0]); i++) {
		struct pmc_tables *t = load_ok(fx(mets[i].dir), mets[i].cpuid);
		const struct pmc_table_metric *m;
		assert_int_equal(pmc_tables_find_metric(t, mets[i].name, &m), 0);
		assert_string_equal(m->expr, mets[i].expr);
		check_opt(m->groups, mets[i].groups);
		check_opt(m->threshold, mets[i].threshold);
		check_opt(m->unit, mets[i].unit);
		assert_non_null(m->source);
		pmc_tables_free(t);
	}
}

/* ---- the search order: argument, PMCTOOL_TABLES, XDG_DATA_HOME, HOME ---- */
static void test_search_order_argument_env_xdg_home(void **state)
{
	char tmp[] = "/tmp/pmctool-tables-XXXXXX", xdg[PATH_MAX], link[PATH_MAX + 64];
	struct pmc_tables *t;
	const struct pmc_tables_report *rep;

	assert_non_null(mkdtemp(tmp));
	snprintf(xdg, sizeof(xdg), "%s/xdg/pmctool", tmp);
	assert_int_equal(system((snprintf(link, sizeof(link), "mkdir -p '%s' '%s/home/.local/share/pmctool'", xdg, tmp),
	                         link)), 0);
	snprintf(link, sizeof(link), "%s/tables", xdg);
	assert_int_equal(symlink(fx("pmu-events"), link), 0);
	snprintf(link, sizeof(link), "%s/home/.local/share/pmctool/tables", tmp);
	assert_int_equal(symlink(fx("arm"), link), 0);

	/* the argument first, even with PMCTOOL_TABLES set */
	setenv("PMCTOOL_TABLES", fx("arm"), 1);
	t = load_ok(fx("perfmon"), INTEL_FAKELAKE);
	pmc_tables_report(t, &rep);
	assert_string_equal(rep->dir_from, "argument");
	pmc_tables_free(t);
	/* an argument without tables for this CPU: PMCTOOL_TABLES next, the argument's reason kept */
	t = load_ok(fx("perfmon"), ARM_N1);
	pmc_tables_report(t, &rep);
	assert_string_equal(rep->dir_from, "PMCTOOL_TABLES");
	assert_int_equal(rep->format, PMC_TABLE_ARM);
	assert_true(rep->nlocations == 2 && rep->locations[0].why[0] && !rep->locations[1].why[0]);
	pmc_tables_free(t);
	/* then $XDG_DATA_HOME/pmctool/tables, then ~/.local/share/pmctool/tables */
	unsetenv("PMCTOOL_TABLES");
	snprintf(link, sizeof(link), "%s/xdg", tmp);
	setenv("XDG_DATA_HOME", link, 1);
	snprintf(link, sizeof(link), "%s/home", tmp);
	setenv("HOME", link, 1);
	t = load_ok("/nonexistent-pmctool-tables", AMD_FAKEZEN);
	pmc_tables_report(t, &rep);
	assert_string_equal(rep->dir_from, "XDG_DATA_HOME");
	assert_string_equal(rep->locations[0].why, "no such directory");
	pmc_tables_free(t);
	t = load_ok(NULL, ARM_N1);
	pmc_tables_report(t, &rep);
	assert_string_equal(rep->dir_from, "HOME");
	pmc_tables_free(t);

	snprintf(link, sizeof(link), "rm -rf '%s'", tmp);
	assert_int_equal(system(link), 0);
	clean_env(state);
}

int main(void)
{
	const char *src = getenv("PMC_SOURCE_DIR");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_every_event_shape_encodes_as_perf_does, clean_env),
		cmocka_unit_test_setup(test_arch_std_event_keeps_own_description, clean_env),
		cmocka_unit_test_setup(test_mapfile_patterns_match_whole_cpuid_as_perf, clean_env),
		cmocka_unit_test_setup(test_mapfile_picks_the_model_of_the_cpuid, clean_env),
		cmocka_unit_test_setup(test_unmatched_cpuid_report_names_the_mapfile, clean_env),
		cmocka_unit_test_setup(test_pmctool_cpuid_overrides_the_callers, clean_env),
		cmocka_unit_test_setup(test_no_cpuid_is_enoent_with_a_report, clean_env),
		cmocka_unit_test_setup(test_malformed_file_is_skipped_and_named, clean_env),
		cmocka_unit_test_setup(test_bad_event_is_left_out_and_counted, clean_env),
		cmocka_unit_test_setup(test_hybrid_rows_name_the_core_pmu, clean_env),
		cmocka_unit_test_setup(test_lookup_ignores_case, clean_env),
		cmocka_unit_test_setup(test_events_listed_sorted_by_name, clean_env),
		cmocka_unit_test_setup(test_metrics_kept_with_groups_threshold_unit, clean_env),
		cmocka_unit_test_setup(test_search_order_argument_env_xdg_home, clean_env),
	};

	char rel[PATH_MAX];
	snprintf(rel, sizeof(rel), "%s/tests/tables/fixtures", src ? src : ".");
	if (!realpath(rel, fixtures)) { /* absolute: the search-order test links to the fixtures from a temp dir */
		fprintf(stderr, "test_tables: no fixtures at %s (set PMC_SOURCE_DIR)\n", rel);
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
