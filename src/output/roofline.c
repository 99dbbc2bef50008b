/* SPDX-License-Identifier: MIT */
/* The roofline as text: the ceilings with their spread, then each point (rates, intensity, bound, distance) or why
 * it is not placed; the same in CSV and JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "output/output.h"
#include "output/roofline.h"
#include "util/json_write.h"

static const char *scope(const struct pmc_rf_ceiling *c, char *buf, size_t len)
{
	if (c->threads == 1)
		snprintf(buf, len, "1 core");
	else
		snprintf(buf, len, "%u cores", c->threads);
	return buf;
}

const char *pmc_rf_si(double v, const char *unit, char *buf, size_t len)
{
	static const char *const pre[] = { "", "k", "M", "G", "T", "P" };
	int i = 0;

	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	while (fabs(v) >= 1000 && i < 5) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g %s%s", v, pre[i], unit);
	return buf;
}

static const char *const level_names[PMC_RF_NLEVELS] = { "L1", "L2", "L3", "memory" };

static const char *level_of(const struct pmc_rf_point *p)
{
	return p->bytes_level >= 0 && p->bytes_level < PMC_RF_NLEVELS ? level_names[p->bytes_level] : "memory";
}

static const char *unit_of(const struct pmc_rf_ceiling *c)
{
	return c->kind == PMC_RF_COMPUTE ? "FLOP/s" : "B/s";
}

static void table(FILE *f, const struct pmc_rf_ceilings *c, bool cached, const struct pmc_rf_point *pts, size_t n)
{
	char a[32], b[32], d[32], m[32], s[32], when[32];
	time_t t = (time_t)c->measured_at;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(when, sizeof(when), "?");
	fprintf(f, "Ceilings (%s %s; machine %s)\n", cached ? "cached, measured" : "measured", when, c->fingerprint);
	fprintf(f, "  %-18s %-9s %13s %10s  %-22s %s\n", "ceiling", "scope", "roof (best)", "median", "min..max (runs)",
		"kernel");
	for (size_t i = 0; i < c->n; i++) {
		const struct pmc_rf_ceiling *x = &c->c[i];

		if (!x->valid) {
			fprintf(f, "  %-18s %-9s %13s  not measured: %s\n", x->name, scope(x, s, sizeof(s)), "n/a",
				x->reason);
			continue;
		}
		fprintf(f, "  %-18s %-9s %13s %10s  %8s..%-8s (%u)  %s\n", x->name, scope(x, s, sizeof(s)),
			pmc_rf_si(pmc_rf_ceiling_roof(x), unit_of(x), a, sizeof(a)), pmc_rf_si(x->median, "", m, sizeof(m)),
			pmc_rf_si(x->min, "", b, sizeof(b)), pmc_rf_si(x->max, "", d, sizeof(d)), x->repeats, x->kernel);
	}
	for (size_t i = 0; i < n; i++) {
		const struct pmc_rf_point *p = &pts[i];

		if (p->interval)
			fprintf(f, "\nPoint '%s' %s (%.6g s from %.6g s)\n", p->label, level_of(p), p->seconds, p->start_s);
		else
			fprintf(f, "\nPoint '%s' %s (%.6g s)\n", p->label, level_of(p), p->seconds);
		fprintf(f, "  FLOP rate      %s\n", p->flops_valid ? pmc_rf_si(p->flop_rate, "FLOP/s", a, sizeof(a)) : "n/a");
		if (!p->flops_valid)
			fprintf(f, "    not measured: %s\n", p->flops_why);
		if (p->bytes_source[0])
			fprintf(f, "  bytes from     %s: %s\n", level_of(p), p->bytes_source);
		fprintf(f, "  bandwidth      %s\n", p->bytes_valid ? pmc_rf_si(p->bandwidth, "B/s", a, sizeof(a)) : "n/a");
		if (!p->bytes_valid)
			fprintf(f, "    not measured: %s\n", p->bytes_why);
		if (!p->placed) {
			fprintf(f, "  intensity      n/a (%s)\n", p->why);
			continue;
		}
		fprintf(f, "  intensity      %.4g FLOP/byte\n", p->intensity);
		fprintf(f, "  bound          %s (%s)\n", p->memory_bound ? level_of(p) : "compute", c->c[p->bound].name);
		fprintf(f, "  attainable     %s: %.1f%% reached (%.2fx below the roof)\n",
			pmc_rf_si(p->attainable, "FLOP/s", a, sizeof(a)), 100 * p->fraction, 1 / p->fraction);
	}
}

static void csv_num(FILE *f, bool valid, double v)
{
	if (valid && isfinite(v))
		fprintf(f, ",%.6g", v);
	else
		fprintf(f, ",");
}

static void csv_text(FILE *f, const char *s)
{
	fputc(',', f);
	pmc_csv_field(f, s);
}

static void csv(FILE *f, const struct pmc_rf_ceilings *c, const struct pmc_rf_point *pts, size_t n)
{
	fprintf(f, "record,name,scope_threads,roof,median,min,max,repeats,unit,kernel,note\n");
	for (size_t i = 0; i < c->n; i++) {
		const struct pmc_rf_ceiling *x = &c->c[i];

		fprintf(f, "ceiling");
		csv_text(f, x->name);
		fprintf(f, ",%u", x->threads);
		csv_num(f, x->valid, pmc_rf_ceiling_roof(x));
		csv_num(f, x->valid, x->median);
		csv_num(f, x->valid, x->min);
		csv_num(f, x->valid, x->max);
		fprintf(f, ",%u,%s", x->repeats, unit_of(x));
		csv_text(f, x->kernel);
		csv_text(f, x->valid ? "" : x->reason);
		fputc('\n', f);
	}
	fprintf(f, "\npoint,level,interval,start_s,seconds,flops,bytes,flop_rate,bandwidth,intensity,bound,attainable,"
		   "fraction,note,bytes_source\n");
	for (size_t i = 0; i < n; i++) {
		const struct pmc_rf_point *p = &pts[i];

		pmc_csv_field(f, p->label);
		fprintf(f, ",%s", level_of(p));
		if (p->interval)
			fprintf(f, ",%u,%.6g", p->interval, p->start_s);
		else
			fprintf(f, ",,");
		fprintf(f, ",%.6g", p->seconds);
		csv_num(f, p->flops_valid, p->flops);
		csv_num(f, p->bytes_valid, p->bytes);
		csv_num(f, p->flops_valid, p->flop_rate);
		csv_num(f, p->bytes_valid, p->bandwidth);
		csv_num(f, p->placed, p->intensity);
		csv_text(f, p->placed ? c->c[p->bound].name : "");
		csv_num(f, p->placed, p->attainable);
		csv_num(f, p->placed, p->fraction);
		csv_text(f, p->placed ? "" : p->why);
		csv_text(f, p->bytes_source);
		fputc('\n', f);
	}
}

/* v under key in full precision, or null when not valid. */
static void json_num(struct pmc_jw *w, const char *key, bool valid, double v)
{
	pmc_jw_kprec(w, key, 17, valid ? v : NAN);
}

