/* The value of a preprocessor #if expression, where the source alone decides it. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_PPEXPR_H
#define CLWARP_PPEXPR_H

#include <stddef.h>

/* No, yes, or it depends on what the compiler alone knows. */
enum tri { TRI_NO, TRI_YES, TRI_MAYBE };

static inline enum tri
tri_and(enum tri a, enum tri b)
{
	return a == TRI_NO || b == TRI_NO ? TRI_NO : a == TRI_YES && b == TRI_YES ? TRI_YES : TRI_MAYBE;
}

static inline enum tri
tri_or(enum tri a, enum tri b)
{
	return a == TRI_YES || b == TRI_YES ? TRI_YES : a == TRI_NO && b == TRI_NO ? TRI_NO : TRI_MAYBE;
}

static inline enum tri
tri_not(enum tri a)
{
	return a == TRI_MAYBE ? a : a == TRI_YES ? TRI_NO : TRI_YES;
}

/*
 * What the caller knows of the macro `name` (`len` bytes): whether it is
 * defined, and where it surely is, an object-like macro's body (`*body` ..
 * `*body_end`; NULL where the value is not known or the macro is
 * function-like: such a use makes the expression's value unknown).
 */
typedef enum tri (*pp_lookup_fn)(void *ctx, const char *name, size_t len, const char **body,
				 const char **body_end);

/*
 * Evaluate the #if (or #elif) expression `text` .. `end`, the directive
 * word left out: TRI_YES where it is surely non-zero, TRI_NO where surely
 * zero, TRI_MAYBE where it names what is not known (a macro the compiler
 * may define, one whose value depends on the device) or cannot be read.
 */
enum tri pp_eval(const char *text, const char *end, pp_lookup_fn lookup, void *ctx);

#endif
