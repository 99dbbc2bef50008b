/* SPDX-License-Identifier: MIT */
/* IvyBridge (seed 002's machine): its perf stat raw codes r5301b1, r53010e, r5301c2 and the fixed events. */
#define FORCED_PMU "ivb"
#define INTEL_FIXED true
#include "pmu_test.h"

struct decode_case {
	int line;
	uint64_t raw;
	const char *name; /* must be among the names found */
};

static const struct resolve_row rows[] = {
	{ __LINE__, "r5301b1", PERF_TYPE_RAW, 0x1b1, 0, 0, PMC_CLASS_GP, -1, "r5301b1" },
	{ __LINE__, "r53010e", PERF_TYPE_RAW, 0x10e, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "r5301c2", PERF_TYPE_RAW, 0x1c2, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "UOPS_EXECUTED:THREAD", PERF_TYPE_RAW, 0x1b1, 0, 0, PMC_CLASS_GP, -1, "ivb::UOPS_EXECUTED:THREAD" },
	{ __LINE__, "UOPS_EXECUTED:CORE", PERF_TYPE_RAW, 0x2b1, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "UOPS_RETIRED:ALL", PERF_TYPE_RAW, 0x1c2, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, PMC_CLASS_FIXED, 0, NULL },
	{ __LINE__, "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 0, 0, PMC_CLASS_FIXED, 2, NULL },
	{ __LINE__, "cpu/event=0xb1,umask=0x01/", PERF_TYPE_RAW, 0x1b1, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "cpu/event=0x3c/", PERF_TYPE_RAW, 0x3c, 0, 0, PMC_CLASS_FIXED, 1, NULL },
	{ __LINE__, "FP_COMP_OPS_EXE:SSE_SCALAR_DOUBLE", PERF_TYPE_RAW, 0x8010, 0, 0, PMC_CLASS_GP, -1, NULL },
};

static const char *const round_trip[] = {
	"r5301b1", "r53010e", "r5301c2", "UOPS_EXECUTED:CORE:c=1", "cycles", "SIMD_FP_256:PACKED_DOUBLE:u",
};

static const struct decode_case decodes[] = {
	{ __LINE__, 0x5301b1, "ivb::UOPS_EXECUTED:THREAD" }, /* seed 002 labels it UOPS_EXECUTED.CORE: that is 0x02 */
	{ __LINE__, 0x5302b1, "ivb::UOPS_EXECUTED:CORE" },
	{ __LINE__, 0x53010e, "ivb::UOPS_ISSUED:ANY" },
	{ __LINE__, 0x5301c2, "ivb::UOPS_RETIRED:ALL" },
};

#include "test_resolve_other_pmus.h"
