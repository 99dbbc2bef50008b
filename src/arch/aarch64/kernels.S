/* SPDX-License-Identifier: MIT */
/*
 * Built-in kernels for AArch64: exact instruction sequences, so instructions, branches, FLOPs and bytes per iteration
 * are known. Every kernel is  uint64_t pmc_kern_NAME(uint64_t iters (x0), void *ctx (x1))  and touches only
 * caller-saved registers (x0-x17, v0-v7, v16-v31: never v8-v15, whose low halves the callee must keep). The counts
 * declared in kernels_table.c are the instructions of the function itself, from its first instruction to its ret, for
 * iters >= 1 (ret counts as a branch, as on x86). The loop head of each kernel (executed once per iteration) is
 * published as an address in pmc_kern_NAME_head. Loops are not aligned inside a function: padding would execute.
 */
	.text

#define FUNC(name) .globl name; .type name, %function; .p2align 5; name:
#define ENDFUNC(name) .size name, .-name
#define HEAD(name, label) .pushsection .data.rel.ro, "aw"; .p2align 3; .globl name; .type name, %object; \
	.size name, 8; name: .quad label; .popsection

/* empty: the loop alone. fixed 3 insns (cbz mov ret), 2 branches; per iteration 2 insns (subs b.ne), 1 branch.
 * Returns iters. */
FUNC(pmc_kern_empty)
	cbz	x0, .Lempty_done
	mov	x2, x0
.Lempty_loop:
	subs	x2, x2, #1
	b.ne	.Lempty_loop
.Lempty_done:
	ret
ENDFUNC(pmc_kern_empty)
HEAD(pmc_kern_empty_head, .Lempty_loop)

/* fma: seed 001's loop on NEON: 10 independent fmla .4s accumulators (80 SP FLOPs) + 5 integer add .4s + subs + b.ne
 * = 17 insns per iteration, 1 branch. fixed 18 insns (cbz mov, 15 movi zeroing v16-v30, ret), 2 branches. */
FUNC(pmc_kern_fma)
	cbz	x0, .Lfma_done
	mov	x2, x0
	movi	v16.16b, #0
	movi	v17.16b, #0
	movi	v18.16b, #0
	movi	v19.16b, #0
	movi	v20.16b, #0
	movi	v21.16b, #0
	movi	v22.16b, #0
	movi	v23.16b, #0
	movi	v24.16b, #0
	movi	v25.16b, #0
	movi	v26.16b, #0
	movi	v27.16b, #0
	movi	v28.16b, #0
	movi	v29.16b, #0
	movi	v30.16b, #0
.Lfma_loop:
	fmla	v16.4s, v16.4s, v16.4s
	fmla	v17.4s, v17.4s, v17.4s
	fmla	v18.4s, v18.4s, v18.4s
	fmla	v19.4s, v19.4s, v19.4s
	fmla	v20.4s, v20.4s, v20.4s
	fmla	v21.4s, v21.4s, v21.4s
	fmla	v22.4s, v22.4s, v22.4s
	fmla	v23.4s, v23.4s, v23.4s
	fmla	v24.4s, v24.4s, v24.4s
	fmla	v25.4s, v25.4s, v25.4s
	add	v26.4s, v26.4s, v26.4s
	add	v27.4s, v27.4s, v27.4s
	add	v28.4s, v28.4s, v28.4s
	add	v29.4s, v29.4s, v29.4s
	add	v30.4s, v30.4s, v30.4s
	subs	x2, x2, #1
	b.ne	.Lfma_loop
.Lfma_done:
	ret
ENDFUNC(pmc_kern_fma)
HEAD(pmc_kern_fma_head, .Lfma_loop)

/* fma-latency: one dependent chain, 4 fmla .4s per iteration each waiting for the previous (32 SP FLOPs).
 * fixed 6 insns (cbz mov movi x3 ret), 2 branches; per iteration 6 insns, 1 branch. */
