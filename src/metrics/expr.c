/* SPDX-License-Identifier: MIT */
/* Formula language: a recursive-descent parser into a node array, and an evaluator that reports n/a with a reason. */
#include "metrics/expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics/expr_internal.h"
#include "util/util.h"

enum tok_kind { T_END, T_NUM, T_NAME, T_QNAME, T_OP, T_LPAREN, T_RPAREN, T_COMMA, T_BAD, T_NOT };

struct tok {
	enum tok_kind kind;
	size_t start, len;      /* whole token in the source */
	size_t nstart, nlen;    /* the name inside quotes or braces */
	double num;
	int op;
	bool unescaped;         /* perf name: the name is the parser's pname, not the source span */
};

struct parser {
	const char *s;
	size_t pos;
	struct tok t;           /* current token */
	struct pmc_expr *e;
	char *err;
	size_t errlen;
	int depth;
	int rc;
	char pname[PMC_EXPR_NAME_MAX];
	bool perf;              /* perf's names: escapes, '@' PMU terms, '#' literals (pmc_expr_parse_perf) */
	size_t max_nodes;
};

static const struct {
	const char *name;
	enum func f;
	int minargs, maxargs;
} funcs[] = {
	{ "min", F_MIN, 1, PMC_EXPR_MAX_ARGS },
	{ "max", F_MAX, 1, PMC_EXPR_MAX_ARGS },
	{ "abs", F_ABS, 1, 1 },
	{ "if", F_IF, 3, 3 },
	{ "d_ratio", F_D_RATIO, 2, 2 },
	{ "source_count", F_SOURCE_COUNT, 1, 1 },
	{ "has_event", F_HAS_EVENT, 1, 1 },
};

static void fail(struct parser *p, int rc, size_t col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail(struct parser *p, int rc, size_t col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->rc)
		return;
	p->rc = rc;
	if (!p->err || !p->errlen)
		return;
	n = snprintf(p->err, p->errlen, "column %zu: ", col + 1);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static bool is_name_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == ':';
}

/* perf's metric language also has '@' (PMU terms: cpu@EVENT\,cmask\=1@), '?' and '\' escapes in names. */
static bool is_perf_name_char(int c)
{
	return is_name_char(c) || c == '@' || c == '?' || c == '\\';
}

/* A perf name: [A-Za-z_#@\\] then name characters, '\\' taking the next character as it is. The name, unescaped,
 * goes to buf (the token keeps the source span). */
static void lex_perf_name(struct parser *p, struct tok *t)
{
	const char *s = p->s;
	size_t j = p->pos, n = 0;
	char *buf = p->pname;

	if (s[j] == '#')
		buf[n++] = s[j++];
	while (s[j] && (is_perf_name_char((unsigned char)s[j]) || (s[j] == '\\') || s[j] == '[')) {
		if (s[j] == '[') { /* perfmon's instance index, a[0]: kept in the name */
			size_t k = j + 1;

			while (isdigit((unsigned char)s[k]))
				k++;
			if (k == j + 1 || s[k] != ']' || n + (k + 1 - j) >= sizeof(p->pname))
				break;
			memcpy(buf + n, s + j, k + 1 - j);
			n += k + 1 - j;
			j = k + 1;
			continue;
		}
		if (s[j] == '\\') {
			if (!s[j + 1] || isspace((unsigned char)s[j + 1])) {
				fail(p, -EINVAL, j, "'\\' at the end of a name: it escapes the character after it");
				t->kind = T_BAD;
				return;
			}
			j++;
		}
		if (n + 1 >= sizeof(p->pname)) {
			fail(p, -E2BIG, p->pos, "name '%.40s...' is longer than %zu characters", s + p->pos,
			     sizeof(p->pname) - 1);
			t->kind = T_BAD;
			return;
		}
		buf[n++] = s[j++];
	}
	buf[n] = '\0';
	if (n == 1 && buf[0] == '#') {
		fail(p, -EINVAL, p->pos, "'#' starts a literal such as #smt_on or #slots: a name must follow it");
		t->kind = T_BAD;
		return;
	}
	t->kind = T_NAME;
	t->nstart = p->pos;
	t->nlen = n;
	t->len = j - p->pos;
	t->unescaped = true;
}

