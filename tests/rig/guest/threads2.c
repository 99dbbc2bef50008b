/* SPDX-License-Identifier: MIT */
/* threads2 N1 N2: a second thread (named spinner) runs a two-instruction loop N1 times while the first runs it N2
 * times, then the first joins it: stat --per-thread's rig test (t9_per_thread). Each thread's user-mode instructions
 * are 2 x its N plus the little the C library does around it (start, thread start and exit). */
#include <pthread.h>
#include <stdlib.h>

static void spin(unsigned long n)
{
	if (n)
		__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}

static void *spinner(void *arg)
{
	pthread_setname_np(pthread_self(), "spinner");
	spin((unsigned long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 3)
		return 2;
	if (pthread_create(&t, NULL, spinner, (void *)strtoul(argv[1], NULL, 10)))
		return 1;
	spin(strtoul(argv[2], NULL, 10));
	return pthread_join(t, NULL) ? 1 : 0;
}