FUNC(pmc_kern_fma_latency)
	cbz	x0, .Lfmalat_done
	mov	x2, x0
	movi	v16.16b, #0
	movi	v17.16b, #0
	movi	v18.16b, #0
.Lfmalat_loop:
	fmla	v16.4s, v17.4s, v18.4s
	fmla	v16.4s, v17.4s, v18.4s
	fmla	v16.4s, v17.4s, v18.4s
	fmla	v16.4s, v17.4s, v18.4s
	subs	x2, x2, #1
	b.ne	.Lfmalat_loop
.Lfmalat_done:
	ret
ENDFUNC(pmc_kern_fma_latency)
HEAD(pmc_kern_fma_latency_head, .Lfmalat_loop)

/* The FLOP family: 8 independent accumulators v16-v23, sources v24 v25. fixed 13 insns (cbz mov, 10 movi, ret),
 * 2 branches; per iteration 10 insns (8 FMAs + subs + b.ne), 1 branch, 16 x lanes FLOPs.
 * SCALAR: fmadd Rd, Rn, Rm, Ra (Rd = Ra + Rn x Rm); VECTOR: fmla Vd.T, Vn.T, Vm.T. */
.macro ZERO10
	movi	v16.16b, #0
	movi	v17.16b, #0
	movi	v18.16b, #0
	movi	v19.16b, #0
	movi	v20.16b, #0
	movi	v21.16b, #0
	movi	v22.16b, #0
	movi	v23.16b, #0
	movi	v24.16b, #0
	movi	v25.16b, #0
.endm

.macro FLOPS_SCALAR name, r
FUNC(\name)
	cbz	x0, .L\name\()_done
	mov	x2, x0
	ZERO10
.L\name\()_loop:
	fmadd	\r\()16, \r\()24, \r\()25, \r\()16
	fmadd	\r\()17, \r\()24, \r\()25, \r\()17
	fmadd	\r\()18, \r\()24, \r\()25, \r\()18
	fmadd	\r\()19, \r\()24, \r\()25, \r\()19
	fmadd	\r\()20, \r\()24, \r\()25, \r\()20
	fmadd	\r\()21, \r\()24, \r\()25, \r\()21
	fmadd	\r\()22, \r\()24, \r\()25, \r\()22
	fmadd	\r\()23, \r\()24, \r\()25, \r\()23
	subs	x2, x2, #1
	b.ne	.L\name\()_loop
.L\name\()_done:
	ret
ENDFUNC(\name)
HEAD(\name\()_head, .L\name\()_loop)
.endm

.macro FLOPS_VECTOR name, t
FUNC(\name)
	cbz	x0, .L\name\()_done
	mov	x2, x0
	ZERO10
.L\name\()_loop:
	fmla	v16.\t, v24.\t, v25.\t
	fmla	v17.\t, v24.\t, v25.\t
	fmla	v18.\t, v24.\t, v25.\t
	fmla	v19.\t, v24.\t, v25.\t
	fmla	v20.\t, v24.\t, v25.\t
	fmla	v21.\t, v24.\t, v25.\t
	fmla	v22.\t, v24.\t, v25.\t
	fmla	v23.\t, v24.\t, v25.\t
	subs	x2, x2, #1
	b.ne	.L\name\()_loop
.L\name\()_done:
	ret
ENDFUNC(\name)
HEAD(\name\()_head, .L\name\()_loop)
.endm

FLOPS_SCALAR pmc_kern_flops_sp_scalar, s
FLOPS_VECTOR pmc_kern_flops_sp_128, 4s
FLOPS_SCALAR pmc_kern_flops_dp_scalar, d
FLOPS_VECTOR pmc_kern_flops_dp_128, 2d

/* madd: seed 004's c += a*b, a multiply then an add (no fused multiply-add): 2 FLOPs per iteration, one dependent
 * chain through the add. fixed 6 insns (cbz mov movi x3 ret), 2 branches; per iteration 4 insns (fmul fadd subs b.ne),
 * 1 branch. */