/* A short, printable rendering of the token for error messages. */
static const char *tok_text(const struct parser *p, const struct tok *t, char *buf, size_t len)
{
	size_t n;

	if (t->kind == T_END)
		return "the end of the formula";
	n = t->len < 40 ? t->len : 40;
	snprintf(buf, len, "'%.*s%s'", (int)n, p->s + t->start, t->len > n ? "..." : "");
	return buf;
}

static void lex_number(struct parser *p, struct tok *t)
{
	const char *s = p->s;
	size_t i = p->pos;
	char buf[64];

	if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		uint64_t v = 0;
		size_t j = i + 2;

		while (isxdigit((unsigned char)s[j])) {
			int d = isdigit((unsigned char)s[j]) ? s[j] - '0' : tolower((unsigned char)s[j]) - 'a' + 10;
			if (v > (UINT64_MAX >> 4)) {
				fail(p, -EINVAL, i, "hex number '%.*s' is too large", (int)PMC_MIN(j - i + 1, 40),
					s + i);
				t->kind = T_BAD;
				return;
			}
			v = (v << 4) | (uint64_t)d;
			j++;
		}
		if (j == i + 2) {
			fail(p, -EINVAL, i, "'0x' needs hex digits after it");
			t->kind = T_BAD;
			return;
		}
		t->num = (double)v;
		t->len = j - i;
	} else {
		size_t j = i;

		while (isdigit((unsigned char)s[j]))
			j++;
		if (s[j] == '.')
			for (j++; isdigit((unsigned char)s[j]); j++)
				;
		if ((s[j] == 'e' || s[j] == 'E') &&
		    (isdigit((unsigned char)s[j + 1]) ||
		     ((s[j + 1] == '+' || s[j + 1] == '-') && isdigit((unsigned char)s[j + 2])))) {
			for (j += 2; isdigit((unsigned char)s[j]); j++)
				;
		}
		if (j - i >= sizeof(buf) || (j - i == 1 && s[i] == '.')) {
			fail(p, -EINVAL, i, "bad number '%.*s'", (int)PMC_MIN(j - i, 40), s + i);
			t->kind = T_BAD;
			return;
		}
		memcpy(buf, s + i, j - i);
		buf[j - i] = '\0';
		t->num = strtod(buf, NULL);
		if (!isfinite(t->num)) {
			fail(p, -EINVAL, i, "number '%s' is out of range", buf);
			t->kind = T_BAD;
			return;
		}
		t->len = j - i;
	}
	if (is_name_char((unsigned char)s[i + t->len])) {
		fail(p, -EINVAL, i, "'%.*s' is neither a number nor a name (names start with a letter or '_'; "
		     "write other names in braces: {%.*s})", (int)PMC_MIN(t->len + 1, 40), s + i,
		     (int)PMC_MIN(t->len + 1, 40), s + i);
		t->kind = T_BAD;
		return;
	}
	t->kind = T_NUM;
}

static void lex_quoted(struct parser *p, struct tok *t, char close)
{
	const char *s = p->s;
	size_t i = p->pos + 1;

	while (s[i] && s[i] != close && s[i] != '{' && !(close == '}' && s[i] == '"'))
		i++;
	if (s[i] != close) {
		fail(p, -EINVAL, p->pos, "%c opened here is not closed by %c", s[p->pos], close);
		t->kind = T_BAD;
		return;
	}
	t->nstart = p->pos + 1;
	t->nlen = i - t->nstart;
	while (t->nlen && isspace((unsigned char)s[t->nstart])) {
		t->nstart++;
		t->nlen--;
	}
	while (t->nlen && isspace((unsigned char)s[t->nstart + t->nlen - 1]))
		t->nlen--;
	if (!t->nlen) {
		fail(p, -EINVAL, p->pos, "empty name in %c%c", s[p->pos], close);
		t->kind = T_BAD;
		return;
	}
	t->kind = T_QNAME;
	t->len = i + 1 - p->pos;
}

