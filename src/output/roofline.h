/* SPDX-License-Identifier: MIT */
/* The roofline written out: the ceilings and points as a table, CSV or JSON (output/roofline.c), and the log-log
 * SVG (output/roofline_plot.c). */
#ifndef PMC_OUTPUT_ROOFLINE_H
#define PMC_OUTPUT_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "roofline/roofline.h"

enum pmc_rf_format { PMC_RF_TABLE = 0, PMC_RF_CSV, PMC_RF_JSON };
/* The ceilings (cached: read from the cache, not measured now), then each point. 0 or -EIO. */
int pmc_rf_write(FILE *f, enum pmc_rf_format fmt, const struct pmc_rf_ceilings *c, bool cached,
		 const struct pmc_rf_point *pts, size_t npts);
/* The log-log SVG: every ceiling of the thread count chosen (all_cores) as a roof, the other precision's peak
 * dashed, a legend, the placed points and their labels. 0 or -EIO. */
int pmc_rf_plot_svg(FILE *f, const struct pmc_rf_ceilings *c, bool all_cores, bool dp, const struct pmc_rf_point *pts,
		    size_t npts);
/* v with an SI prefix and 3 significant digits ("12.3 GFLOP/s"), "n/a" when not finite. Returns buf. */
const char *pmc_rf_si(double v, const char *unit, char *buf, size_t len);

#endif
