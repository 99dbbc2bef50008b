/* SPDX-License-Identifier: MIT */
#include "metrics/metrics.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "arch/arch.h"
#include "metrics/expr.h"
#include "metrics/modes.h"
#include "util/util.h"

const char *const pmc_metric_known_consts[] = {
	"TSC_HZ",                /* TSC ticks per second */
	"BASE_HZ",               /* nominal (base) core frequency; equals TSC_HZ on most Intel parts */
	"SECONDS",               /* wall time of one run of the workload */
	"ITERATIONS",            /* built-in kernels: loop iterations */
	"EXPECTED_INSTRUCTIONS", /* built-in kernels: instructions the measured region retires */
	"EXPECTED_FLOPS",        /* built-in kernels: floating-point operations it performs */
	"EXPECTED_UOPS",         /* built-in kernels: fused-domain uops it issues */
	"EXPECTED_BRANCHES",     /* built-in kernels: branches it retires */
	"PMC_WIDTH",             /* bits of a general-purpose counter */
	NULL,
};

bool pmc_metric_is_known_const(const char *name)
{
	for (size_t i = 0; pmc_metric_known_consts[i]; i++)
		if (!strcasecmp(pmc_metric_known_consts[i], name))
			return true;
	return false;
}

bool pmc_metric_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= PMC_METRIC_NAME_MAX || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			return false;
	return true;
}

struct lookup_ctx {
	const struct pmc_report *rep;
	const struct pmc_metric_value *done; /* metrics evaluated earlier in this call */
	size_t ndone;
	const struct pmc_metric_modes *modes; /* the privilege levels its events are read in; NULL: any */
};

/* A constant's value without a word of why not: 0, -ENODATA (known, n/a here: SECONDS of an unresolved region), or
 * -ENOENT. What decides whether a default metric applies, so it formats nothing. */
static int const_value(const struct pmc_report *rep, const char *name, double *ret)
{
	bool seconds = !strcasecmp(name, "SECONDS");

	if (seconds && rep->wall_unresolved[0])
		return -ENODATA;
	if (!pmc_report_get_const(rep, name, ret))
		return 0;
	if (rep->tsc_hz > 0 && !strcasecmp(name, "TSC_HZ")) {
		*ret = rep->tsc_hz;
		return 0;
	}
	if (seconds && rep->wall_ns_mean > 0) {
		*ret = rep->wall_ns_mean / 1e9;
		return 0;
	}
	return -ENOENT;
}

static int const_fallback(const struct pmc_report *rep, const char *name, double *ret, char *reason, size_t len)
{
	int rc = const_value(rep, name, ret);

	if (rc == -ENODATA)
		snprintf(reason, len, "%s", rep->wall_unresolved);
	if (rc != -ENOENT)
		return rc;
	if (!strcasecmp(name, "TSC_HZ") || !strcasecmp(name, "BASE_HZ"))
		snprintf(reason, len, "%s is unknown: the TSC / base frequency could not be determined", name);
	else if (!strncasecmp(name, "EXPECTED_", 9) || !strcasecmp(name, "ITERATIONS"))
		snprintf(reason, len, "%s is known only for built-in kernels (pmctool stat -k)", name);
	else if (pmc_metric_is_known_const(name))
		snprintf(reason, len, "%s is not known for this measurement", name);
	else
		snprintf(reason, len, "'%s' is neither a measured event, a metric nor a known constant", name);
	return -ENOENT;
}