/* Read the next token into p->t. */
static void next(struct parser *p)
{
	const char *s = p->s;
	struct tok *t = &p->t;
	static const char *const two[] = { "<=", ">=", "==", "!=" };
	static const int two_op[] = { OP_LE, OP_GE, OP_EQ, OP_NE };

	while (isspace((unsigned char)s[p->pos]))
		p->pos++;
	memset(t, 0, sizeof(*t));
	t->start = p->pos;
	t->len = 1;
	if (!s[p->pos]) {
		t->kind = T_END;
		t->len = 0;
		return;
	}
	if (isdigit((unsigned char)s[p->pos]) || (s[p->pos] == '.' && isdigit((unsigned char)s[p->pos + 1]))) {
		lex_number(p, t);
	} else if (p->perf && (is_name_start((unsigned char)s[p->pos]) || s[p->pos] == '#' || s[p->pos] == '@' ||
				s[p->pos] == '\\')) {
		lex_perf_name(p, t);
	} else if (is_name_start((unsigned char)s[p->pos])) {
		size_t j = p->pos;
		while (is_name_char((unsigned char)s[j]))
			j++;
		t->kind = T_NAME;
		t->nstart = p->pos;
		t->nlen = t->len = j - p->pos;
	} else if (s[p->pos] == '{') {
		lex_quoted(p, t, '}');
	} else if (s[p->pos] == '"') {
		lex_quoted(p, t, '"');
	} else {
		t->kind = T_OP;
		for (size_t k = 0; k < PMC_ARRAY_SIZE(two); k++) {
			size_t gap = 0;

			/* perfmon writes "> =" at times: in perf's language the space is allowed */
			while (p->perf && s[p->pos] == two[k][0] && (s[p->pos + 1 + gap] == ' ' || s[p->pos + 1 + gap] == '\t'))
				gap++;
			if (s[p->pos] == two[k][0] && s[p->pos + 1 + gap] == two[k][1]) {
				t->op = two_op[k];
				t->len = 2 + gap;
				p->pos += 2 + gap;
				return;
			}
		}
		switch (s[p->pos]) {
		case '+': t->op = OP_ADD; break;
		case '-': t->op = OP_SUB; break;
		case '*': t->op = OP_MUL; break;
		case '/': t->op = OP_DIV; break;
		case '%': t->op = OP_MOD; break;
		case '&': t->op = OP_AND; break;
		case '^': t->op = OP_XOR; break;
		case '|': t->op = OP_OR; break;
		case '!': t->kind = T_NOT; break;
		case '<': t->op = OP_LT; break;
		case '>': t->op = OP_GT; break;
		case '(': t->kind = T_LPAREN; break;
		case ')': t->kind = T_RPAREN; break;
		case ',': t->kind = T_COMMA; break;
		default:
			fail(p, -EINVAL, p->pos, "unexpected character '%c'%s", isprint((unsigned char)s[p->pos]) ?
			     s[p->pos] : '?', s[p->pos] == '}' ? " (a '}' with no '{')" : "");
			t->kind = T_BAD;
		}
	}
	if (t->kind != T_BAD)
		p->pos = t->start + t->len;
}

static int new_node(struct parser *p, enum node_kind kind, size_t start, size_t end)
{
	struct pmc_expr *e = p->e;
	struct node *n;

	if (e->nnodes >= p->max_nodes) {
		fail(p, -E2BIG, start, "formula has more than %zu operands and operators", p->max_nodes);
		return -1;
	}
	if (e->nnodes == e->capnodes) {
		size_t cap = e->capnodes ? 2 * e->capnodes : 16;

		n = realloc(e->nodes, cap * sizeof(*n));
		if (!n) {
			fail(p, -ENOMEM, start, "out of memory");
			return -1;
		}
		e->nodes = n;
		e->capnodes = cap;
	}
	n = e->nodes + e->nnodes;
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->start = (unsigned)start;
	n->len = (unsigned)(end - start);
	return (int)e->nnodes++;
}

