/* SPDX-License-Identifier: MIT */
/* A workload for bench/'s scaling table: start N threads that do nothing and join them (counters are inherited by
 * every thread, so the tool's cost can grow with them). Usage: spawn_threads N */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *nothing(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1;

	if (n < 1 || n > 100000) {
		fprintf(stderr, "usage: spawn_threads N (1..100000)\n");
		return 2;
	}
	/* In waves of 64, so that N threads never all exist at once (the thread limit stays out of it). */
	for (long done = 0; done < n;) {
		pthread_t t[64];
		int k = 0;

		for (; k < 64 && done < n; k++, done++)
			if (pthread_create(&t[k], NULL, nothing, NULL)) {
				perror("spawn_threads: pthread_create");
				return 1;
			}
		while (k--)
			pthread_join(t[k], NULL);
	}
	return 0;
}
