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
	.section .note.GNU-stack,"",%progbits
