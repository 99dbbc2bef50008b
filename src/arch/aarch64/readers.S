/* SPDX-License-Identifier: MIT */
/* The region library's counter readers (arch_inline.h pmc_arch_reader_of): one 8-byte stub per perf page index,
 * index 1..31 PMEVCNTR<index-1>_EL0, index 32 PMCCNTR_EL0. Each reads into x0 and returns: no stack, no other register.
 * EL0 may read them only while kernel.perf_user_access allows it and the page gives the index: callers check first. */
	.text
	.balign	8
	.globl	pmc_arm64_reader_stubs
	.hidden	pmc_arm64_reader_stubs
	.type	pmc_arm64_reader_stubs, %function
pmc_arm64_reader_stubs:
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30
	mrs	x0, pmevcntr\n\()_el0
	ret
	.endr
	mrs	x0, pmccntr_el0
	ret
	.size	pmc_arm64_reader_stubs, . - pmc_arm64_reader_stubs

/* The chain (arch_inline.h pmc_arch_chain_read): for slot s = 0..7, 32 stubs in index order, each
 * "mrs x<2+s>, <counter>; br x<10+s>": a slot's value lands in x<2+s>, and the stub goes on to the address in
 * x<10+s> (the next slot's stub, or for the last slot the place the chain returns to). No stack, no x30. */

	.macro	pmc_chain_stub s, next, n
	mrs	x\s, pmevcntr\n\()_el0
	br	x\next
	.endm
	.altmacro				/* to the end of the stubs: %expr passes the counter's number */
	.macro	pmc_chain_stub_at s, next, n
	pmc_chain_stub \s, \next, \n
	.endm
	.macro	pmc_chain_slot s, next
	.set	pmc_chain_i, 0
	.rept	31
	pmc_chain_stub_at \s, \next, %pmc_chain_i
	.set	pmc_chain_i, pmc_chain_i + 1
	.endr
	mrs	x\s, pmccntr_el0
	br	x\next
	.endm

	.balign	8
	.globl	pmc_arm64_chain_stubs
	.hidden	pmc_arm64_chain_stubs
	.type	pmc_arm64_chain_stubs, %function
pmc_arm64_chain_stubs:
	pmc_chain_slot 2, 10
	pmc_chain_slot 3, 11
	pmc_chain_slot 4, 12
	pmc_chain_slot 5, 13
	pmc_chain_slot 6, 14
	pmc_chain_slot 7, 15
	pmc_chain_slot 8, 16
	pmc_chain_slot 9, 17
	.noaltmacro
	.size	pmc_arm64_chain_stubs, . - pmc_arm64_chain_stubs
	.section .note.GNU-stack,"",%progbits
