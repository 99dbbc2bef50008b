/* SPDX-License-Identifier: MIT */
/* Internal to src/kernels: the assembly functions, their loop-head addresses, and the kernels' data. */
#ifndef PMC_KERNELS_IMPL_H
#define PMC_KERNELS_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/kernels.h"

#define PMC_KERN_DECL(name) \
	uint64_t pmc_kern_##name(uint64_t iters, void *ctx); \
	extern void *const pmc_kern_##name##_head

/* The assembly kernels' counts: fixed part (entry guard, setup, ret) and per iteration. */
void pmc_kern_expect_asm(struct pmc_kernel_expect *e, uint64_t insns, uint64_t branches, uint64_t insns_it,
			 uint64_t branches_it);
void pmc_kern_expect_flops(struct pmc_kernel_expect *e, enum pmc_kx prec, uint64_t per_iter);
void pmc_kern_expect_bytes(struct pmc_kernel_expect *e, uint64_t loaded, uint64_t stored);

/* A default_iters function returning a constant. */
#define PMC_KERN_ITERS(fn, n) \
	static uint64_t fn(const struct pmc_kernel_params *p) \
	{ \
		(void)p; \
		return (n); \
	}

/* loop (inner), branch (mode), chase (footprint): one parameter each, the same on every architecture; their data. */
#define PMC_KERN_NPARAMS 1
extern const struct pmc_kernel_param_desc pmc_kern_loop_params[PMC_KERN_NPARAMS];
extern const struct pmc_kernel_param_desc pmc_kern_branch_params[PMC_KERN_NPARAMS];
extern const struct pmc_kernel_param_desc pmc_kern_chase_params[PMC_KERN_NPARAMS];
uint64_t pmc_kern_iters_loop(const struct pmc_kernel_params *p);
int pmc_kern_prepare_loop(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen);
int pmc_kern_prepare_branch(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen);
int pmc_kern_prepare_chase(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen);

/* stream (mode, footprint) and matmul (n): parameters, data, declared data traffic and FLOPs, the same on every
 * architecture; an architecture with them in assembly adds its instruction counts. */
#define PMC_KERN_STREAM_NPARAMS 2
extern const struct pmc_kernel_param_desc pmc_kern_stream_params[PMC_KERN_STREAM_NPARAMS];
extern const struct pmc_kernel_param_desc pmc_kern_matmul_params[PMC_KERN_NPARAMS];
uint64_t pmc_kern_stream_n(const struct pmc_kernel_params *p); /* doubles per array */
void pmc_kern_expect_stream(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e);
void pmc_kern_expect_matmul(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e);
uint64_t pmc_kern_iters_stream(const struct pmc_kernel_params *p);
uint64_t pmc_kern_iters_matmul(const struct pmc_kernel_params *p);
int pmc_kern_prepare_stream(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen);
int pmc_kern_prepare_matmul(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen);
void pmc_kern_release_arrays(void *ctx);

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
