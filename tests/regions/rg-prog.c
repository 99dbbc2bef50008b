/* SPDX-License-Identifier: MIT */
/* A program marked with regions for the region tests. Region bodies call marker_a()/marker_b() a known number of
 * times; a breakpoint on a marker (mem:ADDR:x) counts exactly, so every region's count is known in advance.
 *   rg-prog basic        outer x3 { a x10, inner x2 { a x100, c } }, "b-only" { b x7 }, a x5 outside: whole a = 635
 *   rg-prog threads N    N threads; thread k enters "work" k+1 times, each with a x1000 (plus "main" in main)
 *   rg-prog pages N      region "touch" writes N fresh pages
 *   rg-prog noleave      "open" entered, never left, then exit()
 *   rg-prog badleave     leaves of regions never entered, and of the wrong region
 *   rg-prog toomany      300 distinct region names and one name too long
 *   rg-prog deep         70 nested enters of one region, then 70 leaves
 *   rg-prog fork         fork inside "parent"; the child runs "child" { a x50 } and leaves "parent" (unmatched)
 *   rg-prog fork _exit   the same, the child ending with _exit(0) (no exit handlers: its results are lost)
 *   rg-prog threadexit   a thread exits inside "dying" (entered, a x20, never left)
 *   rg-prog signal N [early]  "main-loop" entered N times (a x10) while a SIGPROF handler every 50 us enters
 *                        "handler" (b x1); prints "handled K" (K handler runs); with "early" the timer starts
 *                        before the thread's first use (no pmctool_thread_init); counts NULL pointers check too
 *   rg-prog uid          prints the effective user id (a setuid copy says whether the bit took effect)
 *   rg-prog burst N      N threads (up to 4096) started together, all alive at once; each enters "burst" 3 times
 *                        with a x10 and ends at once (thread starts racing thread ends)
 *   rg-prog loop N       "empty" entered and left N times with an empty body (cost; strace)
 *   rg-prog trips N      "body" once around N calls of marker_a (instructions per region: a + b x N, exact on arm64)
 *   rg-prog vary FILE    "vary" entered 1 + (a number kept in FILE, incremented by each execution) times
 *   rg-prog ranks [R]    MPI rank k (OMPI_COMM_WORLD_RANK, else PMI_RANK; 0 without): "ranked" entered k + 1 times,
 *                        each with a x100, and "common" once with a x10; rank R exits with status 3
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmctool.h>

void marker_a(void);
void marker_b(void);
void marker_c(void);

__attribute__((noinline)) void marker_a(void)
{
	__asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) void marker_b(void)
{
	__asm__ __volatile__("" ::: "memory");
}

__attribute__((noinline)) void marker_c(void)
{
	__asm__ __volatile__("" ::: "memory");
}

static void a_times(int n)
{
	for (int i = 0; i < n; i++)
		marker_a();
}

static void basic(void)
{
	PMCTOOL_REGION_HANDLE(inner, "inner");

	a_times(5);
	for (int i = 0; i < 3; i++) {
		PMCTOOL_REGION_BEGIN("outer");
		a_times(10);
		for (int j = 0; j < 2; j++) {
			PMCTOOL_REGION_ENTER(inner);
			a_times(100);
			marker_c();
			PMCTOOL_REGION_LEAVE(inner);
		}
		PMCTOOL_REGION_END("outer");
	}
	PMCTOOL_REGION_BEGIN("b-only");
	for (int i = 0; i < 7; i++)
		marker_b();
	PMCTOOL_REGION_END("b-only");
}

static void *worker(void *arg)
{
	long k = (long)arg;
	PMCTOOL_REGION_HANDLE(work, "work");

	for (long i = 0; i <= k; i++) {
		PMCTOOL_REGION_ENTER(work);
		a_times(1000);
		PMCTOOL_REGION_LEAVE(work);
	}
	return NULL;
}

static int threads(int n)
{
	pthread_t th[64];

	if (n < 1 || n > 64)
		return 2;
	PMCTOOL_REGION_BEGIN("main");
	for (long k = 0; k < n; k++)
		if (pthread_create(&th[k], NULL, worker, (void *)k))
			return 1;
	for (int k = 0; k < n; k++)
		pthread_join(th[k], NULL);
	PMCTOOL_REGION_END("main");
	return 0;
}

static void *burst_worker_now(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		PMCTOOL_REGION_BEGIN("burst");
		a_times(10);
		PMCTOOL_REGION_END("burst");
	}
	return NULL;
}

/* burst: the threads wait for each other (all created, none ended yet), then run and end together. */
static pthread_barrier_t burst_start;

