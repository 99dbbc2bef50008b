/* SPDX-License-Identifier: MIT */
/* The breakpoint probe pmctool runs before it counts a breakpoint (perf/probe.h), for the tests to ask: prints the
 * probe's verdict in pmctool's words and exits 0 when breakpoints fire exactly here, 1 when they never fire, 2 when
 * they fire inexactly, 3 when the probe's breakpoint does not open. Tests that assert breakpoint counts skip with
 * this line where it does not exit 0 (tests/lib.sh: breakpoints_fire_or_skip). */
#include <stdio.h>

#include "perf/probe.h"

int main(void)
{
	const struct pmc_bp_probe *p = pmc_perf_probe_breakpoints();
	char line[300];

	pmc_bp_probe_describe(p, line, sizeof(line));
	puts(line);
	switch (p->fires) {
	case PMC_BP_FIRE:
		return 0;
	case PMC_BP_NEVER:
		return 1;
	case PMC_BP_INEXACT:
		return 2;
	default:
		return 3;
	}
}
