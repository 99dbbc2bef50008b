/* SPDX-License-Identifier: MIT */
/* decode with config1 (issue 22 item 16), one binary per forced PMU (libpfm4 cannot switch PMUs within a process):
 * each includes this, defines FORCED_PMU and rows[], then includes it again with DECODE1_BODY defined. The core PMU is absent from sysfs
 * here, so cpu/.../ takes the built-in Intel layout (frontend=, offcore_rsp=, ldlat= in config1). */
#ifndef PMC_TEST_DECODE_CONFIG1_H
#define PMC_TEST_DECODE_CONFIG1_H
#include "pmu_test.h"

struct decode1_row {
	int line;
	const char *spec;   /* rHEX or cpu/.../ */
	uint64_t config1;   /* --config1; with spec's own config1 term, 0 */
	bool given;         /* config1 given (by --config1 or a term) */
	int count;          /* names expected; -1: at least one */
	const char *name;   /* one of them (as printed), NULL: none */
};
#endif

#ifdef DECODE1_BODY

struct collected {
	char text[16384];
	int n;
};

static int collect1(const char *name, void *ctx)
{
	struct collected *c = ctx;

	strncat(c->text, name, sizeof(c->text) - strlen(c->text) - 2);
	strcat(c->text, "\n");
	c->n++;
	return 0;
}

static void test_decode_narrows_by_config1(void **state)
{
	(void)state;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		const struct decode1_row *r = &rows[i];
		struct pmc_event ev;
		struct pmc_resolve_error err;
		struct collected c = { "", 0 };
		char want[PMC_NAME_MAX + 2];
		uint64_t config;
		int n;

		if (pmc_event_resolve(r->spec, &ev, &err))
			fail_msg("line %d: '%s': %s", r->line, r->spec, err.msg);
		config = ev.attr.config | (ev.attr.exclude_user ? 0 : 1ull << 16) |
			 (ev.attr.exclude_kernel ? 0 : 1ull << 17);
		n = pmc_event_decode_config1(config, ev.attr.config1 ? ev.attr.config1 : r->config1, r->given, NULL,
					     collect1, &c);
		if (n != c.n || (r->count >= 0 && n != r->count) || (r->count < 0 && n < 1))
			fail_msg("line %d: '%s' config1 %#llx: %d names, expected %d:\n%s", r->line, r->spec,
				 (unsigned long long)r->config1, n, r->count, c.text);
		snprintf(want, sizeof(want), "%s\n", r->name ? r->name : "");
		if (r->name && !strstr(c.text, want))
			fail_msg("line %d: '%s': '%s' is not among:\n%s", r->line, r->spec, r->name, c.text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_narrows_by_config1),
	};
	int rc;

	test_force(FORCED_PMU, "no-such-sysfs-root");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	pmc_pmu_fini();
	return rc;
}
#endif
