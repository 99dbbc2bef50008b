/* SPDX-License-Identifier: MIT */
#include "perf/selfread.h"

#include "util/util.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The kernel rewrites the page under us: every field is read exactly once per pass, through volatile. */
#define PMC_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define PMC_BARRIER() __asm__ __volatile__("" ::: "memory")

/* Bits of perf_event_mmap_page.capabilities [UAPI]. */
#define CAP_USER_RDPMC (1ull << 2)
#define CAP_USER_TIME (1ull << 3)
#define CAP_USER_TIME_SHORT (1ull << 5)

static uint64_t hw_read_counter(uint32_t index)
{
	return pmc_arch_counter_read(index);
}

static uint64_t hw_read_timer(void)
{
	return pmc_arch_timer_now();
}

const struct pmc_selfread_ops pmc_selfread_hw_ops = { hw_read_counter, hw_read_timer };

uint64_t pmc_selfread_sign_extend(uint64_t raw, unsigned width)
{
	unsigned sh;

	if (width == 0 || width >= 64)
		return raw;
	sh = 64 - width;
	/* Left shift unsigned, then arithmetic right shift of the signed value. */
	return (uint64_t)((int64_t)(raw << sh) >> sh);
}

uint64_t pmc_selfread_time_delta(uint64_t cyc, uint32_t mult, uint16_t shift, uint64_t offset)
{
	uint64_t quot, rem;

	if (shift >= 64)
		return offset;
	quot = cyc >> shift;
	rem = cyc & ((UINT64_C(1) << shift) - 1);
	return offset + quot * mult + ((rem * mult) >> shift);
}

/* The fields of one pass, between the two lock reads. */
static void read_fields(const struct perf_event_mmap_page *pg, const struct pmc_selfread_ops *ops,
			struct pmc_selfread_value *ret)
{
	uint64_t caps, cyc, delta;
	uint32_t idx;

	ret->enabled = PMC_ONCE(pg->time_enabled);
	ret->running = PMC_ONCE(pg->time_running);
	caps = PMC_ONCE(pg->capabilities);
	idx = PMC_ONCE(pg->index);
	/* As libperf: the timer is read only when the times differ. Equal times mean the event has run all the time it
	 * was enabled; as of the last update is then as good as now (the ratio is 1) and no timer read is needed. */
	ret->full = ret->enabled == ret->running;
	ret->times_now = (caps & CAP_USER_TIME) && !ret->full;
	if (ret->times_now) {
		cyc = ops->read_timer();
		if (caps & CAP_USER_TIME_SHORT) {
			uint64_t tc = PMC_ONCE(pg->time_cycles);
			cyc = tc + ((cyc - tc) & PMC_ONCE(pg->time_mask));
		}
		delta = pmc_selfread_time_delta(cyc, PMC_ONCE(pg->time_mult), PMC_ONCE(pg->time_shift),
						PMC_ONCE(pg->time_offset));
		ret->enabled += delta;
		/* Running time only advances while the event is on the PMU. */
		if (idx)
			ret->running += delta;
	}
	/* Top-down metric events (x86 PERF_METRICS) have an index whose read is not a count: never read them. */
	ret->from_rdpmc = (caps & CAP_USER_RDPMC) && idx && pmc_arch_counter_is_count(idx);
	ret->index = idx;
	if (ret->from_rdpmc) {
		uint64_t raw;

		ret->offset_before = PMC_ONCE(pg->offset);
		raw = ops->read_counter(idx);
		ret->offset_after = PMC_ONCE(pg->offset);
		ret->counter = pmc_selfread_sign_extend(raw, PMC_ONCE(pg->pmc_width));
		ret->value = ret->offset_after + ret->counter;
	}
}

/* Two epochs of a counter (before and after the kernel reprograms it at an overflow) differ by a whole overflow
 * period: 2^31 events for arm64's 32-bit counters, 2^47 on x86. A pass repeated after such an update is a few hundred
 * events later at most (user-mode counts exclude the interrupt). So of the first pass's candidate values (its counter
 * with each offset it or the last pass saw), the right one lies at or below the last pass's value, within SLACK;
 * the others are a period away. */
