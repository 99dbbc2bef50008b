/* SPDX-License-Identifier: MIT */
/* pmctool_emulated_begin/end around a loop of N iterations for each argument N: prints "N begin end" (their return
 * values). Under `valgrind --tool=callgrind --instr-atstart=no` each span's count is a callgrind dump of its own
 * (test_regions_emulated.sh). */
#include <stdio.h>
#include <stdlib.h>

#include <pmctool.h>

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		unsigned long n = strtoul(argv[i], NULL, 10);
		int b = pmctool_emulated_begin();

		spin(n);
		printf("%lu %d %d\n", n, b, pmctool_emulated_end());
	}
	return 0;
}
