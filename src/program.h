/* Program builds: source assembly, the in-memory and on-disk program caches. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_PROGRAM_H
#define CLWARP_PROGRAM_H

#include "engine.h"
#include "filestamp.h"

/* Free the log and zero the rest, as clwarp_build_info_free(). */
void build_info_clear(clwarp_build_info *info);

/*
 * Build `text` for the engine's device with warp backend `config`. `name`
 * is the file name compiler messages use; `dir` is where relative
 * #includes start. Consults the memory cache, then the disk cache, then
 * compiles. The program belongs to the engine.
 */
clwarp_status program_build(clwarp_engine *engine, const char *text, const char *name,
			    const char *dir, const char *options,
			    const struct backend_config *config, clwarp_program **program,
			    clwarp_build_info *info);

/* program_build_flags() flags */
enum program_build_flag {
	/* Neither read nor write the disk cache: for probes, whose verdict is cached instead. */
	PROGRAM_BUILD_MEMORY_ONLY = 1u << 0,
};

/* With `stamps`, every file the include search read or looked for is
 * stamped there (filestamp.h). */
clwarp_status program_build_flags(clwarp_engine *engine, const char *text, const char *name,
				  const char *dir, const char *options,
				  const struct backend_config *config, unsigned flags,
				  struct file_stamps *stamps, clwarp_program **program,
				  clwarp_build_info *info);

/* clBuildProgram for the engine's device, built again where it failed
 * with no diagnostic in its log (a PoCL race, program.c). */
cl_int program_cl_build(clwarp_engine *engine, cl_program program, const char *options);

/* Release every program of the engine (at engine teardown). */
void program_free_all(clwarp_engine *engine);

#endif
