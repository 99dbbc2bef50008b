/* SPDX-License-Identifier: MIT */
/*
 * pmctool regions: count hardware and software events over named parts of your own program.
 *
 *   #include <pmctool.h>                       cc -DPMCTOOL_MARKERS prog.c $(pkg-config --cflags --libs pmctool)
 *   PMCTOOL_REGION_BEGIN("solve"); ... PMCTOOL_REGION_END("solve");
 *
 * Run the program under `pmctool stat --regions -e EVENTS -- ./prog` (pmctool hands it the encoded events and reads
 * its results), or alone with PMCTOOL_REGIONS_EVENTS=instructions,cycles set (it writes its own report at exit to
 * stderr or PMCTOOL_REGIONS_OUT, a path template such as regions.%h.%r.json: a .json name gives a report that
 * `pmctool merge` reads). With neither, every call returns at once and nothing is counted.
 *
 * Regions nest, repeat and run in any number of threads; each thread opens its own counters on its first enter and
 * reads them in process (RDPMC, mrs PMEVCNTR<n>_EL0) where the kernel allows it, with read(2) otherwise. After a
 * thread's first enter, enter and leave make no system call and no allocation on the in-process path.
 * Everything here is thread-safe; pmctool-regions(7) documents misuse (a leave that matches no enter, too many
 * regions, names too long, fork inside a region, a thread or the program ending inside one) and what a signal
 * handler may use (enter and leave of handles looked up before, in a thread that has called pmctool_thread_init).
 */
#ifndef PMCTOOL_H
#define PMCTOOL_H

#ifdef __cplusplus
extern "C" {
#endif

/* Limits: a longer name or one region more is refused (the handle is PMCTOOL_REGION_INVALID, counted as misuse). */
#define PMCTOOL_REGION_NAME_MAX 63   /* bytes of a region name, without the terminating NUL */
#define PMCTOOL_REGIONS_MAX 256      /* distinct region names per process */
#define PMCTOOL_REGION_DEPTH_MAX 64  /* regions open at once in one thread */
#define PMCTOOL_REGION_EVENTS_MAX 16 /* events counted per region */

typedef int pmctool_region_t;
#define PMCTOOL_REGION_INVALID (-1)

/* The handle of a region name (registered on first use; the same handle for the same name in every thread).
 * PMCTOOL_REGION_INVALID for NULL, an empty name, a name over PMCTOOL_REGION_NAME_MAX bytes or one region too many.
 * Takes a lock: look hot regions up once, outside the loop. */
pmctool_region_t pmctool_region(const char *name);

/* Enter / leave a region by handle: the hot-path form. An invalid handle is counted as misuse and ignored. A leave
 * must match the innermost open region of the calling thread; any other leave is counted as misuse and ignored. */
void pmctool_region_enter(pmctool_region_t region);
void pmctool_region_leave(pmctool_region_t region);

/* The same by name (a lock-free look-up of the name first: convenient, a little slower). NULL is an invalid name. */
void pmctool_region_begin(const char *name);
void pmctool_region_end(const char *name);

/* Optional: open the calling thread's counters now rather than on its first enter (keeps that cost out of the
 * first region). 0, or a negative errno when counting is off or the counters could not be opened. */
int pmctool_thread_init(void);

/* How the calling thread has read its counters so far: "in process" (RDPMC, mrs: no system call), "read(2)",
 * "in process and read(2)", or "none" (counting is off, or the thread has not entered a region). */
const char *pmctool_regions_read_method(void);

/* The calling thread's counts of a region so far (its completed entries): *ret_calls (unless ret_calls is NULL), and
 * up to max values in the order of the events (LIKWID's MARKER_GET; values may be NULL only when max is 0). The
 * number of events counted (0 when counting is off), or -EINVAL for an invalid handle, a negative max, or NULL values
 * with max > 0. A value of an event this thread could not open is 0. */
int pmctool_region_counts(pmctool_region_t region, unsigned long long *ret_calls, unsigned long long *values,
			  int max);

/* Optional: write the report now (it is otherwise written at exit) and stop counting; later calls do nothing.
 * 0 or a negative errno. */
int pmctool_regions_finish(void);

/* Emulated counts where there is no PMU: under `valgrind --tool=callgrind --instr-atstart=no`, callgrind counts the
 * instructions between begin and end (of every thread) and end writes them to its output file (its "totals:" line;
 * the pytest plugin's --pmctool-emulate reads them). 0; -ENODEV when not run under valgrind; -ENOSYS when this
 * library was built without valgrind's callgrind.h. Not for hot paths: each begin re-translates the program. */
int pmctool_emulated_begin(void);
int pmctool_emulated_end(void);

#ifdef PMCTOOL_MARKERS
#define PMCTOOL_REGION_BEGIN(name) pmctool_region_begin(name)
#define PMCTOOL_REGION_END(name) pmctool_region_end(name)
#define PMCTOOL_REGION_HANDLE(var, name) pmctool_region_t var = pmctool_region(name)
#define PMCTOOL_REGION_ENTER(var) pmctool_region_enter(var)
#define PMCTOOL_REGION_LEAVE(var) pmctool_region_leave(var)
#define PMCTOOL_THREAD_INIT() ((void)pmctool_thread_init())
#define PMCTOOL_REGIONS_FINISH() ((void)pmctool_regions_finish())
#else
/* Built without PMCTOOL_MARKERS: the markers vanish (arguments are not evaluated). */
#define PMCTOOL_REGION_BEGIN(name) ((void)0)
#define PMCTOOL_REGION_END(name) ((void)0)
#define PMCTOOL_REGION_HANDLE(var, name) int var##_pmctool_unused __attribute__((unused)) = 0
#define PMCTOOL_REGION_ENTER(var) ((void)0)
#define PMCTOOL_REGION_LEAVE(var) ((void)0)
#define PMCTOOL_THREAD_INIT() ((void)0)
#define PMCTOOL_REGIONS_FINISH() ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif
