/* SPDX-License-Identifier: MIT */
/* The kernel table: the architecture's assembly kernels (src/arch/<arch>/kernels_table.c), then the C kernels; what
 * each kernel declares, its parameters, and the data it needs. */
#include "kernels/kernels.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "kernels/kernels_impl.h"

#define KX(q) (1u << PMC_KX_##q)
#define KIB UINT64_C(1024)
#define MIB (KIB * 1024)
#define GIB (MIB * 1024)

/* Instructions and branches of an assembly kernel: fixed part (entry guard, setup, ret) and per iteration. */
void pmc_kern_expect_asm(struct pmc_kernel_expect *e, uint64_t insns, uint64_t branches, uint64_t insns_it,
		       uint64_t branches_it)
{
	memset(e, 0, sizeof(*e));
	e->declared = KX(INSTRUCTIONS) | KX(BRANCHES);
	e->fixed[PMC_KX_INSTRUCTIONS] = insns;
	e->fixed[PMC_KX_BRANCHES] = branches;
	e->per_iter[PMC_KX_INSTRUCTIONS] = insns_it;
	e->per_iter[PMC_KX_BRANCHES] = branches_it;
}

void pmc_kern_expect_flops(struct pmc_kernel_expect *e, enum pmc_kx prec, uint64_t per_iter)
{
	e->declared |= 1u << prec;
	e->per_iter[prec] = per_iter;
}

void pmc_kern_expect_bytes(struct pmc_kernel_expect *e, uint64_t loaded, uint64_t stored)
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

/* ---- loop, branch, chase: the assembly differs per architecture, parameters and data do not ---- */

const struct pmc_kernel_param_desc pmc_kern_loop_params[] = {
	{ "inner", "trip count of the inner loop (seed 003: predicted exits up to ~30, a mispredict past ~35)",
	  PMC_KPARAM_UINT, 1, 1000000, 32, NULL },
};

uint64_t pmc_kern_iters_loop(const struct pmc_kernel_params *p)
{
	return max1(200000000u / (param(p, 0) + 1));
}

