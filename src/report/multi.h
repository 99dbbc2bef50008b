/* SPDX-License-Identifier: MIT */
/* Results made of several stat reports: a sweep (one pooled report per parameter value), an A/B comparison, and the
 * merge of per-rank reports. Plain data, built here and by the commands, written by src/output/multi.c. */
#ifndef PMC_REPORT_MULTI_H
#define PMC_REPORT_MULTI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/load.h"
#include "report/stats.h"

/* ---- sweep ---- */
struct pmc_sweep_point {
	char value[32];             /* as written on the command line */
	double x;                   /* its number, NAN for a word */
	struct pmc_loaded data;     /* the rounds pooled: one per-run value per round */
	unsigned rounds_ok, rounds_failed;
	char failure[256];          /* why the last failing round failed */
	bool data_from_failed;      /* data holds failed or interrupted rounds: no round succeeded (yet) */
	double per;                 /* what counts, times and declared values are divided by (ITERATIONS, the --per
				       formula; not metrics, which are ratios); 1 when none */
};

struct pmc_sweep {
	char param[64];
	const char *how;            /* "kernel parameter", "command line", "environment variable", "--iters" */
	char workload[512];         /* the command or kernel, with {PARAM} where the value goes */
	const char *per_text;       /* "per iteration", "per (N*4096)", NULL: points into per_buf */
	char per_buf[256];
	unsigned rounds;
	uint64_t seed;
	bool partial;               /* interrupted: the rounds so far */
	char y[160];                /* the plotted series */
	struct pmc_sweep_point *pts;
	size_t npoints;
	size_t steps[8];            /* the steps found in y: between point steps[i] and steps[i] + 1 */
	double step_score[8];
	size_t nsteps;
	long largest;               /* the largest neighbour change, -1 when fewer than 2 points */
	double largest_score;
};

/* Every series name that appears in any point (region series left out), in first-seen order: *ret (free it) and the count, or 0 with NULL. */
size_t pmc_sweep_series(const struct pmc_sweep *sw, const struct pmc_series ***ret);
/* The y series' normalized mean and standard deviation at point i (NAN when not measured there). */
void pmc_sweep_value(const struct pmc_sweep *sw, size_t i, const char *name, double *mean, double *sd);
/* Find the steps of y (pmc_steps_score over the means, noise from the standard deviations; over the logarithms when
 * x spans a factor of 32 or more, as the plot's log axis does). */
void pmc_sweep_find_steps(struct pmc_sweep *sw);

/* ---- compare ---- */
struct pmc_compare_row {
	char name[160];
	char unit[16];
	enum pmc_series_kind kind;
	bool ok_a, ok_b;
	double a, b, sd_a, sd_b;
	size_t na, nb;
	double diff, ratio;         /* b - a and b / a (NAN when a is 0 or a side is missing) */
	bool tested;
	struct pmc_test_result t;
	const char *verdict;        /* "significant", "not significant", "no difference", "not enough runs",
				       "not measured" */
	char note[192];
};

struct pmc_compare {
	char a_name[512], b_name[512];
	/* The two environments (report/env.h): 1 the same, 0 different (env_diff says how), -1 unknown (a report
	 * without one: env_diff says which). A difference may be the machine's, not the program's. */
	int env_same;
	char env_diff[1024];
	enum pmc_test test;
	double alpha;
	struct pmc_compare_row *rows;
	size_t nrows;
};

/* --fail-if NAME>+2% / NAME<-5% / NAME>+100 (a change of B against A, relative or absolute) / NAME>+3sd (in
 * standard deviations of the runs). */
struct pmc_fail_cond {
	char text[128];
	char name[128];
	char op;                    /* '>' or '<' */
	bool pct;
	bool sd;                    /* threshold in pooled standard deviations of the two sides' runs */
	double threshold;
	int state;                  /* after eval: 1 holds, 0 does not, -1 cannot be judged */
	char why[256];
};

/* Compare every series of a (in a's order, then b's new ones; region series left out). 0 or -ENOMEM. */
int pmc_compare_build(const struct pmc_loaded *a, const struct pmc_loaded *b, enum pmc_test test, double alpha,
		      struct pmc_compare *ret);
void pmc_compare_fini(struct pmc_compare *c);
/* 0 and *ret, or -EINVAL with the reason in err. */
int pmc_fail_cond_parse(const char *text, struct pmc_fail_cond *ret, char *err, size_t errlen);
/* A condition holds when the change passes the threshold and the test does not call it noise ("not significant"). */
void pmc_fail_cond_eval(const struct pmc_compare *c, struct pmc_fail_cond *cond);

/* ---- merge ---- */
struct pmc_merge_rank {
	char file[256];
	long rank;                  /* from the report's origin; else its position among the files */
	char host[64];
	const char *state;          /* "ok", "failed", "partial", "unreadable" */
	char why[256];
	struct pmc_loaded data;
};

struct pmc_merge_row {
	char name[160];
	char region[64];            /* a REGION row's region */
	char unit[16];
	enum pmc_series_kind kind;
	size_t n;                   /* ranks that measured it */
	double total, min, mean, max, imbalance; /* imbalance = max / mean */
	long min_rank, max_rank;
};

struct pmc_merge {
	struct pmc_merge_rank *ranks;
	size_t nranks;
	struct pmc_merge_row *rows;
	size_t nrows;
	unsigned failed, partial, unreadable;
};

/* Sort the ranks by rank number and summarize every series (region series too: per region its calls and counts)
 * over the ranks that measured it. 0 or -ENOMEM. */
int pmc_merge_build(struct pmc_merge *m);
void pmc_merge_fini(struct pmc_merge *m);

#endif
