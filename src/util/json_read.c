/* SPDX-License-Identifier: MIT */
/* A recursive-descent JSON reader: the grammar of RFC 8259, nesting bounded, every error with its line and column. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json_read.h"

struct jp {
	const char *s;
	size_t len, pos;
	int depth;
	char *err;
	size_t errlen;
	int rc;
};

static int jp_fail(struct jp *p, int rc, const char *what)
{
	size_t line = 1, col = 1;

	if (p->rc)
		return p->rc;
	for (size_t i = 0; i < p->pos && i < p->len; i++) {
		if (p->s[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (p->err && p->errlen)
		snprintf(p->err, p->errlen, "line %zu, column %zu: %s", line, col, what);
	p->rc = rc;
	return rc;
}

static void skip_ws(struct jp *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static int peek(const struct jp *p)
{
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static struct pmc_jvalue *new_value(struct jp *p, enum pmc_jtype t)
{
	struct pmc_jvalue *v = calloc(1, sizeof(*v));

	if (!v)
		jp_fail(p, -ENOMEM, "out of memory");
	else
		v->type = t;
	return v;
}

static int hex4(struct jp *p, unsigned *ret)
{
	unsigned v = 0;

	if (p->len - p->pos < 4)
		return jp_fail(p, -EINVAL, "\\u needs four hex digits");
	for (int i = 0; i < 4; i++) {
		char c = p->s[p->pos++];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return jp_fail(p, -EINVAL, "\\u needs four hex digits");
	}
	*ret = v;
	return 0;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int escape(struct jp *p, char *out, size_t *o)
{
	char c = p->s[p->pos++];
	unsigned cp, lo;
	const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
	const char *k = strchr(from, c);

	if (c && k) {
		out[(*o)++] = to[k - from];
		return 0;
	}
	if (c != 'u')
		return jp_fail(p, -EINVAL, "unknown escape in a string");
	if (hex4(p, &cp))
		return p->rc;
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
			return jp_fail(p, -EINVAL, "a high surrogate without its low surrogate");
		p->pos += 2;
		if (hex4(p, &lo))
			return p->rc;
		if (lo < 0xdc00 || lo > 0xdfff)
			return jp_fail(p, -EINVAL, "a high surrogate without its low surrogate");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp <= 0xdfff) {
		return jp_fail(p, -EINVAL, "a lone low surrogate");
	}
	*o += put_utf8(out + *o, cp);
	return 0;
}

/* A string at p->pos (the opening quote); the decoded text is never longer than the source. */
static char *parse_string(struct jp *p)
{
	size_t start = ++p->pos, o = 0, end = start;
	char *out;

	while (end < p->len && p->s[end] != '"')
		end += p->s[end] == '\\' ? 2 : 1;
	if (end >= p->len) {
		jp_fail(p, -EINVAL, "a string is not closed");
		return NULL;
	}
	out = malloc(end - start + 1);
	if (!out) {
		jp_fail(p, -ENOMEM, "out of memory");
		return NULL;
	}
	while (p->pos < end) {
		unsigned char c = (unsigned char)p->s[p->pos];
		if (c < 0x20) {
			jp_fail(p, -EINVAL, "a control character in a string (escape it)");
			break;
		}
		if (c == '\\') {
			p->pos++;
			if (escape(p, out, &o))
				break;
			if (p->pos > end) {
				jp_fail(p, -EINVAL, "an escape runs past the end of its string");
				break;
			}
			continue;
		}
		out[o++] = (char)c;
		p->pos++;
	}
	if (p->rc) {
		free(out);
		return NULL;
	}
	out[o] = '\0';
	p->pos = end + 1;
	return out;
}

static int parse_number(struct jp *p, double *ret)
{
	size_t i = p->pos;
	char buf[64];

#define DIGITS(x) while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9') i++
	if (i < p->len && p->s[i] == '-')
		i++;
	if (i < p->len && p->s[i] == '0')
		i++;
	else if (i < p->len && p->s[i] >= '1' && p->s[i] <= '9')
		DIGITS(i);
	else
		return jp_fail(p, -EINVAL, "expected a value (number, string, object, array, true, false, null)");
	if (i < p->len && p->s[i] == '.') {
		size_t d = ++i;
		DIGITS(i);
		if (i == d)
			return jp_fail(p, -EINVAL, "a number needs digits after '.'");
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		size_t d;
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		d = i;
		DIGITS(i);
		if (i == d)
			return jp_fail(p, -EINVAL, "a number needs digits in its exponent");
	}
#undef DIGITS
	if (i - p->pos >= sizeof(buf))
		return jp_fail(p, -EINVAL, "a number longer than 63 characters");
	memcpy(buf, p->s + p->pos, i - p->pos);
	buf[i - p->pos] = '\0';
	*ret = strtod(buf, NULL);
	p->pos = i;
	return 0;
}

static struct pmc_jvalue *parse_value(struct jp *p);

