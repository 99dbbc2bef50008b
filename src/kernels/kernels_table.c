/* SPDX-License-Identifier: MIT */
/* The kernel table: what each kernel declares, its parameters, and the data it needs. */
#include "kernels/kernels.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernels_impl.h"

#define KX(q) (1u << PMC_KX_##q)
#define KIB UINT64_C(1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)

/* Instructions and branches of an assembly kernel: fixed part (entry guard, setup, ret) and per iteration. */
static void expect_asm(struct pmc_kernel_expect *e, uint64_t insns, uint64_t branches, uint64_t insns_it,
		       uint64_t branches_it)
{
	memset(e, 0, sizeof(*e));
	e->declared = KX(INSTRUCTIONS) | KX(BRANCHES);
	e->fixed[PMC_KX_INSTRUCTIONS] = insns;
	e->fixed[PMC_KX_BRANCHES] = branches;
	e->per_iter[PMC_KX_INSTRUCTIONS] = insns_it;
	e->per_iter[PMC_KX_BRANCHES] = branches_it;
}

static void expect_flops(struct pmc_kernel_expect *e, enum pmc_kx prec, uint64_t per_iter)
{
	e->declared |= 1u << prec;
	e->per_iter[prec] = per_iter;
}

static void expect_bytes(struct pmc_kernel_expect *e, uint64_t loaded, uint64_t stored)
{
	e->declared |= KX(BYTES_LOADED) | KX(BYTES_STORED);
	e->per_iter[PMC_KX_BYTES_LOADED] = loaded;
	e->per_iter[PMC_KX_BYTES_STORED] = stored;
}

static uint64_t param(const struct pmc_kernel_params *p, size_t i)
{
	return p->v[i];
}

static uint64_t max1(uint64_t v)
{
	return v ? v : 1;
}

/* ---- empty, fma, fma-latency, flops-*, madd-*: no data ---- */

static void expect_empty(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	expect_asm(e, 4, 2, 2, 1);
}

static void expect_fma(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	expect_asm(e, 6, 2, 17, 1);
	expect_flops(e, PMC_KX_FLOPS_SP, 10 * 8 * 2);
	expect_bytes(e, 0, 0);
}

static void expect_fma_latency(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	expect_asm(e, 6, 2, 6, 1);
	expect_flops(e, PMC_KX_FLOPS_SP, 4 * 8 * 2);
	expect_bytes(e, 0, 0);
}

