/* Warp calls under branches on barrier-built warps: every work-item makes every call. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_WARPFLOW_H
#define CLWARP_WARPFLOW_H

#include "clwarp/clwarp.h"
#include "util.h"

/*
 * Where warps are built from work-group barriers (the local backend), a
 * warp call that only some work-items of a work-group reach is undefined:
 * PoCL runs the whole work-group down work-item 0's branch, GPUs deadlock
 * or mix warps. CUDA code does this all the time: `if (wid == 0)` around
 * a second warp reduction, `if (row >= rows) return;` before a row's
 * reduction, loops whose trip count differs from warp to warp, helpers
 * with shuffles that only some warps call.
 *
 * This pass rewrites every function that makes warp calls so that every
 * work-item makes every warp call and every barrier, in the same order,
 * while only the work-items that CUDA would run there keep their effects:
 *
 * - a private flag `__clwarp_on` says whether this work-item runs the
 *   current statement; `if`/`else` around warp calls sets it from the
 *   condition and puts it back after; `return`, `break` and `continue`
 *   clear it (with `__clwarp_live` and the loop's own flags), and the
 *   code after them runs on with the flag clear;
 * - a loop around warp calls runs until no work-item of the work-group
 *   wants another trip (clwarp_flow_any), those that are done with their
 *   flag clear; a `for` loop whose bounds are the same for every
 *   work-item (literals, the warp size, macros in capitals, the kernel's
 *   scalar parameters) is left as it is;
 * - a statement that runs with the flag possibly clear keeps its effects
 *   behind `if (__clwarp_on)`; the warp calls in it are hoisted into
 *   temporaries before it, their arguments read only where the flag is
 *   set; a declaration keeps its name in scope and gets its value behind
 *   the flag;
 * - functions that make warp calls take the flag after the warp context.
 *
 * Code where nothing needs it is left as it is. What the pass cannot
 * follow (a warp call inside a `switch`, a `goto`, a statement macro that
 * makes warp calls under a branch) fails the build with one message at the
 * user's file:line. Lines keep their numbers. `text` is the program after
 * warpctx_rewrite in the local mode; `name` is the file of its first line.
 */
clwarp_status warpflow_rewrite(struct strbuf *text, const char *name);

#endif
