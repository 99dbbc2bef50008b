/* SPDX-License-Identifier: MIT */
/* Every output format of a fixed report against its golden file in tests/golden/.
 * PMC_UPDATE_GOLDEN=1 rewrites the golden files (review the diff before committing). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output/format.h"
#include "output/output.h"

static struct pmc_sample samples_tc[2] = {
	{ 0, 0, { 1523456, 1523456, 1523456, PMC_COUNT_OK, 0, 0 } },
	{ 0, 1, { 1498765, 1498765, 1498765, PMC_COUNT_OK, 0, 0 } },
};
static struct pmc_sample samples_pf[2] = {
	{ 0, 0, { 120, 1523456, 1523456, PMC_COUNT_OK, 0, PMC_COUNT_USER_ONLY } },
	{ 0, 1, { 124, 1498765, 1498765, PMC_COUNT_OK, 0, PMC_COUNT_USER_ONLY } },
};
static struct pmc_sample samples_cyc[1] = { { 0, 0, { 0, 0, 0, PMC_COUNT_NOT_SUPPORTED, ENOENT, 0 } } };
static struct pmc_sample samples_mux[1] = { { 0, 1, { 1000, 2000, 1000, PMC_COUNT_OK, 0, 0 } } };
static struct pmc_sample samples_nc[1] = { { 0, 1, { 0, 2000, 0, PMC_COUNT_NOT_COUNTED, 0, 0 } } };

static void build_report(struct pmc_report *rep, struct pmc_report_event *evs)
{
	static const struct {
		const char *name, *canonical;
		enum pmc_counter_class cls;
		unsigned flags;
		bool every;
		int batch;
		struct pmc_sample *s;
		size_t n;
	} rows[] = {
		{ "task-clock", "task-clock", PMC_CLASS_FREE, PMC_EVF_TIME_NS, true, -1, samples_tc, 2 },
		{ "page-faults", "page-faults", PMC_CLASS_FREE, 0, true, -1, samples_pf, 2 },
		{ "cycles", "cycles", PMC_CLASS_FIXED, PMC_EVF_HARDWARE | PMC_EVF_ANCHOR, true, -1, samples_cyc, 1 },
		{ "UOPS_ISSUED:ANY", "hsw::UOPS_ISSUED:ANY:k=1:u=1:e=0:i=0:c=0:t=0", PMC_CLASS_GP, PMC_EVF_HARDWARE, false,
		  1, samples_mux, 1 },
		{ "weird,\"name\"", "x", PMC_CLASS_GP, PMC_EVF_HARDWARE, false, 1, samples_nc, 1 },
	};
	struct pmc_metric_value m1 = { .name = "IPC", .unit = "", .desc = "instructions per cycle", .valid = true,
				       .value = 1.25 };
	struct pmc_metric_value m2 = { .name = "utilization", .unit = "", .desc = "ref-cycles / TSC", .valid = false,
				       .reason = "ref-cycles not supported: no hardware PMU" };
	/* a histogram bucket: printed with a bar */
	struct pmc_metric_value m3 = { .name = "uops_issued_4", .unit = "%", .desc = "cycles issuing exactly 4 uops",
				       .valid = true, .value = 75.5 };

	memset(rep, 0, sizeof(*rep));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&evs[i], 0, sizeof(evs[i]));
		snprintf(evs[i].ev.name, sizeof(evs[i].ev.name), "%s", rows[i].name);
		snprintf(evs[i].ev.canonical, sizeof(evs[i].ev.canonical), "%s", rows[i].canonical);
		evs[i].ev.cls = rows[i].cls;
		evs[i].ev.flags = rows[i].flags;
		evs[i].ev.attr.type = rows[i].cls == PMC_CLASS_FREE ? 1 : 4;
		evs[i].ev.attr.config = 0x10e;
		evs[i].in_every_batch = rows[i].every;
		evs[i].batch = rows[i].batch;
		evs[i].samples = rows[i].s;
		evs[i].nsamples = rows[i].n;
	}
	snprintf(rep->workload, sizeof(rep->workload), "ls -l /tmp");
	rep->nruns = 1;
	rep->nbatches = 2;
	rep->events = evs;
	rep->nevents = sizeof(rows) / sizeof(rows[0]);
	rep->wall_ns_mean = 1600000;
	rep->wall_ns_min = 1550000;
	rep->wall_ns_max = 1650000;
	rep->user_s = 0.001;
	rep->sys_s = 0.0005;
	rep->tsc_hz = 2.4e9;
	rep->tsc_source = "cpuid 0x15";
	pmc_report_summarize(rep);
	rep->mode = "rerun";
	pmc_report_set_const(rep, "SECONDS", 0.0016);
	pmc_report_add_metric(rep, &m1);
	pmc_report_add_metric(rep, &m2);
	pmc_report_add_metric(rep, &m3);
	pmc_report_add_check(rep, PMC_CHECK_WARN, "multiplexed", "1 event ran 50.00%% of the time");
}

