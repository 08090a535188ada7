/* The value of a preprocessor #if expression, where the source alone decides it. */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "ppexpr.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sourcewords.h"

/* Macro bodies expanded inside one another at most this deep, and at most
 * this many tokens in all: past either, the value is not known. */
#define MAX_EXPANSION_DEPTH 32
#define MAX_TOKENS 4096

enum tok_kind { TOK_NUM, TOK_UNKNOWN, TOK_OP };

struct tok {
	enum tok_kind kind;
	long long value;
	char op[3];
};

struct eval {
	pp_lookup_fn lookup;
	void *ctx;
	struct tok toks[MAX_TOKENS];
	size_t count, pos;
	bool bad;  /* unreadable: the whole value is not known */
};

/* A value, or none known. */
struct val {
	bool known;
	long long v;
};

static const char *const two_char_ops[] = { "&&", "||", "==", "!=", "<=", ">=", "<<", ">>" };

static void
push(struct eval *e, enum tok_kind kind, long long value, const char *op, size_t op_len)
{
	struct tok *t;

	if (e->count == MAX_TOKENS) {
		e->bad = true;
		return;
	}
	t = &e->toks[e->count++];
	t->kind = kind;
	t->value = value;
	memset(t->op, 0, sizeof(t->op));
	memcpy(t->op, op, op_len);
}

/* Skip blanks, comments and line continuations. */
static const char *
skip_blank(const char *p, const char *end)
{
	for (;;) {
		if (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v'))
			p++;
		else if (p + 1 < end && p[0] == '\\' && p[1] == '\n')
			p += 2;
		else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *q = p + 2;

			while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 1 < end ? q + 2 : end;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/')
			p = end;
		else
			return p;
	}
}

/* An integer literal at p (decimal, octal or hex, u and l suffixes). */
static const char *
scan_number(struct eval *e, const char *p, const char *end)
{
	char buf[64], *stop;
	size_t n = 0;
	unsigned long long v;

	while (p < end && (is_ident_char(*p) || *p == '.')) {
		if (n + 1 < sizeof(buf))
			buf[n++] = *p;
		else
			e->bad = true;
		p++;
	}
	buf[n] = '\0';
	v = strtoull(buf, &stop, 0);
	if (stop == buf || strspn(stop, "uUlL") != strlen(stop))
		e->bad = true;
	push(e, TOK_NUM, (long long)v, "", 0);
	return p;
}

/* Past the balanced parentheses at p, if any (a function-like macro's arguments). */
static const char *
skip_args(const char *p, const char *end)
{
	int depth = 0;

	p = skip_blank(p, end);
	if (p >= end || *p != '(')
		return p;
	for (; p < end; p++) {
		depth += *p == '(';
		depth -= *p == ')';
		if (depth == 0)
			return p + 1;
	}
	return p;
}

/* `defined X` or `defined ( X )`, p just past `defined`. */
static const char *
scan_defined(struct eval *e, const char *p, const char *end)
{
	const char *name, *body, *body_end;
	bool paren;
	enum tri d;

	p = skip_blank(p, end);
	paren = p < end && *p == '(';
	if (paren)
		p = skip_blank(p + 1, end);
	name = p;
	while (p < end && is_ident_char(*p))
		p++;
	if (p == name || !is_ident_start(*name)) {
		e->bad = true;
		return end;
	}
	d = e->lookup(e->ctx, name, (size_t)(p - name), &body, &body_end);
	p = skip_blank(p, end);
	if (paren) {
		if (p >= end || *p != ')')
			e->bad = true;
		else
			p++;
	}
	push(e, d == TRI_MAYBE ? TOK_UNKNOWN : TOK_NUM, d == TRI_YES, "", 0);
	return p;
}

static void scan(struct eval *e, const char *p, const char *end, unsigned depth);

/* An identifier: `defined`, a macro to expand, or 0. */
static const char *
scan_ident(struct eval *e, const char *p, const char *end, unsigned depth)
{
	const char *name = p, *body = NULL, *body_end = NULL;
	enum tri d;

	while (p < end && is_ident_char(*p))
		p++;
	if (p - name == 7 && strncmp(name, "defined", 7) == 0)
		return scan_defined(e, p, end);
	d = e->lookup(e->ctx, name, (size_t)(p - name), &body, &body_end);
	if (d == TRI_NO)
		push(e, TOK_NUM, 0, "", 0);
	else if (d == TRI_YES && body && depth < MAX_EXPANSION_DEPTH)
		scan(e, body, body_end, depth + 1);
	else {
		push(e, TOK_UNKNOWN, 0, "", 0);
		p = skip_args(p, end);
	}
	return p;
}

static void
scan(struct eval *e, const char *p, const char *end, unsigned depth)
{
	while (!e->bad && (p = skip_blank(p, end)) < end) {
		size_t i;

		if (*p >= '0' && *p <= '9') {
			p = scan_number(e, p, end);
		} else if (is_ident_start(*p)) {
			p = scan_ident(e, p, end, depth);
		} else if (*p == '\'') {
			/* A character constant: its value is the compiler's business. */
			for (p++; p < end && *p != '\''; p++)
				p += *p == '\\';
			push(e, TOK_UNKNOWN, 0, "", 0);
			p += p < end;
		} else {
			for (i = 0; i < sizeof(two_char_ops) / sizeof(two_char_ops[0]); i++)
				if (p + 1 < end && strncmp(p, two_char_ops[i], 2) == 0)
					break;
			if (i < sizeof(two_char_ops) / sizeof(two_char_ops[0])) {
				push(e, TOK_OP, 0, p, 2);
				p += 2;
			} else if (strchr("+-*/%<>!~&|^?:()", *p)) {
				push(e, TOK_OP, 0, p, 1);
				p++;
			} else {
				e->bad = true;
			}
		}
	}
}

static bool
is_op(const struct eval *e, const char *op)
{
	return e->pos < e->count && e->toks[e->pos].kind == TOK_OP && strcmp(e->toks[e->pos].op, op) == 0;
}

/* The binary operators, loosest first; 0: not one. */
static int
precedence(const char *op)
{
	static const char *const levels[] = { "||", "&&", "|", "^", "&", "== !=", "< > <= >=",
					      "<< >>", "+ -", "* / %" };

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		const char *l = levels[i], *hit;
		size_t n = strlen(op);

		for (hit = strstr(l, op); hit; hit = strstr(hit + 1, op))
			if ((hit == l || hit[-1] == ' ') && (hit[n] == '\0' || hit[n] == ' '))
				return (int)i + 1;
	}
	return 0;
}

