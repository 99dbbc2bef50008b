/* SPDX-License-Identifier: MIT */
/* The in-process counter read on AArch64: the register number is encoded in the mrs instruction, so one case per
 * counter (32 -> PMCCNTR_EL0, 1..31 -> PMEVCNTR<index-1>_EL0). */
#include "arch/arch.h"

#define EV(n) \
	case (n) + 1: \
		__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); \
		break;

uint64_t pmc_arm64_counter_read(uint32_t index)
{
	uint64_t v = 0;

	switch (index) {
	EV(0) EV(1) EV(2) EV(3) EV(4) EV(5) EV(6) EV(7) EV(8) EV(9) EV(10) EV(11) EV(12) EV(13) EV(14) EV(15)
	EV(16) EV(17) EV(18) EV(19) EV(20) EV(21) EV(22) EV(23) EV(24) EV(25) EV(26) EV(27) EV(28) EV(29) EV(30)
	case 32:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	default:
		break;
	}
	return v;
}