static void check_golden(enum pmc_output_format fmt, const char *sep, const char *golden)
{
	struct pmc_report_event evs[5];
	struct pmc_report rep;
	struct pmc_output_opts o = { .format = fmt };
	char *buf = NULL, path[4096], *want;
	size_t len = 0;
	FILE *f;
	long wl;

	snprintf(o.sep, sizeof(o.sep), "%s", sep ? sep : "");
	build_report(&rep, evs);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(pmc_output_write(f, &rep, &o), 0);
	fclose(f);
	free(rep.metrics);
	free(rep.checks);
	snprintf(path, sizeof(path), "%s/tests/golden/%s", getenv("PMC_SOURCE_DIR"), golden);
	if (getenv("PMC_UPDATE_GOLDEN")) {
		f = fopen(path, "wb");
		assert_non_null(f);
		fwrite(buf, 1, len, f);
		fclose(f);
	}
	f = fopen(path, "rb");
	if (!f)
		fail_msg("golden file %s missing (PMC_UPDATE_GOLDEN=1 creates it)", path);
	fseek(f, 0, SEEK_END);
	wl = ftell(f);
	fseek(f, 0, SEEK_SET);
	want = calloc(1, (size_t)wl + 1);
	assert_int_equal(fread(want, 1, (size_t)wl, f), (size_t)wl);
	fclose(f);
	if ((size_t)wl != len || memcmp(want, buf, len))
		fail_msg("output differs from %s:\n--- got ---\n%s\n--- want ---\n%s", golden, buf, want);
	free(want);
	free(buf);
}

static void test_output_table_matches_golden(void **s) { (void)s; check_golden(PMC_OUTPUT_TABLE, NULL, "report.txt"); }
static void test_output_perf_sep_matches_golden(void **s) { (void)s; check_golden(PMC_OUTPUT_SEP, ";", "report.sep"); }
static void test_output_csv_matches_golden(void **s) { (void)s; check_golden(PMC_OUTPUT_CSV, NULL, "report.csv"); }
static void test_output_json_matches_golden(void **s) { (void)s; check_golden(PMC_OUTPUT_JSON, NULL, "report.json"); }

static void test_output_group_digits_table(void **s)
{
	static const struct {
		int line;
		double v;
		const char *want;
	} rows[] = {
		{ __LINE__, 0, "0" },           { __LINE__, 999, "999" },         { __LINE__, 1000, "1,000" },
		{ __LINE__, 123456, "123,456" }, { __LINE__, 1234567, "1,234,567" }, { __LINE__, 17000001807.0, "17,000,001,807" },
		{ __LINE__, 2.6, "3" },
	};
	(void)s;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char buf[64];
		pmc_output_group_digits(rows[i].v, buf, sizeof(buf));
		if (strcmp(buf, rows[i].want))
			fail_msg("line %d: got %s want %s", rows[i].line, buf, rows[i].want);
	}
}

static void test_output_summary_scales_multiplexed_and_never_zeroes_not_counted(void **s)
{
	struct pmc_report_event evs[5];
	struct pmc_report rep;

	(void)s;
	build_report(&rep, evs);
	assert_int_equal(evs[3].status, PMC_COUNT_OK);
	assert_true(evs[3].mean == 2000.0); /* 1000 counted over half the enabled time */
	assert_true(evs[3].running_pct == 50.0);
	assert_int_equal(evs[4].status, PMC_COUNT_NOT_COUNTED);
	assert_int_equal(evs[4].nok, 0);
	assert_int_equal(evs[2].status, PMC_COUNT_NOT_SUPPORTED);
	assert_non_null(strstr(evs[2].reason, "PMU"));
	assert_true(evs[0].batch_spread_pct > 1.6 && evs[0].batch_spread_pct < 1.7);
	free(rep.metrics);
	free(rep.checks);
}

