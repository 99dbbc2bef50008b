/* SPDX-License-Identifier: MIT */
/* compare --fail-if conditions: parse, then judge against a fixed comparison; must not crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/multi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), err[256];
	/* A stat report's row and a pytest report's rows of one test ("EVENT [NODEID]", judged per test). */
	struct pmc_series sa[] = { { .name = "instructions", .ok = true, .mean = 100 },
				   { .name = "cycles [t.py::a]", .ok = true, .mean = 50 },
				   { .name = "cycles [t.py::b]", .ok = false } };
	struct pmc_series sb[] = { { .name = "instructions", .ok = true, .mean = 0 },
				   { .name = "cycles [t.py::a]", .ok = true, .mean = 70 },
				   { .name = "cycles [t.py::b]", .ok = true, .mean = 1 } };
	struct pmc_loaded a = { .s = sa, .n = 3 }, b = { .s = sb, .n = 3 };
	struct pmc_fail_cond f;
	struct pmc_compare c;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (pmc_fail_cond_parse(buf, &f, err, sizeof(err)) == 0 &&
	    pmc_compare_build(&a, &b, PMC_TEST_WELCH, 0.05, &c) == 0) {
		pmc_fail_cond_eval(&c, &f);
		pmc_compare_fini(&c);
		if (pmc_compare_build(&b, &a, PMC_TEST_MANN_WHITNEY, 0.05, &c) == 0) {
			pmc_fail_cond_eval(&c, &f);
			pmc_compare_fini(&c);
		}
	}
	free(buf);
	return 0;
}
