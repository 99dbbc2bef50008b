/* SPDX-License-Identifier: MIT */
/* Internal to src/kernels: the assembly functions, their loop-head addresses, and the kernels' data. */
#ifndef PMC_KERNELS_IMPL_H
#define PMC_KERNELS_IMPL_H

#include <stddef.h>
#include <stdint.h>

#define PMC_KERN_DECL(name) \
	uint64_t pmc_kern_##name(uint64_t iters, void *ctx); \
	extern void *const pmc_kern_##name##_head

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

/* What pmc_kern_branch reads through its ctx (layout fixed by the assembly). */
struct pmc_kern_branch_ctx {
	const uint8_t *table;
	uint64_t mask; /* table size - 1, a power of two minus one */
};

/* stream and matmul data. */
struct pmc_kern_arrays {
	double *a, *b, *c;
	size_t n;
};

void pmc_kern_arrays_free(struct pmc_kern_arrays *c);

uint64_t pmc_kern_stream_copy(uint64_t iters, void *ctx);
uint64_t pmc_kern_stream_triad(uint64_t iters, void *ctx);
uint64_t pmc_kern_matmul(uint64_t iters, void *ctx);

#endif
