/* SPDX-License-Identifier: MIT */
/* The AArch64 assembly kernels (kernels.S): what one iteration of each executes. NEON (Advanced SIMD) is part of every
 * AArch64 CPU: no kernel needs an optional extension. */
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "kernels/kernels.h"
#include "kernels/kernels_impl.h"

PMC_KERN_DECL(empty);
PMC_KERN_DECL(fma);
PMC_KERN_DECL(fma_latency);
PMC_KERN_DECL(flops_sp_scalar);
PMC_KERN_DECL(flops_sp_128);
PMC_KERN_DECL(flops_dp_scalar);
PMC_KERN_DECL(flops_dp_128);
PMC_KERN_DECL(madd_sp);
PMC_KERN_DECL(madd_dp);
PMC_KERN_DECL(loop);
PMC_KERN_DECL(branch);
PMC_KERN_DECL(chase);
PMC_KERN_DECL(stream_copy_a64);
PMC_KERN_DECL(stream_triad_a64);
PMC_KERN_DECL(matmul_a64);

static void expect_empty(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 3, 2, 2, 1);
}

static void expect_fma(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 18, 2, 17, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_SP, 10 * 4 * 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

static void expect_fma_latency(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 6, 2, 6, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_SP, 4 * 4 * 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

/* 8 FMAs per iteration, 2 FLOPs per lane. */
#define FLOPS_EXPECT(fn, prec, lanes) \
	static void fn(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e) \
	{ \
		pmc_kern_expect_asm(e, 13, 2, 10, 1); \
		pmc_kern_expect_flops(e, PMC_KX_FLOPS_##prec, 8 * (lanes) * 2); \
		pmc_kern_expect_bytes(e, 0, 0); \
	}
FLOPS_EXPECT(expect_sp_scalar, SP, 1)
FLOPS_EXPECT(expect_sp_128, SP, 4)
FLOPS_EXPECT(expect_dp_scalar, DP, 1)
FLOPS_EXPECT(expect_dp_128, DP, 2)

static void expect_madd_sp(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 6, 2, 4, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_SP, 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

static void expect_madd_dp(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 6, 2, 4, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_DP, 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

static void expect_loop(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t inner = p->v[0];

	pmc_kern_expect_asm(e, 4, 2, 2 * inner + 3, inner + 1);
	pmc_kern_expect_bytes(e, 0, 0);
}

static void expect_branch(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 7, 2, 8, 3);
	pmc_kern_expect_bytes(e, 1, 0);
}

static void expect_chase(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 4, 2, 3, 1);
	pmc_kern_expect_bytes(e, 8, 0);
}

/* stream and matmul in assembly: the shared data counts (bytes, FLOPs) plus exact instructions and branches. */
static void add_asm_counts(struct pmc_kernel_expect *e, uint64_t insns, uint64_t branches, uint64_t insns_it,
			   uint64_t branches_it)
{
	e->declared |= 1u << PMC_KX_INSTRUCTIONS | 1u << PMC_KX_BRANCHES;
	e->fixed[PMC_KX_INSTRUCTIONS] = insns;
	e->fixed[PMC_KX_BRANCHES] = branches;
	e->per_iter[PMC_KX_INSTRUCTIONS] = insns_it;
	e->per_iter[PMC_KX_BRANCHES] = branches_it;
}

static void expect_stream(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t n = pmc_kern_stream_n(p);

	pmc_kern_expect_stream(p, e);
	if (p->v[0] == 0)
		add_asm_counts(e, 6, 2, 4 * n + 5, n + 1);
	else
		add_asm_counts(e, 8, 2, 6 * n + 6, n + 1);
}

static uint64_t (*select_stream(const struct pmc_kernel_params *p))(uint64_t, void *)
{
	return p->v[0] == 0 ? pmc_kern_stream_copy_a64 : pmc_kern_stream_triad_a64;
}

static void expect_matmul(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t n = p->v[0];

	pmc_kern_expect_matmul(p, e);
	add_asm_counts(e, 8, 2, 6 * n * n * n + 8 * n * n + 5 * n + 5, n * n * n + n * n + n + 1);
	pmc_kern_expect_bytes(e, 16 * n * n * n, 8 * n * n);
}

PMC_KERN_ITERS(iters_1e9, 1000000000u)
PMC_KERN_ITERS(iters_1e8, 100000000u)
PMC_KERN_ITERS(iters_3e7, 30000000u)
PMC_KERN_ITERS(iters_2e7, 20000000u)
PMC_KERN_ITERS(iters_4e6, 4000000u)

#define ASM(nm, sym, d, w, exp, it) \
	{ .name = nm, .desc = d, .width = w, .assembly = true, .symbol = #sym, .loop_head = &sym##_head, \
	  .expect = exp, .default_iters = it, .run = sym }

static const struct pmc_kernel table[] = {
	ASM("empty", pmc_kern_empty, "the loop alone (subs, b.ne): the baseline of every loop kernel",
	    PMC_WIDTH_NONE, expect_empty, iters_1e9),
	ASM("fma", pmc_kern_fma, "seed 001's loop on NEON: 10 independent fmla .4s + 5 integer add .4s, throughput bound",
	    PMC_WIDTH_128, expect_fma, iters_1e8),
	ASM("fma-latency", pmc_kern_fma_latency, "one dependent chain of fmla .4s: FMA latency bound",
	    PMC_WIDTH_128, expect_fma_latency, iters_3e7),
	ASM("flops-sp-scalar", pmc_kern_flops_sp_scalar, "8 independent fmadd s (scalar single)",
	    PMC_WIDTH_SCALAR, expect_sp_scalar, iters_1e8),
	ASM("flops-sp-128", pmc_kern_flops_sp_128, "8 independent fmla .4s (128-bit single)",
	    PMC_WIDTH_128, expect_sp_128, iters_1e8),
	ASM("flops-dp-scalar", pmc_kern_flops_dp_scalar, "8 independent fmadd d (scalar double)",
	    PMC_WIDTH_SCALAR, expect_dp_scalar, iters_1e8),
	ASM("flops-dp-128", pmc_kern_flops_dp_128, "8 independent fmla .2d (128-bit double)",
	    PMC_WIDTH_128, expect_dp_128, iters_1e8),
	ASM("madd-sp", pmc_kern_madd_sp, "seed 004's c += a*b: scalar fmul then fadd (not fused), one dependent chain",
	    PMC_WIDTH_SCALAR, expect_madd_sp, iters_1e8),
	ASM("madd-dp", pmc_kern_madd_dp, "seed 004's c += a*b: scalar fmul then fadd in double, one dependent chain",
	    PMC_WIDTH_SCALAR, expect_madd_dp, iters_1e8),
	{ .name = "loop", .desc = "nested loops: a counted inner loop of 'inner' trips per iteration",
	  .params = pmc_kern_loop_params, .nparams = PMC_KERN_NPARAMS, .assembly = true, .symbol = "pmc_kern_loop",
	  .loop_head = &pmc_kern_loop_head, .expect = expect_loop, .default_iters = pmc_kern_iters_loop,
	  .prepare = pmc_kern_prepare_loop, .release = free, .run = pmc_kern_loop },
	{ .name = "branch", .desc = "one data-dependent branch per iteration over a 64 KiB byte table",
	  .params = pmc_kern_branch_params, .nparams = PMC_KERN_NPARAMS, .assembly = true,
	  .symbol = "pmc_kern_branch", .loop_head = &pmc_kern_branch_head, .expect = expect_branch,
	  .default_iters = iters_2e7, .prepare = pmc_kern_prepare_branch, .release = free, .run = pmc_kern_branch },
	{ .name = "chase", .desc = "pointer chase over a random cyclic permutation of cache lines: load latency",
	  .params = pmc_kern_chase_params, .nparams = PMC_KERN_NPARAMS, .assembly = true,
	  .symbol = "pmc_kern_chase", .loop_head = &pmc_kern_chase_head, .expect = expect_chase,
	  .default_iters = iters_4e6, .prepare = pmc_kern_prepare_chase, .release = free, .run = pmc_kern_chase },
	/* symbol and loop head: those of the default mode, triad (profilers and breakpoints use the defaults). */
	{ .name = "stream", .desc = "STREAM copy or triad over a footprint (assembly): one iteration is one pass",
	  .params = pmc_kern_stream_params, .nparams = PMC_KERN_STREAM_NPARAMS, .width = PMC_WIDTH_SCALAR,
	  .assembly = true, .symbol = "pmc_kern_stream_triad_a64", .loop_head = &pmc_kern_stream_triad_a64_head,
	  .expect = expect_stream, .default_iters = pmc_kern_iters_stream, .prepare = pmc_kern_prepare_stream,
	  .release = pmc_kern_release_arrays, .select = select_stream },
	{ .name = "matmul", .desc = "naive i-j-k DP matrix product C = A x B (assembly): one iteration is one product",
	  .params = pmc_kern_matmul_params, .nparams = PMC_KERN_NPARAMS, .width = PMC_WIDTH_SCALAR, .assembly = true,
	  .symbol = "pmc_kern_matmul_a64", .loop_head = &pmc_kern_matmul_a64_head, .expect = expect_matmul,
	  .default_iters = pmc_kern_iters_matmul, .prepare = pmc_kern_prepare_matmul,
	  .release = pmc_kern_release_arrays, .run = pmc_kern_matmul_a64 },
};

const struct pmc_kernel *pmc_arch_kernels(size_t *ret_n)
{
	*ret_n = PMC_ARRAY_SIZE(table);
	return table;
}
