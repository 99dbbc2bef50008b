/* SPDX-License-Identifier: MIT */
/*
 * The formula language of metrics and checks (documented in pmctool-events(5)):
 *   numbers       12, 1.5, 1e9, 0x1f
 *   names         [A-Za-z_][A-Za-z0-9_.:]*  (instructions, UOPS_ISSUED:ANY, uops_issued.any, TSC_HZ)
 *   quoted names  {anything but braces} or "anything but quotes": {ref-cycles}, {msr/tsc/}, {uops_issued.any>=2}
 *   operators     + - * / and unary -, comparisons < <= > >= == != (1 or 0), parentheses
 *   operators     + - * / and unary -, comparisons < <= > >= == != (1 or 0), parentheses; perf's % (of the
 *                 whole parts), & ^ | (logical and, xor, or: 1 or 0) and unary ! (1 for 0)
 *   functions     min(a, b, ...), max(a, b, ...), abs(a), if(cond, then, else) (only the chosen branch is evaluated),
 *                 d_ratio(a, b) (a / b, 0 when b is 0), source_count(EVENT) (1: each event pmctool counts is one
 *                 source), has_event(EVENT) (1 when EVENT has a value, else 0)
 *   conditional   A if COND else B (Python's and perf's; the loosest operator, right-associative): if(COND, A, B)
 * Names are looked up when evaluated, through a callback: events, constants, earlier metrics.
 * pmc_expr_parse_perf reads perf's metric language (tools/perf's MetricExpr): the same grammar, with perf's names:
 * '\\' escapes the character after it (topdown\\-fe\\-bound), '@' is a name character (cpu@EVENT\\,cmask\\=1@: a
 * PMU's event with terms), '#' starts a literal (#smt_on, #slots). Names are kept unescaped.
 */
#ifndef PMC_METRICS_EXPR_H
#define PMC_METRICS_EXPR_H

#include <stddef.h>

#define PMC_EXPR_MAX_LEN 8192   /* characters in one formula */
#define PMC_EXPR_MAX_DEPTH 128  /* nesting of parentheses, functions and unary operators (perf's limit too) */
#define PMC_EXPR_MAX_NODES 1024 /* operands and operators in one formula */
#define PMC_EXPR_NAME_MAX 256   /* characters in one name, the NUL included */
/* perf's language (vendor tables: Intel's perfmon formulas are written out in full, up to 34,000 characters) */
#define PMC_EXPR_PERF_MAX_LEN 65536
#define PMC_EXPR_PERF_MAX_DEPTH PMC_EXPR_MAX_DEPTH
#define PMC_EXPR_PERF_MAX_NODES 32768
#define PMC_EXPR_MAX_ARGS 32    /* arguments of min / max */

struct pmc_expr;

/*
 * Look up one name. Return 0 and set *ret, or a negative errno-style value and write a one-line reason
 * ("event 'cycles' was not counted: ...") into reason (reasonlen bytes, NUL-terminated).
 */
typedef int (*pmc_expr_lookup_fn)(const char *name, void *ctx, double *ret, char *reason, size_t reasonlen);

/*
 * Parse src. 0 and *ret (free with pmc_expr_free), or -EINVAL (syntax), -E2BIG (a limit above), -ENOMEM.
 * On failure err holds "column N: what is wrong, naming the offending text"; *ret is not written.
 */
int pmc_expr_parse(const char *src, struct pmc_expr **ret, char *err, size_t errlen);

/*
 * As pmc_expr_parse, the result shared: parsed once per process and kept (never freed by the caller), for formulas
 * evaluated again and again (the default metrics of every run of -r, the per-run and region views). Thread-safe.
 */
int pmc_expr_parse_shared(const char *src, const struct pmc_expr **ret, char *err, size_t errlen);

/* Parse src in perf's metric language (above). As pmc_expr_parse, with the PMC_EXPR_PERF_* limits. */
int pmc_expr_parse_perf(const char *src, struct pmc_expr **ret, char *err, size_t errlen);

/*
 * Evaluate. 0 and *ret (a finite number), or -ENODATA when the value is not available ("n/a"): a name's lookup
 * failed, a division by zero, a non-finite result. reason then says which name or which denominator and why.
 */
int pmc_expr_eval(const struct pmc_expr *e, pmc_expr_lookup_fn lookup, void *ctx, double *ret,
		  char *reason, size_t reasonlen);

/* The distinct names the formula references, in order of first use (case kept as written). */
size_t pmc_expr_name_count(const struct pmc_expr *e);
const char *pmc_expr_name(const struct pmc_expr *e, size_t i);

/* The source text the formula was parsed from. */
const char *pmc_expr_source(const struct pmc_expr *e);

/* Write e back as pmctool's formula text (fully parenthesized) into buf. Each name is written by fn (into out, outlen
 * bytes: the text in its place, e.g. "{cpu/event=0x3c/}" or a number); fn NULL writes {NAME}. 0; -E2BIG when buf is
 * too small (buf is then ""); or fn's non-zero return (the rest is still written). */
typedef int (*pmc_expr_name_fn)(const char *name, void *ctx, char *out, size_t outlen);
int pmc_expr_render(const struct pmc_expr *e, pmc_expr_name_fn fn, void *ctx, char *buf, size_t len);

/* Fold each if(COND, A, B) (and A if COND else B) whose COND lookup can evaluate (perf's #smt_on, known when the plan
 * is made) to the branch it chooses, and forget the names only the other branch used (as perf does: the events of a
 * branch never taken are not counted). Names lookup fails for stay. 0 or -ENOMEM. */
int pmc_expr_prune(struct pmc_expr *e, pmc_expr_lookup_fn lookup, void *ctx);

/* Accepts NULL. */
void pmc_expr_free(struct pmc_expr *e);

#endif