static int intern_name(struct parser *p, const char *s, size_t len)
{
	struct pmc_expr *e = p->e;
	char **names;

	if (len >= PMC_EXPR_NAME_MAX) {
		fail(p, -E2BIG, 0, "name '%.40s...' is longer than %d characters", s, PMC_EXPR_NAME_MAX - 1);
		return -1;
	}
	for (size_t i = 0; i < e->nnames; i++)
		if (strlen(e->names[i]) == len && !strncmp(e->names[i], s, len))
			return (int)i;
	names = realloc(e->names, (e->nnames + 1) * sizeof(*names));
	if (!names || !(names[e->nnames] = strndup(s, len))) {
		if (names)
			e->names = names;
		fail(p, -ENOMEM, 0, "out of memory");
		return -1;
	}
	e->names = names;
	return (int)e->nnames++;
}

static int parse_top(struct parser *p);

/* One level of nesting as the user writes it (a parenthesis, a function's arguments, a unary sign): at most
 * PMC_EXPR_MAX_DEPTH, the limit pmctool-events(5) gives. 0, or -1 after the message. */
static int nest(struct parser *p, size_t at)
{
	int max = p->perf ? PMC_EXPR_PERF_MAX_DEPTH : PMC_EXPR_MAX_DEPTH;

	if (++p->depth > max) {
		fail(p, -E2BIG, at, "formula is nested more than %d levels deep (parentheses, functions and signs "
		     "each count one)", max);
		return -1;
	}
	return 0;
}

/* A function node over args (node indices) spanning [start, end). */
static int call_node(struct parser *p, enum func f, const int *args, int nargs, size_t start, size_t end)
{
	int idx = new_node(p, N_CALL, start, end);
	int *argv;

	if (idx < 0)
		return -1;
	argv = realloc(p->e->argv, (p->e->nargv + (size_t)nargs) * sizeof(*argv));
	if (!argv) {
		fail(p, -ENOMEM, start, "out of memory");
		return -1;
	}
	p->e->argv = argv;
	memcpy(argv + p->e->nargv, args, (size_t)nargs * sizeof(*args));
	p->e->nodes[idx].op = f;
	p->e->nodes[idx].args = (int)p->e->nargv;
	p->e->nodes[idx].nargs = nargs;
	p->e->nargv += (size_t)nargs;
	return idx;
}

