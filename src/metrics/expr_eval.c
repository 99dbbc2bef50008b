/* SPDX-License-Identifier: MIT */
/* Formula language: the evaluator (n/a with a reason), the folding of conditions known when a plan is made, and the
 * writing back as pmctool's formula text. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/expr.h"
#include "metrics/expr_internal.h"
#include "util/util.h"

struct eval {
	const struct pmc_expr *e;
	pmc_expr_lookup_fn lookup;
	void *ctx;
	char *reason;
	size_t reasonlen;
	bool pruning;           /* pmc_expr_prune: has_event() is not known before the events are counted */
};

static int eval_node(struct eval *ev, int i, double *ret);

static int eval_call(struct eval *ev, const struct node *n, double *ret)
{
	const int *argv = ev->e->argv + n->args;
	double v, acc = 0;
	int rc;

	if (n->op == F_IF) {
		if ((rc = eval_node(ev, argv[0], &v)))
			return rc;
		return eval_node(ev, v != 0 ? argv[1] : argv[2], ret);
	}
	if (n->op == F_HAS_EVENT && ev->pruning)
		return -ENODATA;
	if (n->op == F_HAS_EVENT) { /* 1 when the event has a value, 0 when not (never n/a) */
		*ret = eval_node(ev, argv[0], &v) == 0;
		if (ev->reasonlen)
			ev->reason[0] = '\0';
		return 0;
	}
	if (n->op == F_SOURCE_COUNT) { /* one source per event counted (the event must have a value) */
		if ((rc = eval_node(ev, argv[0], &v)))
			return rc;
		*ret = 1;
		return 0;
	}
	if (n->op == F_D_RATIO) { /* a / b, 0 when b is 0 (perf's) */
		double a;

		if ((rc = eval_node(ev, argv[0], &a)) || (rc = eval_node(ev, argv[1], &v)))
			return rc;
		*ret = v == 0 ? 0 : a / v;
		return 0;
	}
	for (int k = 0; k < n->nargs; k++) {
		if ((rc = eval_node(ev, argv[k], &v)))
			return rc;
		if (k == 0 || (n->op == F_MIN && v < acc) || (n->op == F_MAX && v > acc))
			acc = v;
	}
	*ret = n->op == F_ABS ? fabs(acc) : acc;
	return 0;
}

