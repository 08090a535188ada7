/* Example: build a kernel from a .cl file, launch it, read its result, and report every error. */
/* SPDX-License-Identifier: MIT */
/*
 *     first-kernel [FILE.cl]      (default: first-kernel.cl in the current folder)
 *
 * Sums the inputs 1..256 warp by warp with examples/first-kernel.cl and
 * checks the sums against a host loop. Prints the warp width and the sums;
 * exits 1 on any error, printing the build log when the compiler rejects
 * the file (its messages name FILE and its lines, not a temporary file).
 */
#include <clwarp/clwarp.h>
#include <stdio.h>

#define N 256
#define LOCAL 64

/*
 * Every fallible call returns a status. clwarp_last_error() says what went
 * wrong (and whose fault it is) for this thread; for CLWARP_ERROR_OPENCL
 * the driver's own code stays available.
 */
static void
report(const char *what, clwarp_status status)
{
	fprintf(stderr, "first-kernel: %s: %s: %s\n", what, clwarp_status_name(status),
	        clwarp_last_error());
	if (status == CLWARP_ERROR_OPENCL)
		fprintf(stderr, "first-kernel: OpenCL error %s\n",
		        clwarp_cl_error_name(clwarp_last_cl_error()));
}

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "first-kernel.cl";
	clwarp_engine *engine = NULL;
	clwarp_program *program;
	clwarp_kernel *kernel = NULL;
	clwarp_build_info info = { 0 };
	clwarp_backend backend;
	cl_mem in = NULL, out = NULL;
	cl_int host_in[N], sums[N];
	size_t global = N, local = LOCAL;
	unsigned width, warps, w, i;
	clwarp_status status;
	int rc = 1;

	for (i = 0; i < N; i++)
		host_in[i] = (cl_int)i + 1;

	/* NULL options: CLWARP_DEVICE, else the first GPU, else the first device. */
	status = clwarp_engine_new(NULL, &engine);
	if (status != CLWARP_OK) {
		report("no engine", status);
		goto out;
	}
	/* The program belongs to the engine: no free of its own. */
	status = clwarp_program_build_file(engine, path, NULL, &program, &info);
	if (status != CLWARP_OK) {
		report(path, status);
		if (info.log)
			fprintf(stderr, "build log:\n%s\n", info.log);
		goto out;
	}
	printf("build: %s\n", clwarp_build_source_name(info.source));

	status = clwarp_kernel_new(program, "warp_sum", &kernel);
	if (status != CLWARP_OK) {
		report("kernel warp_sum", status);
		goto out;
	}
	/* The warp width depends on the device and backend: ask, never assume 32. */
	status = clwarp_kernel_warp_info(kernel, 1, &local, &backend, &width);
	if (status != CLWARP_OK) {
		report("warp info", status);
		goto out;
	}
	warps = N / width;
	printf("device: %s\n", clwarp_engine_device_info(engine)->name);
	printf("warp width: %u (%s backend)\n", width, clwarp_backend_name(backend));

	status = clwarp_buffer_new(engine, CL_MEM_READ_ONLY, sizeof(host_in), host_in, &in);
	if (status == CLWARP_OK)
		status = clwarp_buffer_new(engine, CL_MEM_WRITE_ONLY, warps * sizeof(cl_int), NULL, &out);
	if (status != CLWARP_OK) {
		report("buffers", status);
		goto out;
	}
	status = clwarp_kernel_set_arg_buffer(kernel, 0, in);
	if (status == CLWARP_OK)
		status = clwarp_kernel_set_arg_buffer(kernel, 1, out);
	if (status != CLWARP_OK) {
		report("arguments", status);
		goto out;
	}
	/* With no event the launch waits for the kernel. */
	status = clwarp_kernel_launch(kernel, 1, &global, &local, NULL);
	if (status == CLWARP_OK)
		status = clwarp_buffer_read(engine, out, 0, warps * sizeof(cl_int), sums);
	if (status != CLWARP_OK) {
		report("launch", status);
		goto out;
	}

	printf("sums:");
	for (w = 0; w < warps; w++)
		printf(" %d", (int)sums[w]);
	printf("\n");
	rc = 0;
	for (w = 0; w < warps; w++) {
		cl_int expect = 0;
		for (i = w * width; i < (w + 1) * width; i++)
			expect += host_in[i];
		if (sums[w] != expect) {
			fprintf(stderr, "first-kernel: warp %u: %d, the host says %d\n", w,
			        (int)sums[w], (int)expect);
			rc = 1;
		}
	}
	if (rc == 0)
		printf("the host agrees\n");
out:
	clwarp_build_info_free(&info);
	if (in)
		clReleaseMemObject(in);
	if (out)
		clReleaseMemObject(out);
	clwarp_kernel_free(kernel);
	clwarp_engine_free(engine);
	return rc;
}
