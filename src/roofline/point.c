/* SPDX-License-Identifier: MIT */
/* A point under the roofline: its rates and operational intensity, the lowest roof above it, and how far below that
 * roof it is. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "roofline/roofline.h"

double pmc_rf_ceiling_roof(const struct pmc_rf_ceiling *c)
{
	return c->max;
}

double pmc_rf_roof(double peak, double bw, double intensity)
{
	double mem = bw * intensity;

	return mem < peak ? mem : peak;
}

static bool threads_match(const struct pmc_rf_ceiling *c, bool all_cores)
{
	return all_cores ? c->threads > 1 || c->threads == 0 : c->threads == 1;
}

/* The valid ceiling of a kind (compute: precision dp; bandwidth: level) for the thread count, or -1. When one CPU is
 * all there is, the one-core ceiling stands for all cores too. */
static int find(const struct pmc_rf_ceilings *c, enum pmc_rf_kind kind, int level, bool dp, bool all_cores)
{
	int one = -1;

	for (size_t i = 0; i < c->n; i++) {
		const struct pmc_rf_ceiling *x = &c->c[i];

		if (!x->valid || x->kind != kind || (kind == PMC_RF_COMPUTE ? x->dp != dp : x->level != level))
			continue;
		if (threads_match(x, all_cores))
			return (int)i;
		if (x->threads == 1)
			one = (int)i;
	}
	return all_cores ? -1 : one;
}

void pmc_rf_point_place(struct pmc_rf_point *p, const struct pmc_rf_ceilings *c, bool all_cores, bool dp)
{
	int peak, bw;
	double roof_peak, roof_bw;
	static const char *const levels[PMC_RF_NLEVELS] = { "L1", "L2", "L3", "memory" };
	int level = p->bytes_level >= 0 && p->bytes_level < PMC_RF_NLEVELS ? p->bytes_level : PMC_RF_MEM;

	p->placed = false;
	p->bound = -1;
	p->flop_rate = p->bandwidth = p->intensity = p->attainable = p->fraction = NAN;
	p->memory_bound = false;
	if (!(p->seconds > 0)) {
		snprintf(p->why, sizeof(p->why), "no wall time measured");
		return;
	}
	if (p->flops_valid)
		p->flop_rate = p->flops / p->seconds;
	if (p->bytes_valid)
		p->bandwidth = p->bytes / p->seconds;
	if (!p->flops_valid || !p->bytes_valid) {
		snprintf(p->why, sizeof(p->why), "%s", !p->flops_valid ? p->flops_why : p->bytes_why);
		return;
	}
	if (!(p->bytes > 0)) {
		snprintf(p->why, sizeof(p->why), "no bytes counted: the intensity is unbounded");
		return;
	}
	p->intensity = p->flops / p->bytes;
	peak = find(c, PMC_RF_COMPUTE, -1, dp, all_cores);
	bw = find(c, PMC_RF_BANDWIDTH, level, dp, all_cores);
	if (peak < 0 || bw < 0) {
		snprintf(p->why, sizeof(p->why), "no measured %s ceiling (%s) to place it under",
			 peak < 0 ? (dp ? "DP peak" : "SP peak") : levels[level], all_cores ? "all cores" : "one core");
		return;
	}
	roof_peak = pmc_rf_ceiling_roof(&c->c[peak]);
	roof_bw = pmc_rf_ceiling_roof(&c->c[bw]);
	p->attainable = pmc_rf_roof(roof_peak, roof_bw, p->intensity);
	p->memory_bound = roof_bw * p->intensity < roof_peak;
	p->bound = p->memory_bound ? bw : peak;
	p->fraction = p->flop_rate / p->attainable;
	p->placed = true;
	p->why[0] = '\0';
}