static int parse_call(struct parser *p, size_t start, size_t nlen)
{
	int fi = -1, idx, args[PMC_EXPR_MAX_ARGS], nargs = 0;
	char tb[64];

	for (size_t k = 0; k < PMC_ARRAY_SIZE(funcs); k++)
		if (strlen(funcs[k].name) == nlen && !strncasecmp(funcs[k].name, p->s + start, nlen))
			fi = (int)k;
	if (fi < 0) {
		fail(p, -EINVAL, start, "unknown function '%.*s' (functions: min, max, abs, if, d_ratio, source_count, "
		     "has_event; an event name is not "
		     "followed by '(')", (int)PMC_MIN(nlen, 40), p->s + start);
		return -1;
	}
	if (nest(p, start))
		return -1;
	next(p); /* '(' */
	for (;;) {
		if (nargs == PMC_EXPR_MAX_ARGS) {
			fail(p, -E2BIG, p->t.start, "%s() takes at most %d arguments", funcs[fi].name,
				PMC_EXPR_MAX_ARGS);
			return -1;
		}
		args[nargs] = parse_top(p);
		if (args[nargs++] < 0)
			return -1; /* the parse is over: depth no longer matters */
		if (p->t.kind == T_COMMA) {
			next(p);
			continue;
		}
		if (p->t.kind == T_RPAREN) {
			p->depth--;
			break;
		}
		fail(p, -EINVAL, p->t.start, "expected ',' or ')' in %s(...), found %s", funcs[fi].name,
		     tok_text(p, &p->t, tb, sizeof(tb)));
		return -1;
	}
	if (nargs < funcs[fi].minargs || nargs > funcs[fi].maxargs) {
		fail(p, -EINVAL, start, "%s() takes %d%s argument%s, got %d", funcs[fi].name, funcs[fi].minargs,
		     funcs[fi].maxargs > funcs[fi].minargs ? " or more" : "", funcs[fi].minargs == 1 ? "" : "s", nargs);
		return -1;
	}
	if ((funcs[fi].f == F_SOURCE_COUNT || funcs[fi].f == F_HAS_EVENT) && p->e->nodes[args[0]].kind != N_NAME) {
		fail(p, -EINVAL, start, "%s() takes an event name", funcs[fi].name);
		return -1;
	}
	idx = call_node(p, funcs[fi].f, args, nargs, start, p->t.start + 1);
	if (idx >= 0)
		next(p); /* ')' */
	return idx;
}

static int parse_unary(struct parser *p);
static bool keyword(const struct parser *p, const struct tok *t, const char *w);

static int parse_primary(struct parser *p)
{
	struct tok t = p->t;
	char tb[64];
	int idx;

	switch (t.kind) {
	case T_NUM:
		idx = new_node(p, N_NUM, t.start, t.start + t.len);
		if (idx >= 0)
			p->e->nodes[idx].num = t.num;
		next(p);
		return idx;
	case T_NAME:
	case T_QNAME: {
		char name[PMC_EXPR_NAME_MAX];
		const char *src = t.unescaped ? p->pname : p->s + t.nstart;
		size_t n = strnlen(src, PMC_MIN(t.nlen, sizeof(name) - 1)); /* memcpy: snprintf cost more than the parse */

		memcpy(name, src, n);
		name[n] = '\0';
		next(p);
		if (t.kind == T_NAME && !t.unescaped && p->t.kind == T_LPAREN)
			return parse_call(p, t.start, t.len);
		if (t.kind == T_NAME && t.unescaped && p->t.kind == T_LPAREN && !strchr(name, '\\') &&
		    t.nlen == t.len)
			return parse_call(p, t.start, t.len);
		if (keyword(p, &t, "if") || keyword(p, &t, "else")) {
			fail(p, -EINVAL, t.start, "'%.*s' where a number, a name or '(' was expected (Python's A if COND "
			     "else B, or if(COND, A, B))", (int)t.len, p->s + t.start);
			return -1;
		}
		idx = new_node(p, N_NAME, t.start, t.start + t.len);
		if (idx >= 0 && (p->e->nodes[idx].name = intern_name(p, name, t.nlen)) < 0)
			return -1;
		return idx;
	}
	case T_LPAREN:
		if (nest(p, t.start))
			return -1;
		next(p);
		idx = parse_top(p);
		p->depth--;
		if (idx < 0)
			return -1;
		if (p->t.kind != T_RPAREN) {
			fail(p, -EINVAL, p->t.start, "expected ')' to close the '(' at column %zu, found %s",
				t.start + 1,
			     tok_text(p, &p->t, tb, sizeof(tb)));
			return -1;
		}
		p->e->nodes[idx].start = (unsigned)t.start;
		p->e->nodes[idx].len = (unsigned)(p->t.start + 1 - t.start);
		next(p);
		return idx;
	case T_BAD:
		return -1;
	default:
		fail(p, -EINVAL, t.start, "expected a number, a name or '(', found %s",
		     tok_text(p, &t, tb, sizeof(tb)));
		return -1;
	}
}

