/* Shared by test-cuda.c and test-cuda-block.c: engines, builds, buffers, launches. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_TEST_CUDA_H
#define CLWARP_TEST_CUDA_H

#include <stdbool.h>

#include "warp-reference.h"

/* The engine's backend (0), then local at W = 1, 16, 64. */
static const unsigned forced_widths[] = { 0, 1, 16, 64 };
#define FORCED_WIDTHS ((int)(sizeof(forced_widths) / sizeof(forced_widths[0])))

static inline char *
source_path(const char *name)
{
	char *path = malloc(4096);
	const char *root = getenv("CLWARP_SOURCE_ROOT");

	snprintf(path, 4096, "%s/tests/%s", root && *root ? root : ".", name);
	ck_assert_msg(access(path, R_OK) == 0, "%s not found: set CLWARP_SOURCE_ROOT", path);
	return path;
}

/* The default engine, or local at warp_size when warp_size is not 0. */
static inline clwarp_engine *
engine_new(unsigned warp_size)
{
	clwarp_engine_options o;
	clwarp_engine *e = NULL;

	clwarp_engine_options_init(&o);
	if (warp_size) {
		o.backend = CLWARP_BACKEND_LOCAL;
		o.warp_size = warp_size;
	}
	o.flags |= CLWARP_ENGINE_NO_DISK_CACHE;
	ck_assert_msg(clwarp_engine_new(&o, &e) == CLWARP_OK, "engine: %s", clwarp_last_error());
	return e;
}

static inline unsigned
warpSize_of(clwarp_engine *e)
{
	clwarp_backend backend;
	unsigned warp;

	ck_assert_clwarp_ok(clwarp_engine_backend(e, &backend, &warp));
	return warp;
}

/* tests/NAME, built on every backend (OpenCL C 1.2). */
static inline clwarp_program *
build_program(clwarp_engine *e, const char *name)
{
	char *path = source_path(name);
	clwarp_program *prog = NULL;
	clwarp_build_info info;
	clwarp_status st;

	st = clwarp_program_build_file(e, path, NULL, &prog, &info);
	ck_assert_msg(st == CLWARP_OK, "building %s: %s\n%s", path, clwarp_last_error(),
		      info.log ? info.log : "");
	clwarp_build_info_free(&info);
	free(path);
	return prog;
}

static inline cl_mem
buffer(clwarp_engine *e, size_t bytes, const void *data)
{
	cl_mem m = NULL;

	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_WRITE, bytes, data, &m));
	return m;
}

static inline void
launch(clwarp_kernel *k, unsigned dims, const size_t *global, const size_t *local)
{
	clwarp_status st = clwarp_kernel_launch(k, dims, global, local, NULL);

	ck_assert_msg(st == CLWARP_OK, "launch: %s", clwarp_last_error());
}

/* test-cuda-block.c's tests (the block votes, functional casts), added to
 * tc where main's test_wanted() says so. */
void cuda_add_block_tests(TCase *tc, bool (*wanted)(const char *name));

/* test-cuda-port.c's tests (CUDA code taken as it is, and the messages for
 * what OpenCL C cannot say). */
void cuda_add_port_tests(TCase *tc, bool (*wanted)(const char *name));

#endif
