/* clwarp-run: INIT expressions in the element index i, evaluated per element. */
/* SPDX-License-Identifier: MIT */
#include "expr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum expr_op {
	OP_NUM,
	OP_VAR,
	OP_NEG,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
};

/* Evaluating and freeing recurse once per level of the tree, and a chain
 * like 1+1+...+1 is as deep as it is long: deeper trees are refused. */
#define EXPR_MAX_DEPTH 1000

struct expr {
	enum expr_op op;
	int64_t ival;
	double dval;
	struct expr *a, *b;
	int depth;       /* levels below this node; 0 for a number or i */
};

struct parser {
	const char *text;
	const char *p;
	bool floating;
	char *err;
	size_t errlen;
	int depth;
};

static struct expr *parse_sum(struct parser *ps);

static struct expr *
node(enum expr_op op, struct expr *a, struct expr *b)
{
	struct expr *e = calloc(1, sizeof(*e));

	if (!e) {
		expr_free(a);
		expr_free(b);
		return NULL;
	}
	e->op = op;
	e->a = a;
	e->b = b;
	return e;
}

static void
skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static struct expr *
fail(struct parser *ps, const char *what)
{
	if (*ps->p)
		snprintf(ps->err, ps->errlen, "expression '%s': %s at '%s'", ps->text, what, ps->p);
	else
		snprintf(ps->err, ps->errlen, "expression '%s': %s at its end", ps->text, what);
	return NULL;
}

/* node() for the parser: NULL with a message when out of memory or too deep. */
static struct expr *
branch(struct parser *ps, enum expr_op op, struct expr *a, struct expr *b)
{
	int depth = 1 + (b && b->depth > a->depth ? b->depth : a->depth);
	struct expr *e;

	if (depth > EXPR_MAX_DEPTH) {
		expr_free(a);
		expr_free(b);
		return fail(ps, "nested too deeply");
	}
	e = node(op, a, b);
	if (!e)
		return fail(ps, "out of memory");
	e->depth = depth;
	return e;
}

static struct expr *
parse_number(struct parser *ps)
{
	const char *start = ps->p;
	const char *q = start;
	bool is_float = false;
	char *end;
	struct expr *e;

	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		q += 2;
		while (isxdigit((unsigned char)*q))
			q++;
	} else {
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '.') {
			is_float = true;
			q++;
			while (isdigit((unsigned char)*q))
				q++;
		}
		if ((*q == 'e' || *q == 'E') &&
		    (isdigit((unsigned char)q[1]) ||
		     ((q[1] == '+' || q[1] == '-') && isdigit((unsigned char)q[2])))) {
			is_float = true;
			q += 2;
			while (isdigit((unsigned char)*q))
				q++;
		}
	}
	if (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
		return fail(ps, "malformed number");
	e = node(OP_NUM, NULL, NULL);
	if (!e)
		return fail(ps, "out of memory");
	errno = 0;
	if (is_float) {
		if (!ps->floating) {
			free(e);
			return fail(ps, "a float literal in an integer expression");
		}
		e->dval = strtod(start, &end);
		e->ival = 0;
	} else {
		unsigned long long v = strtoull(start, &end,
						  start[0] == '0' && (start[1] == 'x' || start[1] == 'X') ? 16 : 10);

		if (errno == ERANGE || v > INT64_MAX) {
			free(e);
			return fail(ps, "integer literal out of range");
		}
		e->ival = (int64_t)v;
		e->dval = (double)v;
	}
	if (end != q) {
		free(e);
		return fail(ps, "malformed number");
	}
	ps->p = q;
	return e;
}

static struct expr *
parse_primary(struct parser *ps)
{
	struct expr *e;

	skip_space(ps);
	if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1])))
		return parse_number(ps);
	if (*ps->p == 'i' && !isalnum((unsigned char)ps->p[1]) && ps->p[1] != '_') {
		ps->p++;
		e = node(OP_VAR, NULL, NULL);
		return e ? e : fail(ps, "out of memory");
	}
	if (*ps->p == '(') {
		if (++ps->depth > 200)
			return fail(ps, "nested too deeply");
		ps->p++;
		e = parse_sum(ps);
		if (!e)
			return NULL;
		skip_space(ps);
		if (*ps->p != ')') {
			expr_free(e);
			return fail(ps, "expected ')'");
		}
		ps->p++;
		ps->depth--;
		return e;
	}
	return fail(ps, "expected a number, i or '('");
}

static struct expr *
parse_unary(struct parser *ps)
{
	struct expr *e;

	skip_space(ps);
	if (*ps->p == '-' || *ps->p == '+') {
		bool neg = *ps->p == '-';

		if (++ps->depth > 200)
			return fail(ps, "nested too deeply");
		ps->p++;
		e = parse_unary(ps);
		ps->depth--;
		if (!e || !neg)
			return e;
		return branch(ps, OP_NEG, e, NULL);
	}
	return parse_primary(ps);
}

