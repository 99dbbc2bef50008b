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

static void json_num(FILE *f, const char *key, bool valid, double v)
{
	fprintf(f, "\"%s\": ", key);
	if (valid && isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fprintf(f, "null");
}

/* ", " then the number (or null) under key. */
static void json_next(FILE *f, const char *key, bool valid, double v)
{
	fprintf(f, ", ");
	json_num(f, key, valid, v);
}

static void json(FILE *f, const struct pmc_rf_ceilings *c, bool cached, const struct pmc_rf_point *pts, size_t n)
{
	fprintf(f, "{\n  \"fingerprint\": \"%s\",\n  \"machine\": ", c->fingerprint);
	pmc_json_string(f, c->machine);
	fprintf(f, ",\n  \"measured_at\": %lld,\n  \"cached\": %s,\n  \"ceilings\": [", c->measured_at,
		cached ? "true" : "false");
	for (size_t i = 0; i < c->n; i++) {
		const struct pmc_rf_ceiling *x = &c->c[i];

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		pmc_json_string(f, x->name);
		fprintf(f, ", \"kind\": \"%s\", \"level\": ", x->kind == PMC_RF_COMPUTE ? "compute" : "bandwidth");
		if (x->kind == PMC_RF_COMPUTE)
			fprintf(f, "null, \"precision\": \"%s\"", x->dp ? "dp" : "sp");
		else
			fprintf(f, "\"%s\", \"precision\": null",
				(const char *[]){ "L1", "L2", "L3", "memory" }[x->level]);
		fprintf(f, ", \"threads\": %u, \"unit\": \"%s\", \"kernel\": ", x->threads, unit_of(x));
		pmc_json_string(f, x->kernel);
		fprintf(f, ", \"footprint\": %llu, \"repeats\": %u, ", (unsigned long long)x->footprint, x->repeats);
		json_num(f, "roof", x->valid, pmc_rf_ceiling_roof(x));
		json_next(f, "median", x->valid, x->median);
		json_next(f, "min", x->valid, x->min);
		json_next(f, "max", x->valid, x->max);
		fprintf(f, ", \"reason\": ");
		pmc_json_string_or_null(f, x->valid ? NULL : x->reason);
		fprintf(f, "}");
	}
	fprintf(f, "\n  ],\n  \"points\": [");
	for (size_t i = 0; i < n; i++) {
		const struct pmc_rf_point *p = &pts[i];

		fprintf(f, "%s\n    {\"label\": ", i ? "," : "");
		pmc_json_string(f, p->label);
		fprintf(f, ", \"level\": \"%s\", \"interval\": ", level_of(p));
		if (p->interval)
			fprintf(f, "%u", p->interval);
		else
			fprintf(f, "null");
		json_next(f, "start_s", p->interval != 0, p->start_s);
		json_next(f, "seconds", true, p->seconds);
		json_next(f, "flops", p->flops_valid, p->flops);
		fprintf(f, ", \"flops_reason\": ");
		pmc_json_string_or_null(f, p->flops_valid ? NULL : p->flops_why);
		json_next(f, "bytes", p->bytes_valid, p->bytes);
		fprintf(f, ", \"bytes_reason\": ");
		pmc_json_string_or_null(f, p->bytes_valid ? NULL : p->bytes_why);
		fprintf(f, ", \"bytes_source\": ");
		pmc_json_string_or_null(f, p->bytes_source[0] ? p->bytes_source : NULL);
		json_next(f, "flop_rate", p->flops_valid, p->flop_rate);
		json_next(f, "bandwidth", p->bytes_valid, p->bandwidth);
		json_next(f, "intensity", p->placed, p->intensity);
		fprintf(f, ", \"bound\": ");
		pmc_json_string_or_null(f, p->placed ? (p->memory_bound ? level_of(p) : "compute") : NULL);
		fprintf(f, ", \"bound_ceiling\": ");
		pmc_json_string_or_null(f, p->placed ? c->c[p->bound].name : NULL);
		json_next(f, "attainable", p->placed, p->attainable);
		json_next(f, "fraction", p->placed, p->fraction);
		fprintf(f, ", \"reason\": ");
		pmc_json_string_or_null(f, p->placed ? NULL : p->why);
		fprintf(f, "}");
	}
	fprintf(f, "\n  ]\n}\n");
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
