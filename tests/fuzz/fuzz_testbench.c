/* SPDX-License-Identifier: MIT */
/* The test-bench spelling (uops_issued.any>=2, *EVENT, br_inst_exec.0x81) in isolation, into output buffers of every
 * size: the result is terminated and never overruns, a failure is -EINVAL or -ENOENT. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	static const size_t lens[] = { 1, 8, 32, 512 };
	char *s = malloc(size + 1);

	if (!s)
		return 0;
	if (!inited) {
		setenv("LIBPFM_FORCE_PMU", "hsw", 0);
		pmc_pmu_init(NULL, 0);
		inited = 1;
	}
	memcpy(s, data, size);
	s[size] = '\0';
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		char *out = malloc(lens[i]); /* exactly lens[i]: ASan sees any overrun */
		int r;

		if (!out)
			break;
		r = pmc_testbench_to_libpfm(s, out, lens[i]);
		if (r == 0 && !memchr(out, 0, lens[i]))
			abort();
		if (r != 0 && r != -EINVAL && r != -ENOENT && r != -E2BIG)
			abort();
		free(out);
	}
	free(s);
	return 0;
}