static void *burst_worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&burst_start);
	for (int i = 0; i < 3; i++) {
		PMCTOOL_REGION_BEGIN("burst");
		a_times(10);
		PMCTOOL_REGION_END("burst");
	}
	return NULL;
}

static int burst(long n)
{
	static pthread_t th[4096];
	pthread_attr_t attr;
	long made = 0;

	if (n < 1 || n > 4096)
		return 2;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	/* Half of them start as soon as they are made (short threads end while others start), half together. */
	pthread_barrier_init(&burst_start, NULL, (unsigned)(n - n / 2 + 1));
	for (long k = 0; k < n; k++) {
		if (k >= n / 2) {
			if (pthread_create(&th[k], &attr, burst_worker, NULL))
				break;
		} else if (pthread_create(&th[k], &attr, burst_worker_now, NULL)) {
			break;
		}
		made++;
	}
	if (made < n) {
		fprintf(stderr, "rg-prog burst: only %ld of %ld threads could be created\n", made, n);
		exit(1);
	}
	pthread_barrier_wait(&burst_start);
	for (long k = 0; k < made; k++)
		pthread_join(th[k], NULL);
	return 0;
}

#ifdef PMCTOOL_MARKERS
/* signal: a handler that uses regions, interrupting regions and the library. It calls the library's functions
 * directly: only with the markers (rg-prog-off must not reference the library, or its constructor would run). */
static volatile sig_atomic_t handled;
static pmctool_region_t handler_region;

static void on_prof(int sig)
{
	(void)sig;
	PMCTOOL_REGION_ENTER(handler_region);
	marker_b();
	PMCTOOL_REGION_LEAVE(handler_region);
	handled++;
}

static int in_handler(long n, int early)
{
	struct sigaction sa = { .sa_handler = on_prof };
	struct itimerval it = { { 0, 50 }, { 0, 50 } }, off = { { 0, 0 }, { 0, 0 } };
	pmctool_region_t loop = pmctool_region("main-loop");
	unsigned long long calls = 1;

	handler_region = pmctool_region("handler");
	if (!early)
		PMCTOOL_THREAD_INIT();
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGPROF, &sa, NULL) || setitimer(ITIMER_PROF, &it, NULL))
		return 1;
	for (long i = 0; i < n; i++) {
		PMCTOOL_REGION_ENTER(loop);
		a_times(10);
		PMCTOOL_REGION_LEAVE(loop);
	}
	setitimer(ITIMER_PROF, &off, NULL);
	/* every pointer argument: NULL calls is allowed, NULL values only with max 0 */
	if (pmctool_region_counts(loop, NULL, NULL, 16) != -EINVAL || pmctool_region_counts(loop, &calls, NULL, -1) !=
	    -EINVAL || pmctool_region_counts(loop, NULL, NULL, 0) < 0 || pmctool_region_counts(loop, &calls, NULL, 0) < 0)
		return 4;
	pmctool_region_begin(NULL);
	pmctool_region_end(NULL);
	printf("handled %d calls %llu\n", (int)handled, calls);
	return 0;
}
#else
static int in_handler(long n, int early)
{
	(void)n;
	(void)early;
	return 2;
}
#endif

static int pages(long n)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)(n * psz), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	PMCTOOL_REGION_BEGIN("touch");
	for (long i = 0; i < n; i++)
		p[i * psz] = 1;
	PMCTOOL_REGION_END("touch");
	munmap(p, (size_t)(n * psz));
	return 0;
}

static void *dying(void *arg)
{
	(void)arg;
	PMCTOOL_REGION_BEGIN("dying");
	a_times(20);
	pthread_exit(NULL);
}

