/* SPDX-License-Identifier: MIT */
/*
 * What one self-read of the counters costs, in TSC cycles: a group read of 4 mmap pages with RDPMC (where the kernel
 * allows it), a read() per counter, and an empty measured region with 4 counters, replicated from the kernel runner's
 * start/stop sequence and taken from the runner itself (pmc_kernel_measure on the 'empty' kernel).
 *
 * read_cost            one JSON document on stdout
 * read_cost --trace    one empty region between two marker writes to /dev/null, for strace to count the system calls
 *                      in between; prints the allocations counted in between (JSON)
 *
 * Timing follows seed 003: lfence; rdtsc on both sides, the median of many samples, minus the median of the same
 * fences around nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kernels/kernels.h"
#include "perf/perf.h"
#include "perf/selfread.h"
#include "pmu/event.h"

#define NEV 4
#define SAMPLES 20001

/* A counting malloc in front of glibc's (not under a sanitizer, which owns malloc itself). */
#if defined(__SANITIZE_ADDRESS__)
#define HOOKED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOOKED 0
#endif
#endif
#ifndef HOOKED
#define HOOKED 1
#endif

static volatile unsigned long nalloc; /* malloc, calloc, realloc, aligned and free calls so far */

#if HOOKED
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t a, size_t n);
extern void __libc_free(void *p);

void *malloc(size_t n)
{
	nalloc++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
	nalloc++;
	return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
	nalloc++;
	return __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
	nalloc++;
	return __libc_memalign(a, n);
}

int posix_memalign(void **ret, size_t a, size_t n)
{
	void *p;

	nalloc++;
	p = __libc_memalign(a, n);
	if (!p)
		return ENOMEM;
	*ret = p;
	return 0;
}

void free(void *p)
{
	if (p)
		nalloc++;
	__libc_free(p);
}
#endif

struct bench {
	const char *names[NEV];
	struct pmc_event ev[NEV];
	struct pmc_selfread sr[NEV];
	const struct perf_event_mmap_page *pages[NEV];
	struct pmc_selfread_value vals[NEV];
	struct pmc_count counts[NEV];
	bool hardware;     /* the 4 hardware events opened; false: the software stand-ins */
	char soft_why[256]; /* why the hardware events could not be used */
	bool unmapped;     /* a page could not be mapped */
	bool rdpmc;        /* every page probed RDPMC-readable */
	char rdpmc_why[256];
};

static const char *const hw_names[NEV] = { "instructions", "cycles", "ref-cycles", "branches" };
static const char *const sw_names[NEV] = { "task-clock", "page-faults", "context-switches", "msr/tsc/" };

static void close_all(struct bench *b)
{
	for (int i = 0; i < NEV; i++) {
		pmc_selfread_unmap(&b->sr[i]);
		if (b->sr[i].fd >= 0)
			close(b->sr[i].fd);
		b->sr[i].fd = -1;
	}
}

/* Open the 4 events on this thread: hardware ones as one group, software ones alone. 0 or -errno + why. */
static int open_set(struct bench *b, const char *const names[NEV], bool group, char *why, size_t whylen)
{
	int leader = -1;

	for (int i = 0; i < NEV; i++)
		b->sr[i].fd = -1;
	for (int i = 0; i < NEV; i++) {
		struct pmc_resolve_error re;
		struct perf_event_attr a;
		int fd;

		if (pmc_event_resolve(names[i], &b->ev[i], &re)) {
			snprintf(why, whylen, "%.40s: %.200s", names[i], re.msg);
			close_all(b);
			return -EINVAL;
		}
		a = b->ev[i].attr;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = !(group && leader >= 0);
		fd = pmc_perf_open(&a, 0, -1, group ? leader : -1, 0);
		if (fd < 0) {
			snprintf(why, whylen, "%s: %s", names[i], pmc_perf_open_reason(-fd, group));
			close_all(b);
			return fd;
		}
		b->names[i] = names[i];
		b->sr[i].fd = fd;
		if (group && leader < 0)
			leader = fd;
		/* No page: read() only (the probe then says why RDPMC cannot be used). */
		if (pmc_selfread_map(&b->sr[i], fd) < 0)
			b->unmapped = true;
		b->pages[i] = b->sr[i].page;
	}
	for (int i = 0; i < NEV; i++)
		if (!group || i == 0)
			ioctl(b->sr[i].fd, PERF_EVENT_IOC_ENABLE, group ? PERF_IOC_FLAG_GROUP : 0);
	return 0;
}