static int report_lookup(const char *name, void *vctx, double *ret, char *reason, size_t len)
{
	const struct lookup_ctx *c = vctx;
	const struct pmc_report_event *ev;
	char why[200];

	for (size_t i = c->ndone; i-- > 0;) {
		if (strcasecmp(c->done[i].name, name))
			continue;
		if (!c->done[i].valid) {
			snprintf(reason, len, "metric %s is n/a: %s", name, c->done[i].reason);
			return -ENODATA;
		}
		*ret = c->done[i].value;
		return 0;
	}
	ev = pmc_metric_find_event(c->rep, name, c->modes);
	if (!ev)
		return const_fallback(c->rep, name, ret, reason, len);
	if (ev->status != PMC_COUNT_OK) {
		snprintf(reason, len, "event %s %s: %s", name,
			 ev->status == PMC_COUNT_NOT_SUPPORTED ? "is not supported" : "was not counted",
			 ev->reason[0] ? ev->reason : "no reason recorded");
		return -ENODATA;
	}
	if (ev->max == 0 && pmc_arch_event_implemented(&ev->ev.attr, why, sizeof(why)) == 0) {
		/* it opened and read 0 on a PMU that does not implement it (QEMU's arm64 PMU): not a count, as --topdown */
		snprintf(reason, len, "event %s was not counted: it read 0 and %s", name, why);
		return -ENODATA;
	}
	*ret = ev->mean;
	return 0;
}

/* Metric def over the report, its formula already parsed (e; NULL with perr when it did not parse). */
static void eval_into(const struct pmc_report *rep, const struct pmc_metric_value *done, size_t ndone,
		      const struct pmc_metric_def *def, const struct pmc_expr *e, const char *perr,
		      struct pmc_metric_value *m)
{
	struct pmc_metric_modes mm;
	struct lookup_ctx ctx = { rep, done, ndone, &mm };
	char note[120];
	int rc;

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", def->name);
	snprintf(m->unit, sizeof(m->unit), "%s", def->unit);
	snprintf(m->desc, sizeof(m->desc), "%s", def->desc);
	if (!e) {
		snprintf(m->reason, sizeof(m->reason), "formula error: %.140s", perr);
		return;
	}
	if (pmc_metric_pick_modes(rep, e, &mm, m->reason, sizeof(m->reason)) < 0)
		return;
	rc = pmc_expr_eval(e, report_lookup, &ctx, &m->value, m->reason, sizeof(m->reason));
	m->valid = rc == 0;
	if (!m->valid)
		m->value = 0;
	/* Say which events it used where the formula's names do not say it (instructions meaning instructions:u). */
	pmc_metric_modes_note(rep, e, &mm, note, sizeof(note));
	if (m->valid && note[0]) {
		size_t dl = strlen(m->desc);
		snprintf(m->desc + dl, sizeof(m->desc) - dl, "%s[over %s]", dl ? " " : "", note);
		snprintf(m->reason, sizeof(m->reason), "over %s", note);
	}
}

/* True when the formula names something that is neither an earlier metric, an event of the report, nor a constant
 * this report has: the default list's events the user did not ask for, EXPECTED_* outside kernels. */
static bool names_absent_event(const struct pmc_report *rep, const struct pmc_metric_value *done, size_t ndone,
			       const struct pmc_expr *e)
{
	for (size_t i = 0; i < pmc_expr_name_count(e); i++) {
		const char *n = pmc_expr_name(e, i);
		double v;
		/* Known but n/a here (-ENODATA: SECONDS of an unresolved region) is not absent: the metric shows why. */
		bool found = pmc_metric_find_event(rep, n, NULL) || const_value(rep, n, &v) != -ENOENT;

		for (size_t k = 0; k < ndone && !found; k++)
			found = !strcasecmp(done[k].name, n);
		if (!found)
			return true;
	}
	return false;
}

/* A vendor table's threshold over the rows of this call (the metric's own included): "[over threshold] " before the
 * row's description when it holds. A threshold that cannot be evaluated marks nothing. */
static void mark_threshold(struct pmc_report *rep, size_t first, size_t row, const struct pmc_metric_def *def)
{
	struct pmc_metric_value *m = &rep->metrics[row];
	struct lookup_ctx ctx = { rep, rep->metrics + first, rep->nmetrics - first, NULL };
	const struct pmc_expr *e;
	char why[160], desc[sizeof(m->desc)];
	double v;

	if (!def->threshold[0] || !m->valid || pmc_expr_parse_shared(def->threshold, &e, NULL, 0))
		return;
	if (pmc_expr_eval(e, report_lookup, &ctx, &v, why, sizeof(why)) == 0 && v != 0) {
		snprintf(desc, sizeof(desc), "[over threshold] %.*s", (int)sizeof(desc) - 18, m->desc);
		memcpy(m->desc, desc, sizeof(desc));
	}
}

