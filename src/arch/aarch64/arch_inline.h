/* SPDX-License-Identifier: MIT */
/* aarch64 hot-path hooks (included by arch/arch.h only): CNTVCT_EL0, PMEVCNTR<n>_EL0 / PMCCNTR_EL0, ISB. */
#ifndef PMC_ARCH_AARCH64_ARCH_INLINE_H
#define PMC_ARCH_AARCH64_ARCH_INLINE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#define PMC_ARCH_USER_READ 1
#define PMC_ARCH_USER_READ_INSN "mrs PMEVCNTR<n>_EL0"
/* A load/store architecture: memory adds are a load, an add and a store, and adjacent loads pair (ldp/stp). */
#define PMC_ARCH_LOAD_STORE 1

/* What a generic (PERF_TYPE_HARDWARE, PERF_TYPE_RAW) event asks so that its thread may read it in process, for code
 * without sysfs (the region library): the PMUv3 driver's "rdpmc" format term, config1 bit 1. */
static inline void pmc_arch_user_read_generic_attr(struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_RAW)
		a->config1 |= 2;
}

/* The virtual counter of the generic timer, unordered. */
static inline uint64_t pmc_arch_timer_now(void)
{
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* ISB: later instructions are fetched after every earlier one has completed (what lfence is to x86 here). */
static inline void pmc_arch_fence(void)
{
	__asm__ __volatile__("isb" ::: "memory");
}

static inline uint64_t pmc_arch_timer_begin(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) :: "memory");
	return v;
}

static inline uint64_t pmc_arch_timer_end(void)
{
	return pmc_arch_timer_begin();
}

/* Index -> register: 32 is PMCCNTR_EL0, 1..31 are PMEVCNTR<index-1>_EL0. The register number is part of the
 * instruction, hence one case per counter. Raises SIGILL unless kernel.perf_user_access allows it and the page says
 * the event is on that counter (index != 0): callers check the page first. 0 for an index no counter has. */
uint64_t pmc_arm64_counter_read(uint32_t index);

static inline uint64_t pmc_arch_counter_read(uint32_t index)
{
	return pmc_arm64_counter_read(index);
}

/* The region library's fast read: a counter's reader, prepared once from the page's index and used while the page's
 * lock says the index still holds. Here the address of a two-instruction stub (mrs x0, <counter>; ret) in
 * readers.S, 8 bytes each in index order, called with BLR: four instructions a read instead of the switch's eleven.
 * The stub touches x0 and returns through x30 only. */
typedef uintptr_t pmc_arch_reader;

extern const char pmc_arm64_reader_stubs[];

static inline pmc_arch_reader pmc_arch_reader_of(uint32_t index)
{
	return (uintptr_t)pmc_arm64_reader_stubs + 8u * (uintptr_t)(index - 1);
}

static inline uint64_t pmc_arch_reader_read(pmc_arch_reader r)
{
	register uint64_t v __asm__("x0");

	__asm__ __volatile__("blr %1" : "=r"(v) : "r"(r) : "x30");
	return v;
}

/* 1..31 event counters, 32 the cycle counter: every one holds a count. */
static inline bool pmc_arch_counter_is_count(uint32_t index)
{
	return index >= 1 && index <= 32;
}

#endif
