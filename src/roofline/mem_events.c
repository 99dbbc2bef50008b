/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "roofline/mem_events.h"
#include "sys/sysfs.h"

void pmc_rf_mem_events(struct pmc_rf_mem_events *ret)
{
	memset(ret, 0, sizeof(*ret));
	snprintf(ret->why, sizeof(ret->why),
		 "no memory-controller PMU (uncore_imc_*, amd_df, arm_cmn_*) in %s/bus/event_source/devices: memory "
		 "bytes cannot be counted here", pmc_sysfs_root());
}
