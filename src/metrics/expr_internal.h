/* SPDX-License-Identifier: MIT */
/* Private to src/metrics/expr*.c: the parsed formula (expr.c parses, expr_eval.c evaluates, folds and writes back). */
#ifndef PMC_METRICS_EXPR_INTERNAL_H
#define PMC_METRICS_EXPR_INTERNAL_H

#include <stddef.h>

#include "metrics/expr.h"

enum node_kind { N_NUM, N_NAME, N_NEG, N_NOT, N_BIN, N_CALL };
enum bin_op { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_XOR,
	      OP_OR };
enum func { F_MIN, F_MAX, F_ABS, F_IF, F_D_RATIO, F_SOURCE_COUNT, F_HAS_EVENT };

struct node {
	enum node_kind kind;
	int op;                 /* enum bin_op for N_BIN, enum func for N_CALL */
	double num;
	int name;               /* index into names for N_NAME */
	int a, b;               /* operands: node indices */
	int args, nargs;        /* N_CALL: first index into argv, count */
	unsigned start, len;    /* source span, for reasons */
};

struct pmc_expr {
	char *src;
	struct node *nodes;
	size_t nnodes, capnodes;        /* nodes grow by doubling: one realloc per node cost more than the parse */
	int *argv;
	size_t nargv;
	char **names;
	size_t nnames;
	int root;
};

/* A function's name as the language spells it. */
const char *pmc_expr_func_name(int f);

#endif