static void test_output_group_fixed_and_shortest_tables(void **s)
{
	static const struct {
		int line;
		double v;
		int dec;
		const char *grouped, *shortest;
	} rows[] = {
		{ __LINE__, -1234.5, 2, "-1,234.50", "-1234.5" },
		{ __LINE__, 2.01812e26, 0, "201,811,999,999,999,993,347,833,856", "2.01812e+26" },
		{ __LINE__, 0.000829, 4, "0.0008", "0.000829" },
		{ __LINE__, 0.1, 1, "0.1", "0.1" },
		{ __LINE__, 1.0 / 3.0, 3, "0.333", "0.3333333333333333" },
		{ __LINE__, 1511110.5, 0, "1,511,110", "1511110.5" },
		{ __LINE__, 999.999, 2, "1,000.00", "999.999" },
	};
	(void)s;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char buf[80];
		pmc_output_group_fixed(rows[i].v, rows[i].dec, buf, sizeof(buf));
		if (strcmp(buf, rows[i].grouped))
			fail_msg("line %d: grouped %s want %s", rows[i].line, buf, rows[i].grouped);
		pmc_format_shortest(rows[i].v, buf, sizeof(buf));
		if (strcmp(buf, rows[i].shortest) || strtod(buf, NULL) != rows[i].v)
			fail_msg("line %d: shortest %s want %s", rows[i].line, buf, rows[i].shortest);
	}
}

static char *render(const struct pmc_report *rep, enum pmc_output_format fmt)
{
	struct pmc_output_opts o = { .format = fmt, .sep = "," };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(pmc_output_write(f, rep, &o), 0);
	fclose(f);
	{
		char *copy = strdup(buf);
		free(buf);
		return copy;
	}
}

/* A metric far below 1 shows its value in every format: 1e-20 is never printed as 0.000000000000 (or 0.000). */
static void test_output_tiny_metrics_show_their_value_in_every_format(void **s)
{
	static struct pmc_sample ok[1] = { { 0, 0, { 5, 10, 10, PMC_COUNT_OK, 0, 0 } } };
	static const struct {
		int line;
		double v;
		const char *table, *sep, *csv_json; /* as each shows it */
	} rows[] = {
		{ __LINE__, 1e-20, " 1e-20 ", ",1e-20,", "1e-20" },
		{ __LINE__, -3.5e-21, " -3.5e-21 ", ",-3.5e-21,", "-3.5e-21" },
		{ __LINE__, 3.6e-10, " 3.6e-10 ", ",3.6e-10,", "3.6e-10" },
		{ __LINE__, 0.000361, " 0.0003610 ", ",0.000361,", "0.000361" },
		{ __LINE__, 0.25, " 0.2500 ", ",0.250,", "0.25" },
		{ __LINE__, 0, " 0 ", ",0.000,", "0" },
	};
	static const enum pmc_output_format fmts[] = { PMC_OUTPUT_TABLE, PMC_OUTPUT_SEP, PMC_OUTPUT_CSV, PMC_OUTPUT_JSON };
	(void)s;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_report_event ev;
		struct pmc_report rep;
		struct pmc_metric_value m = { .name = "tiny", .unit = "", .valid = true, .value = rows[i].v, .desc = "d" };

		memset(&rep, 0, sizeof(rep));
		memset(&ev, 0, sizeof(ev));
		snprintf(ev.ev.name, sizeof(ev.ev.name), "a");
		snprintf(ev.ev.canonical, sizeof(ev.ev.canonical), "a");
		ev.samples = ok;
		ev.nsamples = 1;
		rep.events = &ev;
		rep.nevents = 1;
		rep.nruns = rep.nbatches = 1;
		pmc_report_summarize(&rep);
		pmc_report_add_metric(&rep, &m);
		for (size_t k = 0; k < sizeof(fmts) / sizeof(fmts[0]); k++) {
			char *out = render(&rep, fmts[k]);
			const char *want = fmts[k] == PMC_OUTPUT_TABLE ? rows[i].table : fmts[k] == PMC_OUTPUT_SEP ? rows[i].sep
													: rows[i].csv_json;
			if (!strstr(out, want) || (rows[i].v != 0 && (strstr(out, "0.000000000000") || strstr(out, ",0.000,") ||
								       strstr(out, ",-0.000,"))))
				fail_msg("line %d, format %d: '%s' missing or the value shown as 0 in:\n%s", rows[i].line,
					 (int)fmts[k], want, out);
			free(out);
		}
		pmc_report_fini(&(struct pmc_report){ .metrics = rep.metrics });
	}
}

