/* SPDX-License-Identifier: MIT */
/*
 * Built-in kernels: exact instruction sequences, so instructions, branches, FLOPs and bytes per iteration are known.
 * Every kernel is  uint64_t pmc_kern_NAME(uint64_t iters (rdi), void *ctx (rsi))  and touches only caller-saved
 * registers. The counts declared in src/arch/x86_64/kernels_table.c are the instructions of the function itself, from its first
 * instruction to its ret, for iters >= 1; tests/kernels checks them against valgrind's count.
 * The loop head of each kernel (executed exactly once per iteration) is published as an address in
 * pmc_kern_NAME_head, not as a symbol: a global label inside a function would split it in two for profilers.
 * Loops are not aligned inside a function: the padding would be executed once and change the declared counts.
 */
	.intel_syntax noprefix
	.text

#define FUNC(name) .globl name; .type name, @function; .p2align 5; name:
#define ENDFUNC(name) .size name, .-name
#define HEAD(name, label) .pushsection .data.rel.ro, "aw"; .p2align 3; .globl name; .type name, @object; \
	.size name, 8; name: .quad label; .popsection

/* empty: the loop alone. fixed 4 insns (mov test jz ret), 2 branches; per iteration 2 insns, 1 branch. */
FUNC(pmc_kern_empty)
	mov	rax, rdi
	test	rdi, rdi
	jz	.Lempty_done
.Lempty_loop:
	dec	rdi
	jnz	.Lempty_loop
.Lempty_done:
	ret
ENDFUNC(pmc_kern_empty)
HEAD(pmc_kern_empty_head, .Lempty_loop)

/* fma: seed 001's loop. fixed 6 insns (mov test jz vzeroall vzeroupper ret), 2 branches; per iteration 17 insns:
 * 10 vfmadd231ps ymm (160 SP FLOPs) + 5 vpaddd ymm + dec + jnz. */
FUNC(pmc_kern_fma)
	mov	rax, rdi
	test	rdi, rdi
	jz	.Lfma_done
	vzeroall
.Lfma_loop:
	vfmadd231ps	ymm0, ymm0, ymm0
	vfmadd231ps	ymm1, ymm1, ymm1
	vfmadd231ps	ymm2, ymm2, ymm2
	vfmadd231ps	ymm3, ymm3, ymm3
	vfmadd231ps	ymm4, ymm4, ymm4
	vfmadd231ps	ymm5, ymm5, ymm5
	vfmadd231ps	ymm6, ymm6, ymm6
	vfmadd231ps	ymm7, ymm7, ymm7
	vfmadd231ps	ymm8, ymm8, ymm8
	vfmadd231ps	ymm9, ymm9, ymm9
	vpaddd	ymm10, ymm10, ymm10
	vpaddd	ymm11, ymm11, ymm11
	vpaddd	ymm12, ymm12, ymm12
	vpaddd	ymm13, ymm13, ymm13
	vpaddd	ymm14, ymm14, ymm14
	dec	rdi
	jnz	.Lfma_loop
.Lfma_done:
	vzeroupper
	ret
ENDFUNC(pmc_kern_fma)
HEAD(pmc_kern_fma_head, .Lfma_loop)

/* fma-latency: one dependent chain, 4 FMAs per iteration each waiting for the previous (64 SP FLOPs).
 * fixed 6 insns, 2 branches; per iteration 6 insns, 1 branch. */
FUNC(pmc_kern_fma_latency)
	mov	rax, rdi
	test	rdi, rdi
	jz	.Lfmalat_done
	vzeroall
.Lfmalat_loop:
	vfmadd231ps	ymm0, ymm1, ymm2
	vfmadd231ps	ymm0, ymm1, ymm2
	vfmadd231ps	ymm0, ymm1, ymm2
	vfmadd231ps	ymm0, ymm1, ymm2
	dec	rdi
	jnz	.Lfmalat_loop
.Lfmalat_done:
	vzeroupper
	ret
ENDFUNC(pmc_kern_fma_latency)
HEAD(pmc_kern_fma_latency_head, .Lfmalat_loop)

/* The FLOP family: 8 independent FMA accumulators (enough to cover latency x ports on current cores).
 * fixed 6 insns, 2 branches; per iteration 10 insns (8 FMA + dec + jnz), 1 branch, 16 x lanes FLOPs. */
.macro FLOPS name, insn, r
FUNC(\name)
	mov	rax, rdi
	test	rdi, rdi
	jz	.L\name\()_done
	vzeroall