int pmc_metrics_eval(struct pmc_report *rep, const struct pmc_metric_def *defs, size_t ndefs, unsigned flags)
{
	size_t first = rep->nmetrics;
	bool thresholds = false;

	for (size_t i = 0; i < ndefs; i++) {
		struct pmc_metric_value m;
		const struct pmc_expr *e = NULL;
		char perr[160];
		int rc;

		/* Parsed once per process (every run of -r evaluates the same formulas): whether it applies and its value
		 * (a formula that does not parse is shown as a formula error). */
		if (pmc_expr_parse_shared(defs[i].formula, &e, perr, sizeof(perr)))
			e = NULL;
		if ((flags & PMC_METRICS_SKIP_ABSENT) && e &&
		    names_absent_event(rep, rep->metrics + first, rep->nmetrics - first, e))
			continue;
		eval_into(rep, rep->metrics + first, rep->nmetrics - first, &defs[i], e, perr, &m);
		rc = pmc_report_add_metric(rep, &m);
		if (rc)
			return rc;
		thresholds |= defs[i].threshold[0] != '\0';
	}
	/* after every row: a threshold may name metrics after its own (a parent's share) */
	for (size_t i = 0, row = first; thresholds && i < ndefs && row < rep->nmetrics; i++) {
		if (strcmp(rep->metrics[row].name, defs[i].name))
			continue; /* left out (PMC_METRICS_SKIP_ABSENT) */
		mark_threshold(rep, first, row++, &defs[i]);
	}
	return 0;
}

int pmc_metrics_eval_formula(const struct pmc_report *rep, const char *formula, double *ret,
			     char *reason, size_t reasonlen)
{
	struct pmc_metric_modes mm;
	struct lookup_ctx ctx = { rep, NULL, 0, &mm };
	struct pmc_expr *e;
	int rc = pmc_expr_parse(formula, &e, reason, reasonlen);

	if (rc)
		return rc == -ENOMEM ? rc : -EINVAL;
	if (pmc_metric_pick_modes(rep, e, &mm, reason, reasonlen) < 0) {
		pmc_expr_free(e);
		return -ENODATA;
	}
	rc = pmc_expr_eval(e, report_lookup, &ctx, ret, reason, reasonlen);
	pmc_expr_free(e);
	return rc;
}

int pmc_metric_def_parse_cli(const char *arg, struct pmc_metric_def *ret, char *err, size_t errlen)
{
	struct pmc_metric_def d = { 0 };
	const char *eq = strchr(arg, '='), *br;
	size_t nlen;
	struct pmc_expr *e;
	char perr[200];

	if (!eq) {
		snprintf(err, errlen, "expected NAME=FORMULA, e.g. IPC=instructions/cycles");
		return -EINVAL;
	}
	nlen = (size_t)(eq - arg);
	br = memchr(arg, '[', nlen);
	if (br) {
		const char *close = memchr(br, ']', (size_t)(eq - br));
		if (!close || close + 1 != eq || (size_t)(close - br - 1) >= sizeof(d.unit)) {
			snprintf(err, errlen, "the unit goes in brackets right before '=' "
				 "(NAME[UNIT]=FORMULA), at most %zu characters", sizeof(d.unit) - 1);
			return -EINVAL;
		}
		memcpy(d.unit, br + 1, (size_t)(close - br - 1));
		nlen = (size_t)(br - arg);
	}
	while (nlen && isspace((unsigned char)arg[nlen - 1]))
		nlen--;
	if (nlen >= sizeof(d.name)) {
		snprintf(err, errlen, "name '%.*s' is longer than %zu characters", (int)PMC_MIN(nlen, 80),
			arg,
			 sizeof(d.name) - 1);
		return -EINVAL;
	}
	memcpy(d.name, arg, nlen);
	if (!pmc_metric_name_valid(d.name)) {
		snprintf(err, errlen, "name '%s' must start with a letter or '_' and hold only letters, "
			 "digits and '_'", d.name);
		return -EINVAL;
	}
	if (strlen(eq + 1) >= sizeof(d.formula)) {
		snprintf(err, errlen, "formula is longer than %zu characters", sizeof(d.formula) - 1);
		return -EINVAL;
	}
	snprintf(d.formula, sizeof(d.formula), "%s", eq + 1);
	if (pmc_expr_parse(d.formula, &e, perr, sizeof(perr))) {
		snprintf(err, errlen, "formula '%.200s': %s", d.formula, perr);
		return -EINVAL;
	}
	pmc_expr_free(e);
	snprintf(d.desc, sizeof(d.desc), "user metric: %.140s", d.formula);
	*ret = d;
	return 0;
}