/* The binary operators, by precedence level: 0 binds loosest. */
#define BINARY_LEVELS 2
static const struct {
	char c;
	enum expr_op op;
	int level;
} binary_ops[] = {
	{ '+', OP_ADD, 0 }, { '-', OP_SUB, 0 }, { '*', OP_MUL, 1 }, { '/', OP_DIV, 1 }, { '%', OP_MOD, 1 },
};

static int
binary_op_at(const struct parser *ps, int level, enum expr_op *op)
{
	for (size_t i = 0; i < sizeof(binary_ops) / sizeof(binary_ops[0]); i++) {
		if (binary_ops[i].level == level && *ps->p == binary_ops[i].c) {
			*op = binary_ops[i].op;
			return 1;
		}
	}
	return 0;
}

/* Left-associative operators of one level, over operands of the next. */
static struct expr *
parse_binary(struct parser *ps, int level)
{
	struct expr *lhs = level + 1 < BINARY_LEVELS ? parse_binary(ps, level + 1) : parse_unary(ps);

	while (lhs) {
		enum expr_op op;
		struct expr *rhs;

		skip_space(ps);
		if (!binary_op_at(ps, level, &op))
			break;
		ps->p++;
		rhs = level + 1 < BINARY_LEVELS ? parse_binary(ps, level + 1) : parse_unary(ps);
		if (!rhs) {
			expr_free(lhs);
			return NULL;
		}
		lhs = branch(ps, op, lhs, rhs);
	}
	return lhs;
}

static struct expr *
parse_sum(struct parser *ps)
{
	return parse_binary(ps, 0);
}

struct expr *
expr_parse(const char *text, bool floating, char *err, size_t errlen)
{
	struct parser ps = { text, text, floating, err, errlen, 0 };
	struct expr *e = parse_sum(&ps);

	if (!e)
		return NULL;
	skip_space(&ps);
	if (*ps.p) {
		expr_free(e);
		return fail(&ps, "unexpected text");
	}
	return e;
}

void
expr_free(struct expr *e)
{
	if (!e)
		return;
	expr_free(e->a);
	expr_free(e->b);
	free(e);
}

bool
expr_eval_int(const struct expr *e, int64_t i, int64_t *out, char *err, size_t errlen)
{
	int64_t a, b;

	switch (e->op) {
	case OP_NUM:
		*out = e->ival;
		return true;
	case OP_VAR:
		*out = i;
		return true;
	default:
		break;
	}
	if (!expr_eval_int(e->a, i, &a, err, errlen))
		return false;
	if (e->op == OP_NEG) {
		if (a == INT64_MIN)
			goto overflow;
		*out = -a;
		return true;
	}
	if (!expr_eval_int(e->b, i, &b, err, errlen))
		return false;
	switch (e->op) {
	case OP_ADD:
		if (__builtin_add_overflow(a, b, out))
			goto overflow;
		return true;
	case OP_SUB:
		if (__builtin_sub_overflow(a, b, out))
			goto overflow;
		return true;
	case OP_MUL:
		if (__builtin_mul_overflow(a, b, out))
			goto overflow;
		return true;
	case OP_DIV:
	case OP_MOD:
		if (b == 0) {
			snprintf(err, errlen, "division by zero at i = %lld", (long long)i);
			return false;
		}
		if (a == INT64_MIN && b == -1)
			goto overflow;
		*out = e->op == OP_DIV ? a / b : a % b;
		return true;
	default:
		break;
	}
	return false;
overflow:
	snprintf(err, errlen, "integer overflow at i = %lld", (long long)i);
	return false;
}

bool
expr_eval_double(const struct expr *e, double i, double *out, char *err, size_t errlen)
{
	double a, b;

	switch (e->op) {
	case OP_NUM:
		*out = e->dval;
		return true;
	case OP_VAR:
		*out = i;
		return true;
	default:
		break;
	}
	if (!expr_eval_double(e->a, i, &a, err, errlen))
		return false;
	if (e->op == OP_NEG) {
		*out = -a;
		return true;
	}
	if (!expr_eval_double(e->b, i, &b, err, errlen))
		return false;
	switch (e->op) {
	case OP_ADD:
		*out = a + b;
		return true;
	case OP_SUB:
		*out = a - b;
		return true;
	case OP_MUL:
		*out = a * b;
		return true;
	case OP_DIV:
	case OP_MOD:
		if (b == 0) {
			snprintf(err, errlen, "division by zero at i = %.17g", i);
			return false;
		}
		*out = e->op == OP_DIV ? a / b : fmod(a, b);
		return true;
	default:
		break;
	}
	return false;
}
