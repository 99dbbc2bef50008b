/* SPDX-License-Identifier: MIT */
/* The format registry: the entries live beside their writers (table.c, csv.c, json.c); this is the lookup. */
#include "output/format.h"
#include "output/check.h"
#include "output/info.h"
#include "output/multi.h"
#include "output/sets.h"
#include "output/tables_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct pmc_format *const formats[] = { &pmc_format_table, &pmc_format_sep, &pmc_format_csv,
						    &pmc_format_json, &pmc_format_perf_json,
						    &pmc_format_perf_std };

const struct pmc_format *pmc_format_get(enum pmc_output_format id)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (formats[i]->id == id)
			return formats[i];
	return &pmc_format_table;
}

const struct pmc_format *pmc_format_by_flag(const char *flag)
{
	for (size_t i = 0; flag && *flag && i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i]->flag, flag))
			return formats[i];
	return NULL;
}

bool pmc_format_own_check(const struct pmc_format *fmt, const char *name)
{
	for (const char *const *c = fmt->own_checks; c && *c; c++)
		if (!strcmp(*c, name))
			return true;
	return false;
}

/* A report in its format: the one dispatch through the registry (output.c holds the formats' shared parts). */
int pmc_output_write(FILE *f, const struct pmc_report *rep, const struct pmc_output_opts *o)
{
	char *buf = NULL, *safe;
	size_t len = 0, slen;
	FILE *mem = open_memstream(&buf, &len);
	int r = 0;

	if (!mem)
		return -ENOMEM;
	if (o->metric_only)
		pmc_output_metric_only(mem, rep, o);
	else
		pmc_format_get(o->format)->report(mem, rep, o);
	if (fclose(mem))
		r = -ENOMEM;
	/* every format through one escaping rule: names from tables, saved reports and command lines are never raw */
	if (!r && !(r = pmc_output_escape_text(buf, len, &safe, &slen))) {
		if (fwrite(safe, 1, slen, f) != slen)
			r = -EIO;
		free(safe);
	}
	free(buf);
	return r ? r : ferror(f) ? -EIO : 0;
}

/* Sweep, compare and merge through the registry too: a format without its own writer for them gets the table's. */
int pmc_sweep_write(FILE *f, const struct pmc_sweep *sw, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int r = (e->sweep ? e->sweep : pmc_format_table.sweep)(f, sw);

	return r ? r : ferror(f) ? -EIO : 0;
}

int pmc_compare_write(FILE *f, const struct pmc_compare *c, const struct pmc_fail_cond *conds, size_t nconds,
		      enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int r = (e->compare ? e->compare : pmc_format_table.compare)(f, c, conds, nconds);

	return r ? r : ferror(f) ? -EIO : 0;
}

int pmc_merge_write(FILE *f, const struct pmc_merge *m, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int r = (e->merge ? e->merge : pmc_format_table.merge)(f, m);

	return r ? r : ferror(f) ? -EIO : 0;
}

int pmc_info_write(FILE *f, const struct pmc_inventory *inv, int status, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int r = (e->info ? e->info : pmc_format_table.info)(f, inv, status);

	return r ? r : ferror(f) ? -EIO : 0;
}

int pmc_tables_write(FILE *f, const struct pmc_tables_report *r, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int rc = (e->tables ? e->tables : pmc_format_table.tables)(f, r);

	return rc ? rc : ferror(f) ? -EIO : 0;
}

int pmc_set_write(FILE *f, const struct pmc_eventset *s, const char *pmu, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int rc = (e->set ? e->set : pmc_format_table.set)(f, s, pmu);

	return rc ? rc : ferror(f) ? -EIO : 0;
}

int pmc_sets_write(FILE *f, const struct pmc_sets_listing *l, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int shown = (e->sets ? e->sets : pmc_format_table.sets)(f, l);

	return ferror(f) ? -EIO : shown;
}

int pmc_check_write(FILE *f, const struct pmc_check_result *res, enum pmc_output_format fmt)
{
	const struct pmc_format *e = pmc_format_get(fmt);
	int rc = (e->check ? e->check : pmc_format_table.check)(f, res);

	return rc ? rc : ferror(f) ? -EIO : 0;
}

void pmc_output_topdown_interval(FILE *f, const struct pmc_output_opts *o, const struct pmc_report_topdown *td)
{
	const struct pmc_format *e = pmc_format_get(o->format);

	if (e->topdown_interval)
		e->topdown_interval(f, o, td);
}
