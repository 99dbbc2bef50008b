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

/* Two pointers stored by one instruction (dst 16-byte aligned, so in one page): a signal handler of the calling
 * thread, which runs between two instructions, sees both new or both old, never one of each. */
static inline void pmc_arch_store_pair(void *dst, const void *a, const void *b)
{
	struct pair {
		const void *p[2];
	};

	__asm__ __volatile__("stp %1, %2, %0" : "=Q"(*(struct pair *)dst) : "r"(a), "r"(b) : "memory");
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

/* The chain (pmc_arm64_chain_stubs in readers.S): for slot s (0..7) and counter index i, an 8-byte stub
 * "mrs x<2+s>, <counter i>; br x<10+s>". One indirect branch enters the first slot's stub; each stub branches to the
 * next slot's, whose address waits in x<10+s>; the last slot's register holds the address after the branch. n
 * counters cost n mrs and n + 1 branches, land in x2..x<n+1> (x0 and x1 keep the handle and the thread), and leave
 * x30 alone: enter and leave need no stack frame. */
#define PMC_ARCH_CHAIN_MAX 8

extern const char pmc_arm64_chain_stubs[];

static inline pmc_arch_reader pmc_arch_chain_of(uint32_t index, int slot)
{
	return (uintptr_t)pmc_arm64_chain_stubs + 8u * (32u * (uintptr_t)slot + (uintptr_t)(index - 1));
}

/* The chain's operands for n counters, built up slot by slot: the values (outputs in x2..x<n+1>), the next stubs'
 * addresses (x10..x<n+8>, from c[1..n-1]), the stores into out. */
#define PMC_A64_V(k, x) register uint64_t v##k __asm__("x" #x)
#define PMC_A64_N(k, x) register uintptr_t n##k __asm__("x" #x) = c[k + 1]
#define PMC_A64_VD1 PMC_A64_V(0, 2)
#define PMC_A64_VD2 PMC_A64_VD1; PMC_A64_V(1, 3)
#define PMC_A64_VD3 PMC_A64_VD2; PMC_A64_V(2, 4)
#define PMC_A64_VD4 PMC_A64_VD3; PMC_A64_V(3, 5)
#define PMC_A64_VD5 PMC_A64_VD4; PMC_A64_V(4, 6)
#define PMC_A64_VD6 PMC_A64_VD5; PMC_A64_V(5, 7)
#define PMC_A64_VD7 PMC_A64_VD6; PMC_A64_V(6, 8)
#define PMC_A64_VD8 PMC_A64_VD7; PMC_A64_V(7, 9)
#define PMC_A64_VO1 "=&r"(v0)
#define PMC_A64_VO2 PMC_A64_VO1, "=&r"(v1)
#define PMC_A64_VO3 PMC_A64_VO2, "=&r"(v2)
#define PMC_A64_VO4 PMC_A64_VO3, "=&r"(v3)
#define PMC_A64_VO5 PMC_A64_VO4, "=&r"(v4)
#define PMC_A64_VO6 PMC_A64_VO5, "=&r"(v5)
#define PMC_A64_VO7 PMC_A64_VO6, "=&r"(v6)
#define PMC_A64_VO8 PMC_A64_VO7, "=&r"(v7)
#define PMC_A64_ND1 (void)0
#define PMC_A64_ND2 PMC_A64_N(0, 10)
#define PMC_A64_ND3 PMC_A64_ND2; PMC_A64_N(1, 11)
#define PMC_A64_ND4 PMC_A64_ND3; PMC_A64_N(2, 12)
#define PMC_A64_ND5 PMC_A64_ND4; PMC_A64_N(3, 13)
#define PMC_A64_ND6 PMC_A64_ND5; PMC_A64_N(4, 14)
#define PMC_A64_ND7 PMC_A64_ND6; PMC_A64_N(5, 15)
#define PMC_A64_ND8 PMC_A64_ND7; PMC_A64_N(6, 16)
#define PMC_A64_NO1
#define PMC_A64_NO2 , "+&r"(n0)
#define PMC_A64_NO3 PMC_A64_NO2, "+&r"(n1)
#define PMC_A64_NO4 PMC_A64_NO3, "+&r"(n2)
#define PMC_A64_NO5 PMC_A64_NO4, "+&r"(n3)
#define PMC_A64_NO6 PMC_A64_NO5, "+&r"(n4)
#define PMC_A64_NO7 PMC_A64_NO6, "+&r"(n5)
#define PMC_A64_NO8 PMC_A64_NO7, "+&r"(n6)
#define PMC_A64_ST1 out[0] = v0
#define PMC_A64_ST2 PMC_A64_ST1; out[1] = v1
#define PMC_A64_ST3 PMC_A64_ST2; out[2] = v2
#define PMC_A64_ST4 PMC_A64_ST3; out[3] = v3
#define PMC_A64_ST5 PMC_A64_ST4; out[4] = v4
#define PMC_A64_ST6 PMC_A64_ST5; out[5] = v5
#define PMC_A64_ST7 PMC_A64_ST6; out[6] = v6
#define PMC_A64_ST8 PMC_A64_ST7; out[7] = v7
/* n counters: the last slot's next register (x<9+n>) gets the address after the branch into the first stub. */
#define PMC_A64_CHAIN(n, last) \
	case n: { \
		PMC_A64_VD##n; \
		PMC_A64_ND##n; \
		register uintptr_t ret __asm__("x" #last); \
		__asm__ __volatile__("adr %[ret], 1f\n\tbr %[first]\n1:" \
				     : PMC_A64_VO##n PMC_A64_NO##n, [ret] "=&r"(ret) : [first] "r"(c[0])); \
		PMC_A64_ST##n; \
		break; \
	}

/* n (1..PMC_ARCH_CHAIN_MAX, a constant where it is inlined) counters through the chain of slots 0..n-1. */
static inline __attribute__((always_inline)) void pmc_arch_chain_read(const pmc_arch_reader *c, const int n,
								       uint64_t *out)
{
	switch (n) {
	PMC_A64_CHAIN(1, 10)
	PMC_A64_CHAIN(2, 11)
	PMC_A64_CHAIN(3, 12)
	PMC_A64_CHAIN(4, 13)
	PMC_A64_CHAIN(5, 14)
	PMC_A64_CHAIN(6, 15)
	PMC_A64_CHAIN(7, 16)
	PMC_A64_CHAIN(8, 17)
	default:
		break;
	}
}

#include "arch/aarch64/layout.h"

#define PMC_ARCH_DIRECT_MAX PMC_ARM64_DIRECT_MAX

static inline int pmc_arch_direct_layout(const uint32_t *index, int n)
{
	return pmc_arm64_direct_layout(index, n);
}

/* Slot k of layout (constants where it is inlined: one mrs). */
static inline __attribute__((always_inline)) uint64_t pmc_arch_direct_read(int layout, int k)
{
	uint64_t v = 0;

	switch (pmc_arm64_direct_index(layout, k)) {
	case 1: __asm__ __volatile__("mrs %0, pmevcntr0_el0" : "=r"(v)); break;
	case 2: __asm__ __volatile__("mrs %0, pmevcntr1_el0" : "=r"(v)); break;
	case 3: __asm__ __volatile__("mrs %0, pmevcntr2_el0" : "=r"(v)); break;
	case 4: __asm__ __volatile__("mrs %0, pmevcntr3_el0" : "=r"(v)); break;
	case 32: __asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v)); break;
	default: break;
	}
	return v;
}
_Static_assert(PMC_ARCH_DIRECT_MAX == 4, "pmc_arch_direct_read names the event counters 0..3");

/* 1..31 event counters, 32 the cycle counter: every one holds a count. */
static inline bool pmc_arch_counter_is_count(uint32_t index)
{
	return index >= 1 && index <= 32;
}

#endif
