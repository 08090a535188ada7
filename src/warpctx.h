/* The warp-context rewrite: helpers that call warp functions get the local backend's scratch. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARPCTX_H
#define CLWARP_WARPCTX_H

#include <stdbool.h>

#include "clwarp/clwarp.h"
#include "util.h"

/*
 * On the local backend every warp function needs `__clwarp_scratch`, which
 * only kernels receive. OpenCL C has no recursion and no function pointers,
 * so the call graph is in the text: every file-scope function (and every
 * #define) that reaches a warp function, directly or through other
 * functions and macros, "uses the warp". Each such function that does not
 * take CLWARP_WARP_PARAM by hand gets `local ulong *__clwarp_scratch` as its
 * first parameter in every definition and prototype, and `__clwarp_scratch`
 * as the first argument at every call; so do the functions that
 * CLWARP_DEFINE_WARP_OP(NAME, ...) generates. Calls of kernels (which the
 * kernel-signature rewrite gives the scratch as their last parameter) pass
 * it last.
 *
 * `text` is the expanded program with its #line markers; `name` is the file
 * its first line belongs to. The analysis runs in every mode, so a program
 * that cannot be rewritten fails on every backend with one message
 * (CLWARP_ERROR_BUILD) naming the function and its file:line; the text is
 * changed only in the two modes that apply it. No newline is added or
 * removed, so every line keeps its number.
 */
enum warpctx_mode {
	WARPCTX_CHECK,    /* analyse only: the kernels get no scratch */
	WARPCTX_LOCAL,    /* the local backend: every function above */
	/* khr and intel with a scratch (source.h): the same, except that the
	 * operators' functions are the backend's own, without the context */
	WARPCTX_SCRATCH,
};

clwarp_status warpctx_rewrite(struct strbuf *text, const char *name, enum warpctx_mode mode);

#endif
