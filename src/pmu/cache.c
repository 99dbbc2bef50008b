/* SPDX-License-Identifier: MIT */
/* perf's hardware cache events (PERF_TYPE_HW_CACHE): CACHE-OP-RESULT names such as L1-dcache-load-misses, with the
 * aliases perf's parser takes for each part (tools/perf/util/evsel.c, evsel__hw_cache*), and the cache/op pairs
 * perf accepts (evsel__is_cache_op_valid: an instruction cache or branch unit is never written). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmu/event.h"
#include "pmu/pmu_internal.h"

/* First name of each row: perf's own spelling (perf list), the rest the aliases perf's parser also takes. */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][4] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "branches", "bpu", "btb" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

/* Access (reference) spelling, miss spelling, and aliases of the op word. */
static const char *const op_names[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "loads", "load-misses", "load", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "stores", "store-misses", "store", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetches", "prefetch-misses", "prefetch", "speculative-read",
					      "speculative-load" },
};

static const char *const result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][4] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};

/* Which ops each cache has (perf's hw_cache_stat table): 1 load, 2 store, 4 prefetch. */
static const unsigned valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = 7, [PERF_COUNT_HW_CACHE_L1I] = 5, [PERF_COUNT_HW_CACHE_LL] = 7,
	[PERF_COUNT_HW_CACHE_DTLB] = 7, [PERF_COUNT_HW_CACHE_ITLB] = 1, [PERF_COUNT_HW_CACHE_BPU] = 1,
	[PERF_COUNT_HW_CACHE_NODE] = 7,
};

static int find_word(const char *const *row, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n && row[i]; i++)
		if (strlen(row[i]) == len && !strncasecmp(row[i], s, len))
			return (int)i;
	return -1;
}

/* The cache part is the longest alias that is a prefix followed by '-' (L1-dcache has a '-' of its own). */
static int parse_cache(const char *name, size_t *used)
{
	int best = -1;
	size_t best_len = 0;

	for (int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (size_t i = 0; i < PMC_ARRAY_SIZE(cache_names[c]) && cache_names[c][i]; i++) {
			size_t l = strlen(cache_names[c][i]);

			if (l > best_len && !strncasecmp(name, cache_names[c][i], l) && name[l] == '-') {
				best = c;
				best_len = l;
			}
		}
	*used = best_len + 1;
	return best;
}

int pmc_cache_lookup(const char *name, struct pmc_event *ev)
{
	size_t used = 0;
	int cache = parse_cache(name, &used), op = -1, result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	const char *rest = name + used;
	const char *dash = strchr(rest, '-');
	size_t oplen = dash ? (size_t)(dash - rest) : strlen(rest);

	if (cache < 0)
		return -ENOENT;
	/* CACHE-loads / CACHE-load-misses (perf's own), or CACHE-OP[-RESULT] with the aliases */
	for (int o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX && op < 0; o++) {
		if (!strcasecmp(rest, op_names[o][0])) {
			op = o;
		} else if (!strcasecmp(rest, op_names[o][1])) {
			op = o;
			result = PERF_COUNT_HW_CACHE_RESULT_MISS;
		} else if (find_word(op_names[o] + 2, 3, rest, oplen) >= 0) {
			int r = dash ? -1 : PERF_COUNT_HW_CACHE_RESULT_ACCESS;

			for (int k = 0; dash && k < PERF_COUNT_HW_CACHE_RESULT_MAX && r < 0; k++)
				if (find_word(result_names[k], 4, dash + 1, strlen(dash + 1)) >= 0)
					r = k;
			if (r < 0)
				return -ENOENT;
			op = o;
			result = r;
		}
	}
	if (op < 0 || !(valid_ops[cache] & (1u << op)))
		return -ENOENT;
	ev->attr.type = PERF_TYPE_HW_CACHE;
	ev->attr.config = (uint64_t)cache | ((uint64_t)op << 8) | ((uint64_t)result << 16);
	ev->cls = PMC_CLASS_GP;
	ev->fixed_index = -1;
	ev->flags |= PMC_EVF_HARDWARE;
	return pmc_cache_name(ev->attr.config, ev->canonical, sizeof(ev->canonical));
}

int pmc_cache_name(uint64_t config, char *buf, size_t len)
{
	unsigned cache = config & 0xff, op = (config >> 8) & 0xff, result = (config >> 16) & 0xff;
	int n;

	if (cache >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX || (config >> 24) || !(valid_ops[cache] & (1u << op)))
		return -ENOENT;
	n = snprintf(buf, len, "%s-%s", cache_names[cache][0], op_names[op][result]);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

int pmc_cache_name_at(size_t i, char *buf, size_t len)
{
	for (unsigned c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (unsigned o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++)
			for (unsigned r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				if (!(valid_ops[c] & (1u << o)))
					continue;
				if (!i--)
					return pmc_cache_name(c | (o << 8) | (r << 16), buf, len);
			}
	return -ENOENT;
}
