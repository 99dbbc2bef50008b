/* SPDX-License-Identifier: MIT */
/* The kernel table, parameters and expectations (pure functions, any machine). */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/arch.h"
#include "kernels/kernels.h"
#include "kernels/kernels_impl.h"

/* The assembly differs per architecture; these are the counts that do. stream copy and matmul in C (x86-64) declare
 * no instructions or matmul bytes; in AArch64 assembly copy is 6 fixed + 4n + 5 per pass (n = 64 MiB / 16) and
 * matmul loads 16 n^3 bytes per product. */
#if defined(PMC_ARCH_X86_64)
#define MIN_KERNELS 18
#define LOOP_FIXED 5
#define WIDEST_DP "flops-dp-512"
#define WIDEST_DP_FLOPS 128
#define STREAM_COPY_INSNS -1
#define MATMUL_BYTES_LOADED -1
#else
#define MIN_KERNELS 14
#define LOOP_FIXED 4
#define WIDEST_DP "flops-dp-128"
#define WIDEST_DP_FLOPS 32
#define STREAM_COPY_INSNS (6 + 4 * 4194304.0 + 5)
#define MATMUL_BYTES_LOADED (2 * 16 * 1e6)
#endif

static void test_kernels_table_names_are_unique_and_found(void **state)
{
	assert_true(pmc_kernel_count() >= MIN_KERNELS);
	for (size_t i = 0; i < pmc_kernel_count(); i++) {
		const struct pmc_kernel *k = pmc_kernel_at(i);
		assert_ptr_equal(pmc_kernel_find(k->name), k);
		assert_non_null(k->desc);
		assert_non_null(k->expect);
		assert_true(k->run || k->select);
		assert_true(k->assembly == (k->loop_head != NULL));
	}
	assert_null(pmc_kernel_at(pmc_kernel_count()));
	assert_null(pmc_kernel_find("nope"));
	assert_string_equal(pmc_kernel_suggest("fmaa"), "fma");
	assert_null(pmc_kernel_suggest("completely-different"));
}