.L\name\()_loop:
	\insn	\r\()0, \r\()8, \r\()9
	\insn	\r\()1, \r\()8, \r\()9
	\insn	\r\()2, \r\()8, \r\()9
	\insn	\r\()3, \r\()8, \r\()9
	\insn	\r\()4, \r\()8, \r\()9
	\insn	\r\()5, \r\()8, \r\()9
	\insn	\r\()6, \r\()8, \r\()9
	\insn	\r\()7, \r\()8, \r\()9
	dec	rdi
	jnz	.L\name\()_loop
.L\name\()_done:
	vzeroupper
	ret
ENDFUNC(\name)
HEAD(\name\()_head, .L\name\()_loop)
.endm

FLOPS pmc_kern_flops_sp_scalar, vfmadd231ss, xmm
FLOPS pmc_kern_flops_sp_128, vfmadd231ps, xmm
FLOPS pmc_kern_flops_sp_256, vfmadd231ps, ymm
FLOPS pmc_kern_flops_sp_512, vfmadd231ps, zmm
FLOPS pmc_kern_flops_dp_scalar, vfmadd231sd, xmm
FLOPS pmc_kern_flops_dp_128, vfmadd231pd, xmm
FLOPS pmc_kern_flops_dp_256, vfmadd231pd, ymm
FLOPS pmc_kern_flops_dp_512, vfmadd231pd, zmm

/* loop: nested loops; ctx -> uint64_t inner trip count (>= 1). fixed 5 insns (mov test jz mov ret), 2 branches;
 * per outer iteration 2*inner + 3 insns, inner + 1 branches. */
FUNC(pmc_kern_loop)
	mov	rax, rdi
	test	rdi, rdi
	jz	.Lloop_done
	mov	rdx, [rsi]
.Lloop_outer:
	mov	rcx, rdx
.Lloop_inner:
	dec	rcx
	jnz	.Lloop_inner
	dec	rdi
	jnz	.Lloop_outer
.Lloop_done:
	ret
ENDFUNC(pmc_kern_loop)
HEAD(pmc_kern_loop_head, .Lloop_outer)

/* branch: one data-dependent branch per iteration on a byte table; ctx -> { const uint8_t *table; uint64_t mask }
 * (table size mask+1, a power of two). Both paths are two instructions with one jump, so the counts do not depend on
 * the data. Returns sum(byte ? 1 : 2). fixed 7 insns (xor test jz mov mov xor ret), 2 branches; per iteration 9 insns,
 * 3 branches (jnz, jmp, loop jnz), 1 byte loaded. */
FUNC(pmc_kern_branch)
	xor	eax, eax
	test	rdi, rdi
	jz	.Lbr_done
	mov	rdx, [rsi]
	mov	r8, [rsi + 8]
	xor	ecx, ecx
.Lbr_loop:
	movzx	r9d, byte ptr [rdx + rcx]
	inc	rcx
	and	rcx, r8
	test	r9d, r9d
	jnz	.Lbr_one
	add	rax, 2
	jmp	.Lbr_join
.Lbr_one:
	add	rax, 1
	jmp	.Lbr_join
.Lbr_join:
	dec	rdi
	jnz	.Lbr_loop
.Lbr_done:
	ret
ENDFUNC(pmc_kern_branch)
HEAD(pmc_kern_branch_head, .Lbr_loop)

/* chase: dependent loads through a cyclic list; ctx = the first node. Returns the last node reached.
 * fixed 4 insns (mov test jz ret), 2 branches; per iteration 3 insns, 1 branch, 8 bytes loaded. */
FUNC(pmc_kern_chase)
	mov	rax, rsi
	test	rdi, rdi
	jz	.Lchase_done
.Lchase_loop:
	mov	rax, [rax]
	dec	rdi
	jnz	.Lchase_loop
.Lchase_done:
	ret
ENDFUNC(pmc_kern_chase)
HEAD(pmc_kern_chase_head, .Lchase_loop)

/* madd: seed 004's c += a*b, scalar SSE multiply then add (no FMA): 2 FLOPs per iteration.
 * fixed 7 insns (mov test jz xorps x3 ret), 2 branches; per iteration 5 insns (movap mul add dec jnz), 1 branch. */
.macro MADD name, mov, mul, add
FUNC(\name)
	mov	rax, rdi
	test	rdi, rdi
	jz	.L\name\()_done
	xorps	xmm0, xmm0
	xorps	xmm1, xmm1
	xorps	xmm2, xmm2
.L\name\()_loop:
	\mov	xmm3, xmm0
	\mul	xmm3, xmm1
	\add	xmm2, xmm3
	dec	rdi
	jnz	.L\name\()_loop
.L\name\()_done:
	ret
ENDFUNC(\name)
HEAD(\name\()_head, .L\name\()_loop)
.endm

MADD pmc_kern_madd_sp, movaps, mulss, addss
MADD pmc_kern_madd_dp, movapd, mulsd, addsd

	.section .note.GNU-stack, "", @progbits
