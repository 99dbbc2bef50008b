/* SPDX-License-Identifier: MIT */
/* --param KEY=VALUE parsing for every kernel: input byte 0 picks the kernel, the rest is the KEY=VALUE text. Whatever
 * the input, parsing must not crash, must leave valid values within the declared limits, and expectations of
 * accepted parameters must be computable. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct pmc_kernel *k;
	struct pmc_kernel_params p;
	struct pmc_named_value v[16];
	char err[256], *kv;
	size_t n;

	if (size < 1 || size > 4096)
		return 0;
	k = pmc_kernel_at(data[0] % pmc_kernel_count());
	kv = malloc(size);
	if (!kv)
		return 0;
	memcpy(kv, data + 1, size - 1);
	kv[size - 1] = '\0';
	pmc_kernel_params_init(k, &p);
	if (pmc_kernel_params_parse(k, kv, &p, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < k->nparams; i++)
			if (p.v[i] < k->params[i].min || p.v[i] > k->params[i].max)
				abort();
		if (pmc_kernel_expectations(k, &p, 1000, v, 16, &n) != 0)
			abort();
		(void)pmc_kernel_default_iters(k, &p);
	} else if (!err[0]) {
		abort();
	}
	free(kv);
	return 0;
}