static void test_output_table_aligns_long_names_and_prints_each_reason_once(void **s)
{
	static struct pmc_sample ok1[1] = { { 0, 0, { 5, 10, 10, PMC_COUNT_OK, 0, 0 } } };
	static struct pmc_sample ok2[1] = { { 0, 0, { 1234567, 10, 10, PMC_COUNT_OK, 0, 0 } } };
	static struct pmc_sample ns1[1] = { { 0, 0, { 0, 0, 0, PMC_COUNT_NOT_SUPPORTED, ENOENT, 0 } } };
	static struct pmc_sample ns2[1] = { { 0, 0, { 0, 0, 0, PMC_COUNT_NOT_SUPPORTED, ENOENT, 0 } } };
	static const char *const names[] = { "a", "an_event_name_much_longer_than_the_thirty_four_column_default", "cycles",
					     "instructions" };
	struct pmc_sample *samples[] = { ok1, ok2, ns1, ns2 };
	struct pmc_report_event evs[4];
	struct pmc_report rep;
	struct pmc_metric_value big = { .name = "huge", .unit = "", .valid = true, .value = 2.01812e26, .desc = "d" };
	char *out, *line, *save = NULL, *first_reason;
	long pct_col = -1;

	(void)s;
	memset(&rep, 0, sizeof(rep));
	memset(evs, 0, sizeof(evs));
	for (size_t i = 0; i < 4; i++) {
		snprintf(evs[i].ev.name, sizeof(evs[i].ev.name), "%s", names[i]);
		snprintf(evs[i].ev.canonical, sizeof(evs[i].ev.canonical), "%s", names[i]);
		evs[i].ev.flags = i >= 2 ? PMC_EVF_HARDWARE : 0;
		evs[i].samples = samples[i];
		evs[i].nsamples = 1;
	}
	rep.events = evs;
	rep.nevents = 4;
	rep.nruns = rep.nbatches = 1;
	pmc_report_summarize(&rep);
	pmc_report_add_metric(&rep, &big);
	out = render(&rep, PMC_OUTPUT_TABLE);
	assert_null(strstr(out, "e+"));
	assert_non_null(strstr(out, "201,811,999,999,999,993,347,833,856"));
	first_reason = strstr(out, evs[2].reason);
	assert_non_null(first_reason);
	assert_null(strstr(first_reason + 1, evs[2].reason)); /* printed once, referred to as a note */
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *pct = strstr(line, "100.00%");
		assert_false(line[0] && line[strlen(line) - 1] == ' ');
		if (pct) { /* the running-% column lines up below a long name */
			if (pct_col < 0)
				pct_col = pct - line;
			assert_int_equal(pct - line, pct_col);
		}
	}
	assert_true(pct_col > 60);
	free(out);
	pmc_report_fini(&(struct pmc_report){ .metrics = rep.metrics });
}

