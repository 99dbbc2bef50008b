/* SPDX-License-Identifier: MIT */
/* Bytes per cache level from core events: lines filled into L1D (the bytes L2 supplies), into L2 (L3 supplies) and
 * the last level's misses (memory supplies), times the line size sysfs gives. Loads and stores the L1 serves have no
 * byte count (only instruction counts of mixed widths), so there is no L1 point. Write-backs are not counted: the
 * bytes are the fills, a lower bound of the level's traffic. */
#include <stdio.h>
#include <string.h>

#include "pmu/event.h"
#include "roofline/level_events.h"

struct row {
	int level;
	const char *ev[PMC_RF_LEVEL_MAX_EVENTS];
	const char *meaning;
};

/* One vendor's rows: used when every event of its first row resolves (the PMU is that vendor's). */
static const struct {
	const char *vendor;
	struct row rows[3];
} vendors[] = {
	{ "Intel", {
		{ PMC_RF_L2, { "L1D:REPLACEMENT" }, "lines filled into L1D" },
		{ PMC_RF_L3, { "L2_LINES_IN:ALL" }, "lines filled into L2" },
		{ PMC_RF_MEM, { "LONGEST_LAT_CACHE:MISS" }, "L3 misses (demand and prefetch)" },
	} },
	{ "AMD", {
		{ PMC_RF_L2, { "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_RMT:"
			       "MEM_IO_RMT" }, "L1D fills from every source" },
		{ PMC_RF_L3, { "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C",
			       "L2_PREFETCH_HIT_L3:L2_HW_PREFETCHER:L1_HW_PREFETCHER",
			       "L2_PREFETCH_MISS_L3:L2_HW_PREFETCHER:L1_HW_PREFETCHER" },
		  "L2 misses: data requests and L2 prefetches" },
		{ PMC_RF_MEM, { "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT",
				"L2_PREFETCH_MISS_L3:L2_HW_PREFETCHER:L1_HW_PREFETCHER" },
		  "L1D fills from DRAM and L2 prefetches that missed L3" },
	} },
	{ "Arm", {
		{ PMC_RF_L2, { "L1D_CACHE_REFILL" }, "L1D refills" },
		{ PMC_RF_L3, { "L2D_CACHE_REFILL" }, "L2D refills" },
		{ PMC_RF_MEM, { "L3D_CACHE_REFILL" }, "L3D refills" },
	} },
};

static bool resolves(const char *name)
{
	struct pmc_event ev;
	struct pmc_resolve_error err;

	return pmc_event_resolve(name, &ev, &err) == 0;
}

void pmc_rf_level_sources(const struct pmc_rf_caches *c, struct pmc_rf_level_source ret[3], size_t *ret_n)
{
	static const char *const names[PMC_RF_NLEVELS] = { "L1", "L2", "L3", "memory" };

	*ret_n = 0;
	for (size_t v = 0; v < sizeof(vendors) / sizeof(vendors[0]); v++) {
		if (!resolves(vendors[v].rows[0].ev[0]))
			continue;
		for (size_t r = 0; r < 3; r++) {
			const struct row *w = &vendors[v].rows[r];
			struct pmc_rf_level_source *s = &ret[*ret_n];
			bool all = true;
			size_t off;

			memset(s, 0, sizeof(*s));
			for (size_t i = 0; i < PMC_RF_LEVEL_MAX_EVENTS && w->ev[i]; i++) {
				all &= resolves(w->ev[i]);
				s->ev[s->n++] = w->ev[i];
			}
			if (!all) /* this model lacks the level's events (an older core): no point for it */
				continue;
			s->level = w->level;
			/* the line of the cache filled: L1D's for L2's bytes, L2's for L3's, the last level's for memory */
			for (int l = w->level - 1; l >= 0 && !s->line; l--)
				s->line = c->line[l];
			off = 0;
			for (size_t i = 0; i < s->n && off < sizeof(s->what); i++)
				off += (size_t)snprintf(s->what + off, sizeof(s->what) - off, "%s%s", i ? " + " : "", s->ev[i]);
			if (off < sizeof(s->what))
				snprintf(s->what + off, sizeof(s->what) - off, " x %u B: %s", s->line, w->meaning);
			s->valid = s->line > 0;
			if (!s->valid)
				snprintf(s->why, sizeof(s->why), "no cache line size in sysfs (cpu0/cache/index*/"
					 "coherency_line_size) for the cache below %s: its fills cannot be turned into bytes",
					 names[w->level]);
			(*ret_n)++;
		}
		return;
	}
}
