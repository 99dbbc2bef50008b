/* SPDX-License-Identifier: MIT */
/* Hot-path hooks of an architecture pmctool has no port for: a clock for a timer, no in-process counter reads. */
#ifndef PMC_ARCH_GENERIC_ARCH_INLINE_H
#define PMC_ARCH_GENERIC_ARCH_INLINE_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define PMC_ARCH_USER_READ 0
#define PMC_ARCH_USER_READ_INSN "read(2)"
#define PMC_ARCH_LOAD_STORE 0

struct perf_event_attr;
static inline void pmc_arch_user_read_generic_attr(struct perf_event_attr *a)
{
	(void)a;
}

/* Two pointers stored so that a signal handler of the calling thread sees both new or both old: with no instruction
 * known to store both, signals are held meanwhile (two syscalls; only the region library's slow path stores pairs). */
static inline void pmc_arch_store_pair(void *dst, const void *a, const void *b)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	((const void **)dst)[0] = a;
	((const void **)dst)[1] = b;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Nanoseconds of CLOCK_MONOTONIC_RAW (timer rate 1 GHz). */
static inline uint64_t pmc_arch_timer_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline void pmc_arch_fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline uint64_t pmc_arch_timer_begin(void)
{
	return pmc_arch_timer_now();
}

static inline uint64_t pmc_arch_timer_end(void)
{
	return pmc_arch_timer_now();
}

/* Never called: the page's index is never trusted without PMC_ARCH_USER_READ. */
static inline uint64_t pmc_arch_counter_read(uint32_t index)
{
	(void)index;
	return 0;
}

typedef uint32_t pmc_arch_reader;

static inline pmc_arch_reader pmc_arch_reader_of(uint32_t index)
{
	return index;
}

/* Never called, as pmc_arch_counter_read. */
static inline uint64_t pmc_arch_reader_read(pmc_arch_reader r)
{
	(void)r;
	return 0;
}

static inline bool pmc_arch_counter_is_count(uint32_t index)
{
	(void)index;
	return false;
}

#endif