static void json_ceiling(struct pmc_jw *w, const struct pmc_rf_ceiling *x)
{
	pmc_jw_break(w, "\n    ");
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "name", x->name);
	pmc_jw_kstr(w, "kind", x->kind == PMC_RF_COMPUTE ? "compute" : "bandwidth");
	if (x->kind == PMC_RF_COMPUTE) {
		pmc_jw_knull(w, "level");
		pmc_jw_kstr(w, "precision", x->dp ? "dp" : "sp");
	} else {
		pmc_jw_kstr(w, "level", (const char *[]){ "L1", "L2", "L3", "memory" }[x->level]);
		pmc_jw_knull(w, "precision");
	}
	pmc_jw_kuint(w, "threads", x->threads);
	pmc_jw_kstr(w, "unit", unit_of(x));
	pmc_jw_kstr(w, "kernel", x->kernel);
	pmc_jw_kuint(w, "footprint", x->footprint);
	pmc_jw_kuint(w, "repeats", x->repeats);
	json_num(w, "roof", x->valid, pmc_rf_ceiling_roof(x));
	json_num(w, "median", x->valid, x->median);
	json_num(w, "min", x->valid, x->min);
	json_num(w, "max", x->valid, x->max);
	pmc_jw_kstr_or_null(w, "reason", x->valid ? NULL : x->reason);
	pmc_jw_object_end(w);
}

