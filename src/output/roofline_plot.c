/* SPDX-License-Identifier: MIT */
/* The log-log roofline as a standalone SVG: operational intensity (FLOP/byte) across, FLOP/s up; each bandwidth
 * ceiling a diagonal up to the highest compute roof, each compute ceiling a horizontal line, every one labelled with
 * its value; the points in the colour of the level their bytes come from, with their labels (an -I run's
 * intervals joined in time order). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/roofline.h"

#define W 860.0
#define H 580.0
#define ML 96.0
#define MR 40.0
#define MT 56.0
#define MB 64.0

struct frame {
	double x0, x1, y0, y1; /* log10 of the axis ranges */
};

static double px(const struct frame *fr, double x)
{
	return ML + (log10(x) - fr->x0) / (fr->x1 - fr->x0) * (W - ML - MR);
}

static double py(const struct frame *fr, double y)
{
	return H - MB - (log10(y) - fr->y0) / (fr->y1 - fr->y0) * (H - MT - MB);
}

static void text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

static bool wanted(const struct pmc_rf_ceiling *c, bool all_cores)
{
	return c->valid && (all_cores ? c->threads > 1 : c->threads == 1);
}

/* Row i of the legend in the lower right corner: a sample of the line, then the ceiling and its roof. */
static void legend(FILE *f, size_t i, size_t n, const char *col, const struct pmc_rf_ceiling *x, bool solid)
{
	char buf[48];
	double y = H - MB - 14 - 18 * (double)(n - 1 - i), x0 = W - MR - 250;

	fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
		x0, y - 4, x0 + 24, y - 4, col, solid ? "" : " stroke-dasharray=\"6 4\"");
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", x0 + 30, y);
	text(f, x->name);
	fprintf(f, ": %s</text>\n",
		pmc_rf_si(pmc_rf_ceiling_roof(x), x->kind == PMC_RF_COMPUTE ? "FLOP/s" : "B/s", buf, sizeof(buf)));
}

/* A label's box: labels of points at the same FLOP rate (one measurement's levels) would overwrite each other. */
struct box {
	double x0, x1, y;
};
#define MAX_LABELS 256

static bool box_free(const struct box *b, size_t n, double x, double y, double w)
{
	for (size_t i = 0; i < n; i++)
		if (fabs(b[i].y - y) < 14 && x < b[i].x1 && b[i].x0 < x + w)
			return false;
	return true;
}

/* Where a label of width w for the point at (x, y) overlaps no label, point or legend row placed before, inside the
 * frame: right of the point, else left of it, on its row, else the nearest free row above or below. *ret_x and the
 * baseline returned; the spot is recorded. */
static double free_spot(struct box *b, size_t *n, double x, double y, double w, double *ret_x)
{
	double bx = x + 8, by = y + 4;

	for (int k = 0; k < 24; k++) {
		double dy = (double)((k + 1) / 2) * 15 * (k % 2 ? -1 : 1);
		bool found = false;

		for (int side = 0; side < 2 && !found; side++) {
			double tx = side ? x - 8 - w : x + 8, ty = y + 4 + dy;

			if (tx < ML + 2 || tx + w > W - MR - 2 || ty < MT + 12 || ty > H - MB - 4 || !box_free(b, *n, tx, ty, w))
				continue;
			bx = tx;
			by = ty;
			found = true;
		}
		if (found)
			break;
	}
	if (*n < MAX_LABELS)
		b[(*n)++] = (struct box){ bx, bx + w, by };
	*ret_x = bx;
	return by;
}

