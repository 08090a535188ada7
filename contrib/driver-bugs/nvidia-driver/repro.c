/* Raw-OpenCL reproducers for two behaviours of NVIDIA's OpenCL driver that
 * libclwarp works around (contrib/driver-bugs/nvidia-driver/README.md).
 *
 *   cc -O1 -o repro repro.c -lOpenCL -lpthread && ./repro [platform-substring]
 *
 * 1. empty: a program built from a source with no kernel; every query
 *    libclwarp makes of it, one by one, each printed before it is made.
 * 2. args: a kernel enqueued with an argument never set, then a blocking
 *    read of an unrelated buffer on the same queue, on a second queue of
 *    the same context, and from another thread.
 * 3. threads: several threads on one queue, with and without such launches.
 * The empty program runs last, since on NVIDIA it ends the process.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_context ctx;
static cl_device_id dev;

#define STEP(...) (printf(__VA_ARGS__), fflush(stdout))

static cl_program
build_with(const char *src, const char *options)
{
	cl_int err;
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);

	STEP("  clCreateProgramWithSource: %d\n", err);
	err = clBuildProgram(p, 1, &dev, options, NULL, NULL);
	STEP("  clBuildProgram(\"%s\"): %d\n", options, err);
	return p;
}

static cl_program
build(const char *src)
{
	return build_with(src, "");
}

static void
empty_program(const char *src, const char *label)
{
	cl_int err;
	size_t size = 12345;
	cl_uint n = 12345;

	STEP("empty program (%s):\n", label);
	cl_program p = build(src);
	err = clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(size), &size, NULL);
	STEP("  CL_PROGRAM_NUM_KERNELS: %d, %zu\n", err, size);
	err = clCreateKernelsInProgram(p, 0, NULL, &n);
	STEP("  clCreateKernelsInProgram count: %d, %u\n", err, n);
	size = 12345;
	err = clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL);
	STEP("  CL_PROGRAM_BINARY_SIZES: %d, %zu\n", err, size);
	if (err == CL_SUCCESS && size > 0) {
		unsigned char *bin = malloc(size);
		err = clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL);
		STEP("  CL_PROGRAM_BINARIES: %d\n", err);
		cl_int bs;
		const unsigned char *cbin = bin;
		cl_program q = clCreateProgramWithBinary(ctx, 1, &dev, &size, &cbin, &bs, &err);
		STEP("  clCreateProgramWithBinary: %d (binary %d)\n", err, bs);
		if (err == CL_SUCCESS) {
			err = clBuildProgram(q, 1, &dev, "", NULL, NULL);
			STEP("  clBuildProgram(binary): %d\n", err);
			size = 12345;
			err = clGetProgramInfo(q, CL_PROGRAM_NUM_KERNELS, sizeof(size), &size, NULL);
			STEP("  CL_PROGRAM_NUM_KERNELS(binary): %d, %zu\n", err, size);
			clReleaseProgram(q);
		}
		free(bin);
	}
	/* last: this is the query that NVIDIA's driver dies in */
	size = 12345;
	err = clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &size);
	STEP("  CL_PROGRAM_KERNEL_NAMES size: %d, %zu\n", err, size);
	if (err == CL_SUCCESS && size < 4096) {
		char names[4096] = "unchanged";
		err = clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, size, names, NULL);
		STEP("  CL_PROGRAM_KERNEL_NAMES: %d, \"%s\"\n", err, names);
	}
	clReleaseProgram(p);
}

/* 0. a kernel without parameters, built without and with
 * -cl-kernel-arg-info: the build status and log. */
static void
empty_kernel(void)
{
	char log[4096] = "";

	static const char *const options[] = { "", "-cl-kernel-arg-info" };

	STEP("a kernel without parameters:\n");
	for (int i = 0; i < 2; i++) {
		cl_program p = build_with("kernel void k(void) {}", options[i]);
		clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
		STEP("  build log: %s\n", log);
		clReleaseProgram(p);
	}
}

struct reader {
	cl_command_queue q;
	cl_mem buf;
	cl_int err;
};

static void *
read_from_thread(void *arg)
{
	struct reader *r = arg;
	int v[16];

	r->err = clEnqueueReadBuffer(r->q, r->buf, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL);
	return NULL;
}

