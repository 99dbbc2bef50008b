/* SPDX-License-Identifier: MIT */
/* Counting allocations in a benchmark (alloc_count.c puts a counting malloc, calloc, realloc, aligned allocators and
 * free in front of glibc's): the hot-path checks read pmc_bench_nalloc before and after the code under test. */
#ifndef PMC_BENCH_ALLOC_COUNT_H
#define PMC_BENCH_ALLOC_COUNT_H

/* Not under a sanitizer, which owns malloc itself, nor in a static executable (-DPMC_BENCH_ALLOC_HOOKED=0: the static
 * libc defines malloc in the same object as __libc_malloc). */
#ifndef PMC_BENCH_ALLOC_HOOKED
#if defined(__SANITIZE_ADDRESS__)
#define PMC_BENCH_ALLOC_HOOKED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PMC_BENCH_ALLOC_HOOKED 0
#endif
#endif
#endif
#ifndef PMC_BENCH_ALLOC_HOOKED
#define PMC_BENCH_ALLOC_HOOKED 1
#endif

/* malloc, calloc, realloc, aligned and free calls so far (0 forever when not hooked). */
extern volatile unsigned long pmc_bench_nalloc;

#endif