/* Runs: a failed and an interrupted run stay out of the statistics; the exit status is the failed run's. */
static void test_report_keeps_failed_and_interrupted_runs_out_of_the_statistics(void **s)
{
	static struct pmc_sample sm[3] = {
		{ 0, 0, { 100, 10, 10, PMC_COUNT_OK, 0, 0 } },
		{ 1, 0, { 1000, 10, 10, PMC_COUNT_OK, 0, 0 } },
		{ 2, 0, { 50, 10, 10, PMC_COUNT_OK, 0, 0 } },
	};
	struct pmc_report_exec x[3] = {
		{ .run = 0, .wall_ns = 10 }, { .run = 1, .exit_status = 7, .wall_ns = 20 },
		{ .run = 2, .exit_status = 130, .signal = 2, .interrupted = true, .wall_ns = 30 },
	};
	struct pmc_report_event ev;
	struct pmc_report rep;

	(void)s;
	memset(&rep, 0, sizeof(rep));
	memset(&ev, 0, sizeof(ev));
	snprintf(ev.ev.name, sizeof(ev.ev.name), "e");
	ev.samples = sm;
	ev.nsamples = 3;
	rep.events = &ev;
	rep.nevents = 1;
	rep.nruns = 3;
	rep.nbatches = 1;
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(pmc_report_add_exec(&rep, &x[i]), 0);
	pmc_report_summarize(&rep);
	assert_int_equal(rep.runs_ok, 1);
	assert_int_equal(rep.runs_failed, 1);
	assert_int_equal(rep.runs_partial, 1);
	assert_int_equal(rep.runs_used, 1);
	assert_string_equal(rep.stats_over, "ok runs");
	assert_int_equal(rep.exit_status, 7);
	assert_true(ev.mean == 100.0 && ev.nok == 1);
	assert_true(rep.wall_ns_mean == 10.0);
	assert_int_equal(pmc_report_run_state(&rep, 2), PMC_RUN_PARTIAL);
	assert_false(pmc_report_run_used(&rep, 1));

	/* Every run failed: the statistics are over the failed runs, and say so. */
	rep.execs[0].exit_status = 1;
	pmc_report_summarize(&rep);
	assert_string_equal(rep.stats_over, "failed runs");
	assert_int_equal(rep.exit_status, 1);
	assert_true(ev.mean == 550.0 && ev.nok == 2);
	rep.events = NULL;
	rep.nevents = 0;
	pmc_report_fini(&rep);
}

/* Issue 22 item 4: --per-thread where the kernel wrote no per-task counts gives one thread row holding the whole
 * count; the warning that says so (and every other warning) is in every format, -x included (as a '#' line). */
static void test_every_format_carries_the_per_thread_warning_beside_a_row_holding_the_total(void **s)
{
	static struct pmc_sample all[1] = { { 0, 0, { 6000, 10, 10, PMC_COUNT_OK, 0, 0 } } };
	static struct pmc_sample row[1] = { { 0, 0, { 6000, 10, 10, PMC_COUNT_OK, 0, 0 } } };
	static const enum pmc_output_format fmts[] = { PMC_OUTPUT_TABLE, PMC_OUTPUT_SEP, PMC_OUTPUT_CSV,
						       PMC_OUTPUT_JSON };
	struct pmc_report_event evs[2];
	struct pmc_report rep;

	(void)s;
	memset(&rep, 0, sizeof(rep));
	memset(evs, 0, sizeof(evs));
	for (size_t i = 0; i < 2; i++) {
		snprintf(evs[i].ev.name, sizeof(evs[i].ev.name), "instructions:u");
		evs[i].samples = i ? row : all;
		evs[i].nsamples = 1;
	}
	evs[1].scope.kind = PMC_ROW_THREAD;
	evs[1].scope.pid = evs[1].scope.tid = 42;
	snprintf(evs[1].scope.comm, sizeof(evs[1].scope.comm), "prog");
	snprintf(evs[1].scope.label, sizeof(evs[1].scope.label), "prog-42");
	rep.events = evs;
	rep.nevents = 2;
	rep.nruns = rep.nbatches = 1;
	pmc_report_summarize(&rep);
	pmc_report_add_check(&rep, PMC_CHECK_WARN, "per-thread-kernel", "this kernel wrote no final count for the 2 tasks");
	pmc_report_add_check(&rep, PMC_CHECK_INFO, "per-thread", "1 task");
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char *out = render(&rep, fmts[i]);

		if (!strstr(out, "per-thread-kernel") || !strstr(out, "no final count for the 2 tasks") ||
		    !strstr(out, "prog-42"))
			fail_msg("format %d has the row without its warning:\n%s", (int)fmts[i], out);
		if (fmts[i] == PMC_OUTPUT_SEP && (!strstr(out, "# warn per-thread-kernel: ") || strstr(out, "# info")))
			fail_msg("-x: the warning is a '#' line, info checks are left out:\n%s", out);
		free(out);
	}
	rep.events = NULL;
	rep.nevents = 0;
	pmc_report_fini(&rep);
}

/* The format registry: each id has its entry, each flag finds it, and the per-format facts are where the writers
 * read them (the table and -x print the runs check in a place of their own; JSON lists it with the others). */