static void test_kernels_params_parse_accepts_and_rejects(void **state)
{
	static const struct {
		int line;
		const char *kernel, *kv;
		int rc;
		const char *param;
		uint64_t want;
		const char *err_has;
	} rows[] = {
		{ __LINE__, "stream", "footprint=64K", 0, "footprint", 65536, NULL },
		{ __LINE__, "stream", "footprint=8MiB", 0, "footprint", 8u << 20, NULL },
		{ __LINE__, "stream", "footprint=1G", 0, "footprint", 1u << 30, NULL },
		{ __LINE__, "stream", "footprint=4096", 0, "footprint", 4096, NULL },
		{ __LINE__, "stream", "footprint=0x2000", 0, "footprint", 8192, NULL },
		{ __LINE__, "stream", "footprint=2G", -ERANGE, NULL, 0, "out of range: use 4 KiB to 1 GiB" },
		{ __LINE__, "stream", "footprint=99999999999999999999G", -ERANGE, NULL, 0, "out of range" },
		{ __LINE__, "stream", "footprint=16X", -EINVAL, NULL, 0, "not a byte count" },
		{ __LINE__, "stream", "footprint=", -EINVAL, NULL, 0, "not a byte count" },
		{ __LINE__, "stream", "mode=copy", 0, "mode", 0, NULL },
		{ __LINE__, "stream", "MODE=Triad", 0, "mode", 1, NULL },
		{ __LINE__, "stream", "mode=scale", -EINVAL, NULL, 0, "use one of copy, triad" },
		{ __LINE__, "stream", "size=1", -EINVAL, NULL, 0, "parameters are mode, footprint" },
		{ __LINE__, "stream", "footprint", -EINVAL, NULL, 0, "not KEY=VALUE" },
		{ __LINE__, "stream", "=5", -EINVAL, NULL, 0, "not KEY=VALUE" },
		{ __LINE__, "loop", "inner=34", 0, "inner", 34, NULL },
		{ __LINE__, "loop", "inner=0", -ERANGE, NULL, 0, "use 1 to 1000000" },
		{ __LINE__, "loop", "inner=-1", -EINVAL, NULL, 0, "not an integer" },
		{ __LINE__, "loop", "inner=1e3", -EINVAL, NULL, 0, "not an integer" },
		{ __LINE__, "matmul", "n=2049", -ERANGE, NULL, 0, "use 1 to 2048" },
		{ __LINE__, "branch", "mode=random", 0, "mode", 1, NULL },
		{ __LINE__, "chase", "footprint=1K", -ERANGE, NULL, 0, "out of range" },
		{ __LINE__, "fma", "n=3", -EINVAL, NULL, 0, "takes no parameters" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pmc_kernel *k = pmc_kernel_find(rows[i].kernel);
		struct pmc_kernel_params p, before;
		char err[256] = "";
		uint64_t v;
		int rc;

		assert_non_null(k);
		pmc_kernel_params_init(k, &p);
		before = p;
		rc = pmc_kernel_params_parse(k, rows[i].kv, &p, err, sizeof(err));
		if (rc != rows[i].rc)
			fail_msg("row at line %d: rc %d want %d (%s)", rows[i].line, rc, rows[i].rc, err);
		if (rc == 0) {
			assert_int_equal(pmc_kernel_param_get(&p, rows[i].param, &v), 0);
			if (v != rows[i].want)
				fail_msg("row at line %d: value %llu", rows[i].line, (unsigned long long)v);
		} else {
			if (!strstr(err, rows[i].err_has))
				fail_msg("row at line %d: message '%s' lacks '%s'", rows[i].line, err, rows[i].err_has);
			assert_memory_equal(&p, &before, sizeof(p));
		}
	}
}

static double get(const struct pmc_named_value *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return v[i].value;
	return -1;
}

static void test_kernels_expectations_of_fma_match_seed_001(void **state)
{
	const struct pmc_kernel *k = pmc_kernel_find("fma");
	struct pmc_kernel_params p;
	struct pmc_named_value v[16];
	size_t n;

	/* Seed 001: 17 instructions per iteration, 1e9 iterations -> 17e9, plus the function's fixed part (x86-64: 6,
	 * AArch64: 18 with the 15 movi zeroing); 10 FMAs of 8 lanes (ymm) or 4 lanes (NEON .4s). */
	bool arm = !strcmp(pmc_arch_name(), "aarch64");
	double fixed = arm ? 18 : 6, flops = arm ? 80e9 : 160e9;

	if (!k)
		skip(); /* an architecture without assembly kernels */
	pmc_kernel_params_init(k, &p);
	assert_int_equal(pmc_kernel_expectations(k, &p, 1000000000, v, 16, &n), 0);
	assert_true(get(v, n, "EXPECTED_INSTRUCTIONS") == 17e9 + fixed);
	assert_true(get(v, n, "EXPECTED_BRANCHES") == 1e9 + 2);
	assert_true(get(v, n, "EXPECTED_FLOPS_SP") == flops);
	assert_true(get(v, n, "EXPECTED_FLOPS") == flops);
	assert_true(get(v, n, "ITERATIONS") == 1e9);
	assert_true(get(v, n, "EXPECTED_FLOPS_DP") == -1);
	assert_int_equal(pmc_kernel_expectations(k, &p, 10, v, 2, &n), -ENOSPC);
	assert_true(n > 2);
}

/* The assembly differs per architecture; these are the counts that do. */

static void test_kernels_expectations_follow_parameters(void **state)
{
	static const struct {
		int line;
		const char *kernel, *kv, *name;
		uint64_t iters;
		double want;
	} rows[] = {
		{ __LINE__, "loop", "inner=10", "EXPECTED_INSTRUCTIONS", 100, LOOP_FIXED + 100 * 23 },
		{ __LINE__, "loop", "inner=10", "EXPECTED_BRANCHES", 100, 2 + 100 * 11 },
		{ __LINE__, "stream", "footprint=24K", "EXPECTED_FLOPS_DP", 3, 3 * 2 * 1024 },
		{ __LINE__, "stream", "footprint=24K", "EXPECTED_BYTES_LOADED", 3, 3 * 16 * 1024 },
		{ __LINE__, "stream", "mode=copy", "EXPECTED_BYTES_STORED", 1, 8 * (64 << 20) / 16 },
		{ __LINE__, "stream", "mode=copy", "EXPECTED_FLOPS", 1, -1 },
		{ __LINE__, "stream", "mode=copy", "EXPECTED_INSTRUCTIONS", 1, STREAM_COPY_INSNS },
		{ __LINE__, "matmul", "n=100", "EXPECTED_FLOPS_DP", 2, 2 * 2e6 },
		{ __LINE__, "matmul", "n=100", "EXPECTED_BYTES_LOADED", 2, MATMUL_BYTES_LOADED },
		{ __LINE__, "chase", "footprint=1M", "EXPECTED_BYTES_LOADED", 10, 80 },
		{ __LINE__, "branch", "mode=random", "EXPECTED_BRANCHES", 10, 32 },
		{ __LINE__, "madd-dp", NULL, "EXPECTED_FLOPS", 1000000, 2000000 },
		{ __LINE__, WIDEST_DP, NULL, "EXPECTED_FLOPS_DP", 1, WIDEST_DP_FLOPS },
		{ __LINE__, "flops-sp-scalar", NULL, "EXPECTED_FLOPS_SP", 1, 16 },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pmc_kernel *k = pmc_kernel_find(rows[i].kernel);
		struct pmc_kernel_params p;
		struct pmc_named_value v[16];
		char err[256];
		size_t n;
		double got;

		pmc_kernel_params_init(k, &p);
		if (rows[i].kv)
			assert_int_equal(pmc_kernel_params_parse(k, rows[i].kv, &p, err, sizeof(err)), 0);
		assert_int_equal(pmc_kernel_expectations(k, &p, rows[i].iters, v, 16, &n), 0);
		got = get(v, n, rows[i].name);
		if (got != rows[i].want)
			fail_msg("row at line %d: %s = %g, want %g", rows[i].line, rows[i].name, got, rows[i].want);
	}
}

/* The kernel table's stream and matmul (assembly on AArch64, the C functions elsewhere) compute what the C reference
 * computes on the same data: a product or a pass in assembly is the real work, not only the right instruction count. */
static void test_kernels_stream_and_matmul_compute_the_c_reference_results(void **state)
{
	static const struct {
		const char *kernel, *kv;
		uint64_t (*ref)(uint64_t, void *);
	} rows[] = {
		{ "matmul", "n=13", pmc_kern_matmul },
		{ "stream", "mode=triad", pmc_kern_stream_triad },
		{ "stream", "mode=copy", pmc_kern_stream_copy },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct pmc_kernel *k = pmc_kernel_find(rows[i].kernel);
		struct pmc_kernel_params p;
		struct pmc_kern_arrays *got = NULL, *want = NULL;
		uint64_t (*fn)(uint64_t, void *);
		char err[256];
		size_t n;

		assert_non_null(k);
		pmc_kernel_params_init(k, &p);
		assert_int_equal(pmc_kernel_params_parse(k, rows[i].kv, &p, err, sizeof(err)), 0);
		if (!strcmp(rows[i].kernel, "stream"))
			assert_int_equal(pmc_kernel_params_parse(k, "footprint=48K", &p, err, sizeof(err)), 0);
		assert_int_equal(k->prepare(&p, (void **)&got, err, sizeof(err)), 0);
		assert_int_equal(k->prepare(&p, (void **)&want, err, sizeof(err)), 0);
		fn = k->select ? k->select(&p) : k->run;
		fn(2, got);
		rows[i].ref(2, want);
		n = !strcmp(rows[i].kernel, "matmul") ? got->n * got->n : got->n;
		for (size_t j = 0; j < n; j++)
			if (got->a[j] != want->a[j] || got->c[j] != want->c[j])
				fail_msg("%s %s: element %zu differs: a %g vs %g, c %g vs %g", rows[i].kernel, rows[i].kv, j,
					 got->a[j], want->a[j], got->c[j], want->c[j]);
		k->release(got);
		k->release(want);
	}
}

static void test_kernels_params_format_and_isa_names(void **state)
{
	const struct pmc_kernel *k = pmc_kernel_find("stream");
	struct pmc_kernel_params p;
	char buf[64], small[8];

	pmc_kernel_params_init(k, &p);
	assert_int_equal(pmc_kernel_params_format(&p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "mode=triad,footprint=67108864");
	assert_int_equal(pmc_kernel_params_format(&p, small, sizeof(small)), -ENOSPC);
	assert_string_equal(pmc_isa_names(PMC_ISA_AVX2 | PMC_ISA_FMA, buf, sizeof(buf)), "AVX2 FMA");
	assert_string_equal(pmc_kernel_format_value(&k->params[1], 64u << 20, buf, sizeof(buf)), "64 MiB");
	assert_int_equal(pmc_isa_missing(0), 0);
	assert_true(pmc_kernel_default_iters(k, &p) >= 1);
}

/* A kernel run with no counters (check's launched loop): it runs pinned where asked and gives the affinity back, runs
 * where it is with cpu -1, and a CPU outside the allowed set is -EINVAL with the CPU named, before anything ran. */
static void test_kernels_run_plain_pins_restores_and_refuses_a_cpu_it_cannot_have(void **state)
{
	const struct pmc_kernel *k = pmc_kernel_find("loop");
	struct pmc_kernel_params p;
	cpu_set_t before, after;
	const struct {
		int cpu;
		int rc;
		const char *err;
	} rows[] = { { -1, 0, "" }, { sched_getcpu(), 0, "" }, { CPU_SETSIZE - 1, -EINVAL, "cannot pin to CPU 1023" } };

	(void)state;
	assert_non_null(k);
	pmc_kernel_params_init(k, &p);
	assert_int_equal(sched_getaffinity(0, sizeof(before), &before), 0);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char err[160] = "";

		assert_int_equal(pmc_kernel_run_plain(k, &p, 1000, rows[i].cpu, err, sizeof(err)), rows[i].rc);
		assert_non_null(strstr(err, rows[i].err));
		assert_int_equal(sched_getaffinity(0, sizeof(after), &after), 0);
		assert_true(CPU_EQUAL(&before, &after));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernels_table_names_are_unique_and_found),
		cmocka_unit_test(test_kernels_run_plain_pins_restores_and_refuses_a_cpu_it_cannot_have),
		cmocka_unit_test(test_kernels_params_parse_accepts_and_rejects),
		cmocka_unit_test(test_kernels_expectations_of_fma_match_seed_001),
		cmocka_unit_test(test_kernels_expectations_follow_parameters),
		cmocka_unit_test(test_kernels_params_format_and_isa_names),
		cmocka_unit_test(test_kernels_stream_and_matmul_compute_the_c_reference_results),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