int pmc_kern_prepare_loop(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
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

const struct pmc_kernel_param_desc pmc_kern_branch_params[] = {
	{ "mode", "predictable: every byte 0 (always the same way); random: bytes 0/1 at random, half mispredicted",
	  PMC_KPARAM_CHOICE, 0, 1, 0, branch_modes },
};

#define BRANCH_TABLE (64 * KIB)

/* xorshift64: deterministic, so a run is repeatable. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

int pmc_kern_prepare_branch(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
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

const struct pmc_kernel_param_desc pmc_kern_chase_params[] = {
	{ "footprint", "bytes visited: one 8-byte pointer per 64-byte line, lines in one random cycle",
	  PMC_KPARAM_BYTES, 4 * KIB, GIB, 64 * MIB, NULL },
};

int pmc_kern_prepare_chase(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
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

const struct pmc_kernel_param_desc pmc_kern_stream_params[PMC_KERN_STREAM_NPARAMS] = {
	{ "mode", "copy: c[i] = a[i]; triad: a[i] = b[i] + s * c[i] (2 DP FLOPs per element)",
	  PMC_KPARAM_CHOICE, 0, 1, 1, stream_modes },
	{ "footprint", "bytes of all arrays together (2 arrays for copy, 3 for triad, 8-byte doubles)",
	  PMC_KPARAM_BYTES, 4 * KIB, GIB, 64 * MIB, NULL },
};

uint64_t pmc_kern_stream_n(const struct pmc_kernel_params *p)
{
	return param(p, 1) / (param(p, 0) == 0 ? 16 : 24);
}

void pmc_kern_expect_stream(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t n = pmc_kern_stream_n(p);

	memset(e, 0, sizeof(*e));
	if (param(p, 0) == 0) {
		pmc_kern_expect_bytes(e, 8 * n, 8 * n);
	} else {
		pmc_kern_expect_bytes(e, 16 * n, 8 * n);
		pmc_kern_expect_flops(e, PMC_KX_FLOPS_DP, 2 * n);
	}
}

uint64_t pmc_kern_iters_stream(const struct pmc_kernel_params *p)
{
	return max1(2 * GIB / param(p, 1));
}

int pmc_kern_prepare_stream(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
{
	struct pmc_kern_arrays *c = calloc(1, sizeof(*c));
	size_t n = (size_t)pmc_kern_stream_n(p);
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

const struct pmc_kernel_param_desc pmc_kern_matmul_params[PMC_KERN_NPARAMS] = {
	{ "n", "order of the square DP matrices: C = A x B, naive i-j-k loops, 2 n^3 FLOPs",
	  PMC_KPARAM_UINT, 1, 2048, 256, NULL },
};

void pmc_kern_expect_matmul(const struct pmc_kernel_params *p, struct pmc_kernel_expect *e)
{
	uint64_t n = param(p, 0);

	memset(e, 0, sizeof(*e));
	pmc_kern_expect_flops(e, PMC_KX_FLOPS_DP, 2 * n * n * n);
}

uint64_t pmc_kern_iters_matmul(const struct pmc_kernel_params *p)
{
	uint64_t n = param(p, 0);

	return max1(400000000u / (2 * n * n * n));
}

int pmc_kern_prepare_matmul(const struct pmc_kernel_params *p, void **ret_ctx, char *err, size_t errlen)
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

void pmc_kern_release_arrays(void *ctx)
{
	pmc_kern_arrays_free(ctx);
}

/* ---- the table ---- */

static const struct pmc_kernel c_table[] = {
	{ .name = "stream", .desc = "STREAM copy or triad over a footprint (C): one iteration is one pass",
	  .params = pmc_kern_stream_params, .nparams = PMC_KERN_STREAM_NPARAMS,
	  .expect = pmc_kern_expect_stream, .default_iters = pmc_kern_iters_stream, .prepare = pmc_kern_prepare_stream,
	  .release = pmc_kern_release_arrays, .select = select_stream },
	{ .name = "matmul", .desc = "naive triple-loop DP matrix product C = A x B (C): one iteration is one product",
	  .params = pmc_kern_matmul_params, .nparams = PMC_KERN_NPARAMS,
	  .expect = pmc_kern_expect_matmul, .default_iters = pmc_kern_iters_matmul, .prepare = pmc_kern_prepare_matmul,
	  .release = pmc_kern_release_arrays, .run = pmc_kern_matmul },
};

static const struct pmc_kernel *arch_table(size_t *ret_n)
{
	static const struct pmc_kernel *t;
	static size_t n;

	if (!t)
		t = pmc_arch_kernels(&n);
	*ret_n = n;
	return t;
}

/* The C kernels an architecture also has in assembly (AArch64: stream, matmul) are its own; the C ones are left out. */
static bool in_arch_table(const struct pmc_kernel *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return true;
	return false;
}

const struct pmc_kernel *pmc_kernel_at(size_t i)
{
	size_t n;
	const struct pmc_kernel *t = arch_table(&n);

	if (i < n)
		return &t[i];
	i -= n;
	for (size_t j = 0; j < PMC_ARRAY_SIZE(c_table); j++) {
		if (in_arch_table(t, n, c_table[j].name))
			continue;
		if (i-- == 0)
			return &c_table[j];
	}
	return NULL;
}

size_t pmc_kernel_count(void)
{
	size_t n = 0;

	while (pmc_kernel_at(n))
		n++;
	return n;
}

const struct pmc_kernel *pmc_kernel_find(const char *name)
{
	const struct pmc_kernel *k;

	if (!name)
		return NULL;
	for (size_t i = 0; (k = pmc_kernel_at(i)); i++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

const char *pmc_kernel_suggest(const char *name)
{
	const struct pmc_kernel *k;
	const char *best = NULL;
	unsigned best_d = 4;

	for (size_t i = 0; (k = pmc_kernel_at(i)); i++) {
		unsigned d = pmc_edit_distance(name, k->name, best_d);
		if (d < best_d) {
			best_d = d;
			best = k->name;
		}
	}
	return best;
}
