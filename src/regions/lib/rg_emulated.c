/* SPDX-License-Identifier: MIT */
/*
 * Emulated counts of a span of the calling program (include/pmctool.h): where no PMU counts, a program run under
 * `valgrind --tool=callgrind --instr-atstart=no` counts its user-mode instructions between pmctool_emulated_begin()
 * and pmctool_emulated_end() (the pytest plugin's --pmctool-emulate: python/pmctool/pytest_plugin.py). The two are
 * callgrind's client requests, from the valgrind/callgrind.h valgrind installs (the build finds it, or leaves them
 * out): a few instructions that do nothing on a real CPU and ask callgrind to start instrumenting (its counts zeroed),
 * then to stop and write its counts to a file of its own (callgrind.out.PID.N, or --callgrind-out-file's name).
 */
#include <errno.h>

#include "regions/lib/rg_internal.h"

#if defined(PMC_HAVE_CALLGRIND_H) && PMC_HAVE_CALLGRIND_H
#include <valgrind/callgrind.h>

int pmctool_emulated_begin(void)
{
	if (!RUNNING_ON_VALGRIND)
		return -ENODEV;
	CALLGRIND_START_INSTRUMENTATION;
	CALLGRIND_ZERO_STATS;
	return 0;
}

int pmctool_emulated_end(void)
{
	if (!RUNNING_ON_VALGRIND)
		return -ENODEV;
	CALLGRIND_STOP_INSTRUMENTATION;
	CALLGRIND_DUMP_STATS_AT("pmctool_emulated_end");
	return 0;
}
#else
int pmctool_emulated_begin(void)
{
	return -ENOSYS;
}

int pmctool_emulated_end(void)
{
	return -ENOSYS;
}
#endif
