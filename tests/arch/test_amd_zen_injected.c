/* SPDX-License-Identifier: MIT */
/* Zen 5 known by the arch seam where libpfm4 4.13 has no table for it (issue 33 item 7), with injected CPUID values:
 * the Zen generation of an AMD family/model (the libpfm4 table name it stands for, whether or not this libpfm4 has
 * it), and perf's AMD names encoded for that generation with the 12-bit event field (bits 11:8 in config 35:32), as
 * pmu/perfname.c asks when libpfm4 detects no core PMU. Pure: the same answers on any host. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "arch/common.h"

static void test_amd_generation_from_injected_family_and_model(void **state)
{
	static const struct {
		int line;
		const char *vendor;
		unsigned family, model;
		const char *pfm; /* NULL: no Zen table */
	} rows[] = {
		{ __LINE__, "AuthenticAMD", 0x1a, 0x02, "amd64_fam1ah_zen5" },  /* Turin */
		{ __LINE__, "AuthenticAMD", 0x1a, 0x44, "amd64_fam1ah_zen5" },  /* Granite Ridge */
		{ __LINE__, "AuthenticAMD", 0x1a, 0x24, "amd64_fam1ah_zen5" },  /* Strix Point */
		{ __LINE__, "AuthenticAMD", 0x19, 0x01, "amd64_fam19h_zen3" },  /* Milan */
		{ __LINE__, "AuthenticAMD", 0x19, 0x21, "amd64_fam19h_zen3" },  /* Vermeer */
		{ __LINE__, "AuthenticAMD", 0x19, 0x11, "amd64_fam19h_zen4" },  /* Genoa */
		{ __LINE__, "AuthenticAMD", 0x19, 0x61, "amd64_fam19h_zen4" },  /* Raphael */
		{ __LINE__, "AuthenticAMD", 0x19, 0xa0, "amd64_fam19h_zen4" },  /* Bergamo */
		{ __LINE__, "AuthenticAMD", 0x17, 0x01, "amd64_fam17h_zen1" },  /* Naples */
		{ __LINE__, "AuthenticAMD", 0x17, 0x31, "amd64_fam17h_zen2" },  /* Rome */
		{ __LINE__, "AuthenticAMD", 0x15, 0x01, NULL },                 /* Bulldozer: not a Zen */
		{ __LINE__, "GenuineIntel", 0x06, 0x55, NULL },
		{ __LINE__, "HygonGenuine", 0x18, 0x01, NULL },
		{ __LINE__, "", 0, 0, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got = pmc_x86_amd_zen_pfm(rows[i].vendor, rows[i].family, rows[i].model);

		if (!rows[i].pfm != !got || (got && strcmp(got, rows[i].pfm)))
			fail_msg("row at line %d: got %s, expected %s", rows[i].line, got ? got : "NULL",
				 rows[i].pfm ? rows[i].pfm : "NULL");
	}
	assert_null(pmc_x86_amd_zen_pfm(NULL, 0x1a, 0));
}

static void test_amd_perf_names_on_injected_zen5_take_the_12_bit_event_field(void **state)
{
	static const struct {
		int line;
		unsigned family, model;
		const char *name;
		int rc;
		uint64_t config;
	} rows[] = {
		/* event 0x1a0: bits 11:8 (0x1) in config 35:32, bits 7:0 (0xa0) in 7:0, the unit mask in 15:8 */
		{ __LINE__, 0x1a, 0x02, "de_no_dispatch_per_slot.backend_stalls", 0, 0x100001ea0ull },
		{ __LINE__, 0x1a, 0x02, "de_no_dispatch_per_slot.no_ops_from_frontend", 0, 0x1000001a0ull },
		{ __LINE__, 0x1a, 0x02, "ex_ret_ops", 0, 0xc1 },
		{ __LINE__, 0x1a, 0x02, "ls_not_halted_cyc", 0, 0x76 },
		{ __LINE__, 0x1a, 0x02, "fp_ret_sse_avx_ops.all", 0, 0x1f03 },   /* the flops set's Zen 5 variant */
		{ __LINE__, 0x1a, 0x02, "op_cache_hit_miss.all_op_cache_accesses", 0, 0x20000078full },
		{ __LINE__, 0x1a, 0x02, "ex_ret_cops", -ENODEV, 0 },                /* Zen 1/2's name of 0xc1 */
		{ __LINE__, 0x1a, 0x02, "no_such_event", -ENOENT, 0 },
		/* the same names on Zen 3 by CPUID: 0x1a0 is Zen 4's and later */
		{ __LINE__, 0x19, 0x01, "de_no_dispatch_per_slot.backend_stalls", -ENODEV, 0 },
		{ __LINE__, 0x19, 0x01, "fp_ret_sse_avx_ops.all", 0, 0xff03 },
		{ __LINE__, 0x06, 0x55, "ex_ret_ops", -ENOENT, 0 },                 /* not AMD: no generation */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *pfm = pmc_x86_amd_zen_pfm(rows[i].family == 6 ? "GenuineIntel" : "AuthenticAMD",
						      rows[i].family, rows[i].model);
		uint64_t config = 0;
		int rc = pmc_arch_pfm_perf_name(pfm, rows[i].name, &config);

		if (rc != rows[i].rc || (rc == 0 && config != rows[i].config))
			fail_msg("row at line %d (%s): rc %d config %#llx, expected rc %d config %#llx", rows[i].line,
				 rows[i].name, rc, (unsigned long long)config, rows[i].rc,
				 (unsigned long long)rows[i].config);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_amd_generation_from_injected_family_and_model),
		cmocka_unit_test(test_amd_perf_names_on_injected_zen5_take_the_12_bit_event_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