static int parse_unary(struct parser *p)
{
	int idx, a;
	size_t start = p->t.start;

	if (p->t.kind == T_NOT) {
		if (nest(p, start))
			return -1;
		next(p);
		a = parse_unary(p);
		p->depth--;
		if (a < 0)
			return a;
		idx = new_node(p, N_NOT, start, p->e->nodes[a].start + p->e->nodes[a].len);
		if (idx >= 0)
			p->e->nodes[idx].a = a;
	} else if (p->t.kind == T_OP && (p->t.op == OP_SUB || p->t.op == OP_ADD)) {
		bool neg = p->t.op == OP_SUB;

		if (nest(p, start))
			return -1;
		next(p);
		a = parse_unary(p);
		p->depth--;
		if (a < 0 || !neg)
			return a;
		idx = new_node(p, N_NEG, start, p->e->nodes[a].start + p->e->nodes[a].len);
		if (idx >= 0)
			p->e->nodes[idx].a = a;
	} else {
		idx = parse_primary(p);
	}
	return idx;
}

/* One left-associative binary level: operators in [lo, hi]. */
static int parse_binary(struct parser *p, int lo, int hi, int (*sub)(struct parser *))
{
	int left = sub(p);

	while (left >= 0 && p->t.kind == T_OP && p->t.op >= lo && p->t.op <= hi) {
		int op = p->t.op, right, idx;
		size_t start = p->e->nodes[left].start;

		next(p);
		right = sub(p);
		if (right < 0)
			return -1;
		idx = new_node(p, N_BIN, start, p->e->nodes[right].start + p->e->nodes[right].len);
		if (idx < 0)
			return -1;
		p->e->nodes[idx].op = op;
		p->e->nodes[idx].a = left;
		p->e->nodes[idx].b = right;
		left = idx;
	}
	return left;
}

static int parse_mul(struct parser *p)
{
	return parse_binary(p, OP_MUL, OP_MOD, parse_unary);
}

static int parse_add(struct parser *p)
{
	return parse_binary(p, OP_ADD, OP_SUB, parse_mul);
}

static int parse_cmp(struct parser *p)
{
	return parse_binary(p, OP_LT, OP_NE, parse_add);
}

/* perf's logical operators, loosest last: & (both non-zero), ^ (one of them), | (either); each 1 or 0. */
static int parse_and(struct parser *p)
{
	return parse_binary(p, OP_AND, OP_AND, parse_cmp);
}

static int parse_xor(struct parser *p)
{
	return parse_binary(p, OP_XOR, OP_XOR, parse_and);
}

static int parse_or(struct parser *p)
{
	return parse_binary(p, OP_OR, OP_OR, parse_xor);
}

/* Whether token t is the bare word w (perf's if / else; never a quoted or escaped name). */
static bool keyword(const struct parser *p, const struct tok *t, const char *w)
{
	size_t n = strlen(w);

	return t->kind == T_NAME && t->len == n && t->nlen == n && !strncasecmp(p->s + t->start, w, n);
}

/* Python's (and perf's) A if COND else B, the loosest of all, right-associative: if(COND, A, B). */
static int parse_top(struct parser *p)
{
	int a = parse_or(p), args[3], idx;
	size_t start;
	char tb[64];

	if (a < 0 || !keyword(p, &p->t, "if"))
		return a;
	start = p->e->nodes[a].start;
	if (nest(p, p->t.start))
		return -1;
	next(p);
	if ((args[0] = parse_or(p)) < 0)
		return -1;
	if (!keyword(p, &p->t, "else")) {
		fail(p, -EINVAL, p->t.start, "expected 'else' after A if COND, found %s", tok_text(p, &p->t, tb,
		     sizeof(tb)));
		return -1;
	}
	next(p);
	args[1] = a;
	if ((args[2] = parse_top(p)) < 0)
		return -1;
	p->depth--;
	idx = call_node(p, F_IF, args, 3, start, p->e->nodes[args[2]].start + p->e->nodes[args[2]].len);
	return idx;
}

