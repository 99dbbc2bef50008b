/* SPDX-License-Identifier: MIT */
/* A saved report's vendor-table metrics evaluated again from its counts, with the report's literals (tm_replay.h). */
#include "metrics/tm_replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "metrics/modes.h"
#include "tables/tables.h"

/* perf's #core_wide (pmc_tm_scope): 1 when everything that ran on each counted core was counted. A report says what
 * it counted (target.kind) and whether SMT was on (cpu.smt), but not -C's CPU list against the cores' siblings. */
static void core_wide(struct pmc_tm_literals *ret, const struct pmc_tm_replay_src *src)
{
	const char *k = src->target_kind ? src->target_kind : "";

	if (!strcmp(k, "command") || !strcmp(k, "pid") || !strcmp(k, "tid") || !strcmp(k, "self")) {
		pmc_tm_literal_set(ret, "#core_wide", 0, "the report counted per thread (target kind command, pid, tid)");
	} else if (!strcmp(k, "system-wide") || !strcmp(k, "cpus")) {
		if (src->smt == 0)
			pmc_tm_literal_set(ret, "#core_wide", 1, "the report counted CPUs with SMT off");
		else if (src->smt == 1 && !strcmp(k, "system-wide"))
			pmc_tm_literal_set(ret, "#core_wide", 1, "the report counted every CPU (-a) with SMT on");
		else if (src->smt == 1)
			pmc_tm_literal_unknown(ret, "#core_wide", "the report counted -C's CPUs with SMT on, and whether "
					       "they hold every sibling of their cores is not in it");
		else
			pmc_tm_literal_unknown(ret, "#core_wide", "the report does not say whether SMT was on (cpu.smt)");
	} else {
		pmc_tm_literal_unknown(ret, "#core_wide", k[0] ? "the report counted cgroups: whether whole cores were "
				       "counted is not in it" : "the report does not say what it counted (target.kind)");
	}
}

void pmc_tm_literals_of_report(struct pmc_tm_literals *ret, const struct pmc_tm_replay_src *src)
{
	pmc_tm_literals_init(ret, "the report does not record it");
	if (src->smt >= 0)
		pmc_tm_literal_set(ret, "#smt_on", src->smt, "the report's cpu.smt");
	else
		pmc_tm_literal_unknown(ret, "#smt_on", "the report does not say whether SMT was on (cpu.smt)");
	core_wide(ret, src);
	if (src->tsc_hz > 0)
		pmc_tm_literal_set(ret, "#system_tsc_freq", src->tsc_hz, "the report's tsc_hz");
}

/* A spelling is the report's event of that name (as stat named the events it counted for the formula). */
static int report_has(const char *spec, void *ctx, char *why, size_t len)
{
	if (pmc_metric_find_event(ctx, spec, NULL))
		return 0;
	snprintf(why, len, "the report has no event %.120s", spec);
	return -ENOENT;
}

/* The directory of the report's "DIR (model)", when it is one here. */
static const char *env_dir(const char *env_tables, char *buf, size_t len)
{
	const char *paren = env_tables ? strrchr(env_tables, '(') : NULL;
	struct stat st;
	size_t n;

	if (!paren || paren == env_tables || paren[-1] != ' ')
		return NULL;
	n = (size_t)(paren - 1 - env_tables);
	if (n >= len)
		return NULL;
	memcpy(buf, env_tables, n);
	buf[n] = '\0';
	return stat(buf, &st) == 0 && S_ISDIR(st.st_mode) ? buf : NULL;
}

/* The table metric a report row names ("table:NAME" or NAME that is not pmctool's own), or NULL with why. */
static const struct pmc_table_metric *row_metric(const struct pmc_tables *t, const char *row, char *why, size_t len)
{
	const struct pmc_table_metric *ms;
	size_t n = pmc_tables_metrics(t, &ms);
	bool prefixed = !strncasecmp(row, "table:", 6);
	const char *name = prefixed ? row + 6 : row;

	if (!prefixed && pmc_metric_name_reserved(name)) {
		snprintf(why, len, "its formula is not known here");
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(ms[i].name, name))
			return &ms[i];
	snprintf(why, len, "its formula is not known here (no metric of the tables has that name)");
	return NULL;
}

/* Why the plan left metric name out: its note ("metric NAME is left out: WHY (table ...)"). */
static void left_out_why(const struct pmc_tm_plan *p, const char *name, char *why, size_t len)
{
	char head[PMC_METRIC_NAME_MAX + 32];
	size_t n = (size_t)snprintf(head, sizeof(head), "metric %s is left out: ", name);

	snprintf(why, len, "its formula could not be planned on the report's events");
	for (size_t i = 0; i < p->nnotes; i++) {
		if (strncmp(p->notes[i], head, n))
			continue;
		const char *end = strstr(p->notes[i] + n, " (table ");
		int w = end ? (int)(end - (p->notes[i] + n)) : (int)strlen(p->notes[i] + n);

		snprintf(why, len, "%.*s", w, p->notes[i] + n);
		return;
	}
}

