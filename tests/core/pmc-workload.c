/* SPDX-License-Identifier: MIT */
/* A workload with known behaviour for the integration tests: what it does is what the tests count.
 *   pages N          touch N fresh pages (at least N page faults)
 *   fork N           a child process touches N pages (counted only if children are inherited)
 *   threads N        a second thread touches N pages (counted only if threads are inherited)
 *   spin MS          burn MS milliseconds of CPU time in user mode
 *   calls N          call bump() N times (a breakpoint on bump counts exactly N)
 *   exit CODE        exit with CODE
 * Built without PIE so that bump's address (nm) is its run-time address. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile uint64_t pmc_workload_sink;

void bump(void);

__attribute__((noinline, used)) void bump(void)
{
	pmc_workload_sink++;
	__asm__ volatile("" ::: "memory");
}

static void touch_pages(long n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (long i = 0; i < n; i++)
		p[i * pg] = 1;
	munmap(p, (size_t)(n * pg));
}

static void *thread_main(void *arg)
{
	touch_pages((long)(intptr_t)arg);
	return NULL;
}

static void spin(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			pmc_workload_sink += (uint64_t)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 3) {
		fprintf(stderr, "usage: pmc-workload pages|fork|threads|spin|calls|exit N\n");
		return 2;
	}
	n = strtol(argv[2], NULL, 0);
	if (!strcmp(argv[1], "pages")) {
		touch_pages(n);
	} else if (!strcmp(argv[1], "fork")) {
		pid_t pid = fork();
		int st;
		if (pid == 0) {
			touch_pages(n);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			return 1;
	} else if (!strcmp(argv[1], "threads")) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread_main, (void *)(intptr_t)n) || pthread_join(t, NULL))
			return 1;
	} else if (!strcmp(argv[1], "spin")) {
		spin(n);
	} else if (!strcmp(argv[1], "calls")) {
		for (long i = 0; i < n; i++)
			bump();
	} else if (!strcmp(argv[1], "exit")) {
		return (int)n;
	} else {
		fprintf(stderr, "pmc-workload: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