static int eval_node(struct eval *ev, int i, double *ret)
{
	const struct node *n = &ev->e->nodes[i];
	double a, b;
	int rc;

	switch (n->kind) {
	case N_NUM:
		*ret = n->num;
		return 0;
	case N_NAME:
		if (ev->reasonlen)
			ev->reason[0] = '\0';
		rc = ev->lookup(ev->e->names[n->name], ev->ctx, ret, ev->reason, ev->reasonlen);
		if (rc) {
			if (ev->reasonlen && !ev->reason[0])
				snprintf(ev->reason, ev->reasonlen, "'%s' is not available", ev->e->names[n->name]);
			return -ENODATA;
		}
		return 0;
	case N_NEG:
		if ((rc = eval_node(ev, n->a, &a)))
			return rc;
		*ret = -a;
		return 0;
	case N_NOT:
		if ((rc = eval_node(ev, n->a, &a)))
			return rc;
		*ret = a == 0;
		return 0;
	case N_CALL:
		return eval_call(ev, n, ret);
	case N_BIN:
		break;
	}
	if ((rc = eval_node(ev, n->a, &a)) || (rc = eval_node(ev, n->b, &b)))
		return rc;
	switch (n->op) {
	case OP_ADD: *ret = a + b; break;
	case OP_SUB: *ret = a - b; break;
	case OP_MUL: *ret = a * b; break;
	case OP_DIV:
		if (b == 0) {
			const struct node *d = &ev->e->nodes[n->b];
			const char *t = ev->e->src + d->start;

			if (strspn(t, "0123456789.eE+-") >= d->len)
				snprintf(ev->reason, ev->reasonlen, "division by zero: the formula divides by the constant "
					 "%.*s", (int)PMC_MIN(d->len, 100), t);
			else
				snprintf(ev->reason, ev->reasonlen, "division by zero: %.*s is 0",
					 (int)PMC_MIN(d->len, 100), t);
			return -ENODATA;
		}
		*ret = a / b;
		break;
	case OP_LT: *ret = a < b; break;
	case OP_LE: *ret = a <= b; break;
	case OP_GT: *ret = a > b; break;
	case OP_GE: *ret = a >= b; break;
	case OP_EQ: *ret = a == b; break;
	case OP_NE: *ret = a != b; break;
	case OP_AND: *ret = a != 0 && b != 0; break;
	case OP_XOR: *ret = (a != 0) != (b != 0); break;
	case OP_OR: *ret = a != 0 || b != 0; break;
	case OP_MOD: /* perf's: of the whole parts */
		if (trunc(b) == 0 || fabs(a) >= 9.2e18 || fabs(b) >= 9.2e18) {
			snprintf(ev->reason, ev->reasonlen, "%% by zero or out of range");
			return -ENODATA;
		}
		*ret = (double)((long long)trunc(a) % (long long)trunc(b));
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

int pmc_expr_eval(const struct pmc_expr *e, pmc_expr_lookup_fn lookup, void *ctx, double *ret,
		  char *reason, size_t reasonlen)
{
	struct eval ev = { e, lookup, ctx, reason, reasonlen, false };
	char dummy[1];
	double v;
	int rc;

	if (!reason || !reasonlen) {
		ev.reason = dummy;
		ev.reasonlen = sizeof(dummy);
	}
	ev.reason[0] = '\0';
	rc = eval_node(&ev, e->root, &v);
	if (rc)
		return rc;
	if (!isfinite(v)) {
		snprintf(ev.reason, ev.reasonlen, "the result is not a finite number (overflow)");
		return -ENODATA;
	}
	*ret = v;
	return 0;
}

static int prune_node(struct eval *ev, int i)
{
	struct node *n = &((struct pmc_expr *)ev->e)->nodes[i];
	int *argv = ev->e->argv;
	double v;

	switch (n->kind) {
	case N_NEG:
	case N_NOT:
		n->a = prune_node(ev, n->a);
		return i;
	case N_BIN:
		n->a = prune_node(ev, n->a);
		n->b = prune_node(ev, n->b);
		return i;
	case N_CALL:
		if (n->op == F_IF && eval_node(ev, argv[n->args], &v) == 0)
			return prune_node(ev, argv[n->args + (v != 0 ? 1 : 2)]);
		for (int k = 0; k < n->nargs; k++)
			argv[n->args + k] = prune_node(ev, argv[n->args + k]);
		return i;
	default:
		return i;
	}
}

static void mark_names(const struct pmc_expr *e, int i, bool *used)
{
	const struct node *n = &e->nodes[i];

	if (n->kind == N_NAME)
		used[n->name] = true;
	if (n->kind == N_NEG || n->kind == N_NOT || n->kind == N_BIN)
		mark_names(e, n->a, used);
	if (n->kind == N_BIN)
		mark_names(e, n->b, used);
	for (int k = 0; n->kind == N_CALL && k < n->nargs; k++)
		mark_names(e, e->argv[n->args + k], used);
}

int pmc_expr_prune(struct pmc_expr *e, pmc_expr_lookup_fn lookup, void *ctx)
{
	char reason[8];
	struct eval ev = { e, lookup, ctx, reason, sizeof(reason), true };
	bool *used = calloc(e->nnames + 1, sizeof(*used));
	int *map = calloc(e->nnames + 1, sizeof(*map));
	size_t kept = 0;

	if (!used || !map) {
		free(used);
		free(map);
		return -ENOMEM;
	}
	e->root = prune_node(&ev, e->root);
	mark_names(e, e->root, used);
	for (size_t i = 0; i < e->nnames; i++) {
		if (!used[i]) {
			free(e->names[i]);
			continue;
		}
		map[i] = (int)kept;
		e->names[kept++] = e->names[i];
	}
	e->nnames = kept;
	for (size_t i = 0; i < e->nnodes; i++)
		if (e->nodes[i].kind == N_NAME)
			e->nodes[i].name = used[e->nodes[i].name] ? map[e->nodes[i].name] : 0;
	free(used);
	free(map);
	return 0;
}

struct render {
	const struct pmc_expr *e;
	pmc_expr_name_fn fn;
	void *ctx;
	char *buf;
	size_t len, used;
	int rc;
};

static void put(struct render *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct render *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->rc)
		return;
	va_start(ap, fmt);
	n = vsnprintf(r->buf + r->used, r->len - r->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= r->len - r->used)
		r->rc = -E2BIG;
	else
		r->used += (size_t)n;
}

static void render_node(struct render *r, int i)
{
	static const char *const ops[] = { "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|" };
	const struct node *n = &r->e->nodes[i];
	char name[PMC_EXPR_NAME_MAX * 2];

	switch (n->kind) {
	case N_NUM: /* the shortest text that reads back as the same number (0.15, not 0.14999999999999999) */
		snprintf(name, sizeof(name), "%.15g", n->num);
		if (strtod(name, NULL) != n->num)
			snprintf(name, sizeof(name), "%.17g", n->num);
		put(r, "%s", name);
		return;
	case N_NAME:
		if (r->fn) {
			int rc = r->fn(r->e->names[n->name], r->ctx, name, sizeof(name));

			if (rc && !r->rc)
				r->rc = rc;
			put(r, "%s", name);
		} else {
			put(r, "{%s}", r->e->names[n->name]);
		}
		return;
	case N_NEG:
	case N_NOT:
		put(r, "%s(", n->kind == N_NEG ? "-" : "!");
		render_node(r, n->a);
		put(r, ")");
		return;
	case N_BIN:
		put(r, "(");
		render_node(r, n->a);
		put(r, " %s ", ops[n->op]);
		render_node(r, n->b);
		put(r, ")");
		return;
	case N_CALL:
		put(r, "%s(", pmc_expr_func_name(n->op));
		for (int k = 0; k < n->nargs; k++) {
			if (k)
				put(r, ", ");
			render_node(r, r->e->argv[n->args + k]);
		}
		put(r, ")");
		return;
	}
}

int pmc_expr_render(const struct pmc_expr *e, pmc_expr_name_fn fn, void *ctx, char *buf, size_t len)
{
	struct render r = { e, fn, ctx, buf, len, 0, 0 };

	if (!len)
		return -E2BIG;
	buf[0] = '\0';
	render_node(&r, e->root);
	if (r.rc)
		buf[0] = '\0';
	return r.rc;
}
