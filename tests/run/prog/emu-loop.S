/* SPDX-License-Identifier: MIT */
/* emu-loop [ARG...]: 1,000,000 x argc iterations of dec/jnz, then exit(0). No libc, no loader: it executes exactly
 * 2 + 2N + 3 = 2N + 5 user-mode instructions (mov, imul; dec, jnz per iteration; mov, xor, syscall), which is what
 * --emulate must count and what a PMU's instructions:u counts. The label 'body' is the loop's first instruction:
 * a hardware execute breakpoint there counts N. */
	.text
	.globl _start
	.globl body
_start:
	mov	(%rsp), %rcx
	imul	$1000000, %rcx, %rcx
body:
	dec	%rcx
	jnz	body
	mov	$60, %eax
	xor	%edi, %edi
	syscall
	.section .note.GNU-stack, "", @progbits
