/* SPDX-License-Identifier: MIT */
/* Skylake: FP_ARITH_INST_RETIRED, fixed events, the architectural cpu/ layout without a sysfs core PMU. */
#define FORCED_PMU "skl"
#define INTEL_FIXED true
#include "pmu_test.h"

struct decode_case {
	int line;
	uint64_t raw;
	const char *name; /* must be among the names found */
};

static const struct resolve_row rows[] = {
	{ __LINE__, "FP_ARITH_INST_RETIRED:SCALAR_DOUBLE", PERF_TYPE_RAW, 0x1c7, 0, 0, PMC_CLASS_GP, -1, "skl::" },
	{ __LINE__, "FP_ARITH:256B_PACKED_SINGLE", PERF_TYPE_RAW, 0x20c7, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "fp_arith_inst_retired.scalar_double", PERF_TYPE_RAW, 0x1c7, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "INST_RETIRED:ANY_P", PERF_TYPE_RAW, 0xc0, 0, 0, PMC_CLASS_FIXED, 0, NULL },
	{ __LINE__, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 0, PMC_CLASS_FIXED, 1, NULL },
	{ __LINE__, "r0300", PERF_TYPE_RAW, 0x300, 0, 0, PMC_CLASS_FIXED, 2, NULL },
	{ __LINE__, "r0100", PERF_TYPE_RAW, 0x100, 0, 0, PMC_CLASS_GP, -1, NULL }, /* before Ice Lake: no counter */
	{ __LINE__, "cpu/event=0x0e,umask=0x01,cmask=1,inv/k", PERF_TYPE_RAW, 0x180010e, 0, EXCL_U, PMC_CLASS_GP, -1,
	  NULL },
};

static const char *const round_trip[] = {
	"FP_ARITH_INST_RETIRED:SCALAR_DOUBLE:u", "UOPS_ISSUED:ANY:c=1:i=1", "r5300c0", "cpu/event=0x3c,any/",
	"instructions:u",
};

static const struct decode_case decodes[] = {
	{ __LINE__, 0x5301c7, "skl::FP_ARITH_INST_RETIRED:SCALAR_DOUBLE" },
	{ __LINE__, 0x5310c7, "skl::FP_ARITH_INST_RETIRED:256B_PACKED_DOUBLE" },
};

#include "test_resolve_other_pmus.h"
