/* SPDX-License-Identifier: MIT */
/* The program tests/ci/test_ci_gate.sh gates: a loop of N additions (N = argv[1] or 200000); built with -DSLOWER it
 * adds 1000 more iterations, the kind of change a gate must catch (about 0.5% more instructions). */
#include <stdlib.h>

int main(int argc, char **argv)
{
	volatile unsigned long s = 0;
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000;

#ifdef SLOWER
	n += 1000;
#endif
	for (unsigned long i = 0; i < n; i++)
		s += i;
	return 0;
}
