/* SPDX-License-Identifier: MIT */
/*
 * Test helper for the kernel tests (not installed).
 *   kernel_probe list                 assembly kernels: NAME SYMBOL AVX512(0|1) RUNNABLE(0|1) FIXED PER_ITER
 *                                     (declared instructions at the test parameters below)
 *   kernel_probe run NAME N           run the kernel N iterations once (under valgrind --toggle-collect=SYMBOL)
 *   kernel_probe hw NAME N            instructions retired / declared through pmc_kernel_measure (exit 77: no PMU)
 * Test parameters: chase footprint=64K, stream footprint=12K, matmul n=4 (small, so valgrind is quick; stream and
 * matmul are assembly on AArch64); others at their defaults.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels.h"

static int params_for_test(const struct pmc_kernel *k, struct pmc_kernel_params *p)
{
	char err[256];

	const char *kv = !strcmp(k->name, "chase") ? "footprint=64K" : !strcmp(k->name, "stream") ? "footprint=12K"
			 : !strcmp(k->name, "matmul") ? "n=4" : NULL;

	pmc_kernel_params_init(k, p);
	if (kv && pmc_kernel_params_parse(k, kv, p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int list(void)
{
	for (size_t i = 0; i < pmc_kernel_count(); i++) {
		const struct pmc_kernel *k = pmc_kernel_at(i);
		struct pmc_kernel_params p;
		struct pmc_kernel_expect e;

		if (!k->assembly)
			continue;
		if (params_for_test(k, &p))
			return 1;
		pmc_kernel_expect(k, &p, &e);
		printf("%s %s %d %d %llu %llu\n", k->name, k->symbol, (k->isa & PMC_ISA_AVX512F) != 0,
		       pmc_isa_missing(k->isa) == 0, (unsigned long long)e.fixed[PMC_KX_INSTRUCTIONS],
		       (unsigned long long)e.per_iter[PMC_KX_INSTRUCTIONS]);
	}
	return 0;
}

static int run(const struct pmc_kernel *k, uint64_t n)
{
	struct pmc_kernel_params p;
	char err[256] = "";
	void *ctx = NULL;
	uint64_t res;

	if (params_for_test(k, &p))
		return 1;
	if (pmc_kernel_check_cpu(k, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 77;
	}
	if (k->prepare && k->prepare(&p, &ctx, err, sizeof(err))) {
		fprintf(stderr, "prepare: %s\n", err);
		return 1;
	}
	res = (k->select ? k->select(&p) : k->run)(n, ctx);
	printf("%s %llu -> %llu\n", k->name, (unsigned long long)n, (unsigned long long)res);
	if (ctx && k->release)
		k->release(ctx);
	return 0;
}

static int hw(const struct pmc_kernel *k, uint64_t n)
{
	struct pmc_event ev = { .name = "instructions:u", .cls = PMC_CLASS_FIXED, .fixed_index = 0,
				.flags = PMC_EVF_HARDWARE };
	const struct pmc_event *evs[] = { &ev };
	struct pmc_measure_req req = { .events = evs, .n = 1, .group = true };
	struct pmc_count cnt;
	struct pmc_measure_out out = { .counts = &cnt };
	struct pmc_kernel_opts o = { .iters = n, .cpu = -1, .warmup_s = 0.2, .subtract_overhead = true };
	struct pmc_kernel_info info;
	struct pmc_kernel_params p;
	struct pmc_kernel_expect e;
	char err[256] = "";
	double expected, ratio;

	ev.attr.type = PERF_TYPE_HARDWARE;
	ev.attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	ev.attr.exclude_kernel = 1;
	ev.attr.exclude_hv = 1;
	if (params_for_test(k, &p))
		return 1;
	if (pmc_kernel_measure(k, &p, &o, &req, &out, &info, err, sizeof(err))) {
		fprintf(stderr, "measure: %s\n", err);
		return strstr(err, "needs") ? 77 : 1;
	}
	pmc_kernel_info_fini(&info);
	if (cnt.status == PMC_COUNT_NOT_SUPPORTED) {
		printf("SKIP: instructions cannot be counted here (%s): %s\n", strerror(cnt.err),
		       pmc_perf_open_reason(cnt.err, 1));
		return 77;
	}
	if (cnt.status != PMC_COUNT_OK) {
		fprintf(stderr, "instructions not counted (time_running 0)\n");
		return 1;
	}
	pmc_kernel_expect(k, &p, &e);
	expected = (double)e.fixed[PMC_KX_INSTRUCTIONS] + (double)e.per_iter[PMC_KX_INSTRUCTIONS] * (double)n;
	ratio = (double)cnt.value / expected;
	printf("%s: %llu instructions retired, %.0f declared, ratio %.6f, read with %s\n", k->name,
	       (unsigned long long)cnt.value, expected, ratio, info.read_method);
	return ratio > 0.999 && ratio < 1.001 ? 0 : 1;
}

int main(int argc, char **argv)
{
	const struct pmc_kernel *k;
	uint64_t n;

	if (argc == 2 && !strcmp(argv[1], "list"))
		return list();
	if (argc != 4 || (strcmp(argv[1], "run") && strcmp(argv[1], "hw"))) {
		fprintf(stderr, "usage: kernel_probe list | run NAME N | hw NAME N\n");
		return 2;
	}
	k = pmc_kernel_find(argv[2]);
	if (!k || pmc_parse_u64(argv[3], 1, PMC_KERNEL_MAX_ITERS, &n)) {
		fprintf(stderr, "unknown kernel '%s' or bad N '%s'\n", argv[2], argv[3]);
		return 2;
	}
	return !strcmp(argv[1], "run") ? run(k, n) : hw(k, n);
}
