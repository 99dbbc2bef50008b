/* SPDX-License-Identifier: MIT */
/* SVG and terminal plots. The SVG is plain SVG 1.1 (no script, no external reference): it opens in any browser and
 * renders with rsvg-convert. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "output/plot.h"

bool pmc_plot_wants_log(const struct pmc_plot *p)
{
	double lo = INFINITY, hi = 0;

	if (!p->x || p->n < 3)
		return false;
	for (size_t i = 0; i < p->n; i++) {
		if (!(p->x[i] > 0))
			return false;
		lo = fmin(lo, p->x[i]);
		hi = fmax(hi, p->x[i]);
	}
	return hi / lo >= 32;
}

size_t pmc_plot_ticks(double lo, double hi, double *ticks, size_t max)
{
	double span = hi - lo, step, mag;
	size_t n = 0;

	if (!(span > 0) || !isfinite(span) || max < 2) {
		ticks[0] = lo;
		return 1;
	}
	mag = pow(10, floor(log10(span / (double)(max - 1))));
	step = mag;
	for (int i = 0; i < 3 && span / step > (double)(max - 1); i++)
		step = mag * (i == 0 ? 2 : i == 1 ? 5 : 10);
	for (double t = ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9 && n < max; t += step)
		ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
	return n;
}

static void fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (a >= 1e9)
		snprintf(buf, len, "%.3gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.3gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.3gk", v / 1e3);
	else
		snprintf(buf, len, "%.4g", v);
}

/* The x position of point i in [0, 1]. */
static double xpos(const struct pmc_plot *p, size_t i, bool logx, double lo, double hi)
{
	double v = p->x ? p->x[i] : (double)i;

	if (logx)
		return hi > lo ? (log2(v) - log2(lo)) / (log2(hi) - log2(lo)) : 0.5;
	return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}

struct frame {
	bool logx;
	double xlo, xhi, ylo, yhi;
};

static void frame_of(const struct pmc_plot *p, struct frame *fr)
{
	fr->logx = pmc_plot_wants_log(p);
	fr->xlo = INFINITY;
	fr->xhi = -INFINITY;
	fr->ylo = INFINITY;
	fr->yhi = -INFINITY;
	for (size_t i = 0; i < p->n; i++) {
		double x = p->x ? p->x[i] : (double)i, e = p->err && isfinite(p->err[i]) ? p->err[i] : 0;
		fr->xlo = fmin(fr->xlo, x);
		fr->xhi = fmax(fr->xhi, x);
		if (isfinite(p->y[i])) {
			fr->ylo = fmin(fr->ylo, p->y[i] - e);
			fr->yhi = fmax(fr->yhi, p->y[i] + e);
		}
	}
	if (!isfinite(fr->ylo)) {
		fr->ylo = 0;
		fr->yhi = 1;
	}
	if (fr->ylo > 0 && fr->ylo < fr->yhi * 0.5)
		fr->ylo = 0; /* start at zero unless that squashes the curve */
	if (fr->yhi - fr->ylo <= fabs(fr->yhi) * 1e-9) {
		double pad = fabs(fr->yhi) > 0 ? fabs(fr->yhi) * 0.05 : 1;
		fr->ylo -= pad;
		fr->yhi += pad;
	} else {
		fr->yhi += (fr->yhi - fr->ylo) * 0.05;
	}
}

static double ypos(const struct frame *fr, double y)
{
	return (y - fr->ylo) / (fr->yhi - fr->ylo);
}

static void svg_text(FILE *f, const char *s)
{
	for (size_t n; s && *s; s += n ? n : 1) {
		n = pmc_utf8_seq(s);
		if (!n)
			fputs("\xef\xbf\xbd", f); /* not UTF-8: U+FFFD, as the JSON writers do */
		else if (n > 1)
			fwrite(s, 1, n, f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
}

enum { SW = 760, SH = 440, ML = 90, MR = 30, MT = 50, MB = 70 };

static double sx(double u)
{
	return ML + (0.03 + 0.94 * u) * (SW - ML - MR); /* points clear of the axes */
}

static double sy(double v)
{
	return SH - MB - v * (SH - MT - MB);
}

static void svg_axes(FILE *f, const struct pmc_plot *p, const struct frame *fr)
{
	double ticks[12];
	size_t nt = pmc_plot_ticks(fr->ylo, fr->yhi, ticks, 8);
	char buf[32];

	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", SW, SH);
	fprintf(f, "<text x=\"%d\" y=\"28\" font-size=\"16\" text-anchor=\"middle\" font-weight=\"bold\">", SW / 2);
	svg_text(f, p->title);
	fputs("</text>\n", f);
	for (size_t i = 0; i < nt; i++) {
		double y = sy(ypos(fr, ticks[i]));
		fmt_num(ticks[i], buf, sizeof(buf));
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", ML, y, SW - MR, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%s</text>\n", ML - 6, y + 4, buf);
	}
	for (size_t i = 0; i < p->n; i++) { /* a tick at every point, labelled while they do not crowd */
		double x = sx(xpos(p, i, fr->logx, fr->xlo, fr->xhi));
		size_t every = p->n > 16 ? (p->n + 15) / 16 : 1;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n", x, SH - MB, x, SH - MB + 5);
		if (i % every)
			continue;
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">", x, SH - MB + 19);
		if (p->xtext)
			svg_text(f, p->xtext[i]);
		else {
			fmt_num(p->x[i], buf, sizeof(buf));
			svg_text(f, buf);
		}
		fputs("</text>\n", f);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, SH - MB, SW - MR, SH - MB);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, MT, ML, SH - MB);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">", (ML + SW - MR) / 2, SH - 22);
	svg_text(f, p->xlabel);
	if (fr->logx)
		fputs(" (log scale)", f);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"18\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">",
		(MT + SH - MB) / 2, (MT + SH - MB) / 2);
	svg_text(f, p->ylabel);
	fputs("</text>\n", f);
}

