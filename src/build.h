/* Program builds as callers ask for them (src/build.c). */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_BUILD_H
#define CLWARP_BUILD_H

#include "engine.h"

/* clwarp_program_build_source and clwarp_program_build_file without the
 * public entries' error reset (the memo, the file read, then program_build). */
clwarp_status program_build_text(clwarp_engine *engine, const char *source, const char *name,
				 const char *options, clwarp_program **program,
				 clwarp_build_info *info);
clwarp_status program_build_path(clwarp_engine *engine, const char *path, const char *options,
				 clwarp_program **program, clwarp_build_info *info);

#endif
