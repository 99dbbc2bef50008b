/* SPDX-License-Identifier: MIT */
/* The shipped sets (PMC_SOURCE_DIR/events) parse and are consistent; variant selection; parser errors. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <perfmon/pfmlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "eventsets/eventset.h"
#include "metrics/expr.h"

static char events_dir[4096];

/* Calls fn for every shipped set file. */
static void for_each_set(void (*fn)(const char *path, const char *stem, struct pmc_eventset *s))
{
	DIR *d = opendir(events_dir);
	struct dirent *de;
	unsigned n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		char path[8192], stem[256], err[1024];
		struct pmc_eventset *s;

		if (len < 5 || strcmp(de->d_name + len - 4, ".set"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", events_dir, de->d_name);
		snprintf(stem, sizeof(stem), "%.*s", (int)(len - 4), de->d_name);
		if (pmc_eventset_load(path, &s, err, sizeof(err)))
			fail_msg("shipped set does not parse: %s", err);
		fn(path, stem, s);
		pmc_eventset_free(s);
		n++;
	}
	closedir(d);
	assert_true(n >= 9);
}

static void check_set_shape(const char *path, const char *stem, struct pmc_eventset *s)
{
	if (strcmp(s->name, stem))
		fail_msg("%s: set name '%s' differs from the file name", path, s->name);
	assert_true(s->nprovenance >= 1);
	assert_non_null(s->description);
	for (size_t i = 0; i < s->nvariants; i++) {
		const struct pmc_eventset_variant *v = &s->variants[i];
		if (!v->nevents && !v->nnotes && !s->topdown_level) /* a top-down set's events are its tree's */
			fail_msg("%s: variant %s has neither events nor a note saying why", path, v->name);
		for (size_t m = 0; m < v->nmetrics; m++) {
			struct pmc_expr *e;
			char err[256];

			if (pmc_expr_parse(v->metrics[m].formula, &e, err, sizeof(err)))
				fail_msg("%s: %s: %s", path, v->metrics[m].name, err);
			for (size_t k = 0; k < pmc_expr_name_count(e); k++) {
				const char *n = pmc_expr_name(e, k);
				bool ok = pmc_metric_is_known_const(n);

				for (size_t j = 0; j < v->nevents && !ok; j++)
					ok = !strcasecmp(v->events[j].spelling, n);
				for (size_t j = 0; j < m && !ok; j++)
					ok = !strcasecmp(v->metrics[j].name, n);
				if (!ok)
					fail_msg("%s: variant %s metric %s names '%s': not an event of the variant, an "
						 "earlier metric or a known constant", path, v->name,
						 v->metrics[m].name, n);
			}
			pmc_expr_free(e);
		}
	}
}

static void test_every_shipped_set_parses_and_names_only_its_events(void **state)
{
	(void)state;
	for_each_set(check_set_shape);
}

/* A libpfm4 spelling (EVENT:UMASK[:mod]...) with an optional @siblingN suffix; generic, sysfs and test-bench
 * spellings are the event resolver's business and are left out here. */
static bool libpfm_spelling(const char *spelling, char *buf, size_t len)
{
	const char *at = strchr(spelling, '@');

	snprintf(buf, len, "%.*s", (int)(at ? (size_t)(at - spelling) : strlen(spelling)), spelling);
	return isupper((unsigned char)buf[0]) && strchr(buf, ':') && !strchr(buf, '/') && !strchr(buf, '.');
}

static unsigned encoded;

static void check_set_encodes(const char *path, const char *stem, struct pmc_eventset *s)
{
	(void)stem;
	for (size_t i = 0; i < s->nvariants; i++) {
		const struct pmc_eventset_variant *v = &s->variants[i];
		for (size_t p = 0; p < v->npmus; p++) {
			if (!strcmp(v->pmus[p], "*") || !strncmp(v->pmus[p], "arch:", 5) || !strncmp(v->pmus[p], "needs:", 6))
				continue;
			for (size_t k = 0; k < v->nevents; k++) {
				char name[PMC_NAME_MAX], full[PMC_NAME_MAX + 64];
				pfm_pmu_encode_arg_t arg;
				int rc;

				if (!libpfm_spelling(v->events[k].spelling, name, sizeof(name)))
					continue;
				snprintf(full, sizeof(full), "%s::%s", v->pmus[p], name);
				memset(&arg, 0, sizeof(arg));
				arg.size = sizeof(arg);
				rc = pfm_get_os_event_encoding(full, PFM_PLM3, PFM_OS_NONE, &arg);
				free(arg.codes);
				if (rc != PFM_SUCCESS)
					fail_msg("%s:%u: %s does not encode: %s", path, v->events[k].line, full,
						 pfm_strerror(rc));
				encoded++;
			}
		}
	}
}

static void test_libpfm_spellings_encode_for_every_named_pmu(void **state)
{
	(void)state;
	/* Encode for PMUs this machine does not have, by their pmu:: prefix. */
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	unsetenv("LIBPFM_FORCE_PMU");
	assert_int_equal(pfm_initialize(), PFM_SUCCESS);
	for_each_set(check_set_encodes);
	pfm_terminate();
	assert_true(encoded > 200);
}

static const struct {
	int line;
	const char *set, *pmu, *variant; /* variant NULL: none applies */
} select_rows[] = {
	{ __LINE__, "flops", "hsw", "hsw" },
	{ __LINE__, "flops", "skl", "intel-fp-arith-256" },
	{ __LINE__, "flops", "skx", "intel-fp-arith-512" },
	{ __LINE__, "flops", "icx", "intel-fp-arith-512" },
	{ __LINE__, "flops", "SPR", "intel-fp-arith-fp16" },
	{ __LINE__, "flops", "amd64_fam19h_zen3", "amd-zen" },
	{ __LINE__, "flops", "snb", "snb-ivb" },
	{ __LINE__, "flops", "core2", NULL },
	{ __LINE__, "flops", NULL, NULL },
	/* core: the arm64 variant on an arm64 build (arch:aarch64 comes before '*'), x86 elsewhere */
	{ __LINE__, "core", "amd64_fam19h_zen3", "@arch" },
	{ __LINE__, "core", "arm_ac57", "@arch" },
	{ __LINE__, "core", NULL, "@arch" },
	{ __LINE__, "cache", "hsw", "intel-hsw-skl" },
	{ __LINE__, "cache", "icx", "other" },
	{ __LINE__, "smt", "hsw", "snb-bdw" },
	{ __LINE__, "smt", "skl", "skl-skx" },
	{ __LINE__, "smt", "icx", "icl-icx" },
	{ __LINE__, "smt", "amd64_fam19h_zen3", NULL },
	{ __LINE__, "uops", "skl", "intel-snb-skl" },
	{ __LINE__, "uops", "icx", "intel-icl-spr" },
	{ __LINE__, "seed001-hsw", "hsw", "haswell" },
	{ __LINE__, "seed001-hsw", "skl", NULL },
};

static void test_variant_selection_by_pmu_name(void **state)
{
	(void)state;
	setenv("PMCTOOL_EVENTS_DIR", events_dir, 1);
	for (size_t i = 0; i < sizeof(select_rows) / sizeof(select_rows[0]); i++) {
		struct pmc_eventset *s;
		const struct pmc_eventset_variant *v;
		const char *want = select_rows[i].variant;
		char err[1024];

		if (pmc_eventset_find(select_rows[i].set, &s, err, sizeof(err)))
			fail_msg("line %d: %s", select_rows[i].line, err);
		if (want && !strcmp(want, "@arch"))
			want = strcmp(pmc_arch_name(), "aarch64") ? "x86" : "arm64";
		v = pmc_eventset_select(s, select_rows[i].pmu);
		if (!want ? v != NULL : !v || strcmp(v->name, want))
			fail_msg("line %d: %s for %s chose %s, want %s", select_rows[i].line, select_rows[i].set,
				 select_rows[i].pmu, v ? v->name : "none", want ? want : "none");
		pmc_eventset_free(s);
	}
}

static void test_seed001_set_keeps_71_events_in_order(void **state)
{
	struct pmc_eventset *s;
	const struct pmc_eventset_variant *v;
	char err[1024];

	(void)state;
	setenv("PMCTOOL_EVENTS_DIR", events_dir, 1);
	assert_int_equal(pmc_eventset_find("seed001-hsw", &s, err, sizeof(err)), 0);
	v = pmc_eventset_select(s, "hsw");
	assert_non_null(v);
	assert_int_equal(v->nevents, 3 + 71);
	assert_string_equal(v->events[3].spelling, "uops_issued.any");
	assert_string_equal(v->events[4].spelling, "uops_issued.any<1");
	assert_string_equal(v->events[3 + 70].spelling, "baclears.any");
	assert_int_equal(v->events[3].batch, 1);
	assert_int_equal(v->events[3 + 4].batch, 2);
	assert_int_equal(v->events[3 + 70].batch, 18);
	pmc_eventset_free(s);
}

static void test_find_reports_dirs_and_rejects_bad_names(void **state)
{
	struct pmc_eventset *s = NULL;
	char err[2048];

	(void)state;
	setenv("PMCTOOL_EVENTS_DIR", events_dir, 1);
	assert_int_equal(pmc_eventset_find("no-such-set", &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no event set 'no-such-set'"));
	assert_non_null(strstr(err, events_dir));
	assert_int_equal(pmc_eventset_find("../etc", &s, err, sizeof(err)), -ENOENT); /* a path: load fails */
	assert_int_equal(pmc_eventset_find("a b", &s, err, sizeof(err)), -EINVAL);
	assert_null(s);
}

static const struct {
	int line;
	const char *text;
	const char *err; /* expected prefix after "t.set:" */
} err_rows[] = {
	{ __LINE__, "", "1:1: empty set file" },
	{ __LINE__, "event cycles\n", "1:1: a set file starts with 'set NAME'" },
	{ __LINE__, "set a\nset b\n", "2:1: a second 'set' line" },
	{ __LINE__, "set a b\n", "1:5: set name must be" },
	{ __LINE__, "set a\nevent x\n", "3:1: set a has no 'description'" },
	{ __LINE__, "set a\ndescription d\n", "3:1: set a has no 'provenance'" },
	{ __LINE__, "set a\nfoo bar\n", "2:1: unknown keyword 'foo'" },
	{ __LINE__, "set a\ntopdown 0\n", "2:9: 'topdown' takes the tree's level, 1 to 9" },
	{ __LINE__, "set a\ntopdown 12\n", "2:9: 'topdown' takes the tree's level, 1 to 9" },
	{ __LINE__, "set a\nvariant v *\ntopdown 1\n", "3:1: 'topdown' belongs before the first 'variant' line" },
	{ __LINE__, "set a\n  event\n", "2:8: 'event' needs an argument" },
	{ __LINE__, "set a\nevent a b\n", "2:8: an event spelling has no spaces" },
	{ __LINE__, "set a\nevent x\nevent X\n", "3:7: event 'X' is listed twice" },
	{ __LINE__, "set a\nevent x\nmetric m = x +\n", "3:15: in formula: expected a number" },
	{ __LINE__, "set a\nevent x\nmetric m = x / {y}\n", "3:17: 'y' is not an event" },
	{ __LINE__, "set a\nevent x\nmetric m x\n", "3:8: metric needs 'NAME = FORMULA'" },
	{ __LINE__, "set a\nevent x\nmetric 2m = x\n", "3:8: metric name '2m' must be" },
	{ __LINE__, "set a\nevent x\nmetric m = x\nmetric M = x\n", "4:8: metric 'M' is defined twice" },
	{ __LINE__, "set a\nevent x\ncheck c = x > 1 | msg\n", "3:7: check needs 'NAME SEVERITY" },
	{ __LINE__, "set a\nevent x\ncheck c fatal = x > 1 | msg\n", "3:9: check severity 'fatal'" },
	{ __LINE__, "set a\nevent x\ncheck c warn = x > 1\n", "3:7: check c needs a message" },
	{ __LINE__, "set a\nvariant v\n", "2:10: variant v needs the PMU names" },
	{ __LINE__, "set a\nvariant v hsw\nvariant v skl\n", "3:9: variant 'v' is defined twice" },
	{ __LINE__, "set a\nvariant v hsw\nprovenance p\n", "3:1: 'provenance' belongs before" },
	{ __LINE__, "set a\nvariant v hsw\nevent y\nvariant w skl\nmetric m = y\n", "5:12: 'y' is not an event" },
	{ __LINE__, "set a\nbatch 2\n", "2:7: 'batch' takes no arguments" },
};

static void test_parser_errors_carry_file_line_column(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(err_rows) / sizeof(err_rows[0]); i++) {
		struct pmc_eventset *s = NULL;
		char err[1024] = "", want[256];
		int rc = pmc_eventset_parse(err_rows[i].text, strlen(err_rows[i].text), "t.set", &s, err, sizeof(err));

		snprintf(want, sizeof(want), "t.set:%s", err_rows[i].err);
		if (rc >= 0 || strncmp(err, want, strlen(want)))
			fail_msg("line %d: rc %d err '%s', want '%s'", err_rows[i].line, rc, err, want);
		assert_null(s);
	}
}

static void test_common_section_is_prepended_to_every_variant(void **state)
{
	static const char text[] = "set a\ndescription d\nprovenance p\nnote whole set\nevent cycles\n"
				   "metric c2 = 2 * cycles | x | doubled\n"
				   "variant v1 hsw skl\nnote v1 only\nevent y\nbatch\nevent z\nmetric r = y / c2\n"
				   "check hi warn = r > 1 | r above 1\nvariant v2 *\nevent q\n";
	struct pmc_eventset *s;
	char err[512];

	(void)state;
	assert_int_equal(pmc_eventset_parse(text, sizeof(text) - 1, "t.set", &s, err, sizeof(err)), 0);
	assert_int_equal(s->nvariants, 2);
	assert_int_equal(s->nnotes, 1);
	assert_int_equal(s->variants[0].nevents, 3);
	assert_string_equal(s->variants[0].events[0].spelling, "cycles");
	assert_int_equal(s->variants[0].events[2].batch, 1);
	assert_int_equal(s->variants[0].nmetrics, 2);
	assert_string_equal(s->variants[0].metrics[0].unit, "x");
	assert_string_equal(s->variants[0].metrics[0].desc, "doubled");
	assert_int_equal(s->variants[0].nchecks, 1);
	assert_int_equal(s->variants[0].checks[0].severity, PMC_CHECK_WARN);
	assert_string_equal(s->variants[0].checks[0].msg, "r above 1");
	assert_int_equal(s->variants[0].nnotes, 1);
	assert_int_equal(s->variants[1].nevents, 2);
	assert_ptr_equal(pmc_eventset_select(s, "skl"), &s->variants[0]);
	assert_ptr_equal(pmc_eventset_select(s, "icx"), &s->variants[1]);
	pmc_eventset_free(s);
}

static void test_sibling_suffix_is_split_off(void **state)
{
	char base[32];

	(void)state;
	assert_int_equal(pmc_eventset_event_sibling("ref-cycles@sibling1", base, sizeof(base)), 1);
	assert_string_equal(base, "ref-cycles");
	assert_int_equal(pmc_eventset_event_sibling("CPU_CLK_UNHALTED:REF_XCLK:t=1@sibling0", base, sizeof(base)), 0);
	assert_string_equal(base, "CPU_CLK_UNHALTED:REF_XCLK:t=1");
	assert_int_equal(pmc_eventset_event_sibling("msr/tsc/", base, sizeof(base)), -1);
	assert_string_equal(base, "msr/tsc/");
	assert_int_equal(pmc_eventset_event_sibling("x@sibling2", base, sizeof(base)), -1);
	assert_int_equal(pmc_eventset_event_sibling("a_very_long_event_name_beyond_32_chars", base, sizeof(base)),
			 -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_shipped_set_parses_and_names_only_its_events),
		cmocka_unit_test(test_libpfm_spellings_encode_for_every_named_pmu),
		cmocka_unit_test(test_variant_selection_by_pmu_name),
		cmocka_unit_test(test_seed001_set_keeps_71_events_in_order),
		cmocka_unit_test(test_find_reports_dirs_and_rejects_bad_names),
		cmocka_unit_test(test_parser_errors_carry_file_line_column),
		cmocka_unit_test(test_common_section_is_prepended_to_every_variant),
		cmocka_unit_test(test_sibling_suffix_is_split_off),
	};
	const char *src = getenv("PMC_SOURCE_DIR");

	if (!src) {
		fprintf(stderr, "PMC_SOURCE_DIR is not set: run through meson test\n");
		return 1;
	}
	snprintf(events_dir, sizeof(events_dir), "%s/events", src);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
