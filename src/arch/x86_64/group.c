/* SPDX-License-Identifier: MIT */
#include "arch/x86_64/group.h"

#include "arch/arch.h"

unsigned pmc_x86_group_rule(const struct perf_event_attr *a, bool intel)
{
	unsigned code, umask;

	if (!intel || !a || (a->type != PERF_TYPE_RAW && a->type < PERF_TYPE_MAX))
		return PMC_GROUP_ANY;
	code = (unsigned)(a->config & 0xff);
	umask = (unsigned)((a->config >> 8) & 0xff);
	if (code != 0 || (a->config >> 16) != 0)
		return PMC_GROUP_ANY;
	if (umask == 0x04)
		return PMC_GROUP_MUST_LEAD | PMC_GROUP_MUST_GROUP;
	if (umask >= 0x80 && umask <= 0x87)
		return PMC_GROUP_MUST_GROUP;
	return PMC_GROUP_ANY;
}