static void
unset_args(int variant)
{
	static const char *names[] = { "same queue", "second queue", "other thread, same queue" };
	cl_int err;
	int v[16] = { 0 };
	size_t global = 16;
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	cl_command_queue q2 = clCreateCommandQueue(ctx, dev, 0, &err);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(v), v, &err);

	STEP("unset argument, then a read (%s):\n", names[variant]);
	cl_program p = build("kernel void k(global int *a, global int *b) { a[get_global_id(0)] = b[0]; }");
	cl_kernel k = clCreateKernel(p, "k", &err);
	err = clSetKernelArg(k, 0, sizeof(buf), &buf);
	STEP("  clSetKernelArg(0): %d (argument 1 left unset)\n", err);
	err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
	STEP("  clEnqueueNDRangeKernel: %d\n", err);
	if (variant == 2) {
		struct reader r = { q, buf, 0 };
		pthread_t th;
		pthread_create(&th, NULL, read_from_thread, &r);
		pthread_join(th, NULL);
		STEP("  clEnqueueReadBuffer (other thread): %d\n", r.err);
	} else {
		err = clEnqueueReadBuffer(variant ? q2 : q, buf, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL);
		STEP("  clEnqueueReadBuffer: %d\n", err);
	}
	err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(v), v, 0, NULL, NULL);
	STEP("  clEnqueueReadBuffer again (same queue): %d\n", err);
	err = clFinish(q);
	STEP("  clFinish: %d\n", err);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(q);
	clReleaseCommandQueue(q2);
}


/* 3. threads: T threads share the context, one queue and one program; each
 * has its own kernel object and buffer, and runs R rounds of set arguments,
 * enqueue, blocking read, check. With `inject`, odd threads also enqueue
 * their kernel once a round with an argument unset (an error the driver
 * must report to that call alone). */
#define T 6
#define R 200
#define N 1024
static cl_program shared_program;
static cl_command_queue shared_queue;
static int inject;
static int errors_seen, wrong_values;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void *
worker(void *arg)
{
	int id = (int)(size_t)arg;
	cl_int err;
	static __thread int host[N];
	size_t global = N;
	cl_kernel k = clCreateKernel(shared_program, "add", &err);
	cl_kernel bad = clCreateKernel(shared_program, "add", &err);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(host), NULL, &err);

	for (int r = 0; r < R; r++) {
		int add = id * 1000 + r, e = 0, w = 0;
		for (int i = 0; i < N; i++)
			host[i] = i;
		err = clEnqueueWriteBuffer(shared_queue, buf, CL_TRUE, 0, sizeof(host), host, 0, NULL, NULL);
		e += err != CL_SUCCESS;
		if (inject && id % 2) {
			/* argument 0 of `bad` is never set */
			err = clSetKernelArg(bad, 1, sizeof(int), &add);
			err = clEnqueueNDRangeKernel(shared_queue, bad, 1, NULL, &global, NULL, 0, NULL, NULL);
			if (err != CL_INVALID_KERNEL_ARGS)
				e++;
		}
		err = clSetKernelArg(k, 0, sizeof(buf), &buf);
		err |= clSetKernelArg(k, 1, sizeof(int), &add);
		e += err != CL_SUCCESS;
		err = clEnqueueNDRangeKernel(shared_queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
		e += err != CL_SUCCESS;
		err = clEnqueueReadBuffer(shared_queue, buf, CL_TRUE, 0, sizeof(host), host, 0, NULL, NULL);
		e += err != CL_SUCCESS;
		for (int i = 0; i < N; i++)
			w += host[i] != i + add;
		pthread_mutex_lock(&count_lock);
		errors_seen += e;
		wrong_values += w;
		pthread_mutex_unlock(&count_lock);
	}
	clReleaseKernel(k);
	clReleaseKernel(bad);
	clReleaseMemObject(buf);
	return NULL;
}

static void
threads(int with_errors)
{
	cl_int err;
	pthread_t th[T];

	inject = with_errors;
	errors_seen = wrong_values = 0;
	shared_queue = clCreateCommandQueue(ctx, dev, 0, &err);
	shared_program = build("kernel void add(global int *a, int v) { a[get_global_id(0)] += v; }");
	for (int i = 0; i < T; i++)
		pthread_create(&th[i], NULL, worker, (void *)(size_t)i);
	for (int i = 0; i < T; i++)
		pthread_join(th[i], NULL);
	STEP("threads (%d x %d rounds, %s): %d unexpected statuses, %d wrong values\n", T, R,
	     with_errors ? "odd threads also launch with an unset argument" : "no errors injected",
	     errors_seen, wrong_values);
	clReleaseProgram(shared_program);
	clReleaseCommandQueue(shared_queue);
}

int
main(int argc, char **argv)
{
	cl_platform_id plats[8];
	cl_uint np = 0;
	char name[256];
	cl_int err;

	clGetPlatformIDs(8, plats, &np);
	for (cl_uint i = 0; i < np; i++) {
		clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(name), name, NULL);
		if (argc > 1 && !strstr(name, argv[1]))
			continue;
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
			continue;
		printf("== %s\n", name);
		ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
		empty_kernel();
		for (int v = 0; v < 3; v++)
			unset_args(v);
		threads(0);
		threads(1);
		/* last: NVIDIA's driver crashes in the second query */
		empty_program("int twice(int x) { return 2 * x; }\n", "helpers only");
		empty_program("", "empty source");
		clReleaseContext(ctx);
	}
	return 0;
}