int pmc_plot_svg(FILE *f, const struct pmc_plot *p)
{
	struct frame fr;
	bool pen = false;

	frame_of(p, &fr);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n<title>", SW, SH, SW, SH);
	svg_text(f, p->title);
	fputs("</title>\n", f);
	svg_axes(f, p, &fr);
	if (p->err)
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">error bars: "
			   "\xc2\xb1 one standard deviation</text>\n", SW - MR, SH - 6);
	fputs("<path class=\"curve\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" d=\"", f);
	for (size_t i = 0; i < p->n; i++) {
		if (!isfinite(p->y[i])) {
			pen = false;
			continue;
		}
		fprintf(f, "%c%.1f %.1f ", pen ? 'L' : 'M', sx(xpos(p, i, fr.logx, fr.xlo, fr.xhi)), sy(ypos(&fr, p->y[i])));
		pen = true;
	}
	fputs("\"/>\n", f);
	for (size_t k = 0; k < p->nsteps; k++) {
		size_t i = p->steps[k];
		double x = (sx(xpos(p, i, fr.logx, fr.xlo, fr.xhi)) + sx(xpos(p, i + 1, fr.logx, fr.xlo, fr.xhi))) / 2;
		char a[32], b[32];
		fmt_num(p->y[i], a, sizeof(a));
		fmt_num(p->y[i + 1], b, sizeof(b));
		fprintf(f, "<line class=\"step\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d62728\" "
			   "stroke-dasharray=\"5,4\"/>\n", x, MT, x, SH - MB);
		fprintf(f, "<text class=\"step-label\" x=\"%.1f\" y=\"%d\" font-size=\"12\" fill=\"#d62728\" "
			   "text-anchor=\"%s\">step %s \xe2\x86\x92 %s (%.0f\xc3\x97 noise)</text>\n", x + (x > SW / 2 ? -4 : 4),
			MT + 14 + (int)k * 15, x > SW / 2 ? "end" : "start", a, b, p->step_score ? p->step_score[k] : 0);
	}
	for (size_t i = 0; i < p->n; i++) {
		double x = sx(xpos(p, i, fr.logx, fr.xlo, fr.xhi));
		char xs[40];

		if (p->xtext)
			snprintf(xs, sizeof(xs), "%s", p->xtext[i]);
		else
			pmc_format_shortest(p->x[i], xs, sizeof(xs));
		if (!isfinite(p->y[i])) {
			fprintf(f, "<text class=\"missing\" x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" "
				   "fill=\"#888\">n/a</text>\n", x, SH - MB - 6);
			continue;
		}
		if (p->err && isfinite(p->err[i]) && p->err[i] > 0) {
			double y1 = sy(ypos(&fr, p->y[i] - p->err[i])), y2 = sy(ypos(&fr, p->y[i] + p->err[i]));
			fprintf(f, "<path class=\"errbar\" stroke=\"#333\" fill=\"none\" d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f "
				   "%.1fM%.1f %.1fL%.1f %.1f\"/>\n", x, y1, x, y2, x - 4, y1, x + 4, y1, x - 4, y2, x + 4, y2);
		}
		fprintf(f, "<circle class=\"point\" data-x=\"");
		svg_text(f, xs);
		fprintf(f, "\" data-y=\"%.17g\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"/>\n", p->y[i], x,
			sy(ypos(&fr, p->y[i])));
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* s in at most cols columns (one per UTF-8 character), "..." where it is cut. */
static void put_cols(FILE *f, const char *s, int cols)
{
	int n = 0;
	const char *p;

	for (p = s; *p; p++)
		n += ((unsigned char)*p & 0xc0) != 0x80;
	if (n <= cols) {
		fputs(s, f);
		return;
	}
	for (p = s, n = 0; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && ++n > cols - 3)
			break;
		fputc(*p, f);
	}
	fputs("...", f);
}

