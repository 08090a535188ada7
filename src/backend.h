/* Warp backends: choosing one per device by probing, and the code each adds. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_BACKEND_H
#define CLWARP_BACKEND_H

#include "engine.h"
#include "source.h"
#include "util.h"

/*
 * The engine's backend, resolved once: forced by option or CLWARP_BACKEND,
 * or the first candidate whose probe kernel compiles, runs and answers
 * right. The verdicts are cached on disk. *config stays valid for the
 * engine's life.
 */
clwarp_status backend_resolve(clwarp_engine *engine, const struct backend_config **config);

/* Append the macros and the backend's warp library to a program's text;
 * types_named and scratch_arg: source_result's (the extension types the
 * program names; its kernels take the hidden scratch). */
void backend_prelude(const struct backend_config *config, uint64_t types_named, bool scratch_arg,
		     struct strbuf *out);

/* Warp sort and exchange (kernels/warp/sort.cl), appended after the prelude
 * only where the program's text or options name them. */
bool backend_wants_sort(const char *text, const char *options);
void backend_prelude_sort(struct strbuf *out);

/* "nv" for CLWARP_BACKEND_NV, as clwarp_backend_name(); the backend of a
 * name, as clwarp_backend_from_name(). */
const char *backend_name(clwarp_backend backend);
clwarp_status backend_from_name(const char *name, clwarp_backend *out);

/* What the backend needs changed in kernel signatures. */
void backend_source_rewrite(const struct backend_config *config, struct source_rewrite *rewrite);

/* Bytes of the hidden scratch argument for a work-group of `items`. */
size_t backend_scratch_bytes(const struct backend_config *config, size_t items);

#endif
