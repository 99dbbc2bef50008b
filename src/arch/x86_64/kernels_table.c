/* SPDX-License-Identifier: MIT */
/* The x86-64 assembly kernels (kernels.S): what one iteration of each executes. */
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
PMC_KERN_DECL(flops_sp_256);
PMC_KERN_DECL(flops_sp_512);
PMC_KERN_DECL(flops_dp_scalar);
PMC_KERN_DECL(flops_dp_128);
PMC_KERN_DECL(flops_dp_256);
PMC_KERN_DECL(flops_dp_512);
PMC_KERN_DECL(madd_sp);
PMC_KERN_DECL(madd_dp);
PMC_KERN_DECL(loop);
PMC_KERN_DECL(branch);
PMC_KERN_DECL(chase);

/* ---- empty, fma, fma-latency, flops-*, madd-*: no data ---- */

static void expect_empty(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 4, 2, 2, 1);
}

static void expect_fma(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 6, 2, 17, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_SP, 10 * 8 * 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

static void expect_fma_latency(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 6, 2, 6, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_SP, 4 * 8 * 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

/* 8 FMAs per iteration, 2 FLOPs per lane. */
#define FLOPS_EXPECT(fn, prec, lanes) \
	static void fn(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e) \
	{ \
		pmc_kern_expect_asm(e, 6, 2, 10, 1); \
		pmc_kern_expect_flops(e, PMC_KX_FLOPS_##prec, 8 * (lanes) * 2); \
		pmc_kern_expect_bytes(e, 0, 0); \
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
	pmc_kern_expect_asm(e, 7, 2, 5, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_SP, 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

static void expect_madd_dp(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 7, 2, 5, 1);
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_DP, 2);
	pmc_kern_expect_bytes(e, 0, 0);
}

/* ---- loop, branch, chase ---- */

static void expect_loop(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t inner = p->v[0];

	pmc_kern_expect_asm(e, 5, 2, 2 * inner + 3, inner + 1);
	pmc_kern_expect_bytes(e, 0, 0);
}

static void expect_branch(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 7, 2, 9, 3);
	pmc_kern_expect_bytes(e, 1, 0);
}

static void expect_chase(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	pmc_kern_expect_asm(e, 4, 2, 3, 1);
	pmc_kern_expect_bytes(e, 8, 0);
}

/* ---- the table ---- */

PMC_KERN_ITERS(iters_1e9, 1000000000u)
PMC_KERN_ITERS(iters_1e8, 100000000u)
PMC_KERN_ITERS(iters_3e7, 30000000u)
PMC_KERN_ITERS(iters_2e7, 20000000u)
PMC_KERN_ITERS(iters_4e6, 4000000u)

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
};

const struct pmc_kernel *pmc_arch_kernels(size_t *ret_n)
{
	*ret_n = PMC_ARRAY_SIZE(table);
	return table;
}