static struct val parse_cond(struct eval *e);

static struct val
parse_unary(struct eval *e)
{
	struct val v = { false, 0 };
	const struct tok *t;

	if (e->pos >= e->count) {
		e->bad = true;
		return v;
	}
	t = &e->toks[e->pos++];
	if (t->kind == TOK_NUM)
		return (struct val){ true, t->value };
	if (t->kind == TOK_UNKNOWN)
		return v;
	if (strcmp(t->op, "(") == 0) {
		v = parse_cond(e);
		if (!is_op(e, ")"))
			e->bad = true;
		e->pos++;
		return v;
	}
	if (!strchr("!~-+", t->op[0]) || t->op[1]) {
		e->bad = true;
		return v;
	}
	char op = t->op[0];

	v = parse_unary(e);
	if (v.known)
		v.v = op == '!' ? !v.v : op == '~' ? ~v.v :
		      op == '-' ? (long long)(0ULL - (unsigned long long)v.v) : v.v;
	return v;
}

/* a op b, both known. */
static struct val
apply(const char *op, long long a, long long b)
{
	unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
	struct val none = { false, 0 };
	long long r;

	if (strcmp(op, "/") == 0 || strcmp(op, "%") == 0) {
		if (b == 0 || (a == LLONG_MIN && b == -1))
			return none;
		r = op[0] == '/' ? a / b : a % b;
	} else if (strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0) {
		if (b < 0 || b > 63)
			return none;
		r = op[0] == '<' ? (long long)(ua << b) : a >> b;
	} else if (strcmp(op, "+") == 0) {
		r = (long long)(ua + ub);
	} else if (strcmp(op, "-") == 0) {
		r = (long long)(ua - ub);
	} else if (strcmp(op, "*") == 0) {
		r = (long long)(ua * ub);
	} else if (strcmp(op, "<") == 0) {
		r = a < b;
	} else if (strcmp(op, ">") == 0) {
		r = a > b;
	} else if (strcmp(op, "<=") == 0) {
		r = a <= b;
	} else if (strcmp(op, ">=") == 0) {
		r = a >= b;
	} else if (strcmp(op, "==") == 0) {
		r = a == b;
	} else if (strcmp(op, "!=") == 0) {
		r = a != b;
	} else if (strcmp(op, "&") == 0) {
		r = a & b;
	} else if (strcmp(op, "|") == 0) {
		r = a | b;
	} else if (strcmp(op, "^") == 0) {
		r = a ^ b;
	} else {
		return none;
	}
	return (struct val){ true, r };
}

/* Binary operators of at least `min` precedence; && and || decide on
 * one known side where it alone settles them. */
static struct val
parse_binary(struct eval *e, int min)
{
	struct val a = parse_unary(e);

	while (!e->bad && e->pos < e->count && e->toks[e->pos].kind == TOK_OP) {
		const char *op = e->toks[e->pos].op;
		int prec = precedence(op);
		struct val b;

		if (prec == 0 || prec < min)
			break;
		e->pos++;
		b = parse_binary(e, prec + 1);
		if (strcmp(op, "&&") == 0)
			a = (a.known && !a.v) || (b.known && !b.v) ? (struct val){ true, 0 } :
			    a.known && b.known ? (struct val){ true, 1 } : (struct val){ false, 0 };
		else if (strcmp(op, "||") == 0)
			a = (a.known && a.v) || (b.known && b.v) ? (struct val){ true, 1 } :
			    a.known && b.known ? (struct val){ true, 0 } : (struct val){ false, 0 };
		else
			a = a.known && b.known ? apply(op, a.v, b.v) : (struct val){ false, 0 };
	}
	return a;
}

static struct val
parse_cond(struct eval *e)
{
	struct val c = parse_binary(e, 1), a, b;

	if (!is_op(e, "?"))
		return c;
	e->pos++;
	a = parse_cond(e);
	if (!is_op(e, ":")) {
		e->bad = true;
		return c;
	}
	e->pos++;
	b = parse_cond(e);
	if (c.known)
		return c.v ? a : b;
	return a.known && b.known && a.v == b.v ? a : (struct val){ false, 0 };
}

enum tri
pp_eval(const char *text, const char *end, pp_lookup_fn lookup, void *ctx)
{
	struct eval *e = malloc(sizeof(*e));
	struct val v;
	bool bad;

	if (!e)
		return TRI_MAYBE;
	e->lookup = lookup;
	e->ctx = ctx;
	e->count = e->pos = 0;
	e->bad = false;
	scan(e, text, end, 0);
	v = e->bad || e->count == 0 ? (struct val){ false, 0 } : parse_cond(e);
	bad = e->bad || e->pos != e->count;
	free(e);
	return bad || !v.known ? TRI_MAYBE : v.v ? TRI_YES : TRI_NO;
}