static void test_format_registry_finds_each_format_by_id_and_by_flag(void **state)
{
	static const struct {
		enum pmc_output_format id;
		const char *flag, *name;
		bool own_runs, own_paused, interval_begin;
	} rows[] = {
		{ PMC_OUTPUT_TABLE, "", "table", true, true, true }, { PMC_OUTPUT_SEP, "-x", "sep", true, false, false },
		{ PMC_OUTPUT_CSV, "--csv", "csv", false, false, true }, { PMC_OUTPUT_JSON, "--json", "json", false, false, false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pmc_format *f = pmc_format_get(rows[i].id);

		assert_int_equal(f->id, rows[i].id);
		assert_string_equal(f->name, rows[i].name);
		assert_string_equal(f->flag, rows[i].flag);
		assert_true(f->report && f->interval);
		assert_int_equal(f->interval_begin != NULL, rows[i].interval_begin);
		assert_ptr_equal(*rows[i].flag ? pmc_format_by_flag(rows[i].flag) : f, f);
		assert_int_equal(pmc_format_own_check(f, "runs"), rows[i].own_runs);
		assert_int_equal(pmc_format_own_check(f, "counting-paused"), rows[i].own_paused);
		assert_false(pmc_format_own_check(f, "multiplexed"));
	}
	assert_ptr_equal(pmc_format_get((enum pmc_output_format)99), &pmc_format_table);
	assert_null(pmc_format_by_flag("--yaml"));
	assert_null(pmc_format_by_flag(""));
}

/* A check message longer than its room keeps what fits and says it was cut ("..."), never in the middle of a UTF-8
 * character; one that fits is kept whole. */
static void test_check_message_too_long_is_cut_with_a_mark_at_a_character(void **state)
{
	static const struct {
		size_t len;   /* of the message: 'a' repeated, then one 'é' (2 bytes) where it would be cut */
		bool utf8_at_cut;
		bool cut;
	} rows[] = { { 100, false, false }, { 1023, false, false }, { 1024, false, true }, { 5000, false, true },
		     { 2000, true, true } };
	char *text = malloc(6000);

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct pmc_report rep = { 0 };
		size_t n;
		const char *msg;

		memset(text, 'a', rows[i].len);
		text[rows[i].len] = '\0';
		if (rows[i].utf8_at_cut)
			memcpy(text + 1019, "\xc3\xa9", 2); /* straddles the 1020-byte mark */
		assert_int_equal(pmc_report_add_check(&rep, PMC_CHECK_INFO, "long", "%s", text), 0);
		msg = rep.checks[0].msg;
		n = strlen(msg);
		if (!rows[i].cut) {
			assert_string_equal(msg, text);
		} else {
			assert_true(n <= 1023);
			assert_string_equal(msg + n - 3, "...");
			assert_memory_equal(msg, text, n - 3);
			assert_int_not_equal((unsigned char)msg[n - 4] & 0xc0, 0xc0); /* no lead byte left alone */
		}
		pmc_report_fini(&rep);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_message_too_long_is_cut_with_a_mark_at_a_character),
		cmocka_unit_test(test_output_table_matches_golden),
		cmocka_unit_test(test_format_registry_finds_each_format_by_id_and_by_flag),
		cmocka_unit_test(test_output_perf_sep_matches_golden),
		cmocka_unit_test(test_output_csv_matches_golden),
		cmocka_unit_test(test_output_json_matches_golden),
		cmocka_unit_test(test_output_group_digits_table),
		cmocka_unit_test(test_output_summary_scales_multiplexed_and_never_zeroes_not_counted),
		cmocka_unit_test(test_output_group_fixed_and_shortest_tables),
		cmocka_unit_test(test_output_table_aligns_long_names_and_prints_each_reason_once),
		cmocka_unit_test(test_output_tiny_metrics_show_their_value_in_every_format),
		cmocka_unit_test(test_report_keeps_failed_and_interrupted_runs_out_of_the_statistics),
		cmocka_unit_test(test_every_format_carries_the_per_thread_warning_beside_a_row_holding_the_total),
	};
	char root[4096];

	/* The perf spellings in the golden files follow the PMUs in sysfs: a fixture's (no core PMU, software), not
	 * this machine's, so a raw event is rNN on every machine. */
	snprintf(root, sizeof(root), "%s/tests/golden/sysfs", getenv("PMC_SOURCE_DIR"));
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
