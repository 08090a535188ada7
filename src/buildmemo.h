/* The build memo: a repeated build request (the same file or string, name
 * and options on the same engine) answered without reading or hashing the
 * source, when no file the build read or looked for has changed since. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_BUILDMEMO_H
#define CLWARP_BUILDMEMO_H

#include "engine.h"
#include "filestamp.h"

/* The program built for this request, or NULL: not seen, or a file changed
 * (or may have: filestamp.h). `text` is NULL for a file build, whose `name`
 * is its path. */
clwarp_program *buildmemo_lookup(clwarp_engine *engine, const char *name, const char *text,
				 const char *options);

/* Remember `program` for this request; takes `stamps` (left empty). Out of
 * memory only loses the memo. */
void buildmemo_store(clwarp_engine *engine, const char *name, const char *text,
		     const char *options, struct file_stamps *stamps, clwarp_program *program);

/* At engine teardown. */
void buildmemo_free_all(clwarp_engine *engine);

#endif
