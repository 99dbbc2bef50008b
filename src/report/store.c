/* SPDX-License-Identifier: MIT */
/* Growable arrays that fork() does not copy: the per-run samples and executions of a measurement grow with -r x
 * events, and every run forks the workload from pmctool; anonymous memory inherited by fork costs page-table copies at
 * fork and copy-on-write faults after it, so a heap that grows with the runs made each run dearer than the last. These
 * arrays live in their own mappings marked MADV_DONTFORK: the child (which only execs) never sees them.
 * An array of at most STORE_HEAP_MAX bytes stays on the heap instead: a short measurement (one run, a few events)
 * would otherwise pay three system calls per event (map, mark, unmap) for a few bytes each, and a heap of a few such
 * arrays costs fork nothing measurable. Which kind an array is follows from its capacity alone. */
#include "report/store.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_round(size_t bytes)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (bytes + pg - 1) / pg * pg;
}

#define STORE_HEAP_MAX 2048

static bool on_heap(size_t cap, size_t size)
{
	return cap * size <= STORE_HEAP_MAX;
}

int pmc_store_reserve(void **p, size_t *cap, size_t n, size_t size)
{
	size_t need, want, old_bytes, bytes;
	bool heap = on_heap(*cap, size);
	void *q;

	if (n <= *cap)
		return 0;
	if (size == 0 || n > SIZE_MAX / 2 / size)
		return -ENOMEM;
	need = n * size;
	old_bytes = heap ? *cap * size : page_round(*cap * size);
	want = need > old_bytes * 2 ? need : old_bytes * 2; /* doubling: a run's push is amortized O(1) */
	if (need <= STORE_HEAP_MAX) {
		bytes = want < 256 ? 256 : want > STORE_HEAP_MAX ? STORE_HEAP_MAX : want;
		q = realloc(*p, bytes);
		if (!q)
			return -ENOMEM;
		*p = q;
		*cap = bytes / size;
		return 0;
	}
	bytes = page_round(want);
	if (*p && !heap)
		q = mremap(*p, old_bytes, bytes, MREMAP_MAYMOVE);
	else
		q = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		return -ENOMEM;
	if (*p && heap) {
		memcpy(q, *p, *cap * size);
		free(*p);
	}
	/* Kept across mremap with the mapping's flags; set again so a kernel that merged or split it still has it. */
	madvise(q, bytes, MADV_DONTFORK);
	*p = q;
	*cap = bytes / size;
	return 0;
}

void pmc_store_free(void *p, size_t cap, size_t size)
{
	if (on_heap(cap, size))
		free(p);
	else if (p)
		munmap(p, page_round(cap * size));
}
