/* SPDX-License-Identifier: MIT */
/* decode with config1 on Skylake: FRONTEND_RETIRED (frontend, fe_thres), OFFCORE_RESPONSE_0 (umasks combined in
 * config1), MEM_TRANS_RETIRED:LOAD_LATENCY (ldlat). */
#define FORCED_PMU "skl"
#include "test_decode_config1.h"

static const struct decode1_row rows[] = {
	/* r1c6 alone: every FRONTEND_RETIRED name, each saying which config1 it needs */
	{ __LINE__, "r1c6", 0, false, 10, "skl::FRONTEND_RETIRED:DSB_MISS (config1=0x11)" },
	{ __LINE__, "r1c6", 0x11, true, 1, "skl::FRONTEND_RETIRED:DSB_MISS" },
	{ __LINE__, "cpu/event=0xc6,umask=0x01,frontend=0x11/", 0, true, 1, "skl::FRONTEND_RETIRED:DSB_MISS" },
	{ __LINE__, "cpu/event=0xc6,umask=0x01,frontend=0x12/u", 0, true, 1, "skl::FRONTEND_RETIRED:L1I_MISS:u" },
	{ __LINE__, "cpu/config=0x1c6,config1=0x14/", 0, true, 1, "skl::FRONTEND_RETIRED:ITLB_MISS" },
	{ __LINE__, "r1c6", 0x400506, true, 1, "skl::FRONTEND_RETIRED:IDQ_4_BUBBLES:fe_thres=5" },
	{ __LINE__, "r1c6", 0x99, true, 0, NULL },
	/* offcore: one umask, then a request, a supplier and a snoop type combined */
	{ __LINE__, "r1b7", 0, false, -1, NULL },
	{ __LINE__, "cpu/event=0xb7,umask=0x01,offcore_rsp=0x10001/", 0, true, 1, "skl::OFFCORE_RESPONSE_0:DMND_DATA_RD" },
	{ __LINE__, "r1b7", 0x3f80040001, true, 1, "skl::OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HITM" },
	{ __LINE__, "r1b7", 0x80040003, true, 1, "skl::OFFCORE_RESPONSE_0:DMND_DATA_RD:DMND_RFO:L3_HITM:SNP_NONE" },
	/* load latency threshold */
	{ __LINE__, "cpu/event=0xcd,umask=0x01,ldlat=128/", 0, true, 2, "skl::MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=128" },
};

#define DECODE1_BODY
#include "test_decode_config1.h"