.macro MADD name, r
FUNC(\name)
	cbz	x0, .L\name\()_done
	mov	x2, x0
	movi	v16.16b, #0
	movi	v17.16b, #0
	movi	v18.16b, #0
.L\name\()_loop:
	fmul	\r\()19, \r\()16, \r\()17
	fadd	\r\()18, \r\()18, \r\()19
	subs	x2, x2, #1
	b.ne	.L\name\()_loop
.L\name\()_done:
	ret
ENDFUNC(\name)
HEAD(\name\()_head, .L\name\()_loop)
.endm

MADD pmc_kern_madd_sp, s
MADD pmc_kern_madd_dp, d

/* loop: nested loops; ctx -> uint64_t inner trip count (>= 1). fixed 4 insns (cbz mov ldr ret), 2 branches;
 * per outer iteration 2*inner + 3 insns (mov, inner x (subs b.ne), subs b.ne), inner + 1 branches. */
FUNC(pmc_kern_loop)
	cbz	x0, .Lloop_done
	mov	x2, x0
	ldr	x3, [x1]
.Lloop_outer:
	mov	x4, x3
.Lloop_inner:
	subs	x4, x4, #1
	b.ne	.Lloop_inner
	subs	x2, x2, #1
	b.ne	.Lloop_outer
.Lloop_done:
	ret
ENDFUNC(pmc_kern_loop)
HEAD(pmc_kern_loop_head, .Lloop_outer)

/* branch: one data-dependent branch per iteration on a byte table; ctx -> { const uint8_t *table; uint64_t mask }.
 * Both paths are one add and one b, so the counts do not depend on the data. Returns sum(byte ? 1 : 2).
 * fixed 7 insns (mov mov cbz ldr ldr mov ret), 2 branches; per iteration 8 insns (ldrb add and cbnz add b subs b.ne),
 * 3 branches (cbnz, b, b.ne), 1 byte loaded. */
