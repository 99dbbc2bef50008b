/* SPDX-License-Identifier: MIT */
#ifndef PMC_UTIL_H
#define PMC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define PMC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PMC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define PMC_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Exit statuses of pmctool itself (documented in pmctool(1)). A measured command's own status is passed through;
 * 128+N when it died of signal N; 126 found but not executable; 127 not found. */
enum pmc_exit {
	PMC_EXIT_OK = 0,
	PMC_EXIT_USAGE = 2,     /* bad option, bad event name, bad value: nothing was run */
	PMC_EXIT_NOCOUNT = 3,   /* the command could not be measured at all (no event could be opened) */
	PMC_EXIT_OUTPUT = 4,    /* the report could not be written (-o file, closed pipe other than EPIPE) */
	PMC_EXIT_INTERNAL = 5,  /* out of memory or an unexpected system error */
	PMC_EXIT_NOEXEC = 126,  /* the command was found but could not be executed */
	PMC_EXIT_NOTFOUND = 127 /* the command was not found */
};

/* Limits on user-controlled sizes: every one is checked with a clear error. */
#define PMC_MAX_EVENTS 1024         /* events on one command line or in one set */
#define PMC_MAX_SPEC_LEN 4096       /* one event spec or one list PATTERN */
#define PMC_MAX_LIST_LEN (PMC_MAX_EVENTS * PMC_NAME_MAX) /* one -e list: as many events as allowed, each as long */
#define PMC_MAX_RUNS 100000         /* -r */
#define PMC_NAME_MAX 256            /* an event name as written, or its canonical form */

/* Edit distance, case-insensitive, capped at 'cap' (returns cap when the distance is >= cap): insertions, deletions,
 * substitutions and swaps of two neighbours count one each (optimal string alignment). */
unsigned pmc_edit_distance(const char *a, const char *b, unsigned cap);

/* Make the array *p (capacity *cap elements of size bytes; NULL and 0 at first) hold element n: doubles from 16.
 * 0, or -ENOMEM with *p and *cap unchanged. */
int pmc_grow(void **p, size_t *cap, size_t n, size_t size);

/* Parse an unsigned decimal or 0x-hex integer, whole string, in [min,max]. 0 or -EINVAL / -ERANGE. */
int pmc_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

/* Parse an unsigned decimal integer (digits only; leading zeros are decimal: "010" is 10), whole string, in
 * [min,max]. For option values, which the help gives as decimal. 0 or -EINVAL / -ERANGE. */
int pmc_parse_dec_u64(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

/* Nanoseconds of CLOCK_MONOTONIC. */
uint64_t pmc_now_ns(void);

#endif
