/* SPDX-License-Identifier: MIT */
/* Plots of one measured quantity against a parameter (a sweep) or a rank (a merge): a standalone SVG with axes,
 * units, error bars and the steps annotated, and a Unicode plot for an 80-column terminal. */
#ifndef PMC_OUTPUT_PLOT_H
#define PMC_OUTPUT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pmc_plot {
	const char *title;
	const char *xlabel;
	const char *ylabel;           /* with its unit: "instructions per iteration", "wall time (ns)" */
	size_t n;
	const double *x;              /* NULL: the points are categories 0..n-1 named by xtext */
	const double *y;              /* NAN: not measured (drawn as a gap, labelled) */
	const double *err;            /* half-height of each error bar (standard deviation), or NULL */
	const char *const *xtext;     /* the x values as written, or NULL */
	const size_t *steps;          /* step i lies between points i and i + 1 */
	const double *step_score;
	size_t nsteps;
};

/* Whether x spans a factor of 32 or more with every value positive: then plotted on a log2 axis. */
bool pmc_plot_wants_log(const struct pmc_plot *p);

/* A complete SVG document. Each point is a <circle class="point"> with data-x and data-y. 0 or -EIO. */
int pmc_plot_svg(FILE *f, const struct pmc_plot *p);

/* The plot in Unicode, at most width columns (>= 40) and height rows of plot area. 0 or -EIO. */
int pmc_plot_term(FILE *f, const struct pmc_plot *p, int width, int height);

/* Tick values for [lo, hi]: at most max of them, at 1, 2 or 5 times a power of ten. The count. */
size_t pmc_plot_ticks(double lo, double hi, double *ticks, size_t max);

#endif