/* 8 FMAs per iteration, 2 FLOPs per lane. */
#define FLOPS_EXPECT(fn, prec, lanes) \
	static void fn(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e) \
	{ \
		expect_asm(e, 6, 2, 10, 1); \
		expect_flops(e, PMC_KX_FLOPS_##prec, 8 * (lanes) * 2); \
		expect_bytes(e, 0, 0); \
	}
FLOPS_EXPECT(expect_sp_scalar, SP, 1)
FLOPS_EXPECT(expect_sp_128, SP, 4)
FLOPS_EXPECT(expect_sp_256, SP, 8)
FLOPS_EXPECT(expect_sp_512, SP, 16)
FLOPS_EXPECT(expect_dp_scalar, DP, 1)
FLOPS_EXPECT(expect_dp_128, DP, 2)
FLOPS_EXPECT(expect_dp_256, DP, 4)
FLOPS_EXPECT(expect_dp_512, DP, 8)

static void expect_madd_sp(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	expect_asm(e, 7, 2, 5, 1);
	expect_flops(e, PMC_KX_FLOPS_SP, 2);
	expect_bytes(e, 0, 0);
}

static void expect_madd_dp(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	expect_asm(e, 7, 2, 5, 1);
	expect_flops(e, PMC_KX_FLOPS_DP, 2);
	expect_bytes(e, 0, 0);
}

static uint64_t iters_1e9(const struct pmc_kernel_params *p)
{
	return 1000000000u;
}

static uint64_t iters_1e8(const struct pmc_kernel_params *p)
{
	return 100000000u;
}

static uint64_t iters_3e7(const struct pmc_kernel_params *p)
{
	return 30000000u;
}

/* ---- loop ---- */

static const struct pmc_kernel_param_desc loop_params[] = {
	{ "inner", "trip count of the inner loop (seed 003: predicted exits up to ~30, a mispredict past ~35)",
	  PMC_KPARAM_UINT, 1, 1000000, 32, NULL },
};

static void expect_loop(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t inner = param(p, 0);

	expect_asm(e, 5, 2, 2 * inner + 3, inner + 1);
	expect_bytes(e, 0, 0);
}

static uint64_t iters_loop(const struct pmc_kernel_params *p)
{
	return max1(200000000u / (param(p, 0) + 1));
}

static int prepare_loop(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
{
	uint64_t *inner = malloc(sizeof(*inner));

	if (!inner)
		return -ENOMEM;
	*inner = param(p, 0);
	*ret_ctx = inner;
	return 0;
}

/* ---- branch ---- */

static const char *const branch_modes[] = { "predictable", "random", NULL };

static const struct pmc_kernel_param_desc branch_params[] = {
	{ "mode", "predictable: every byte 0 (always the same way); random: bytes 0/1 at random, half mispredicted",
	  PMC_KPARAM_CHOICE, 0, 1, 0, branch_modes },
};

#define BRANCH_TABLE (64 * KIB)

static void expect_branch(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	expect_asm(e, 7, 2, 9, 3);
	expect_bytes(e, 1, 0);
}

static uint64_t iters_2e7(const struct pmc_kernel_params *p)
{
	return 20000000u;
}

/* xorshift64: deterministic, so a run is repeatable. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static int prepare_branch(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
{
	struct pmc_kern_branch_ctx *c = malloc(sizeof(*c) + BRANCH_TABLE);
	uint64_t s = 0x9e3779b97f4a7c15u;
	uint8_t *t;

	if (!c)
		return -ENOMEM;
	t = (uint8_t *)(c + 1);
	for (size_t i = 0; i < BRANCH_TABLE; i++)
		t[i] = param(p, 0) == 1 ? (uint8_t)(rng_next(&s) >> 63) : 0;
	c->table = t;
	c->mask = BRANCH_TABLE - 1;
	*ret_ctx = c;
	return 0;
}

/* ---- chase ---- */

static const struct pmc_kernel_param_desc chase_params[] = {
	{ "footprint", "bytes visited: one 8-byte pointer per 64-byte line, lines in one random cycle",
	  PMC_KPARAM_BYTES, 4 * KIB, GIB, 64 * MIB, NULL },
};

static void expect_chase(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	expect_asm(e, 4, 2, 3, 1);
	expect_bytes(e, 8, 0);
}

static uint64_t iters_4e6(const struct pmc_kernel_params *p)
{
	return 4000000u;
}

static int prepare_chase(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
{
	size_t n = (size_t)(param(p, 0) / 64);
	uint32_t *perm;
	char *base;
	uint64_t s = 0x2545f4914f6cdd1du;

	base = aligned_alloc(64, n * 64);
	perm = malloc(n * sizeof(*perm));
	if (!base || !perm) {
		free(base);
		free(perm);
		snprintf(err, errlen, "cannot allocate %zu bytes for the chase footprint", n * 64);
		return -ENOMEM;
	}
	/* Sattolo's shuffle yields one cycle through every line. */
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(rng_next(&s) % i);
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(base + i * 64) = base + (size_t)perm[i] * 64;
	free(perm);
	*ret_ctx = base;
	return 0;
}

/* ---- stream (C) ---- */

static const char *const stream_modes[] = { "copy", "triad", NULL };

static const struct pmc_kernel_param_desc stream_params[] = {
	{ "mode", "copy: c[i] = a[i]; triad: a[i] = b[i] + s * c[i] (2 DP FLOPs per element)",
	  PMC_KPARAM_CHOICE, 0, 1, 1, stream_modes },
	{ "footprint", "bytes of all arrays together (2 arrays for copy, 3 for triad, 8-byte doubles)",
	  PMC_KPARAM_BYTES, 4 * KIB, GIB, 64 * MIB, NULL },
};

static uint64_t stream_n(const struct pmc_kernel_params *p)
{
	return param(p, 1) / (param(p, 0) == 0 ? 16 : 24);
}

static void expect_stream(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t n = stream_n(p);

	memset(e, 0, sizeof(*e));
	if (param(p, 0) == 0) {
		expect_bytes(e, 8 * n, 8 * n);
	} else {
		expect_bytes(e, 16 * n, 8 * n);
		expect_flops(e, PMC_KX_FLOPS_DP, 2 * n);
	}
}

static uint64_t iters_stream(const struct pmc_kernel_params *p)
{
	return max1(2 * GIB / param(p, 1));
}

static int prepare_stream(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
{
	struct pmc_kern_arrays *c = calloc(1, sizeof(*c));
	size_t n = (size_t)stream_n(p);
	size_t bytes = (n * sizeof(double) + 63) & ~(size_t)63;

	if (!c)
		return -ENOMEM;
	c->n = n;
	c->a = aligned_alloc(64, bytes);
	c->b = aligned_alloc(64, bytes);
	c->c = aligned_alloc(64, bytes);
	if (!c->a || !c->b || !c->c) {
		pmc_kern_arrays_free(c);
		snprintf(err, errlen, "cannot allocate 3 x %zu bytes for stream", bytes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		c->a[i] = 1.0;
		c->b[i] = 2.0;
		c->c[i] = 0.5;
	}
	*ret_ctx = c;
	return 0;
}

static uint64_t (*select_stream(const struct pmc_kernel_params *p))(uint64_t, void *)
{
	return param(p, 0) == 0 ? pmc_kern_stream_copy : pmc_kern_stream_triad;
}

/* ---- matmul (C) ---- */

static const struct pmc_kernel_param_desc matmul_params[] = {
	{ "n", "order of the square DP matrices: C = A x B, naive i-j-k loops, 2 n^3 FLOPs",
	  PMC_KPARAM_UINT, 1, 2048, 256, NULL },
};

static void expect_matmul(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t n = param(p, 0);

	memset(e, 0, sizeof(*e));
	expect_flops(e, PMC_KX_FLOPS_DP, 2 * n * n * n);
}

static uint64_t iters_matmul(const struct pmc_kernel_params *p)
{
	uint64_t n = param(p, 0);

	return max1(400000000u / (2 * n * n * n));
}

static int prepare_matmul(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
{
	struct pmc_kern_arrays *c = calloc(1, sizeof(*c));
	size_t n = (size_t)param(p, 0);
	size_t bytes = (n * n * sizeof(double) + 63) & ~(size_t)63;

	if (!c)
		return -ENOMEM;
	c->n = n;
	c->a = aligned_alloc(64, bytes);
	c->b = aligned_alloc(64, bytes);
	c->c = aligned_alloc(64, bytes);
	if (!c->a || !c->b || !c->c) {
		pmc_kern_arrays_free(c);
		snprintf(err, errlen, "cannot allocate 3 x %zu bytes for matmul", bytes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n * n; i++) {
		c->a[i] = 1.0 + (double)(i % 7);
		c->b[i] = 0.5;
		c->c[i] = 0.0;
	}
	*ret_ctx = c;
	return 0;
}

static void release_arrays(void *ctx)
{
	pmc_kern_arrays_free(ctx);
}

/* ---- the table ---- */

#define ASM(nm, sym, d, isa_, w, exp, it) \
	{ .name = nm, .desc = d, .isa = isa_, .width = w, .assembly = true, .symbol = #sym, \
	  .loop_head = &sym##_head, .expect = exp, .default_iters = it, .run = sym }

static const struct pmc_kernel table[] = {
	ASM("empty", pmc_kern_empty, "the loop alone (dec, jnz): the baseline of every loop kernel",
	    0, PMC_WIDTH_NONE, expect_empty, iters_1e9),
	ASM("fma", pmc_kern_fma, "seed 001's loop: 10 independent vfmadd231ps ymm + 5 vpaddd ymm, throughput bound",
	    PMC_ISA_AVX | PMC_ISA_AVX2 | PMC_ISA_FMA, PMC_WIDTH_256, expect_fma, iters_1e8),
	ASM("fma-latency", pmc_kern_fma_latency, "one dependent chain of vfmadd231ps ymm: FMA latency bound",
	    PMC_ISA_AVX | PMC_ISA_FMA, PMC_WIDTH_256, expect_fma_latency, iters_3e7),
	ASM("flops-sp-scalar", pmc_kern_flops_sp_scalar, "8 independent vfmadd231ss (scalar single)",
	    PMC_ISA_AVX | PMC_ISA_FMA, PMC_WIDTH_SCALAR, expect_sp_scalar, iters_1e8),
	ASM("flops-sp-128", pmc_kern_flops_sp_128, "8 independent vfmadd231ps xmm (128-bit single)",
	    PMC_ISA_AVX | PMC_ISA_FMA, PMC_WIDTH_128, expect_sp_128, iters_1e8),
	ASM("flops-sp-256", pmc_kern_flops_sp_256, "8 independent vfmadd231ps ymm (256-bit single)",
	    PMC_ISA_AVX | PMC_ISA_FMA, PMC_WIDTH_256, expect_sp_256, iters_1e8),
	ASM("flops-sp-512", pmc_kern_flops_sp_512, "8 independent vfmadd231ps zmm (512-bit single)",
	    PMC_ISA_AVX | PMC_ISA_AVX512F, PMC_WIDTH_512, expect_sp_512, iters_1e8),
	ASM("flops-dp-scalar", pmc_kern_flops_dp_scalar, "8 independent vfmadd231sd (scalar double)",
	    PMC_ISA_AVX | PMC_ISA_FMA, PMC_WIDTH_SCALAR, expect_dp_scalar, iters_1e8),
	ASM("flops-dp-128", pmc_kern_flops_dp_128, "8 independent vfmadd231pd xmm (128-bit double)",
	    PMC_ISA_AVX | PMC_ISA_FMA, PMC_WIDTH_128, expect_dp_128, iters_1e8),
	ASM("flops-dp-256", pmc_kern_flops_dp_256, "8 independent vfmadd231pd ymm (256-bit double)",
	    PMC_ISA_AVX | PMC_ISA_FMA, PMC_WIDTH_256, expect_dp_256, iters_1e8),
	ASM("flops-dp-512", pmc_kern_flops_dp_512, "8 independent vfmadd231pd zmm (512-bit double)",
	    PMC_ISA_AVX | PMC_ISA_AVX512F, PMC_WIDTH_512, expect_dp_512, iters_1e8),
	ASM("madd-sp", pmc_kern_madd_sp, "seed 004's c += a*b: scalar SSE mulss then addss, one dependent chain",
	    0, PMC_WIDTH_SCALAR, expect_madd_sp, iters_1e8),
	ASM("madd-dp", pmc_kern_madd_dp, "seed 004's c += a*b: scalar SSE2 mulsd then addsd, one dependent chain",
	    0, PMC_WIDTH_SCALAR, expect_madd_dp, iters_1e8),
	{ .name = "loop", .desc = "nested loops: a counted inner loop of 'inner' trips per iteration",
	  .params = loop_params, .nparams = PMC_ARRAY_SIZE(loop_params), .assembly = true, .symbol = "pmc_kern_loop",
	  .loop_head = &pmc_kern_loop_head, .expect = expect_loop, .default_iters = iters_loop,
	  .prepare = prepare_loop, .release = free, .run = pmc_kern_loop },
	{ .name = "branch", .desc = "one data-dependent branch per iteration over a 64 KiB byte table",
	  .params = branch_params, .nparams = PMC_ARRAY_SIZE(branch_params), .assembly = true,
	  .symbol = "pmc_kern_branch", .loop_head = &pmc_kern_branch_head, .expect = expect_branch,
	  .default_iters = iters_2e7, .prepare = prepare_branch, .release = free, .run = pmc_kern_branch },
	{ .name = "chase", .desc = "pointer chase over a random cyclic permutation of cache lines: load latency",
	  .params = chase_params, .nparams = PMC_ARRAY_SIZE(chase_params), .assembly = true,
	  .symbol = "pmc_kern_chase", .loop_head = &pmc_kern_chase_head, .expect = expect_chase,
	  .default_iters = iters_4e6, .prepare = prepare_chase, .release = free, .run = pmc_kern_chase },
	{ .name = "stream", .desc = "STREAM copy or triad over a footprint (C): one iteration is one pass",
	  .params = stream_params, .nparams = PMC_ARRAY_SIZE(stream_params),
	  .expect = expect_stream, .default_iters = iters_stream, .prepare = prepare_stream,
	  .release = release_arrays, .select = select_stream },
	{ .name = "matmul", .desc = "naive triple-loop DP matrix product C = A x B (C): one iteration is one product",
	  .params = matmul_params, .nparams = PMC_ARRAY_SIZE(matmul_params),
	  .expect = expect_matmul, .default_iters = iters_matmul, .prepare = prepare_matmul,
	  .release = release_arrays, .run = pmc_kern_matmul },
};

size_t pmc_kernel_count(void)
{
	return PMC_ARRAY_SIZE(table);
}

const struct pmc_kernel *pmc_kernel_at(size_t i)
{
	return i < PMC_ARRAY_SIZE(table) ? &table[i] : NULL;
}

const struct pmc_kernel *pmc_kernel_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < PMC_ARRAY_SIZE(table); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const char *pmc_kernel_suggest(const char *name)
{
	const char *best = NULL;
	unsigned best_d = 4;

	for (size_t i = 0; i < PMC_ARRAY_SIZE(table); i++) {
		unsigned d = pmc_edit_distance(name, table[i].name, best_d);
		if (d < best_d) {
			best_d = d;
			best = table[i].name;
		}
	}
	return best;
}
