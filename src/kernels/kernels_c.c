/* SPDX-License-Identifier: MIT */
/* Kernels written in C: their FLOPs and bytes are exact, their instruction counts depend on the compiler. */
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels_impl.h"

/* Between passes: the compiler must not merge or drop repeated passes over the same data. */
#define OPAQUE(p) __asm__ __volatile__("" : : "r"(p) : "memory")

void pmc_kern_arrays_free(struct pmc_kern_arrays *c)
{
	if (!c)
		return;
	free(c->a);
	free(c->b);
	free(c->c);
	free(c);
}

static uint64_t bits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

uint64_t pmc_kern_stream_copy(uint64_t iters, void *ctx)
{
	struct pmc_kern_arrays *s = ctx;
	double *restrict a = s->a, *restrict c = s->c;
	size_t n = s->n;

	for (uint64_t it = 0; it < iters; it++) {
		for (size_t i = 0; i < n; i++)
			c[i] = a[i];
		OPAQUE(c);
	}
	return bits(c[n - 1]);
}

uint64_t pmc_kern_stream_triad(uint64_t iters, void *ctx)
{
	struct pmc_kern_arrays *s = ctx;
	double *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
	const double q = 3.0;
	size_t n = s->n;

	for (uint64_t it = 0; it < iters; it++) {
		for (size_t i = 0; i < n; i++)
			a[i] = b[i] + q * c[i];
		OPAQUE(a);
	}
	return bits(a[n - 1]);
}

uint64_t pmc_kern_matmul(uint64_t iters, void *ctx)
{
	struct pmc_kern_arrays *m = ctx;
	const double *restrict a = m->a, *restrict b = m->b;
	double *restrict c = m->c;
	size_t n = m->n;

	for (uint64_t it = 0; it < iters; it++) {
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				double sum = 0.0;
				for (size_t k = 0; k < n; k++)
					sum += a[i * n + k] * b[k * n + j];
				c[i * n + j] = sum;
			}
		OPAQUE(c);
	}
	return bits(c[0]);
}