static void append(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s", s);
}

int pmc_tm_replay(struct pmc_report *rep, const struct pmc_tm_replay_src *src, struct pmc_tm_replayed *rows,
		  size_t nrows, char *info, size_t infolen)
{
	struct pmc_tables *t = NULL;
	const struct pmc_tables_report *tr = NULL;
	const struct pmc_table_metric *ms;
	struct pmc_tm_literals lits;
	struct pmc_tm_plan plan;
	char dirbuf[256], line[400];
	const char *dir = src->tables_dir ? src->tables_dir : env_dir(src->env_tables, dirbuf, sizeof(dirbuf));
	size_t nms, nsel = 0, nok = 0;
	bool *sel = NULL;
	int rc = -ENOMEM;

	info[0] = '\0';
	memset(&plan, 0, sizeof(plan));
	if (!src->tables_dir && !(src->env_tables && src->env_tables[0]))
		return 0; /* measured without tables (or written by hand): no table metric to look for */
	if (pmc_tables_load(dir, src->cpuid && src->cpuid[0] ? src->cpuid : NULL, &t) == -ENOMEM)
		return -ENOMEM;
	pmc_tables_report(t, &tr);
	nms = pmc_tables_metrics(t, &ms);
	if (!tr || !tr->dir || !nms) {
		snprintf(line, sizeof(line), "no vendor tables with metrics for CPU %s were found (the report's: %s; "
			 "pmctool report --tables DIR names them)", src->cpuid && src->cpuid[0] ? src->cpuid : "unknown",
			 src->env_tables && src->env_tables[0] ? src->env_tables : "none recorded");
		for (size_t i = 0; i < nrows; i++)
			snprintf(rows[i].why, sizeof(rows[i].why), "no vendor tables for CPU %.40s were found (pmctool report "
				 "--tables DIR)", src->cpuid && src->cpuid[0] ? src->cpuid : "unknown");
		snprintf(info, infolen, "%s", line);
		pmc_tables_free(t);
		return 0;
	}
	if (!(sel = calloc(nms, sizeof(*sel))))
		goto out;
	for (size_t i = 0; i < nrows; i++) {
		const struct pmc_table_metric *m = row_metric(t, rows[i].name, rows[i].why, sizeof(rows[i].why));

		rows[i].evaluated = false;
		if (m) {
			sel[m - ms] = true;
			nsel++;
		}
	}
	if (!nsel) {
		rc = 0;
		goto out;
	}
	pmc_tm_literals_of_report(&lits, src);
	if (pmc_tm_plan(t, sel, &lits, report_has, rep, pmc_metric_name_reserved, &plan) ||
	    pmc_metrics_eval(rep, plan.defs, plan.ndefs, 0))
		goto out;
	for (size_t i = 0; i < nrows; i++) {
		char why[sizeof(rows[i].why)];
		const struct pmc_table_metric *m = row_metric(t, rows[i].name, why, sizeof(why));

		for (size_t d = 0; m && d < plan.ndefs && !rows[i].evaluated; d++)
			rows[i].evaluated = !strcasecmp(plan.defs[d].name, rows[i].name);
		if (m && !rows[i].evaluated)
			left_out_why(&plan, m->name, rows[i].why, sizeof(rows[i].why));
		nok += rows[i].evaluated;
	}
	snprintf(line, sizeof(line), "%zu of %zu table metric%s evaluated again from the counts with the tables %s (%s)",
		 nok, nsel, nsel == 1 ? "" : "s", tr->dir, tr->model ? tr->model : "?");
	append(info, infolen, line);
	if (src->env_tables && src->env_tables[0] && (strncmp(src->env_tables, tr->dir, strlen(tr->dir)) ||
						       !tr->model || !strstr(src->env_tables, tr->model))) {
		snprintf(line, sizeof(line), ", not the report's own (%s)", src->env_tables);
		append(info, infolen, line);
	}
	for (size_t i = 0; i < plan.nnotes; i++) /* the literals used, and where they came from */
		if (plan.notes[i][0] == '#') {
			snprintf(line, sizeof(line), "; %s", plan.notes[i]);
			append(info, infolen, line);
		}
	rc = 0;
out:
	pmc_tm_plan_fini(&plan);
	free(sel);
	pmc_tables_free(t);
	return rc;
}