FUNC(pmc_kern_branch)
	mov	x2, x0
	mov	x0, #0
	cbz	x2, .Lbr_done
	ldr	x3, [x1]
	ldr	x4, [x1, #8]
	mov	x5, #0
.Lbr_loop:
	ldrb	w6, [x3, x5]
	add	x5, x5, #1
	and	x5, x5, x4
	cbnz	w6, .Lbr_one
	add	x0, x0, #2
	b	.Lbr_join
.Lbr_one:
	add	x0, x0, #1
	b	.Lbr_join
.Lbr_join:
	subs	x2, x2, #1
	b.ne	.Lbr_loop
.Lbr_done:
	ret
ENDFUNC(pmc_kern_branch)
HEAD(pmc_kern_branch_head, .Lbr_loop)

/* chase: dependent loads through a cyclic list; ctx = the first node. Returns the last node reached.
 * fixed 4 insns (mov mov cbz ret), 2 branches; per iteration 3 insns (ldr subs b.ne), 1 branch, 8 bytes loaded. */
FUNC(pmc_kern_chase)
	mov	x2, x0
	mov	x0, x1
	cbz	x2, .Lchase_done
.Lchase_loop:
	ldr	x0, [x0]
	subs	x2, x2, #1
	b.ne	.Lchase_loop
.Lchase_done:
	ret
ENDFUNC(pmc_kern_chase)
HEAD(pmc_kern_chase_head, .Lchase_loop)

/* stream: one pass over arrays of n doubles per iteration; ctx -> struct pmc_kern_arrays { a, b, c, n } (n >= 1).
 * copy (c[i] = a[i]): fixed 6 insns (cbz mov ldr x3 ret), 2 branches; per pass 4n + 5 insns (3 mov, n x (ldr str
 * subs b.ne), subs b.ne), n + 1 branches. Returns iters. */
FUNC(pmc_kern_stream_copy_a64)
	cbz	x0, .Lcopy_done
	mov	x2, x0
	ldr	x3, [x1]
	ldr	x5, [x1, #16]
	ldr	x6, [x1, #24]
.Lcopy_pass:
	mov	x9, x3
	mov	x10, x5
	mov	x8, x6
.Lcopy_elem:
	ldr	d0, [x9], #8
	str	d0, [x10], #8
	subs	x8, x8, #1
	b.ne	.Lcopy_elem
	subs	x2, x2, #1
	b.ne	.Lcopy_pass
.Lcopy_done:
	ret
ENDFUNC(pmc_kern_stream_copy_a64)
HEAD(pmc_kern_stream_copy_a64_head, .Lcopy_pass)

/* triad (a[i] = b[i] + 3.0 x c[i], one fmadd: 2 DP FLOPs): fixed 8 insns (cbz mov ldr x4 fmov ret), 2 branches;
 * per pass 6n + 6 insns (4 mov, n x (ldr ldr fmadd str subs b.ne), subs b.ne), n + 1 branches. Returns iters. */
FUNC(pmc_kern_stream_triad_a64)
	cbz	x0, .Ltriad_done
	mov	x2, x0
	ldr	x3, [x1]
	ldr	x4, [x1, #8]
	ldr	x5, [x1, #16]
	ldr	x6, [x1, #24]
	fmov	d1, #3.0
.Ltriad_pass:
	mov	x9, x4
	mov	x10, x5
	mov	x11, x3
	mov	x8, x6
.Ltriad_elem:
	ldr	d2, [x9], #8
	ldr	d3, [x10], #8
	fmadd	d4, d3, d1, d2
	str	d4, [x11], #8
	subs	x8, x8, #1
	b.ne	.Ltriad_elem
	subs	x2, x2, #1
	b.ne	.Ltriad_pass
.Ltriad_done:
	ret
ENDFUNC(pmc_kern_stream_triad_a64)
HEAD(pmc_kern_stream_triad_a64_head, .Ltriad_pass)

/* matmul: naive i-j-k C = A x B of n x n doubles (row-major); ctx -> struct pmc_kern_arrays { a, b, c, n }.
 * fixed 8 insns (cbz mov ldr x4 lsl ret), 2 branches. Per iteration (one product):
 *   6 n^3 (ldr ldr add fmadd subs b.ne)  + 8 n^2 (movi mov mov mov, str add subs b.ne)
 *   + 5 n (mov mov, add subs b.ne) + 5 (mov mov mov, subs b.ne) instructions;
 *   n^3 + n^2 + n + 1 branches; 2 n^3 DP FLOPs; 16 n^3 bytes loaded, 8 n^2 stored. Returns iters. */
FUNC(pmc_kern_matmul_a64)
	cbz	x0, .Lmm_done
	mov	x2, x0
	ldr	x3, [x1]
	ldr	x4, [x1, #8]
	ldr	x5, [x1, #16]
	ldr	x6, [x1, #24]
	lsl	x7, x6, #3
.Lmm_iter:
	mov	x8, x3
	mov	x9, x5
	mov	x10, x6
.Lmm_row:
	mov	x11, x4
	mov	x12, x6
.Lmm_col:
	movi	d0, #0
	mov	x13, x8
	mov	x14, x11
	mov	x15, x6
.Lmm_k:
	ldr	d1, [x13], #8
	ldr	d2, [x14]
	add	x14, x14, x7
	fmadd	d0, d1, d2, d0
	subs	x15, x15, #1
	b.ne	.Lmm_k
	str	d0, [x9], #8
	add	x11, x11, #8
	subs	x12, x12, #1
	b.ne	.Lmm_col
	add	x8, x8, x7
	subs	x10, x10, #1
	b.ne	.Lmm_row
	subs	x2, x2, #1
	b.ne	.Lmm_iter
.Lmm_done:
	ret
ENDFUNC(pmc_kern_matmul_a64)
HEAD(pmc_kern_matmul_a64_head, .Lmm_iter)

	.section .note.GNU-stack, "", %progbits
