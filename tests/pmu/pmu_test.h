/* SPDX-License-Identifier: MIT */
/* Shared helpers of the pmu tests: force a libpfm4 PMU before init, table rows, and the checks on them. */
#ifndef PMC_TEST_PMU_H
#define PMC_TEST_PMU_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/event.h"

#define EXCL_U 1u  /* exclude_user */
#define EXCL_K 2u  /* exclude_kernel */
#define EXCL_H 4u  /* exclude_hv */
#define ANY_CONFIG UINT64_MAX

struct resolve_row {
	int line;
	const char *spec;
	uint32_t type;
	uint64_t config;         /* ANY_CONFIG: not checked */
	uint64_t config1;
	unsigned excl;
	enum pmc_counter_class cls;
	int fixed_index;
	const char *canonical;   /* prefix of the canonical name, NULL: not checked */
};

/* LIBPFM_FORCE_PMU=pmu and the sysfs root (a directory under tests/pmu/sysfs, or a missing one for "no core PMU"),
 * before the first pmc_pmu_init of this process. */
static inline void test_force(const char *pmu, const char *sysfs_sub)
{
	char root[4096];
	const char *src = getenv("PMC_SOURCE_DIR");

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	snprintf(root, sizeof(root), "%s/tests/pmu/%s", src ? src : ".", sysfs_sub);
	setenv("PMCTOOL_SYSFS_ROOT", root, 1);
	assert_int_equal(pmc_pmu_init(NULL, 0), 0);
}

static inline unsigned excl_bits(const struct perf_event_attr *a)
{
	return (a->exclude_user ? EXCL_U : 0) | (a->exclude_kernel ? EXCL_K : 0) | (a->exclude_hv ? EXCL_H : 0);
}

static inline void check_row(const struct resolve_row *r)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;
	int rc = pmc_event_resolve(r->spec, &ev, &err);

	if (rc)
		fail_msg("line %d: '%s' did not resolve: %s", r->line, r->spec, err.msg);
	if (ev.attr.type != r->type)
		fail_msg("line %d: '%s' type %u, expected %u", r->line, r->spec, ev.attr.type, r->type);
	if (r->config != ANY_CONFIG && ev.attr.config != r->config)
		fail_msg("line %d: '%s' config %#llx, expected %#llx", r->line, r->spec,
			 (unsigned long long)ev.attr.config, (unsigned long long)r->config);
	if (ev.attr.config1 != r->config1)
		fail_msg("line %d: '%s' config1 %#llx", r->line, r->spec, (unsigned long long)ev.attr.config1);
	if (excl_bits(&ev.attr) != r->excl)
		fail_msg("line %d: '%s' exclude bits %u, expected %u", r->line, r->spec, excl_bits(&ev.attr), r->excl);
	if (ev.cls != r->cls || ev.fixed_index != r->fixed_index)
		fail_msg("line %d: '%s' class %d/%d, expected %d/%d", r->line, r->spec, ev.cls, ev.fixed_index, r->cls,
			 r->fixed_index);
	if (r->canonical && strncmp(ev.canonical, r->canonical, strlen(r->canonical)))
		fail_msg("line %d: '%s' canonical '%s', expected '%s...'", r->line, r->spec, ev.canonical,
			 r->canonical);
	if (strcmp(ev.name, r->spec) || ev.attr.size != sizeof(ev.attr))
		fail_msg("line %d: '%s' name '%s' / size %u", r->line, r->spec, ev.name, ev.attr.size);
}

/* perf's spelling of spec resolves back to the same attr. */
static inline void check_round_trip(int line, const char *spec)
{
	struct pmc_event a, b;
	struct pmc_resolve_error err;
	char perf[512];

	if (pmc_event_resolve(spec, &a, &err))
		fail_msg("line %d: '%s': %s", line, spec, err.msg);
	assert_int_equal(pmc_event_perf_spelling(&a, perf, sizeof(perf)), 0);
	if (pmc_event_resolve(perf, &b, &err))
		fail_msg("line %d: '%s' spelled '%s' does not resolve: %s", line, spec, perf, err.msg);
	if (a.attr.type != b.attr.type || a.attr.config != b.attr.config || a.attr.config1 != b.attr.config1 ||
	    a.attr.config2 != b.attr.config2 || excl_bits(&a.attr) != excl_bits(&b.attr) || a.cls != b.cls ||
	    a.fixed_index != b.fixed_index)
		fail_msg("line %d: '%s' -> '%s' changed the attr: type %u/%u config %#llx/%#llx excl %u/%u cls %d/%d",
			 line, spec, perf, a.attr.type, b.attr.type, (unsigned long long)a.attr.config,
			 (unsigned long long)b.attr.config, excl_bits(&a.attr), excl_bits(&b.attr), a.cls, b.cls);
}

static inline void check_unknown(int line, const char *spec, enum pmc_resolve_code code, const char *suggestion)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;
	int rc = pmc_event_resolve(spec, &ev, &err);

	if (rc >= 0)
		fail_msg("line %d: '%s' resolved, expected an error", line, spec);
	if (err.code != code)
		fail_msg("line %d: '%s' code %d, expected %d (%s)", line, spec, err.code, code, err.msg);
	if (!strstr(err.msg, spec))
		fail_msg("line %d: message does not name '%s': %s", line, spec, err.msg);
	if (suggestion) {
		int i;

		for (i = 0; i < err.nsuggest; i++)
			if (!strcmp(err.suggest[i], suggestion))
				break;
		if (i == err.nsuggest)
			fail_msg("line %d: '%s' suggestions lack '%s': %s", line, spec, suggestion, err.msg);
	}
}

#endif
