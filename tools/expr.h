/* clwarp-run: INIT expressions in the element index i, evaluated per element. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_RUN_EXPR_H
#define CLWARP_RUN_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct expr;

/*
 * Parse @p text: + - * / % (binary), unary - and +, parentheses, integer
 * literals, float literals (only when @p floating) and the variable i.
 * Returns NULL with a message in @p err on a syntax error.
 */
struct expr *expr_parse(const char *text, bool floating, char *err, size_t errlen);
void expr_free(struct expr *e);

/* Evaluate in int64 arithmetic; false on division by zero or overflow. */
bool expr_eval_int(const struct expr *e, int64_t i, int64_t *out, char *err, size_t errlen);
/* Evaluate in double arithmetic; false on division by zero. */
bool expr_eval_double(const struct expr *e, double i, double *out, char *err, size_t errlen);

#endif
