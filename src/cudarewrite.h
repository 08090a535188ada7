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



/* What a `__shared__` variable in a function that is not a kernel becomes
 * the start of: the compiler's error, there, that says what to write. */
#define CUDA_SHARED_IN_HELPER_ERROR \
	"_Pragma(\"GCC error \\\"<clwarp/cuda.h>: __shared__ in a function that is not a kernel: " \
	"OpenCL C has local memory variables only in kernels; declare it in the kernel and pass " \
	"this function a pointer to it\\\"\") "

/* The end (after its `;`) of the declaration whose first word, `__shared__`,
 * ends at p; NULL where it has an initializer, braces, a comment or a
 * directive, which the hoist leaves alone. */
const char *cuda_shared_decl_end(const char *p);

/*
 * Move a `__shared__` declaration [decl, end) from a nested block of a
 * kernel to out[at], a statement boundary of the kernel's outermost block
 * (OpenCL C allows local variables only there; CUDA gives a nested one
 * the same storage for the whole block), and put blanks where it was,
 * keeping its line breaks. The number of line breaks.
 */
unsigned cuda_hoist_shared(struct strbuf *out, size_t at, const char *decl, const char *end);

#endif