static const char *const colours[] = { "#1f77b4", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd", "#8c564b" };

int pmc_rf_plot_svg(FILE *f, const struct pmc_rf_ceilings *c, bool all_cores, bool dp, const struct pmc_rf_point *pts,
		    size_t npts)
{
	struct frame fr = { -2, 2, 0, 0 };
	double peak_hi = 0, ylo = INFINITY, yhi = 0;
	static const char *const level_name[PMC_RF_NLEVELS] = { "L1", "L2", "L3", "memory" };
	const char *level_col[PMC_RF_NLEVELS] = { NULL };
	static struct box boxes[MAX_LABELS];
	size_t nboxes = 0;
	char buf[64];
	size_t ci = 0, nleg = 0, nwanted = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct pmc_rf_ceiling *x = &c->c[i];

		if (!wanted(x, all_cores))
			continue;
		nwanted++;
		if (x->kind == PMC_RF_COMPUTE) {
			if (x->dp == dp)
				peak_hi = fmax(peak_hi, pmc_rf_ceiling_roof(x));
			yhi = fmax(yhi, pmc_rf_ceiling_roof(x));
			ylo = fmin(ylo, pmc_rf_ceiling_roof(x));
		} else {
			ylo = fmin(ylo, pmc_rf_ceiling_roof(x) * pow(10, fr.x0));
		}
	}
	for (size_t i = 0; i < npts; i++)
		if (pts[i].placed) {
			fr.x0 = fmin(fr.x0, floor(log10(pts[i].intensity)));
			fr.x1 = fmax(fr.x1, ceil(log10(pts[i].intensity)));
			ylo = fmin(ylo, pts[i].flop_rate);
			yhi = fmax(yhi, pts[i].flop_rate);
		}
	if (!(yhi > 0) || !isfinite(ylo)) {
		ylo = 1e6;
		yhi = 1e12;
	}
	fr.y0 = floor(log10(ylo));
	fr.y1 = ceil(log10(yhi * 2));
	if (fr.y1 - fr.y0 < 2)
		fr.y0 = fr.y1 - 2;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" text-anchor=\"middle\">Roofline: ", W / 2);
	text(f, all_cores ? "all cores" : "one core");
	fprintf(f, " (ceilings measured with pmctool's kernels)</text>\n<text x=\"%.0f\" y=\"42\" "
		   "text-anchor=\"middle\" fill=\"#555\">", W / 2);
	text(f, c->machine);
	fprintf(f, "</text>\n");
	/* Decade grid and tick labels. */
	for (double e = fr.x0; e <= fr.x1 + 1e-9; e++) {
		double x = px(&fr, pow(10, e));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", x, MT, x, H - MB);
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%g</text>\n", x, H - MB + 18, pow(10, e));
	}
	for (double e = fr.y0; e <= fr.y1 + 1e-9; e++) {
		double y = py(&fr, pow(10, e));
		fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ML, y, W - MR, y);
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", ML - 6, y + 4,
			pmc_rf_si(pow(10, e), "", buf, sizeof(buf)));
	}
	fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n", ML,
		MT, W - ML - MR, H - MT - MB);
	fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">operational intensity (FLOP/byte)</text>\n",
		(ML + W - MR) / 2, H - 18);
	fprintf(f, "<text transform=\"translate(22 %.0f) rotate(-90)\" text-anchor=\"middle\">FLOP/s</text>\n",
		(MT + H - MB) / 2);
	/* Ceilings. */
	for (size_t i = 0; i < c->n; i++) {
		const struct pmc_rf_ceiling *x = &c->c[i];
		const char *col;

		if (!wanted(x, all_cores))
			continue;
		col = colours[ci++ % (sizeof(colours) / sizeof(colours[0]))];
		if (x->kind == PMC_RF_COMPUTE) {
			double y = py(&fr, pmc_rf_ceiling_roof(x));
			/* The other precision's peak is drawn dashed: the diagonals end at this precision's. */
			fprintf(f, "<line class=\"ceiling\" x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-width=\"2\"%s/>\n", ML, y, W - MR, y, col,
				x->dp == dp ? "" : " stroke-dasharray=\"6 4\"");
		} else {
			if (x->level >= 0 && x->level < PMC_RF_NLEVELS)
				level_col[x->level] = col;
			/* From the left edge up to where it meets the highest compute roof (or the right edge). */
			double xa = pow(10, fr.x0), xb = peak_hi > 0 ? peak_hi / pmc_rf_ceiling_roof(x) : pow(10, fr.x1);
			double ya = pmc_rf_ceiling_roof(x) * xa;

			xb = fmin(xb, pow(10, fr.x1));
			if (ya < pow(10, fr.y0)) {
				xa = pow(10, fr.y0) / pmc_rf_ceiling_roof(x);
				ya = pow(10, fr.y0);
			}
			if (xa >= xb)
				continue;
			fprintf(f, "<line class=\"ceiling\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-width=\"2\"/>\n", px(&fr, xa), py(&fr, ya), px(&fr, xb), py(&fr, pmc_rf_ceiling_roof(x) * xb),
				col);
		}
		legend(f, nleg++, nwanted, col, x, x->dp == dp || x->kind != PMC_RF_COMPUTE);
	}
	/* Points, in the colour of their level's bandwidth ceiling: the program's and the regions' labelled; the -I
	 * intervals of a level joined in time order by a thin line, only the first and the last labelled. */
	for (size_t i = 0; i < nwanted && nboxes < MAX_LABELS; i++) /* and off the legend's rows */
		boxes[nboxes++] = (struct box){ W - MR - 252, W - MR, H - MB - 14 - 18 * (double)(nwanted - 1 - i) };
	for (size_t i = 0; i < npts && nboxes < MAX_LABELS; i++) /* labels keep off every point's marker */
		if (pts[i].placed)
			boxes[nboxes++] = (struct box){ px(&fr, pts[i].intensity) - 6, px(&fr, pts[i].intensity) + 6,
							py(&fr, pts[i].flop_rate) + 4 };
	for (int lv = 0; lv < PMC_RF_NLEVELS; lv++) {
		const char *col = level_col[lv] ? level_col[lv] : "black";
		size_t first = npts, last = npts, k = 0;

		for (size_t i = 0; i < npts; i++)
			if (pts[i].placed && pts[i].interval && pts[i].bytes_level == lv) {
				first = first == npts ? i : first;
				last = i;
			}
		if (first != last) {
			fprintf(f, "<polyline class=\"intervals\" fill=\"none\" stroke=\"%s\" stroke-width=\"1\" "
				   "stroke-opacity=\"0.6\" points=\"", col);
			for (size_t i = first; i <= last; i++)
				if (pts[i].placed && pts[i].interval && pts[i].bytes_level == lv)
					fprintf(f, "%s%.1f,%.1f", k++ ? " " : "", px(&fr, pts[i].intensity),
						py(&fr, pts[i].flop_rate));
			fprintf(f, "\"/>\n");
		}
		for (size_t i = 0; i < npts; i++) {
			const struct pmc_rf_point *p = &pts[i];

			if (!p->placed || p->bytes_level != lv)
				continue;
			fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\" stroke=\"black\" "
				   "data-x=\"%g\" data-y=\"%g\" data-level=\"%s\"/>\n", px(&fr, p->intensity),
				py(&fr, p->flop_rate), p->interval ? 3 : 5, col, p->intensity, p->flop_rate, level_name[lv]);
			if (p->interval && i != first && i != last)
				continue;
			char lab[160];
			double lx = px(&fr, p->intensity) + 8, ly = py(&fr, p->flop_rate) + 4;
			snprintf(lab, sizeof(lab), "%s %s (%.0f%% of roof)", p->label, level_name[lv], 100 * p->fraction);
			double w = 6.6 * (double)strlen(lab);
			ly = free_spot(boxes, &nboxes, px(&fr, p->intensity), py(&fr, p->flop_rate), w, &lx);
			if (fabs(ly - (py(&fr, p->flop_rate) + 4)) > 1) /* moved off its row: a leader to its point */
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
					px(&fr, p->intensity), py(&fr, p->flop_rate),
					lx > px(&fr, p->intensity) ? lx - 2 : lx + w + 2, ly - 4, col);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", lx, ly);
			text(f, lab);
			fprintf(f, "</text>\n");
		}
	}
	fprintf(f, "</svg>\n");
	return ferror(f) ? -EIO : 0;
}
