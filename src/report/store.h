/* SPDX-License-Identifier: MIT */
/* Growable arrays kept out of fork(): anonymous mappings marked MADV_DONTFORK, or for a few bytes the heap (see
 * store.c for why). */
#ifndef PMC_REPORT_STORE_H
#define PMC_REPORT_STORE_H

#include <stddef.h>

/* Make *p (capacity *cap elements of size bytes; NULL and 0 at first) hold at least n elements, keeping its contents:
 * grows by doubling (on the heap up to 2 KiB, then in whole pages of a mapping). 0, or -ENOMEM with *p and *cap
 * unchanged. */
int pmc_store_reserve(void **p, size_t *cap, size_t n, size_t size);

/* Release an array from pmc_store_reserve (cap as it left it). Accepts NULL. */
void pmc_store_free(void *p, size_t cap, size_t size);

#endif
