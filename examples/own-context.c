/* Example: libclwarp inside an application that made its own OpenCL context, queue and buffers. */
/* SPDX-License-Identifier: MIT */
/*
 *     own-context
 *
 * The application picks a device, makes a context, a queue and a buffer
 * with plain OpenCL calls, then hands them to libclwarp
 * (clwarp_engine_new_from_cl): a warp-scan kernel built from a source
 * string and clwarp_reduce run on the application's buffer, and the
 * application reads the results with its own clEnqueueReadBuffer. Prints
 * the warp width, the per-warp prefix sums and the total, checks them
 * against a host loop, and exits 1 on any error or mismatch.
 */
#include <clwarp/algorithms.h>
#include <stdio.h>

#define N 128
#define LOCAL 64

static const char source[] =
	"kernel void warp_prefix(global int *data)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	data[i] = warp_scan_inclusive_add(data[i]);\n"
	"}\n";

/* The application's device: the first GPU, else the first device of any kind. */
static cl_int
pick_device(cl_device_id *device)
{
	cl_platform_id platforms[16];
	cl_uint count, p;
	cl_int err = clGetPlatformIDs(16, platforms, &count);

	if (err != CL_SUCCESS)
		return err;
	count = count < 16 ? count : 16;
	for (p = 0; p < count; p++)
		if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, device, NULL) == CL_SUCCESS)
			return CL_SUCCESS;
	for (p = 0; p < count; p++)
		if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, device, NULL) == CL_SUCCESS)
			return CL_SUCCESS;
	return CL_DEVICE_NOT_FOUND;
}

static void
report(const char *what, clwarp_status status)
{
	fprintf(stderr, "own-context: %s: %s: %s\n", what, clwarp_status_name(status),
	        clwarp_last_error());
}

int
main(void)
{
	cl_device_id device;
	cl_context context = NULL;
	cl_command_queue queue = NULL;
	cl_mem data = NULL, total = NULL;
	cl_int host[N], scanned[N], sum, err;
	clwarp_engine *engine = NULL;
	clwarp_program *program;
	clwarp_kernel *kernel = NULL;
	clwarp_build_info info = { 0 };
	clwarp_backend backend;
	clwarp_status status;
	size_t global = N, local = LOCAL;
	unsigned width, i;
	int rc = 1, mismatch = 0;

	for (i = 0; i < N; i++)
		host[i] = (cl_int)(i % 7) - 3;

	/* ---- the application's own OpenCL objects ---- */
	err = pick_device(&device);
	if (err == CL_SUCCESS)
		context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	if (err == CL_SUCCESS)
		queue = clCreateCommandQueue(context, device, 0, &err);
	if (err == CL_SUCCESS)
		data = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(host),
		                      host, &err);
	if (err == CL_SUCCESS)
		total = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "own-context: OpenCL set-up: %s\n", clwarp_cl_error_name(err));
		goto out;
	}

	/*
	 * The engine retains the context, device and queue and releases only
	 * its own references: the application's stay valid after
	 * clwarp_engine_free(). Everything the engine enqueues goes on this
	 * queue, in order with the application's own commands.
	 */
	status = clwarp_engine_new_from_cl(context, device, queue, NULL, &engine);
	if (status != CLWARP_OK) {
		report("engine", status);
		goto out;
	}
	status = clwarp_program_build_source(engine, source, "warp_prefix.cl", NULL, &program, &info);
	if (status != CLWARP_OK) {
		report("build", status);
		if (info.log)
			fprintf(stderr, "build log:\n%s\n", info.log);
		goto out;
	}
	status = clwarp_kernel_new(program, "warp_prefix", &kernel);
	if (status == CLWARP_OK)
		status = clwarp_kernel_warp_info(kernel, 1, &local, &backend, &width);
	/* The sum first, from the untouched data; then the scan in place. */
	if (status == CLWARP_OK)
		status = clwarp_reduce(engine, CLWARP_TYPE_INT, data, total, N, CLWARP_OP_ADD, NULL);
	if (status == CLWARP_OK)
		status = clwarp_kernel_set_arg_buffer(kernel, 0, data);
	if (status == CLWARP_OK)
		status = clwarp_kernel_enqueue(kernel, 1, &global, &local);
	if (status != CLWARP_OK) {
		report("run", status);
		goto out;
	}
	/* The application's own blocking reads wait for the kernel: same queue. */
	err = clEnqueueReadBuffer(queue, data, CL_TRUE, 0, sizeof(scanned), scanned, 0, NULL, NULL);
	if (err == CL_SUCCESS)
		err = clEnqueueReadBuffer(queue, total, CL_TRUE, 0, sizeof(sum), &sum, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "own-context: read: %s\n", clwarp_cl_error_name(err));
		goto out;
	}

	printf("warp width: %u (%s backend)\n", width, clwarp_backend_name(backend));
	printf("warp prefix sums:");
	for (i = 0; i < N; i++) {
		cl_int expect = host[i] + (i % width ? scanned[i - 1] : 0);
		printf(" %d", (int)scanned[i]);
		mismatch |= scanned[i] != expect;
	}
	printf("\nsum: %d\n", (int)sum);
	for (i = 0; i < N; i++)
		sum -= host[i];
	mismatch |= sum != 0;
	if (mismatch)
		fprintf(stderr, "own-context: a result differs from the host's\n");
	else
		printf("the host agrees\n");
	rc = mismatch;
out:
	clwarp_build_info_free(&info);
	clwarp_kernel_free(kernel);
	clwarp_engine_free(engine);
	/* The application's objects outlive the engine; it releases them itself. */
	if (data)
		clReleaseMemObject(data);
	if (total)
		clReleaseMemObject(total);
	if (queue)
		clReleaseCommandQueue(queue);
	if (context)
		clReleaseContext(context);
	return rc;
}
