/* SPDX-License-Identifier: MIT */
/* Whether the core PMU has ref-cycles, with no libpfm4 PMU forced (issue 26 step 8): the kernel's core PMU, found
 * by the arch seam whatever its name (cpu, cpu_core, armv8_pmuv3_0...), says in sysfs; without one, this CPU's
 * identity (pmc_arch_cpu_core) does. The answers on the fixtures are the same on every host: an arm64 core PMU in
 * sysfs has no ref-cycles even when the test runs on an Intel CPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "pmu/event.h"
#include "util/util.h"

static char tmp[64];

/* A sysfs tree with a core PMU "cpu" that lists cycles but not ref-cycles (AMD's kernel PMU). */
static int make_cpu_without_ref_cycles(void **state)
{
	char path[256];
	FILE *f;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/pmc-refcyc-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu/events", tmp);
	for (char *p = path + strlen(tmp) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu/type", tmp);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs("4\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu/events/cpu-cycles", tmp);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs("event=0x76\n", f);
	fclose(f);
	return 0;
}

static int remove_tmp(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_ref_cycles_from_the_kernel_core_pmu_the_seam_finds(void **state)
{
	const char *src = getenv("PMC_SOURCE_DIR");
	struct pmc_arch_core_id host;
	struct {
		int line;
		char root[4096];
		int want; /* -1: this CPU's identity */
	} rows[] = {
		{ __LINE__, "tests/pmu/sysfs", 1 },       /* cpu lists ref-cycles (Intel's kernel PMU) */
		{ __LINE__, "tests/pmu/sysfs-adl", 1 },   /* cpu_core and cpu_atom list it */
		{ __LINE__, "tests/pmu/sysfs-armv8", 0 }, /* armv8_pmuv3_0: no ref-cycles, whatever the host */
		{ __LINE__, "", 0 },                      /* the temp tree: cpu without it */
		{ __LINE__, "tests/pmu/no-such-sysfs", -1 },
	};

	(void)state;
	unsetenv("LIBPFM_FORCE_PMU");
	pmc_arch_cpu_core(&host);
	for (size_t i = 0; i < PMC_ARRAY_SIZE(rows); i++) {
		char root[4200];
		bool want = rows[i].want < 0 ? host.ref_cycles : rows[i].want;

		if (rows[i].root[0])
			snprintf(root, sizeof(root), "%s/%s", src ? src : ".", rows[i].root);
		else
			snprintf(root, sizeof(root), "%s", tmp);
		setenv("PMCTOOL_SYSFS_ROOT", root, 1);
		if (pmc_pmu_has_ref_cycles() != want)
			fail_msg("line %d: %s: ref-cycles %s, expected %s", rows[i].line, root,
				 want ? "absent" : "present", want ? "present" : "absent");
	}
	unsetenv("PMCTOOL_SYSFS_ROOT");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ref_cycles_from_the_kernel_core_pmu_the_seam_finds),
	};

	return cmocka_run_group_tests(tests, make_cpu_without_ref_cycles, remove_tmp);
}
