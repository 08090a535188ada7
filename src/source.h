/* Source preparation: expands quoted #includes and rewrites kernel signatures. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_SOURCE_H
#define CLWARP_SOURCE_H

#include <stdbool.h>

#include "clwarp/clwarp.h"
#include "util.h"

/* What the active warp backend needs changed in every kernel signature. */
struct source_rewrite {
	bool add_scratch_arg;          /* local backend: append the hidden scratch parameter */
	unsigned reqd_sub_group_size;  /* khr backend: pin the sub-group width; 0 = leave alone */
};

/* The hidden parameter the local backend appends to each kernel. */
#define SOURCE_SCRATCH_PARAM "local ulong *__clwarp_scratch"

struct source_result {
	struct strbuf text;    /* the expanded, rewritten source with #line markers */
	bool uses_warp;        /* the code names a warp_* identifier */
	unsigned kernel_count;
};

/*
 * Expand `text` (called `name` in messages; relative includes start in
 * `dir`, then each of the -I folders found in `options`). Every quoted
 * #include is inlined, so the result covers every file the program reads
 * (that is what makes the cache key complete), and #line markers keep the
 * compiler's file names and line numbers the user's own. Angle-bracket
 * includes are left to the compiler.
 */
clwarp_status source_expand(const char *text, const char *name, const char *dir,
			    const char *options, const struct source_rewrite *rewrite,
			    struct source_result *result);

void source_result_free(struct source_result *result);

/* Append `s` as a C string literal body (quotes and backslashes escaped). */
void strbuf_put_quoted(struct strbuf *sb, const char *s);

#endif
