/* SPDX-License-Identifier: MIT */
/* decode with config1 on Ice Lake: FRONTEND_RETIRED, OFFCORE_RESPONSE_0 and OCR (the same offcore encodings), the
 * load latency threshold. */
#define FORCED_PMU "icl"
#include "test_decode_config1.h"

static const struct decode1_row rows[] = {
	{ __LINE__, "r1c6", 0, false, 21, "icl::FRONTEND_RETIRED:DSB_MISS (config1=0x11)" },
	{ __LINE__, "cpu/event=0xc6,umask=0x01,frontend=0x11/", 0, true, 1, "icl::FRONTEND_RETIRED:DSB_MISS" },
	{ __LINE__, "r1b7", 0, false, -1, "icl::OFFCORE_RESPONSE_0:OTHER_LOCAL_DRAM (config1=0x184008000)" },
	{ __LINE__, "cpu/event=0xb7,umask=0x01,offcore_rsp=0x10001/", 0, true, 2,
	  "icl::OFFCORE_RESPONSE_0:DEMAND_DATA_RD_ANY_RESPONSE" },
	{ __LINE__, "r1b7", 0x10001, true, 2, "icl::OCR:DEMAND_DATA_RD_ANY_RESPONSE" },
	{ __LINE__, "cpu/event=0xcd,umask=0x01,ldlat=64/", 0, true, -1, "icl::MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=64" },
	{ __LINE__, "r1c6", 0x7777, true, 0, NULL },
};

#define DECODE1_BODY
#include "test_decode_config1.h"