static int ranks(int argc, char **argv)
{
	const char *v = getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : getenv("PMI_RANK");
	long k = v ? atol(v) : 0;

	for (long i = 0; i <= k; i++) {
		PMCTOOL_REGION_BEGIN("ranked");
		a_times(100);
		PMCTOOL_REGION_END("ranked");
	}
	PMCTOOL_REGION_BEGIN("common");
	a_times(10);
	PMCTOOL_REGION_END("common");
	return argc > 2 && atol(argv[2]) == k ? 3 : 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (!strcmp(mode, "basic")) {
		basic();
	} else if (!strcmp(mode, "threads")) {
		return threads((int)n);
	} else if (!strcmp(mode, "signal")) {
		return in_handler(n, argc > 3 && !strcmp(argv[3], "early"));
	} else if (!strcmp(mode, "uid")) {
		printf("%u\n", (unsigned)geteuid());
	} else if (!strcmp(mode, "burst")) {
		return burst(n);
	} else if (!strcmp(mode, "pages")) {
		return pages(n);
	} else if (!strcmp(mode, "ranks")) {
		return ranks(argc, argv);
	} else if (!strcmp(mode, "noleave")) {
		PMCTOOL_REGION_BEGIN("closed");
		a_times(3);
		PMCTOOL_REGION_END("closed");
		PMCTOOL_REGION_BEGIN("open");
		a_times(3);
		exit(0);
	} else if (!strcmp(mode, "badleave")) {
		PMCTOOL_REGION_END("never-entered");
		PMCTOOL_REGION_BEGIN("x");
		PMCTOOL_REGION_BEGIN("y");
		PMCTOOL_REGION_END("x"); /* wrong order: unmatched, ignored */
		PMCTOOL_REGION_END("y");
		PMCTOOL_REGION_END("x");
		PMCTOOL_REGION_LEAVE(PMCTOOL_REGION_INVALID);
	} else if (!strcmp(mode, "toomany")) {
		char name[128];

		for (int i = 0; i < 300; i++) {
			snprintf(name, sizeof(name), "r%03d", i);
			PMCTOOL_REGION_BEGIN(name);
			marker_a();
			PMCTOOL_REGION_END(name);
		}
		memset(name, 'n', 100);
		name[100] = '\0';
		PMCTOOL_REGION_BEGIN(name);
		PMCTOOL_REGION_END(name);
	} else if (!strcmp(mode, "deep")) {
		for (int i = 0; i < 70; i++)
			PMCTOOL_REGION_BEGIN("deep");
		marker_a();
		for (int i = 0; i < 70; i++)
			PMCTOOL_REGION_END("deep");
	} else if (!strcmp(mode, "fork")) {
		pid_t pid;
		int st;

		PMCTOOL_REGION_BEGIN("parent");
		a_times(10);
		pid = fork();
		if (pid == 0) {
			PMCTOOL_REGION_BEGIN("child");
			a_times(50);
			PMCTOOL_REGION_END("child");
			PMCTOOL_REGION_END("parent");
			if (argc > 2 && !strcmp(argv[2], "_exit"))
				_exit(0);
			exit(0);
		}
		waitpid(pid, &st, 0);
		PMCTOOL_REGION_END("parent");
	} else if (!strcmp(mode, "threadexit")) {
		pthread_t t;

		pthread_create(&t, NULL, dying, NULL);
		pthread_join(t, NULL);
		PMCTOOL_REGION_BEGIN("after");
		a_times(4);
		PMCTOOL_REGION_END("after");
	} else if (!strcmp(mode, "loop")) {
		PMCTOOL_REGION_HANDLE(empty, "empty");

		PMCTOOL_THREAD_INIT();
		for (long i = 0; i < n; i++) {
			PMCTOOL_REGION_ENTER(empty);
			PMCTOOL_REGION_LEAVE(empty);
		}
	} else if (!strcmp(mode, "trips")) {
		PMCTOOL_REGION_HANDLE(body, "body");

		PMCTOOL_THREAD_INIT();
		PMCTOOL_REGION_ENTER(body);
		a_times((int)n);
		PMCTOOL_REGION_LEAVE(body);
	} else if (!strcmp(mode, "vary") && argc > 2) {
		FILE *f = fopen(argv[2], "r+");
		int k = 0;

		if (!f || fscanf(f, "%d", &k) != 1)
			k = 0;
		if (f)
			fclose(f);
		f = fopen(argv[2], "w");
		if (!f)
			return 1;
		fprintf(f, "%d\n", k + 1);
		fclose(f);
		for (int i = 0; i <= k; i++) {
			PMCTOOL_REGION_BEGIN("vary");
			marker_a();
			PMCTOOL_REGION_END("vary");
		}
	} else {
		fprintf(stderr, "rg-prog: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
