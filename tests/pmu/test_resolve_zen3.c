/* SPDX-License-Identifier: MIT */
/* AMD Zen 3: no fixed counters (cycles and instructions are GP), event select bits 32-35 in cpu/event=0x1c0/. */
#define FORCED_PMU "amd64_fam19h_zen3"
#define INTEL_FIXED false
#include "pmu_test.h"

struct decode_case {
	int line;
	uint64_t raw;
	const char *name; /* must be among the names found */
};

static const struct resolve_row rows[] = {
	{ __LINE__, "RETIRED_INSTRUCTIONS", PERF_TYPE_RAW, 0xc0, 0, 0, PMC_CLASS_GP, -1, "amd64_fam19h_zen3::" },
	{ __LINE__, "RETIRED_SSE_AVX_FLOPS:ANY", PERF_TYPE_RAW, 0xf03, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "RETIRED_INSTRUCTIONS:c=2:i=1:e=1", PERF_TYPE_RAW, 0x28400c0, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "r5300c0", PERF_TYPE_RAW, 0xc0, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "cpu/event=0x1c0/", PERF_TYPE_RAW, 0x1000000c0, 0, 0, PMC_CLASS_GP, -1, NULL },
	{ __LINE__, "cpu/event=0xc0,umask=0,cmask=1,inv/u", PERF_TYPE_RAW, 0x18000c0, 0, EXCL_K | EXCL_H,
	  PMC_CLASS_GP, -1, NULL },
};

static const char *const round_trip[] = {
	"RETIRED_INSTRUCTIONS", "RETIRED_SSE_AVX_FLOPS:ANY:u", "cpu/event=0x1c0,umask=0x02/", "r1000000c0",
	"cycles:k",
};

static const struct decode_case decodes[] = {
	{ __LINE__, 0x5300c0, "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS" },
	{ __LINE__, 0x530f03, "amd64_fam19h_zen3::RETIRED_SSE_AVX_FLOPS:ANY" },
};

#include "test_resolve_other_pmus.h"
