/* Source preparation: expands quoted #includes and rewrites kernel signatures. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_SOURCE_H
#define CLWARP_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "clwarp/clwarp.h"
#include "filestamp.h"
#include "util.h"

/* What the active warp backend needs changed in every kernel signature. */
struct source_rewrite {
	bool add_scratch_arg;          /* local backend: append the hidden scratch parameter (sourcewords.h) */
	/* khr, intel: the same, but only in a program whose code names
	 * <clwarp/cuda.h>'s __syncthreads_count, _and or _or (their warps meet
	 * in it); helpers that take CLWARP_WARP_PARAM get it as on local. */
	bool scratch_for_block_sync;
	/* warps are built from work-group barriers (local; khr on PoCL): warp
	 * calls under branches take the flow rewrite (warpflow.h), and the
	 * kernels get the scratch it needs */
	bool barrier_warps;
	unsigned reqd_sub_group_size;  /* khr backend: pin the sub-group width; 0 = leave alone */
};

struct source_result {
	struct strbuf text;    /* the expanded, rewritten source with #line markers */
	bool uses_warp;        /* the code names a warp_* identifier */
	bool kernel_without_params; /* a kernel declares no parameters (after the rewrite) */
	bool scratch_arg;      /* every kernel ends with the hidden scratch parameter */
	bool names_block_sync; /* the code names __syncthreads_count/_and/_or */
	unsigned kernel_count;
	uint64_t types_named;  /* SOURCE_TYPE_BIT(e, k) (sourcewords.h): the source names that type */
};

/*
 * Expand `text` (called `name` in messages; relative includes start in
 * `dir`, then each of the -I folders found in `options`). Every quoted
 * #include is inlined, so the result covers every file the program reads
 * (that is what makes the cache key complete), and #line markers keep the
 * compiler's file names and line numbers the user's own. Angle-bracket
 * includes are left to the compiler. With `stamps`, every path an include
 * search read or found missing is stamped there (filestamp.h).
 */
clwarp_status source_expand(const char *text, const char *name, const char *dir,
			    const char *options, const struct source_rewrite *rewrite,
			    struct file_stamps *stamps, struct source_result *result);

void source_result_free(struct source_result *result);

/* Append `s` as a C string literal body (quotes and backslashes escaped). */
void strbuf_put_quoted(struct strbuf *sb, const char *s);

#endif
