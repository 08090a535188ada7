/* A small kernel that the engine and program tests (tests/test-engine.c,
 * tests/test-program.c) build and launch, and its check against the host. */
/* SPDX-License-Identifier: MIT */
#ifndef CLWARP_SAXPY_KERNEL_H
#define CLWARP_SAXPY_KERNEL_H

#include "testutil.h"

static const char *saxpy_source =
	"kernel void saxpy(global const int *in, global int *out, int a)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	out[i] = a * in[i] + (int)(i * i);\n"
	"}\n";

static inline void
check_saxpy(clwarp_engine *e, clwarp_program *p, size_t n, int a)
{
	clwarp_kernel *k = NULL;
	cl_mem bin, bout;
	int *in = malloc(n * sizeof(int)), *out = calloc(n, sizeof(int));
	size_t global = n;

	for (size_t i = 0; i < n; i++)
		in[i] = (int)(i * 37 % 101) - 50;
	ck_assert_clwarp_ok(clwarp_kernel_new(p, "saxpy", &k));
	ck_assert_uint_eq(clwarp_kernel_arg_count(k), 3);
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_READ_ONLY, n * sizeof(int), in, &bin));
	ck_assert_clwarp_ok(clwarp_buffer_new(e, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 0, bin));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_buffer(k, 1, bout));
	ck_assert_clwarp_ok(clwarp_kernel_set_arg_scalar(k, 2, sizeof(int), &a));
	ck_assert_clwarp_ok(clwarp_kernel_launch(k, 1, &global, NULL, NULL));
	ck_assert_clwarp_ok(clwarp_buffer_read(e, bout, 0, n * sizeof(int), out));
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(out[i], a * in[i] + (int)(i * i));
	clReleaseMemObject(bin);
	clReleaseMemObject(bout);
	clwarp_kernel_free(k);
	free(in);
	free(out);
}

#endif