static void json_point(struct pmc_jw *w, const struct pmc_rf_ceilings *c, const struct pmc_rf_point *p)
{
	pmc_jw_break(w, "\n    ");
	pmc_jw_object_begin(w);
	pmc_jw_kstr(w, "label", p->label);
	pmc_jw_kstr(w, "level", level_of(p));
	if (p->interval)
		pmc_jw_kuint(w, "interval", p->interval);
	else
		pmc_jw_knull(w, "interval");
	json_num(w, "start_s", p->interval != 0, p->start_s);
	json_num(w, "seconds", true, p->seconds);
	json_num(w, "flops", p->flops_valid, p->flops);
	pmc_jw_kstr_or_null(w, "flops_reason", p->flops_valid ? NULL : p->flops_why);
	json_num(w, "bytes", p->bytes_valid, p->bytes);
	pmc_jw_kstr_or_null(w, "bytes_reason", p->bytes_valid ? NULL : p->bytes_why);
	pmc_jw_kstr_or_null(w, "bytes_source", p->bytes_source[0] ? p->bytes_source : NULL);
	json_num(w, "flop_rate", p->flops_valid, p->flop_rate);
	json_num(w, "bandwidth", p->bytes_valid, p->bandwidth);
	json_num(w, "intensity", p->placed, p->intensity);
	pmc_jw_kstr_or_null(w, "bound", p->placed ? (p->memory_bound ? level_of(p) : "compute") : NULL);
	pmc_jw_kstr_or_null(w, "bound_ceiling", p->placed ? c->c[p->bound].name : NULL);
	json_num(w, "attainable", p->placed, p->attainable);
	json_num(w, "fraction", p->placed, p->fraction);
	pmc_jw_kstr_or_null(w, "reason", p->placed ? NULL : p->why);
	pmc_jw_object_end(w);
}

/* Two-space indented at the top, one line per ceiling and point (the layout roofline has always written). */
static void json(FILE *f, const struct pmc_rf_ceilings *c, bool cached, const struct pmc_rf_point *pts, size_t n)
{
	struct pmc_jw jw, *w = &jw;

	pmc_jw_init(w, f, PMC_JW_SPACED);
	pmc_jw_object_begin(w);
	pmc_jw_break(w, "\n  ");
	pmc_jw_kstr(w, "fingerprint", c->fingerprint);
	pmc_jw_break(w, "\n  ");
	pmc_jw_kstr(w, "machine", c->machine);
	pmc_jw_break(w, "\n  ");
	pmc_jw_kint(w, "measured_at", c->measured_at);
	pmc_jw_break(w, "\n  ");
	pmc_jw_kbool(w, "cached", cached);
	pmc_jw_break(w, "\n  ");
	pmc_jw_karray_begin(w, "ceilings");
	for (size_t i = 0; i < c->n; i++)
		json_ceiling(w, &c->c[i]);
	pmc_jw_break(w, "\n  ");
	pmc_jw_array_end(w);
	pmc_jw_break(w, "\n  ");
	pmc_jw_karray_begin(w, "points");
	for (size_t i = 0; i < n; i++)
		json_point(w, c, &pts[i]);
	pmc_jw_break(w, "\n  ");
	pmc_jw_array_end(w);
	pmc_jw_break(w, "\n");
	pmc_jw_object_end(w);
	fputc('\n', f);
}

int pmc_rf_write(FILE *f, enum pmc_rf_format fmt, const struct pmc_rf_ceilings *c, bool cached,
		 const struct pmc_rf_point *pts, size_t npts)
{
	if (fmt == PMC_RF_CSV)
		csv(f, c, pts, npts);
	else if (fmt == PMC_RF_JSON)
		json(f, c, cached, pts, npts);
	else
		table(f, c, cached, pts, npts);
	return ferror(f) ? -5 : 0;
}