static const struct pmc_metric_def default_metrics[] = {
	{ "IPC", "instructions / cycles", "", "instructions retired per core cycle", "" },
	{ "GHz", "cycles / {task-clock}", "GHz", "core cycles per nanosecond of task time", "" },
	{ "CPUs", "{task-clock} / (SECONDS * 1e9)", "", "CPUs used on average (task-clock / wall time)", "" },
	{ "utilization", "{ref-cycles} / {msr/tsc/}", "", "unhalted share of TSC time (1.0 = never halted)", "" },
	{ "unhalted_GHz", "cycles / {ref-cycles} * TSC_HZ / 1e9", "GHz", "average frequency while not halted", "" },
	{ "net_GHz", "cycles / {msr/tsc/} * TSC_HZ / 1e9", "GHz", "average frequency over TSC time, halts included", "" },
	{ "branch_miss_pct", "100 * {branch-misses} / branches", "%", "mispredicted share of branches", "" },
	{ "cache_miss_pct", "100 * {cache-misses} / {cache-references}", "%",
	  "missed share of last-level cache references (vendor-defined; see pmctool-events(5))", "" },
	/* -d, -dd, -ddd (perf's detailed lists): the miss shares perf prints beside them */
	{ "L1_dcache_miss_pct", "100 * {L1-dcache-load-misses} / {L1-dcache-loads}", "%",
	  "missed share of L1 data cache loads (perf's generic cache event)", "" },
	{ "LLC_miss_pct", "100 * {LLC-load-misses} / {LLC-loads}", "%",
	  "missed share of last-level cache loads (perf's generic cache event)", "" },
	{ "L1_icache_miss_pct", "100 * {L1-icache-load-misses} / {L1-icache-loads}", "%",
	  "missed share of L1 instruction cache fetches (perf's generic cache event)", "" },
	{ "dTLB_miss_pct", "100 * {dTLB-load-misses} / {dTLB-loads}", "%", "missed share of data TLB lookups (loads)", "" },
	{ "iTLB_miss_pct", "100 * {iTLB-load-misses} / {iTLB-loads}", "%", "missed share of instruction TLB lookups", "" },
	{ "L1_dcache_prefetch_miss_pct", "100 * {L1-dcache-prefetch-misses} / {L1-dcache-prefetches}", "%",
	  "missed share of L1 data cache prefetches", "" },
	{ "retired_vs_expected", "instructions / EXPECTED_INSTRUCTIONS", "",
	  "instructions retired per instruction expected (built-in kernels; 1.0 = exact)", "" },
};

const struct pmc_metric_def *pmc_metrics_default(size_t *ret_n)
{
	*ret_n = PMC_ARRAY_SIZE(default_metrics);
	return default_metrics;
}

bool pmc_metric_name_reserved(const char *name)
{
	size_t n;
	const struct pmc_metric_def *d = pmc_metrics_default(&n);

	for (size_t i = 0; i < n; i++)
		if (!strcasecmp(d[i].name, name))
			return true;
	return pmc_metric_is_known_const(name);
}