static int parse(const char *src, bool perf, struct pmc_expr **ret, char *err, size_t errlen)
{
	struct parser p = { .s = src, .err = err, .errlen = errlen, .perf = perf,
			    .max_nodes = perf ? PMC_EXPR_PERF_MAX_NODES : PMC_EXPR_MAX_NODES };
	size_t len = strlen(src), max = perf ? PMC_EXPR_PERF_MAX_LEN : PMC_EXPR_MAX_LEN;
	char tb[64];

	if (err && errlen)
		err[0] = '\0';
	if (len > max) {
		fail(&p, -E2BIG, max, "formula is longer than %zu characters", max);
		return p.rc;
	}
	p.e = calloc(1, sizeof(*p.e));
	if (!p.e || !(p.e->src = strdup(src))) {
		free(p.e);
		return -ENOMEM;
	}
	p.s = p.e->src;
	next(&p);
	if (p.t.kind == T_END)
		fail(&p, -EINVAL, 0, "empty formula");
	else
		p.e->root = parse_top(&p);
	if (!p.rc && p.t.kind != T_END)
		fail(&p, -EINVAL, p.t.start, "unexpected %s after a complete formula (missing operator?)",
		     tok_text(&p, &p.t, tb, sizeof(tb)));
	if (p.rc) {
		pmc_expr_free(p.e);
		return p.rc;
	}
	*ret = p.e;
	return 0;
}

int pmc_expr_parse(const char *src, struct pmc_expr **ret, char *err, size_t errlen)
{
	return parse(src, false, ret, err, errlen);
}

/* The shared parses: a hash of their source texts, chained; they live as long as the process. */
#define SHARED_BUCKETS 64
static struct shared_expr {
	struct shared_expr *next;
	struct pmc_expr *e;
} *shared[SHARED_BUCKETS];
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

int pmc_expr_parse_shared(const char *src, const struct pmc_expr **ret, char *err, size_t errlen)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	struct shared_expr *s;
	struct pmc_expr *e;
	int rc;

	for (const char *c = src; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	pthread_mutex_lock(&shared_lock);
	for (s = shared[h % SHARED_BUCKETS]; s && strcmp(s->e->src, src); s = s->next)
		;
	pthread_mutex_unlock(&shared_lock);
	if (s) {
		if (err && errlen)
			err[0] = '\0';
		*ret = s->e;
		return 0;
	}
	rc = pmc_expr_parse(src, &e, err, errlen);
	if (rc)
		return rc;
	s = malloc(sizeof(*s));
	if (!s) {
		pmc_expr_free(e);
		return -ENOMEM;
	}
	s->e = e;
	pthread_mutex_lock(&shared_lock); /* two threads parsing one text at once keep both: the first stays found */
	s->next = shared[h % SHARED_BUCKETS];
	shared[h % SHARED_BUCKETS] = s;
	pthread_mutex_unlock(&shared_lock);
	*ret = e;
	return 0;
}

int pmc_expr_parse_perf(const char *src, struct pmc_expr **ret, char *err, size_t errlen)
{
	return parse(src, true, ret, err, errlen);
}

const char *pmc_expr_func_name(int f)
{
	for (size_t k = 0; k < PMC_ARRAY_SIZE(funcs); k++)
		if ((int)funcs[k].f == f)
			return funcs[k].name;
	return "?";
}

size_t pmc_expr_name_count(const struct pmc_expr *e)
{
	return e->nnames;
}

const char *pmc_expr_name(const struct pmc_expr *e, size_t i)
{
	return i < e->nnames ? e->names[i] : NULL;
}

const char *pmc_expr_source(const struct pmc_expr *e)
{
	return e->src;
}

void pmc_expr_free(struct pmc_expr *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->nnames; i++)
		free(e->names[i]);
	free(e->names);
	free(e->nodes);
	free(e->argv);
	free(e->src);
	free(e);
}
