/* SPDX-License-Identifier: MIT */
/*
 * pmctool_compare (include/pmctool_engine.h): `pmctool compare A B` as a library call. The two documents are read
 * back by the reader compare uses (report/load.h), compared and judged by report/multi.c's compare (its test, its
 * verdict words, its --fail-if conditions), and the rows are handed out typed. Nothing is measured here.
 */
#include "pmctool_engine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/load.h"
#include "report/multi.h"
#include "util/util.h"

/* The public part first: the caller holds a pointer to it, pmctool_comparison_free frees all of it. */
struct comparison {
	struct pmctool_comparison pub;
	struct pmc_compare c;
	struct pmc_fail_cond *conds;
	struct pmctool_compare_row *rows;
	struct pmctool_compare_cond *pconds;
};

static int refuse(struct pmctool_error *err, const char *subject, const char *fmt, const char *what, const char *why)
{
	if (err) {
		err->kind = PMCTOOL_ERR_REQUEST;
		snprintf(err->subject, sizeof(err->subject), "%s", subject);
		snprintf(err->detail, sizeof(err->detail), fmt, what, why);
		err->exit_status = PMC_EXIT_USAGE;
	}
	return PMCTOOL_ERR_REQUEST;
}

static int out_of_memory(struct pmctool_error *err)
{
	if (err) {
		err->kind = PMCTOOL_ERR_SYSTEM;
		snprintf(err->subject, sizeof(err->subject), "%s", "");
		snprintf(err->detail, sizeof(err->detail), "out of memory comparing two reports");
		err->exit_status = PMC_EXIT_INTERNAL;
	}
	return PMCTOOL_ERR_SYSTEM;
}

static enum pmctool_verdict verdict_of(const char *word)
{
	static const char *const words[] = { "significant", "not significant", "no difference", "not enough runs" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(word, words[i]))
			return (enum pmctool_verdict)i;
	return PMCTOOL_NOT_MEASURED;
}

static const char *kind_word(enum pmc_series_kind k)
{
	switch (k) {
	case PMC_SERIES_METRIC: return "metric";
	case PMC_SERIES_TIME: return "time";
	case PMC_SERIES_DECLARED: return "declared";
	default: return "event";
	}
}

static void fill_rows(struct comparison *x)
{
	for (size_t i = 0; i < x->c.nrows; i++) {
		const struct pmc_compare_row *r = &x->c.rows[i];

		x->rows[i] = (struct pmctool_compare_row){
			.name = r->name, .unit = r->unit, .kind = kind_word(r->kind),
			.measured_a = r->ok_a, .measured_b = r->ok_b,
			.a = r->a, .b = r->b, .sd_a = r->sd_a, .sd_b = r->sd_b, .runs_a = r->na, .runs_b = r->nb,
			.diff = r->diff, .ratio = r->ratio, .p = r->tested ? r->t.p : NAN,
			.verdict = verdict_of(r->verdict), .verdict_word = r->verdict, .note = r->note,
		};
	}
}

/* The options checked and parsed (test, alpha, conditions into x->conds): 0, or the error's kind. */
static int read_options(const struct pmctool_compare_options *opt, enum pmc_test *test, double *alpha,
			struct comparison *x, struct pmctool_error *err)
{
	char why[256];
	size_t n = 0;

	*test = PMC_TEST_WELCH;
	*alpha = 0.05;
	if (!opt)
		return 0;
	if (opt->test && !strcmp(opt->test, "mann-whitney"))
		*test = PMC_TEST_MANN_WHITNEY;
	else if (opt->test && strcmp(opt->test, "welch"))
		return refuse(err, "test", "test '%.40s': expected welch or mann-whitney%s", opt->test, "");
	if (opt->alpha != 0 && !(opt->alpha > 0 && opt->alpha < 1)) {
		snprintf(why, sizeof(why), "%g", opt->alpha);
		return refuse(err, "alpha", "alpha %s: expected a number between 0 and 1%s", why, "");
	}
	if (opt->alpha != 0)
		*alpha = opt->alpha;
	while (opt->fail_if && opt->fail_if[n])
		n++;
	if (n && !(x->conds = calloc(n, sizeof(*x->conds))))
		return out_of_memory(err);
	for (size_t i = 0; i < n; i++, x->pub.nconds++)
		if (pmc_fail_cond_parse(opt->fail_if[i], &x->conds[i], why, sizeof(why)) < 0)
			return refuse(err, "fail_if", "bad fail-if condition '%.100s': %s", opt->fail_if[i], why);
	return 0;
}

static int load(const char *doc, const char *side, struct pmc_loaded *ret, struct pmctool_error *err)
{
	char why[384];

	if (!doc)
		return refuse(err, side, "report %s: no document (NULL)%s", side, "");
	if (pmc_loaded_parse(doc, strlen(doc), ret, why, sizeof(why)) < 0)
		return refuse(err, side, "report %s: %s", side, why);
	return 0;
}

int pmctool_compare(const char *a_json, const char *b_json, const struct pmctool_compare_options *opt,
		    struct pmctool_comparison **ret, struct pmctool_error *err)
{
	struct comparison *x = calloc(1, sizeof(*x));
	struct pmc_loaded a = { 0 }, b = { 0 };
	enum pmc_test test;
	double alpha;
	int rc, holds = 0, unjudged = 0;

	if (err)
		*err = (struct pmctool_error){ 0 };
	if (ret)
		*ret = NULL;
	if (!x)
		return out_of_memory(err);
	if ((rc = read_options(opt, &test, &alpha, x, err)) || (rc = load(a_json, "a", &a, err)))
		goto out;
	if ((rc = load(b_json, "b", &b, err)))
		goto out;
	if (pmc_compare_build(&a, &b, test, alpha, &x->c) < 0) {
		rc = out_of_memory(err);
		goto out;
	}
	x->rows = calloc(x->c.nrows ? x->c.nrows : 1, sizeof(*x->rows));
	x->pconds = calloc(x->pub.nconds ? x->pub.nconds : 1, sizeof(*x->pconds));
	if (!x->rows || !x->pconds) {
		rc = out_of_memory(err);
		goto out;
	}
	fill_rows(x);
	for (size_t i = 0; i < x->pub.nconds; i++) {
		pmc_fail_cond_eval(&x->c, &x->conds[i]);
		holds += x->conds[i].state > 0;
		unjudged += x->conds[i].state < 0;
		x->pconds[i] = (struct pmctool_compare_cond){ .text = x->conds[i].text, .holds = x->conds[i].state,
							      .why = x->conds[i].why };
	}
	x->pub.nrows = x->c.nrows;
	x->pub.rows = x->rows;
	x->pub.conds = x->pconds;
	x->pub.test = pmc_test_name(test);
	x->pub.alpha = alpha;
	x->pub.env_same = x->c.env_same;
	x->pub.env_diff = x->c.env_diff;
	x->pub.exit_status = holds ? 1 : unjudged ? PMC_EXIT_NOCOUNT : 0;
out:
	pmc_loaded_fini(&a);
	pmc_loaded_fini(&b);
	if (rc || !ret)
		pmctool_comparison_free(&x->pub);
	else
		*ret = &x->pub;
	return rc;
}

void pmctool_comparison_free(struct pmctool_comparison *pub)
{
	struct comparison *x = (struct comparison *)pub;

	if (!x)
		return;
	if (x->c.rows)
		pmc_compare_fini(&x->c);
	free(x->conds);
	free(x->rows);
	free(x->pconds);
	free(x);
}
