/* SPDX-License-Identifier: MIT */
/* The CPUID string of a forced libpfm4 PMU (LIBPFM_FORCE_PMU), so the vendor tables of that model are read
 * (doc/tables.md). One representative part per libpfm4 core table: the model perf's and perfmon's mapfiles list for
 * it, with the stepping of a shipped part (a mapfile row without a stepping ignores it). A libpfm4 table not listed
 * here (an older core, a table covering several models perf splits) gives no CPUID: set PMCTOOL_CPUID instead. Pure:
 * built on every architecture so its unit runs anywhere. */
#include <stddef.h>
#include <strings.h>

#include "arch/x86_64/cpuid.h"

static const struct {
	const char *pfm, *cpuid;
} forced[] = {
	{ "hsw", "GenuineIntel-6-3C-3" },                 /* Haswell client */
	{ "bdw", "GenuineIntel-6-3D-4" },                 /* Broadwell client */
	{ "skl", "GenuineIntel-6-5E-3" },                 /* Skylake client */
	{ "skx", "GenuineIntel-6-55-4" },                 /* Skylake-SP */
	{ "clx", "GenuineIntel-6-55-7" },                 /* Cascade Lake-SP */
	{ "icl", "GenuineIntel-6-7E-5" },                 /* Ice Lake client */
	{ "icx", "GenuineIntel-6-6A-6" },                 /* Ice Lake-SP */
	{ "spr", "GenuineIntel-6-8F-8" },                 /* Sapphire Rapids */
	{ "amd64_fam17h_zen1", "AuthenticAMD-23-1-2" },   /* Naples */
	{ "amd64_fam17h_zen2", "AuthenticAMD-23-31-0" },  /* Rome */
	{ "amd64_fam19h_zen3", "AuthenticAMD-25-1-1" },   /* Milan */
	{ "amd64_fam19h_zen4", "AuthenticAMD-25-11-1" },  /* Genoa */
	{ "amd64_fam1ah_zen5", "AuthenticAMD-26-2-0" },   /* Turin */
};

const char *pmc_x86_forced_cpuid(const char *pfm)
{
	if (!pfm)
		return NULL;
	for (size_t i = 0; i < sizeof(forced) / sizeof(forced[0]); i++)
		if (strcasecmp(forced[i].pfm, pfm) == 0)
			return forced[i].cpuid;
	return NULL;
}
