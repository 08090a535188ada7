/* The rewrites of a program that includes <clwarp/cuda.h>. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_CUDAREWRITE_H
#define CLWARP_CUDAREWRITE_H

#include "clwarp/clwarp.h"
#include "util.h"

/*
 * Rewrite the expanded text of a program that includes <clwarp/cuda.h>,
 * keeping every line where it was:
 * - `long long` is `long` (both 64 bits; OpenCL C's `long long` is a type
 *   of its own that no warp function takes), and so is a number's `ll`
 *   suffix (1ull is 1ul);
 * - a template header (`template <...>`) and explicit template arguments
 *   of a call (`f<int>(x)`) become a `#pragma GCC error` that says so,
 *   through _Pragma: the build fails there, at that line, unless an #if
 *   leaves the code out, where it is nothing. The call keeps its name and
 *   parentheses, so the warp-context rewrite sees a direct call.
 */
clwarp_status cuda_rewrite_text(struct strbuf *text);

/*
 * The word at [word, *p) inside a function's braces, at kernel_depth (the
 * brace depth inside a kernel, 0 in another function): where it is
 * `__shared__` in a nested block of a kernel, its declaration moves to
 * out[stmt_at], a statement boundary of the kernel's outermost block
 * (OpenCL C has local variables only there; CUDA gives a nested one the
 * same storage for the whole block), blanks with its line breaks stay
 * where it was, *p and *line move past it, and true comes back. A
 * `static` before it in a kernel goes (CUDA's `static __shared__`). In a
 * function that is not a kernel, the compiler's error that says what to
 * write goes before it, through _Pragma. A declaration with an initializer,
 * braces, a comment or a directive in it stays.
 */
bool cuda_shared_word(struct strbuf *out, const char *word, const char **p, int kernel_depth,
		      size_t stmt_at, unsigned *line);

#endif
