/* SPDX-License-Identifier: MIT */
#include "bench/alloc_count.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

volatile unsigned long pmc_bench_nalloc;

#if PMC_BENCH_ALLOC_HOOKED
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t a, size_t n);
extern void __libc_free(void *p);

void *malloc(size_t n)
{
	pmc_bench_nalloc++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
	pmc_bench_nalloc++;
	return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
	pmc_bench_nalloc++;
	return __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
	pmc_bench_nalloc++;
	return __libc_memalign(a, n);
}

int posix_memalign(void **ret, size_t a, size_t n)
{
	void *p;

	pmc_bench_nalloc++;
	p = __libc_memalign(a, n);
	if (!p)
		return ENOMEM;
	*ret = p;
	return 0;
}

void free(void *p)
{
	if (p)
		pmc_bench_nalloc++;
	__libc_free(p);
}
#endif
