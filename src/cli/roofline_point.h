/* SPDX-License-Identifier: MIT */
/* The program's point(s) for pmctool roofline: the command run once under the engine with the vendor's FLOP events
 * (and the memory controllers' byte events where the machine has them), turned into roofline points. */
#ifndef PMC_CLI_ROOFLINE_POINT_H
#define PMC_CLI_ROOFLINE_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "roofline/roofline.h"

struct pmc_engine_ctx;

/* The environment's text the ceilings' fingerprint is made from: CPU, CPUID, microcode, kernel, arch, pmctool. */
void pmc_roofline_env_text(char *buf, size_t len);

/* The FLOP events of this CPU for a precision, as an event list with the weight of each (FLOPs per count), or why
 * there are none (*ret_n 0, why filled). */
#define PMC_RF_MAX_FLOP_EVENTS 8
struct pmc_rf_flop_event {
	const char *name;
	double weight;
};
void pmc_roofline_flop_events(bool dp, struct pmc_rf_flop_event *ret, size_t *ret_n, char *why, size_t whylen);

/* Run argv and make its points: per region (regions), per interval of interval_ms (0: none), then the whole
 * program; each of them one point per level whose bytes are counted (L2, L3 from core events where the PMU has
 * them, memory always, n/a with why where not counted): *ret (malloc'd), *ret_n. 0, or the exit status after a
 * message (nothing could be run, or the command failed: the points are still given). */
int pmc_roofline_points(struct pmc_engine_ctx *ctx, char **argv, bool regions, uint64_t interval_ms, bool dp,
			struct pmc_rf_point **ret, size_t *ret_n);

#endif