/* The terminal plot: a grid of cells, each one UTF-8 glyph. */
int pmc_plot_term(FILE *f, const struct pmc_plot *p, int width, int height)
{
	enum { LABEL = 9 };
	struct frame fr;
	int w = (width < 40 ? 40 : width) - LABEL - 2, h = height < 5 ? 5 : height;
	const char **cell = calloc((size_t)w * (size_t)h, sizeof(*cell));
	double ticks[8];
	size_t nt;
	char buf[32];

	if (!cell)
		return -ENOMEM;
	frame_of(p, &fr);
	for (size_t i = 0; i < p->n; i++) {
		int c = (int)lround(xpos(p, i, fr.logx, fr.xlo, fr.xhi) * (w - 1)), r;
		if (!isfinite(p->y[i]))
			continue;
		if (p->err && isfinite(p->err[i]) && p->err[i] > 0) {
			int r1 = (int)lround(ypos(&fr, p->y[i] - p->err[i]) * (h - 1));
			int r2 = (int)lround(ypos(&fr, p->y[i] + p->err[i]) * (h - 1));
			for (int k = r1 < 0 ? 0 : r1; k <= r2 && k < h; k++)
				cell[(size_t)(h - 1 - k) * (size_t)w + (size_t)c] = "\xe2\x94\x82"; /* │ */
		}
		r = (int)lround(ypos(&fr, p->y[i]) * (h - 1));
		if (r >= 0 && r < h)
			cell[(size_t)(h - 1 - r) * (size_t)w + (size_t)c] = "\xe2\x97\x8f"; /* ● */
	}
	for (size_t k = 0; k < p->nsteps; k++) { /* a dotted column between the two points of a step */
		int c1 = (int)lround(xpos(p, p->steps[k], fr.logx, fr.xlo, fr.xhi) * (w - 1));
		int c2 = (int)lround(xpos(p, p->steps[k] + 1, fr.logx, fr.xlo, fr.xhi) * (w - 1)), c = (c1 + c2) / 2;
		for (int r = 0; r < h && c != c1 && c != c2; r++)
			if (!cell[(size_t)r * (size_t)w + (size_t)c])
				cell[(size_t)r * (size_t)w + (size_t)c] = "\xe2\x94\x86"; /* ┆ */
	}
	fputc(' ', f);
	put_cols(f, p->title ? p->title : "", width - 1);
	fputs("\n ", f);
	put_cols(f, p->ylabel ? p->ylabel : "", width - 1);
	fputc('\n', f);
	nt = pmc_plot_ticks(fr.ylo, fr.yhi, ticks, h / 3 + 2 > 8 ? 8 : (size_t)(h / 3 + 2));
	for (int r = 0; r < h; r++) {
		const char *label = "";
		for (size_t t = 0; t < nt; t++)
			if ((int)lround(ypos(&fr, ticks[t]) * (h - 1)) == h - 1 - r) {
				fmt_num(ticks[t], buf, sizeof(buf));
				label = buf;
			}
		fprintf(f, "%*s %s", LABEL, label, *label ? "\xe2\x94\xa4" : "\xe2\x94\x82"); /* ┤ │ */
		for (int c = 0; c < w; c++)
			fputs(cell[(size_t)r * (size_t)w + (size_t)c] ? cell[(size_t)r * (size_t)w + (size_t)c] : " ", f);
		fputc('\n', f);
		label = "";
	}
	fprintf(f, "%*s \xe2\x94\x94", LABEL, ""); /* └ */
	for (int c = 0; c < w; c++)
		fputs("\xe2\x94\x80", f); /* ─ */
	fputc('\n', f);
	{ /* x labels: first, middle and last point, where they fit */
		char line[512];
		int len = w + LABEL + 2;
		size_t pick[3] = { 0, p->n / 2, p->n ? p->n - 1 : 0 };
		memset(line, ' ', sizeof(line));
		for (int k = 0; k < 3 && p->n; k++) {
			size_t i = pick[k];
			int c = LABEL + 2 + (int)lround(xpos(p, i, fr.logx, fr.xlo, fr.xhi) * (w - 1)), l;
			if (p->xtext)
				snprintf(buf, sizeof(buf), "%s", p->xtext[i]);
			else
				fmt_num(p->x[i], buf, sizeof(buf));
			l = (int)strlen(buf);
			c -= k == 0 ? 0 : k == 2 ? l - 1 : l / 2;
			if (c < 0)
				c = 0;
			if (c + l <= len)
				memcpy(line + c, buf, (size_t)l);
		}
		while (len > 0 && line[len - 1] == ' ')
			len--;
		fprintf(f, "%.*s\n", len, line);
	}
	fprintf(f, "%*s", LABEL + 2, "");
	put_cols(f, p->xlabel ? p->xlabel : "", width - LABEL - 16);
	fprintf(f, "%s\n", fr.logx ? " (log scale)" : "");
	free(cell);
	return ferror(f) ? -EIO : 0;
}