static void open_events(struct bench *b)
{
	char why[256];

	b->hardware = open_set(b, hw_names, true, b->soft_why, sizeof(b->soft_why)) == 0;
	if (!b->hardware && open_set(b, sw_names, false, why, sizeof(why))) {
		fprintf(stderr, "read_cost: cannot open even the software events: %s\n", why);
		exit(1);
	}
	b->rdpmc = true;
	for (int i = 0; i < NEV; i++) {
		if (pmc_selfread_probe(&b->sr[i], why, sizeof(why))) {
			if (b->rdpmc)
				snprintf(b->rdpmc_why, sizeof(b->rdpmc_why), "%.40s: %.200s", b->names[i], why);
			b->rdpmc = false;
		}
	}
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;

	return a < c ? -1 : a > c;
}

static uint64_t median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

enum what { W_NOTHING, W_GROUP_PAGE, W_READ_ONE, W_REGION_RDPMC, W_REGION_READ };

static void read_all(struct bench *b)
{
	for (int i = 0; i < NEV; i++)
		pmc_perf_read(b->sr[i].fd, &b->counts[i]);
}

/* The runner's empty region (kernels_run.c region() with fn NULL): start snapshot, clock, fenced TSC pair, clock,
 * stop snapshot. */
static void empty_region(struct bench *b, bool rdpmc)
{
	uint64_t t0, t1, w0, w1;

	if (rdpmc)
		pmc_selfread_group_page(b->pages, NEV, &pmc_selfread_hw_ops, b->vals);
	else
		read_all(b);
	w0 = pmc_now_ns();
	t0 = pmc_arch_timer_begin();
	t1 = pmc_arch_timer_end();
	w1 = pmc_now_ns();
	if (rdpmc)
		pmc_selfread_group_page(b->pages, NEV, &pmc_selfread_hw_ops, b->vals);
	else
		read_all(b);
	__asm__ __volatile__("" : : "r"(t1 - t0 + w1 - w0) : "memory");
}

static void once(struct bench *b, enum what w)
{
	switch (w) {
	case W_NOTHING:
		break;
	case W_GROUP_PAGE:
		pmc_selfread_group_page(b->pages, NEV, &pmc_selfread_hw_ops, b->vals);
		break;
	case W_READ_ONE:
		pmc_perf_read(b->sr[0].fd, &b->counts[0]);
		break;
	case W_REGION_RDPMC:
		empty_region(b, true);
		break;
	case W_REGION_READ:
		empty_region(b, false);
		break;
	}
}

