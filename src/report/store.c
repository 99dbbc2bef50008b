/* SPDX-License-Identifier: MIT */
/* Growable arrays that fork() does not copy: the per-run samples and executions of a measurement grow with -r x
 * events, and every run forks the workload from pmctool; anonymous memory inherited by fork costs page-table copies at
 * fork and copy-on-write faults after it, so a heap that grows with the runs made each run dearer than the last. These
 * arrays live in their own mappings marked MADV_DONTFORK: the child (which only execs) never sees them. */
#include "report/store.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_round(size_t bytes)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return (bytes + pg - 1) / pg * pg;
}

int pmc_store_reserve(void **p, size_t *cap, size_t n, size_t size)
{
	size_t want, old_bytes = page_round(*cap * size), bytes;
	void *q;

	if (n <= *cap)
		return 0;
	if (size == 0 || n > SIZE_MAX / 2 / size)
		return -ENOMEM;
	want = n * size;
	if (want < old_bytes * 2)
		want = old_bytes * 2; /* doubling: a run's push is amortized O(1) */
	bytes = page_round(want);
	if (*p)
		q = mremap(*p, old_bytes, bytes, MREMAP_MAYMOVE);
	else
		q = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		return -ENOMEM;
	/* Kept across mremap with the mapping's flags; set again so a kernel that merged or split it still has it. */
	madvise(q, bytes, MADV_DONTFORK);
	*p = q;
	*cap = bytes / size;
	return 0;
}

void pmc_store_free(void *p, size_t cap, size_t size)
{
	if (p)
		munmap(p, page_round(cap * size));
}
