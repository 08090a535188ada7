/* An application outside the tree: built against the installed library by pkg-config and by CMake. */
/* SPDX-License-Identifier: MIT */
/*
 * run.sh here (CI's "consumers" step) builds this file twice against an
 * installed libclwarp, once with `pkg-config clwarp` and once with
 * CMake's find_package(clwarp) (CMakeLists.txt here), and runs both. It
 * builds a warp kernel from source and checks its two sums: the installed
 * headers, library and built-in warp API all work from outside.
 */
#include <clwarp/clwarp.h>
#include <stdio.h>

static const char source[] =
	"kernel void warp_sum(global const int *in, global int *out)\n"
	"{\n"
	"	int v = warp_reduce_add(in[get_global_id(0)]);\n"
	"	if (warp_lane_id() == 0)\n"
	"		out[get_global_id(0) / warp_size()] = v;\n"
	"}\n";

int
main(void)
{
	clwarp_engine *engine = NULL;
	clwarp_program *program;
	clwarp_kernel *kernel = NULL;
	cl_mem in = NULL, out = NULL;
	cl_int host[64], sums[2] = { 0, 0 };
	size_t global = 64, local = 64;
	clwarp_engine_options options;
	clwarp_status status;
	int i, rc = 1;

	for (i = 0; i < 64; i++)
		host[i] = i + 1;
	/* The local backend at width 32 on any device: two known sums. */
	clwarp_engine_options_init(&options);
	options.backend = CLWARP_BACKEND_LOCAL;
	options.warp_size = 32;
	status = clwarp_engine_new(&options, &engine);
	if (status == CLWARP_OK)
		status = clwarp_program_build_source(engine, source, "consumer.cl", NULL, &program, NULL);
	if (status == CLWARP_OK)
		status = clwarp_kernel_new(program, "warp_sum", &kernel);
	if (status == CLWARP_OK)
		status = clwarp_buffer_new(engine, CL_MEM_READ_ONLY, sizeof(host), host, &in);
	if (status == CLWARP_OK)
		status = clwarp_buffer_new(engine, CL_MEM_WRITE_ONLY, sizeof(sums), NULL, &out);
	if (status == CLWARP_OK)
		status = clwarp_kernel_set_arg_buffer(kernel, 0, in);
	if (status == CLWARP_OK)
		status = clwarp_kernel_set_arg_buffer(kernel, 1, out);
	if (status == CLWARP_OK)
		status = clwarp_kernel_launch(kernel, 1, &global, &local, NULL);
	if (status == CLWARP_OK)
		status = clwarp_buffer_read(engine, out, 0, sizeof(sums), sums);
	if (status != CLWARP_OK)
		fprintf(stderr, "consumer: %s: %s\n", clwarp_status_name(status), clwarp_last_error());
	else if (sums[0] != 528 || sums[1] != 1552)
		fprintf(stderr, "consumer: sums %d %d, expected 528 1552\n", (int)sums[0], (int)sums[1]);
	else {
		printf("libclwarp %s: warp sums %d %d\n", clwarp_version(), (int)sums[0], (int)sums[1]);
		rc = 0;
	}
	if (in)
		clReleaseMemObject(in);
	if (out)
		clReleaseMemObject(out);
	clwarp_kernel_free(kernel);
	clwarp_engine_free(engine);
	return rc;
}
