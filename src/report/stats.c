/* SPDX-License-Identifier: MIT */
/* Welch's t-test (the t distribution through the regularized incomplete beta function), Mann-Whitney U (normal
 * approximation with tie correction), and neighbour-change step scores. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/stats.h"

size_t pmc_test_min_n(enum pmc_test t)
{
	return t == PMC_TEST_MANN_WHITNEY ? 4 : 2;
}

const char *pmc_test_name(enum pmc_test t)
{
	return t == PMC_TEST_MANN_WHITNEY ? "mann-whitney-u" : "welch-t";
}

/* The continued fraction of the incomplete beta function (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double pmc_t_two_sided_p(double t, double df)
{
	if (!isfinite(t))
		return 0;
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

static void mean_var(const double *x, size_t n, double *m, double *v)
{
	double s = 0, q = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	*m = s / (double)n;
	for (size_t i = 0; i < n; i++)
		q += (x[i] - *m) * (x[i] - *m);
	*v = n > 1 ? q / (double)(n - 1) : 0;
}

static void welch(const double *a, size_t na, const double *b, size_t nb, struct pmc_test_result *r)
{
	double ma, va, mb, vb, sa, sb, se2;

	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	if (se2 <= 0 || se2 < 1e-24 * (ma * ma + mb * mb)) { /* no spread at all: exact values */
		r->stat = ma == mb ? 0 : (mb > ma ? INFINITY : -INFINITY);
		r->df = (double)(na + nb - 2);
		r->p = ma == mb ? 1 : 0;
		return;
	}
	r->stat = (mb - ma) / sqrt(se2);
	r->df = se2 * se2 / ((sa * sa) / (double)(na - 1) + (sb * sb) / (double)(nb - 1));
	r->p = pmc_t_two_sided_p(r->stat, r->df);
}

struct ranked {
	double v;
	int side;
};

static int cmp_ranked(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;

	return (a > b) - (a < b);
}

static int mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct pmc_test_result *r)
{
	size_t n = na + nb;
	struct ranked *all = malloc(n * sizeof(*all));
	double ra = 0, ties = 0, u, mu, sigma, z;

	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], 1 };
	qsort(all, n, sizeof(*all), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double rank, t;
		while (j < n && all[j].v == all[i].v)
			j++;
		rank = ((double)i + (double)j + 1) / 2; /* ranks i+1..j, averaged */
		for (size_t k = i; k < j; k++)
			if (!all[k].side)
				ra += rank;
		t = (double)(j - i);
		ties += t * t * t - t;
		i = j;
	}
	free(all);
	u = ra - (double)na * (double)(na + 1) / 2;
	mu = (double)na * (double)nb / 2;
	sigma = sqrt((double)na * (double)nb / 12 * (((double)n + 1) - ties / ((double)n * ((double)n - 1))));
	r->stat = u;
	r->df = 0;
	if (sigma <= 0) {
		r->p = 1;
		return 0;
	}
	z = (fabs(u - mu) - 0.5) / sigma; /* continuity correction */
	r->p = z <= 0 ? 1 : erfc(z / sqrt(2));
	return 0;
}

int pmc_test_run(enum pmc_test t, const double *a, size_t na, const double *b, size_t nb, struct pmc_test_result *ret)
{
	struct pmc_test_result r;
	int rc = 0;

	if (na < pmc_test_min_n(t) || nb < pmc_test_min_n(t))
		return -EDOM;
	memset(&r, 0, sizeof(r));
	if (t == PMC_TEST_MANN_WHITNEY)
		rc = mann_whitney(a, na, b, nb, &r);
	else
		welch(a, na, b, nb, &r);
	if (rc)
		return rc;
	if (r.p > 1)
		r.p = 1;
	*ret = r;
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

bool pmc_steps_level_holds(const double *y, size_t n, size_t i)
{
	if (i + 1 >= n)
		return false;
	if (i > 0 && fabs(y[i - 1] - y[i]) > fabs(y[i - 1] - y[i + 1]))
		return false; /* the point before is at the new level: y[i] stood alone */
	if (i + 2 < n && fabs(y[i + 2] - y[i + 1]) > fabs(y[i + 2] - y[i]))
		return false; /* the point after is back at the old level: y[i+1] stood alone */
	return true;
}

long pmc_steps_score(const double *y, const double *err, size_t n, double *score)
{
	double *d, med;
	long best = -1;

	if (n < 2)
		return -1;
	d = malloc((n - 1) * sizeof(*d));
	if (!d)
		return -1;
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(y[i + 1] - y[i]);
	qsort(d, n - 1, sizeof(*d), cmp_double);
	med = (n - 1) % 2 ? d[(n - 1) / 2] : (d[(n - 1) / 2 - 1] + d[(n - 1) / 2]) / 2;
	free(d);
	for (size_t i = 0; i + 1 < n; i++) {
		double e = err ? sqrt(err[i] * err[i] + err[i + 1] * err[i + 1]) : 0, noise = fmax(e, med);
		double change = fabs(y[i + 1] - y[i]);

		if (noise <= 0) /* flat almost everywhere: any change is a step, no change is none */
			noise = change > 0 ? change / 1e6 : 1;
		score[i] = change / noise;
		if (best < 0 || score[i] > score[best])
			best = (long)i;
	}
	return best;
}