#define FIRST_PASS_SLACK (UINT64_C(1) << 24)

static void keep_first_pass(const struct pmc_selfread_value *first, struct pmc_selfread_value *last)
{
	const uint64_t off[] = { first->offset_before, first->offset_after, last->offset_after };
	uint64_t best = 0;
	bool found = false;

	if (!first->from_rdpmc || !last->from_rdpmc || first->index != last->index)
		return;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(off); i++) {
		uint64_t v = off[i] + first->counter;
		uint64_t d = last->value - v; /* unsigned: a candidate above the last value wraps to a huge distance */

		if (d <= FIRST_PASS_SLACK && (!found || v > best)) {
			best = v;
			found = true;
		}
	}
	if (found)
		last->value = best;
}

void pmc_selfread_page(const struct perf_event_mmap_page *pg, const struct pmc_selfread_ops *ops,
		       struct pmc_selfread_value *ret)
{
	struct pmc_selfread_value first;
	uint32_t seq;
	unsigned retries = 0;

	for (;;) {
		seq = PMC_ONCE(pg->lock);
		PMC_BARRIER();
		read_fields(pg, ops, ret);
		PMC_BARRIER();
		if (PMC_ONCE(pg->lock) == seq)
			break;
		if (!retries++)
			first = *ret;
	}
	if (retries)
		keep_first_pass(&first, ret);
	ret->retries = retries;
}

/* Up to this many pages are snapshotted under one lock window; larger groups are read in chunks. */
#define GROUP_CHUNK 64

void pmc_selfread_group_page(const struct perf_event_mmap_page *const *pg, size_t n,
			     const struct pmc_selfread_ops *ops, struct pmc_selfread_value *ret)
{
	uint32_t seq[GROUP_CHUNK];
	struct pmc_selfread_value first[GROUP_CHUNK];

	for (size_t base = 0; base < n; base += GROUP_CHUNK) {
		size_t m = PMC_MIN(n - base, (size_t)GROUP_CHUNK);
		unsigned retries = 0;
		bool same;

		do {
			for (size_t i = 0; i < m; i++)
				seq[i] = PMC_ONCE(pg[base + i]->lock);
			PMC_BARRIER();
			for (size_t i = 0; i < m; i++)
				read_fields(pg[base + i], ops, &ret[base + i]);
			PMC_BARRIER();
			same = true;
			for (size_t i = 0; i < m; i++)
				if (PMC_ONCE(pg[base + i]->lock) != seq[i])
					same = false;
			if (!same && !retries++)
				memcpy(first, &ret[base], m * sizeof(*first));
		} while (!same);
		for (size_t i = 0; i < m; i++) {
			if (retries)
				keep_first_pass(&first[i], &ret[base + i]);
			ret[base + i].retries = retries;
		}
	}
}

int pmc_selfread_map(struct pmc_selfread *s, int fd)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *p;

	s->fd = fd;
	s->page = NULL;
	s->rdpmc_ok = false;
	p = mmap(NULL, (size_t)psz, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	s->page = p;
	return 0;
}

void pmc_selfread_unmap(struct pmc_selfread *s)
{
	if (s->page)
		munmap(s->page, (size_t)sysconf(_SC_PAGESIZE));
	s->page = NULL;
	s->rdpmc_ok = false;
}

static __thread sigjmp_buf probe_jmp;

static void probe_fault(int sig)
{
	siglongjmp(probe_jmp, sig);
}

/* Execute the counter read once; a fault (x86 #GP: SIGSEGV; arm64 undefined instruction: SIGILL) is caught here,
 * never in the hot path. */
