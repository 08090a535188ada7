/* The macros a program defines, by name: what the source rewrite knows of each. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_MACROTABLE_H
#define CLWARP_MACROTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernelmacro.h"
#include "ppexpr.h"

/* What a macro's expansion starts. */
enum km_kind {
	KIND_NONE,
	KIND_WORD,   /* `kernel`: pin after the name, parameters follow */
	KIND_CALL,   /* `kernel` out of a function-like macro: (arguments), then parameters */
	KIND_EXPAND, /* object-like, through a function-like one given its arguments */
	KIND_WHOLE,  /* `kernel` and the parameter list: the rewrite cannot reach them */
	KIND_MAYBE,  /* a kernel on one side of an undecided conditional only */
};

struct km_macro {
	char *name;
	enum tri defined;
	enum km_kind kind;
	bool function_like;
	char *body;   /* object-like and surely so defined: its body; else NULL */
	char *where;  /* KIND_MAYBE: file:line of the conditional */
	char *params; /* function-like, its body known: the text between its parentheses */
	/* macrocond.c's own: the side whose start it is saved for, and the
	 * conditional (and where) it is in what the sides agree on. */
	unsigned long saved_in, merged_in;
	size_t merged_at;
};

/* May the compiler, its headers or the engine's prelude define `name`? */
bool macro_compiler_may_define(const char *name, size_t len);

/* The macro `name` (`len` bytes), or NULL where none was seen. */
struct km_macro *macro_find(const struct kernel_macros *m, const char *name, size_t len);

/* The macro `name`, made where new (defined: maybe where the compiler may
 * define it, else no; no kernel); NULL: out of memory. */
struct km_macro *macro_entry(struct kernel_macros *m, const char *name, size_t len);

/* A pp_lookup_fn over the table (ctx: the struct kernel_macros). */
enum tri macro_lookup(void *ctx, const char *name, size_t len, const char **body,
		      const char **body_end);

bool macro_is_word(const char *name, size_t len, const char *word);

/* A macro's state without its name: copied (false: out of memory), freed. */
bool macro_state_copy(struct km_macro *dst, const struct km_macro *src);
void macro_state_free(struct km_macro *state);

/* `into` becomes what is sure of both it and `other`: what differs is
 * maybe (a kernel kind that differs: KIND_MAYBE, at `where`) or not known. */
bool macro_state_combine(struct km_macro *into, const struct km_macro *other, const char *where);

#endif
