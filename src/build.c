/* Program builds as callers ask for them: resolve the engine's backend,
 * read the file, and build through the build memo (program.c builds). */
/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "buildmemo.h"
#include "error.h"
#include "program.h"
#include "util.h"

/* What both public build calls do first: reset the outputs, check the arguments. */
static clwarp_status
begin_build(clwarp_engine *engine, clwarp_program **program, clwarp_build_info *info)
{
	if (info)
		memset(info, 0, sizeof(*info));
	if (!engine || !program)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL engine or output pointer");
	*program = NULL;
	return CLWARP_OK;
}

/* A repeated request answered from the build memo: a memory hit that
 * neither reads nor hashes the source. */
static bool
memo_hit(clwarp_engine *engine, const char *name, const char *text, const char *options,
	 clwarp_program **program, clwarp_build_info *info)
{
	double start = info ? now_ms() : 0.0;
	clwarp_program *prog = buildmemo_lookup(engine, name, text, options);

	if (!prog)
		return false;
	*program = prog;
	if (info) {
		info->source = CLWARP_BUILD_MEMORY_HIT;
		info->milliseconds = now_ms() - start;
	}
	return true;
}

/* Build a caller's request through the memo. `stamps` holds what was
 * stamped before the caller read `text` (a file build's own file), or is
 * NULL; a string build's key is the string itself. */
static clwarp_status
build_remembered(clwarp_engine *engine, const char *text, const char *name, const char *dir,
		 const char *options, const struct backend_config *config,
		 struct file_stamps *stamps, clwarp_program **program, clwarp_build_info *info)
{
	struct file_stamps own = { 0 };
	bool is_file = stamps != NULL;
	clwarp_status status;

	if (!is_file && memo_hit(engine, name, text, options, program, info))
		return CLWARP_OK;
	if (!stamps)
		stamps = &own;
	status = program_build_flags(engine, text, name, dir, options, config, 0, stamps, program,
				     info);
	if (status == CLWARP_OK)
		buildmemo_store(engine, name, is_file ? NULL : text, options, stamps, *program);
	file_stamps_free(stamps);
	return status;
}

clwarp_status
program_build_text(clwarp_engine *engine, const char *source, const char *name,
		   const char *options, clwarp_program **program, clwarp_build_info *info)
{
	const struct backend_config *config = NULL;
	clwarp_status status;

	status = begin_build(engine, program, info);
	if (status != CLWARP_OK)
		return status;
	if (!source)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL source");
	status = backend_resolve(engine, &config);
	if (status != CLWARP_OK)
		return status;
	return build_remembered(engine, source, name ? name : "<string>", ".", options, config,
				NULL, program, info);
}

clwarp_status
program_build_path(clwarp_engine *engine, const char *path, const char *options,
		   clwarp_program **program, clwarp_build_info *info)
{
	const struct backend_config *config = NULL;
	struct file_stamps stamps = { 0 };
	char *text = NULL, *dir;
	const char *slash;
	size_t size;
	clwarp_status status;

	status = begin_build(engine, program, info);
	if (status != CLWARP_OK)
		return status;
	if (!path)
		return set_error(CLWARP_ERROR_INVALID_ARGUMENT, "NULL path");
	status = backend_resolve(engine, &config);
	if (status != CLWARP_OK)
		return status;
	if (memo_hit(engine, path, NULL, options, program, info))
		return CLWARP_OK;
	/* Stamped before it is read: a change after this shows later. */
	file_stamps_add(&stamps, path);
	if (read_file(path, &text, &size) != 0) {
		file_stamps_free(&stamps);
		return set_error(CLWARP_ERROR_IO, "cannot read %s: %s", path, strerror(errno));
	}
	if (strlen(text) != size) {
		free(text);
		file_stamps_free(&stamps);
		return set_error(CLWARP_ERROR_BUILD, "%s: not OpenCL C source (contains a NUL byte)",
				 path);
	}
	slash = strrchr(path, '/');
	dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
	if (!dir) {
		free(text);
		file_stamps_free(&stamps);
		return set_error(CLWARP_ERROR_OUT_OF_MEMORY, "out of memory");
	}
	status = build_remembered(engine, text, path, dir, options, config, &stamps, program, info);
	free(dir);
	free(text);
	return status;
}

CLWARP_EXPORT clwarp_status
clwarp_program_build_source(clwarp_engine *engine, const char *source, const char *name,
			    const char *options, clwarp_program **program, clwarp_build_info *info)
{
	clear_error();
	return program_build_text(engine, source, name, options, program, info);
}

CLWARP_EXPORT clwarp_status
clwarp_program_build_file(clwarp_engine *engine, const char *path, const char *options,
			  clwarp_program **program, clwarp_build_info *info)
{
	clear_error();
	return program_build_path(engine, path, options, program, info);
}

