/* SPDX-License-Identifier: MIT */
/* Ice Lake server: 512-bit FP_ARITH umasks, fixed events. */
#define FORCED_PMU "icx"
#define INTEL_FIXED true
#include "pmu_test.h"

struct decode_case {
	int line;
	uint64_t raw;
	const char *name; /* must be among the names found */
};

static const struct resolve_row rows[] = {
	{ __LINE__, "FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE", PERF_TYPE_RAW, 0x80c7, 0, 0, PMC_CLASS_GP, -1,
	  "icx::" },
	{ __LINE__, "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0xc0, 0, 0, PMC_CLASS_FIXED, 0, NULL },
	{ __LINE__, "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 0, 0, PMC_CLASS_FIXED, 2, NULL },
	{ __LINE__, "r5301c7", PERF_TYPE_RAW, 0x1c7, 0, 0, PMC_CLASS_GP, -1, NULL },
	/* Intel's pseudo-encodings (issue 22 item 15): libpfm4 4.13's TOPDOWN:BACKEND_BOUND_SLOTS is 0x200, fixed counter
	 * 1 (counted there, and warned: test_x86_fixed); 0x0500 names a fixed counter icx has not: no counter */
	{ __LINE__, "topdown.backend_bound_slots", PERF_TYPE_RAW, 0x200, 0, 0, PMC_CLASS_FIXED, 1, "icx::TOPDOWN" },
	{ __LINE__, "r530200", PERF_TYPE_RAW, 0x200, 0, 0, PMC_CLASS_FIXED, 1, NULL },
	{ __LINE__, "r0100", PERF_TYPE_RAW, 0x100, 0, 0, PMC_CLASS_FIXED, 0, NULL },
	{ __LINE__, "r0500", PERF_TYPE_RAW, 0x500, 0, 0, PMC_CLASS_GP, -1, NULL },
};

static const char *const round_trip[] = {
	"FP_ARITH_INST_RETIRED:512B_PACKED_DOUBLE", "FP_ARITH_INST_RETIRED:SCALAR_SINGLE:c=1:k", "ref-cycles",
};

static const struct decode_case decodes[] = {
	{ __LINE__, 0x5380c7, "icx::FP_ARITH_INST_RETIRED:512B_PACKED_SINGLE" },
};

#include "test_resolve_other_pmus.h"
