/* Kernels declared through macros, and the conditionals the compiler takes. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_KERNELMACRO_H
#define CLWARP_KERNELMACRO_H

#include <stdbool.h>
#include <stddef.h>

#include "clwarp/clwarp.h"

/*
 * The source rewrite must see each kernel the compiler sees. This follows
 * the preprocessor as far as the source decides it: every #define and
 * #undef, the -D and -U build options, what the OpenCL compiler surely
 * defines (__OPENCL_VERSION__, __OPENCL_C_VERSION__, CL_VERSION_1_0 .. 1_2),
 * and which side of each #if, #ifdef, #ifndef, #elif and #else the
 * compiler takes. A name the compiler or the engine's prelude may define
 * (reserved names, cl_*, CL_*, CLWARP*, warp_*, the limits of OpenCL C's
 * headers), and an expression over one, is "maybe": each side of such a
 * conditional is followed as if taken, and at its #endif a macro is what
 * the sides agree on (macrocond.h); one that is a kernel on some sides
 * only is "maybe a kernel", which a declaration may not use.
 *
 * A kernel macro is one whose expansion starts with `kernel` or
 * `__kernel`, after any __attribute__((...)), or with another kernel
 * macro: object-like (`#define KERNEL __kernel`) or function-like
 * (`#define KERNEL_FN(name) __kernel void name`).
 */
struct km_macro;
struct km_cond;

struct kernel_macros {
	struct km_macro *macros;
	size_t count, cap;
	size_t *slots;       /* hash of macros by name: index + 1, 0 empty */
	size_t slot_count;
	struct km_cond *conds;
	size_t depth, cond_cap;
	unsigned long serial; /* the last number given to a conditional or one of its sides */
	bool failed;         /* out of memory */
};

/* How a name is used where a kernel may be declared. */
enum kernel_use {
	KERNEL_USE_NONE,
	KERNEL_USE_WORD,     /* `kernel`, `__kernel` or an object-like kernel macro */
	KERNEL_USE_CALL,     /* a macro the rewrite expands (kernelexpand.h) */
};

/* The names the compiler defines and the -D and -U of the build `options`. */
clwarp_status kernel_macros_init(struct kernel_macros *macros, const char *options);

/* One directive, `text` .. `end` (after the `#`, continuation lines
 * included), at file:line. Out of memory is the only error. */
clwarp_status kernel_macros_directive(struct kernel_macros *macros, const char *text,
				      const char *end, const char *file, unsigned line);

/* Is the text here surely left out by the compiler (a side of a
 * conditional it does not take)? */
bool kernel_macros_dead(const struct kernel_macros *macros);

/*
 * The identifier `name` (`len` bytes, the source text after it following)
 * where a declaration begins, at file:line (a function-like macro without
 * `(` after it is not expanded; in text the compiler surely leaves out,
 * nothing is a kernel). A macro that is maybe a kernel, or whose expansion
 * holds the parameter list, is an error.
 */
clwarp_status kernel_macros_use(const struct kernel_macros *macros, const char *name, size_t len,
				const char *file, unsigned line, enum kernel_use *use);

void kernel_macros_free(struct kernel_macros *macros);

#endif