static int guarded_read(uint32_t index)
{
	struct sigaction sa, old_segv, old_ill;
	volatile int rc = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_fault;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv))
		return -errno;
	if (sigaction(SIGILL, &sa, &old_ill)) {
		rc = -errno;
		sigaction(SIGSEGV, &old_segv, NULL);
		return rc;
	}
	if (sigsetjmp(probe_jmp, 1) == 0)
		(void)pmc_arch_counter_read(index);
	else
		rc = -EPERM;
	sigaction(SIGILL, &old_ill, NULL);
	sigaction(SIGSEGV, &old_segv, NULL);
	return rc;
}

int pmc_selfread_probe(struct pmc_selfread *s, char *why, size_t whylen)
{
	const char *insn = pmc_arch_user_read_name();
	struct pmc_selfread_value v;
	uint32_t idx;
	int rc;

	s->rdpmc_ok = false;
	if (!PMC_ARCH_USER_READ || !insn) {
		if (why)
			snprintf(why, whylen, "pmctool has no in-process counter read for %s", pmc_arch_name());
		return -EOPNOTSUPP;
	}
	if (!s->page) {
		if (why)
			snprintf(why, whylen, "the event's perf page is not mapped");
		return -ENODEV;
	}
	if (!(PMC_ONCE(s->page->capabilities) & CAP_USER_RDPMC)) {
		char blocked[256];
		bool off = pmc_arch_user_read_blocked(blocked, sizeof(blocked)) == -EPERM;

		if (why)
			snprintf(why, whylen, "the kernel does not allow %s for this event (cap_user_rdpmc is 0: "
				 "a software event, or user access is off%s%s)", insn, off ? ": " : "", off ? blocked : "");
		return -EOPNOTSUPP;
	}
	idx = PMC_ONCE(s->page->index);
	if (idx == 0) {
		/* arm64 with kernel.perf_user_access=0 says cap_user_rdpmc=1 and index 0: say why, not "not scheduled". */
		if (why && pmc_arch_user_read_blocked(why, whylen) != -EPERM)
			snprintf(why, whylen, "the event is not on a hardware counter now (index 0)");
		return -EAGAIN;
	}
	if (!pmc_arch_counter_is_count(idx)) {
		if (why)
			snprintf(why, whylen, "the event's counter (page index %#x) holds top-down metrics, not a count: "
				 "read with read()", idx);
		return -EOPNOTSUPP;
	}
	rc = guarded_read(idx);
	if (rc) {
		if (why)
			snprintf(why, whylen, "%s faulted: user-mode counter reads are disabled", insn);
		return rc;
	}
	pmc_selfread_page(s->page, &pmc_selfread_hw_ops, &v);
	s->rdpmc_ok = true;
	if (why && whylen)
		why[0] = '\0';
	return 0;
}

bool pmc_selfread_usable(const struct pmc_selfread_value *v)
{
	return v->from_rdpmc && (v->times_now || v->full);
}

int pmc_selfread_read_ops(const struct pmc_selfread *s, const struct pmc_selfread_ops *ops, struct pmc_count *ret,
			  bool *ret_rdpmc)
{
	struct pmc_selfread_value v;

	if (s->rdpmc_ok && s->page) {
		/* Decided per read: the page's capabilities and times may change between reads. */
		pmc_selfread_page(s->page, ops, &v);
		if (pmc_selfread_usable(&v)) {
			ret->value = v.value;
			ret->enabled = v.enabled;
			ret->running = v.running;
			ret->err = 0;
			/* Read from the counter: the event is on the PMU now, whatever stale times say. */
			ret->status = PMC_COUNT_OK;
			if (ret_rdpmc)
				*ret_rdpmc = true;
			return 0;
		}
	}
	if (ret_rdpmc)
		*ret_rdpmc = false;
	return pmc_perf_read(s->fd, ret);
}

int pmc_selfread_read(const struct pmc_selfread *s, struct pmc_count *ret, bool *ret_rdpmc)
{
	return pmc_selfread_read_ops(s, &pmc_selfread_hw_ops, ret, ret_rdpmc);
}
