/* SPDX-License-Identifier: MIT */
/* x86-64 hot-path hooks (included by arch/arch.h only): RDTSC, RDPMC, LFENCE. */
#ifndef PMC_ARCH_X86_64_ARCH_INLINE_H
#define PMC_ARCH_X86_64_ARCH_INLINE_H

#include <stdbool.h>
#include <stdint.h>

#define PMC_ARCH_USER_READ 1
#define PMC_ARCH_USER_READ_INSN "RDPMC"
/* Arithmetic takes memory operands (an add to memory is one instruction): no load/store pairing to gain. */
#define PMC_ARCH_LOAD_STORE 0

struct perf_event_attr;
/* What a generic (PERF_TYPE_HARDWARE, PERF_TYPE_RAW) event asks so that its thread may read it in process, for code
 * without sysfs (the region library): nothing on x86 (rdpmc is allowed for mmapped events by default). */
static inline void pmc_arch_user_read_generic_attr(struct perf_event_attr *a)
{
	(void)a;
}

/* Two pointers stored by one instruction (dst 16-byte aligned): a signal handler of the calling thread, which runs
 * between two instructions, sees both new or both old, never one of each. */
static inline void pmc_arch_store_pair(void *dst, const void *a, const void *b)
{
	typedef long long v2 __attribute__((vector_size(16)));
	v2 v = { (long long)(uintptr_t)a, (long long)(uintptr_t)b };

	__asm__ __volatile__("movdqa %1, %0" : "=m"(*(v2 *)dst) : "x"(v) : "memory");
}

/* Time-stamp counter, unordered: the caller fences. */
static inline uint64_t pmc_rdtsc(void)
{
	uint64_t lo, hi; /* RDTSC clears the upper halves of RAX and RDX: no zero-extension needed */

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (hi << 32) + lo; /* + (the same here): the compiler may make it a lea into any register */
}

/* No later instruction starts before every earlier one has completed locally. */
static inline void pmc_lfence(void)
{
	__asm__ __volatile__("lfence" ::: "memory");
}

/* RDPMC of hardware counter 'counter' (ECX). Faults (#GP -> SIGSEGV) unless the kernel allows it: probe first. */
static inline uint64_t pmc_rdpmc(uint32_t counter)
{
	uint64_t lo, hi; /* RDPMC clears the upper halves of RAX and RDX, as RDTSC */

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (hi << 32) + lo; /* as pmc_rdtsc */
}

static inline uint64_t pmc_arch_timer_now(void)
{
	return pmc_rdtsc();
}

static inline void pmc_arch_fence(void)
{
	pmc_lfence();
}

/* lfence; rdtsc; lfence: the region starts after everything before it and before anything after it. */
static inline uint64_t pmc_arch_timer_begin(void)
{
	uint64_t t;

	pmc_lfence();
	t = pmc_rdtsc();
	pmc_lfence();
	return t;
}

static inline uint64_t pmc_arch_timer_end(void)
{
	return pmc_arch_timer_begin();
}

/* The perf page's index is the hardware counter + 1 (bit 30: fixed counters, bit 29: PERF_METRICS). */
static inline uint64_t pmc_arch_counter_read(uint32_t index)
{
	return pmc_rdpmc(index - 1);
}

/* The region library's fast read: a counter's reader, prepared once from the page's index and used while the page's
 * lock says the index still holds (RDPMC's ECX here), and the read itself. */
typedef uint32_t pmc_arch_reader;

static inline pmc_arch_reader pmc_arch_reader_of(uint32_t index)
{
	return index - 1;
}

static inline uint64_t pmc_arch_reader_read(pmc_arch_reader r)
{
	return pmc_rdpmc(r);
}

/* A 64-bit word seen as its two halves (little-endian: h[0] low), for storing EDX:EAX without combining them. */
typedef union {
	uint64_t v;
	uint32_t h[2];
} pmc_arch_halves;

#define PMC_ARCH_READER_STORE 1
/* The read stored to memory: RDPMC clears the upper halves, so EAX and EDX stored side by side are the 64-bit value,
 * one instruction less than combining them first (the region library's enter stores its starts this way). */
static inline void pmc_arch_reader_store(pmc_arch_reader r, uint64_t *dst)
{
	pmc_arch_halves *w = (pmc_arch_halves *)dst;

	__asm__ __volatile__("rdpmc\n\tmovl %%eax, %0\n\tmovl %%edx, %1"
			     : "=m"(w->h[0]), "=m"(w->h[1]) : "c"(r) : "rax", "rdx");
}

/* The same store of RDTSC, whose EDX:EAX is RDPMC's: bench/region_path.c counts the enter with it, and the unit test
 * of the halves' order runs it where RDPMC faults. */
static inline void pmc_rdtsc_store(uint64_t *dst)
{
	pmc_arch_halves *w = (pmc_arch_halves *)dst;

	__asm__ __volatile__("rdtsc\n\tmovl %%eax, %0\n\tmovl %%edx, %1" : "=m"(w->h[0]), "=m"(w->h[1]) :: "rax", "rdx");
}

/* Index bit 29 (after the -1): INTEL_PMC_FIXED_RDPMC_METRICS, the PERF_METRICS MSR of the top-down metric events
 * (cpu/topdown-.../): RDPMC returns packed ratios there, not a count. */
static inline bool pmc_arch_counter_is_count(uint32_t index)
{
	return !((index - 1) & (UINT32_C(1) << 29));
}

#endif