static int push(struct jp *p, struct pmc_jvalue *c, struct pmc_jvalue *item, char *key)
{
	struct pmc_jvalue **items;
	char **keys;

	if ((c->n & (c->n - 1)) == 0) { /* grow at powers of two */
		size_t cap = c->n ? c->n * 2 : 4;
		items = realloc(c->items, cap * sizeof(*items));
		if (!items)
			goto nomem;
		c->items = items;
		if (c->type == PMC_J_OBJECT) {
			keys = realloc(c->keys, cap * sizeof(*keys));
			if (!keys)
				goto nomem;
			c->keys = keys;
		}
	}
	c->items[c->n] = item;
	if (c->type == PMC_J_OBJECT)
		c->keys[c->n] = key;
	c->n++;
	return 0;
nomem:
	pmc_json_free(item);
	free(key);
	return jp_fail(p, -ENOMEM, "out of memory");
}

static struct pmc_jvalue *parse_container(struct jp *p, enum pmc_jtype t)
{
	struct pmc_jvalue *c = new_value(p, t);
	char close = t == PMC_J_OBJECT ? '}' : ']';

	if (!c)
		return NULL;
	if (++p->depth > PMC_JSON_MAX_DEPTH) {
		jp_fail(p, -EINVAL, "nested deeper than 64 levels");
		goto bad;
	}
	p->pos++;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		p->depth--;
		return c;
	}
	for (;;) {
		char *key = NULL;
		struct pmc_jvalue *item;

		skip_ws(p);
		if (t == PMC_J_OBJECT) {
			if (peek(p) != '"') {
				jp_fail(p, -EINVAL, "expected a member name in quotes");
				goto bad;
			}
			if (!(key = parse_string(p)))
				goto bad;
			skip_ws(p);
			if (peek(p) != ':') {
				free(key);
				jp_fail(p, -EINVAL, "expected ':' after a member name");
				goto bad;
			}
			p->pos++;
		}
		item = parse_value(p);
		if (!item) {
			free(key);
			goto bad;
		}
		if (push(p, c, item, key))
			goto bad;
		skip_ws(p);
		if (peek(p) == ',') {
			p->pos++;
			continue;
		}
		if (peek(p) == close) {
			p->pos++;
			break;
		}
		jp_fail(p, -EINVAL, t == PMC_J_OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
		goto bad;
	}
	p->depth--;
	return c;
bad:
	pmc_json_free(c);
	return NULL;
}

static bool literal(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n))
		return false;
	p->pos += n;
	return true;
}

static struct pmc_jvalue *parse_value(struct jp *p)
{
	struct pmc_jvalue *v;
	int c;

	skip_ws(p);
	c = peek(p);
	if (c == '{')
		return parse_container(p, PMC_J_OBJECT);
	if (c == '[')
		return parse_container(p, PMC_J_ARRAY);
	if (c == '"') {
		char *s = parse_string(p);
		if (!s)
			return NULL;
		if (!(v = new_value(p, PMC_J_STRING)))
			free(s);
		else
			v->str = s;
		return v;
	}
	if (literal(p, "true") || literal(p, "false")) {
		if ((v = new_value(p, PMC_J_BOOL)))
			v->b = p->s[p->pos - 4] == 't'; /* "true" or "false": only true has 't' four back from the end */
		return v;
	}
	if (literal(p, "null"))
		return new_value(p, PMC_J_NULL);
	if (c < 0) {
		jp_fail(p, -EINVAL, "the document ends where a value should be");
		return NULL;
	}
	if (!(v = new_value(p, PMC_J_NUMBER)))
		return NULL;
	if (parse_number(p, &v->num)) {
		free(v);
		return NULL;
	}
	return v;
}

int pmc_json_parse(const char *text, size_t len, struct pmc_jvalue **ret, char *err, size_t errlen)
{
	struct jp p = { .s = text, .len = len, .err = err, .errlen = errlen };
	struct pmc_jvalue *v = parse_value(&p);

	if (v) {
		skip_ws(&p);
		if (p.pos < p.len) {
			jp_fail(&p, -EINVAL, "text after the document's end");
			pmc_json_free(v);
			v = NULL;
		}
	}
	if (!v)
		return p.rc ? p.rc : -EINVAL;
	*ret = v;
	return 0;
}

void pmc_json_free(struct pmc_jvalue *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		pmc_json_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const struct pmc_jvalue *pmc_json_get(const struct pmc_jvalue *v, const char *key)
{
	if (!v || v->type != PMC_J_OBJECT)
		return NULL;
	for (size_t i = v->n; i-- > 0;)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

double pmc_json_get_num(const struct pmc_jvalue *v, const char *key, double fallback)
{
	const struct pmc_jvalue *m = pmc_json_get(v, key);

	return m && m->type == PMC_J_NUMBER ? m->num : fallback;
}

const char *pmc_json_get_str(const struct pmc_jvalue *v, const char *key, const char *fallback)
{
	const struct pmc_jvalue *m = pmc_json_get(v, key);

	return m && m->type == PMC_J_STRING ? m->str : fallback;
}

bool pmc_json_get_bool(const struct pmc_jvalue *v, const char *key, bool fallback)
{
	const struct pmc_jvalue *m = pmc_json_get(v, key);

	return m && m->type == PMC_J_BOOL ? m->b : fallback;
}

size_t pmc_json_len(const struct pmc_jvalue *v)
{
	return v && v->type == PMC_J_ARRAY ? v->n : 0;
}

const struct pmc_jvalue *pmc_json_at(const struct pmc_jvalue *v, size_t i)
{
	return v && v->type == PMC_J_ARRAY && i < v->n ? v->items[i] : NULL;
}