/* Median TSC cycles of w, fenced on both sides. */
static uint64_t time_median(struct bench *b, enum what w)
{
	static uint64_t s[SAMPLES];

	for (size_t i = 0; i < 1000; i++)
		once(b, w); /* warm caches, branch predictors, the page's TLB entries */
	for (size_t i = 0; i < SAMPLES; i++) {
		uint64_t t0, t1;

		t0 = pmc_arch_timer_begin();
		once(b, w);
		t1 = pmc_arch_timer_end();
		s[i] = t1 - t0;
	}
	return median(s, SAMPLES);
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/* The runner's own figures for the empty kernel with these 4 events: TSC between its fences, and each event's median
 * count over its empty regions. */
static void runner_figures(struct bench *b)
{
	const struct pmc_kernel *k = pmc_kernel_find("empty");
	const struct pmc_event *evs[NEV];
	struct pmc_count counts[NEV];
	struct pmc_measure_req req = { .events = evs, .n = NEV, .group = b->hardware };
	struct pmc_measure_out out = { .counts = counts };
	struct pmc_kernel_opts o = { .iters = 1, .cpu = -1, .warmup_s = 0 };
	struct pmc_kernel_params p;
	struct pmc_kernel_info info;
	char err[256] = "";

	for (int i = 0; i < NEV; i++)
		evs[i] = &b->ev[i];
	pmc_kernel_params_init(k, &p);
	printf("\"runner\":{");
	if (pmc_kernel_measure(k, &p, &o, &req, &out, &info, err, sizeof(err))) {
		printf("\"error\":");
		json_str(err);
		printf("}");
		return;
	}
	printf("\"read_method\":");
	json_str(info.read_method);
	printf(",\"samples\":%u,\"overhead_tsc_between_fences\":%llu,\"overhead_counts\":{", info.overhead_samples,
	       (unsigned long long)info.overhead_tsc);
	for (int i = 0; i < NEV; i++) {
		printf("%s", i ? "," : "");
		json_str(b->names[i]);
		if (info.overhead_valid[i])
			printf(":%llu", (unsigned long long)info.overhead[i]);
		else
			printf(":null");
	}
	printf("}}");
	pmc_kernel_info_fini(&info);
}

static void report(struct bench *b)
{
	uint64_t base = time_median(b, W_NOTHING);
	uint64_t page = b->unmapped ? 0 : minus(time_median(b, W_GROUP_PAGE), base);
	uint64_t rd = minus(time_median(b, W_READ_ONE), base);
	uint64_t reg_read = minus(time_median(b, W_REGION_READ), base);

	printf("{\"events\":[");
	for (int i = 0; i < NEV; i++) {
		printf("%s", i ? "," : "");
		json_str(b->names[i]);
	}
	printf("],\"hardware_events\":%s,\"software_why\":", b->hardware ? "true" : "false");
	json_str(b->hardware ? "" : b->soft_why);
	printf(",\"samples\":%d,\"fence_baseline_tsc\":%llu,", SAMPLES, (unsigned long long)base);
	printf("\"rdpmc_allowed\":%s,\"rdpmc_why\":", b->rdpmc ? "true" : "false");
	json_str(b->rdpmc_why);
	if (b->rdpmc) {
		uint64_t reg = minus(time_median(b, W_REGION_RDPMC), base);
		printf(",\"rdpmc_group_read_tsc\":%llu,\"rdpmc_group_read_tsc_per_counter\":%.1f,"
		       "\"empty_region_rdpmc_tsc\":%llu", (unsigned long long)page, (double)page / NEV,
		       (unsigned long long)reg);
	} else {
		/* The same page code without the RDPMC instruction: what the path costs besides it. */
		printf(",\"rdpmc_group_read_tsc\":null,\"empty_region_rdpmc_tsc\":null");
		if (!b->unmapped)
			printf(",\"page_read_without_rdpmc_tsc_per_counter\":%.1f", (double)page / NEV);
	}
	printf(",\"read_syscall_tsc_per_counter\":%llu,\"empty_region_read_tsc\":%llu,", (unsigned long long)rd,
	       (unsigned long long)reg_read);
	runner_figures(b);
	printf("}\n");
}

/* One empty region between two marker writes; the allocations in between are counted here, the system calls by
 * strace (the markers are the only writes to /dev/null). */
static void trace(struct bench *b)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	unsigned long a0, a1;

	if (fd < 0) {
		perror("read_cost: /dev/null");
		exit(1);
	}
	empty_region(b, b->rdpmc); /* first-touch page faults outside the traced region */
	a0 = nalloc;
	if (write(fd, "PMC_REGION_BEGIN", 16) != 16)
		exit(1);
	empty_region(b, b->rdpmc);
	if (write(fd, "PMC_REGION_END", 14) != 14)
		exit(1);
	a1 = nalloc;
	close(fd);
	printf("{\"path\":\"%s\",\"allocation_hook\":%s,\"allocations_in_region\":", b->rdpmc ? "rdpmc" : "read()",
	       HOOKED ? "true" : "false");
	if (HOOKED)
		printf("%lu", a1 - a0);
	else
		printf("null");
	printf(",\"rdpmc_why\":");
	json_str(b->rdpmc_why);
	printf("}\n");
}

int main(int argc, char **argv)
{
	static struct bench b;
	char err[256];

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--trace"))) {
		fprintf(stderr, "usage: read_cost [--trace]\n");
		return 2;
	}
	if (pmc_pmu_init(err, sizeof(err)) < 0) {
		fprintf(stderr, "read_cost: %s\n", err);
		return 1;
	}
	open_events(&b);
	if (argc == 2)
		trace(&b);
	else
		report(&b);
	close_all(&b);
	pmc_pmu_fini();
	return 0;
}
