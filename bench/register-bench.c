/* What registering the caller's memory costs (docs/copies.md): a write from
 * malloc'd memory through a CL_MEM_USE_HOST_PTR buffer on that memory,
 * against the driver's pageable path and a mapped pinned buffer. Raw
 * OpenCL: the question is what the driver does, not what libclwarp does. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: register-bench [--reps R] [--cpu] [MIB...]
 *
 * On the first GPU (--cpu: the first CPU device), for each size (default
 * 1 4 16 64 256 1024 MiB), median of R runs (default 5), wall time of:
 *   pageable:   clEnqueueWriteBuffer, blocking, from malloc'd memory;
 *   pinned:     the same from a mapped CL_MEM_ALLOC_HOST_PTR buffer;
 *   register:   clCreateBuffer(CL_MEM_USE_HOST_PTR) on the malloc'd memory;
 *   copy 1, 2:  clEnqueueCopyBuffer from that buffer to the device buffer
 *               and clFinish, twice (the second shows what a registration
 *               kept for later copies would give);
 *   release:    clReleaseMemObject of the registered buffer;
 *   one-shot:   register + copy 1 + release, what a blocking write that
 *               registers the caller's memory each time would take.
 * Each copy through the registered buffer is checked word by word (a read
 * back after the timing). GB/s = size / time.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"

#define MAX_REPS 64

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
check(cl_int err, const char *what)
{
	if (err != CL_SUCCESS) {
		fprintf(stderr, "register-bench: %s: OpenCL error %d\n", what, err);
		exit(1);
	}
}

static void
report(const char *what, size_t mib, double *t, int reps, size_t bytes)
{
	double ms = bench_median(t, reps);

	printf("%6zu MiB  %-10s %10.3f ms %8.2f GB/s\n", mib, what, ms, bytes / ms * 1e-6);
}

/* The device buffer holds `want` (bytes), read back into `scratch`. */
static void
expect_on_device(cl_command_queue q, cl_mem dev, const uint32_t *want, uint32_t *scratch,
		 size_t bytes, const char *what)
{
	check(clEnqueueReadBuffer(q, dev, CL_TRUE, 0, bytes, scratch, 0, NULL, NULL), "read back");
	for (size_t i = 0; i < bytes / 4; i++) {
		if (scratch[i] != want[i]) {
			fprintf(stderr, "register-bench: %s: word %zu is %u, expected %u\n", what, i,
				scratch[i], want[i]);
			exit(1);
		}
	}
}

static void
run_size(cl_context ctx, cl_command_queue q, size_t mib, int reps)
{
	size_t bytes = mib << 20;
	uint32_t *host = malloc(bytes), *scratch = malloc(bytes), *pinned_ptr;
	double t[7][MAX_REPS];
	cl_mem dev, pinned;
	cl_int err;

	if (!host || !scratch) {
		fprintf(stderr, "register-bench: out of memory at %zu MiB\n", mib);
		exit(1);
	}
	dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	check(err, "clCreateBuffer(device)");
	pinned = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
	pinned_ptr = clEnqueueMapBuffer(q, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
					NULL, NULL, &err);
	check(err, "clEnqueueMapBuffer");
	memset(pinned_ptr, 0x5a, bytes);
	for (int r = 0; r < reps; r++) {
		double t0, t1, t2, t3, t4;
		cl_mem reg;

		/* New values each run, written by the host as a caller's would be. */
		for (size_t i = 0; i < bytes / 4; i++)
			host[i] = (uint32_t)(i * 2654435761u) ^ (uint32_t)r;
		t0 = now_ms();
		check(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "pageable write");
		t[0][r] = now_ms() - t0;
		t0 = now_ms();
		check(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, bytes, pinned_ptr, 0, NULL, NULL), "pinned write");
		t[1][r] = now_ms() - t0;
		t0 = now_ms();
		reg = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, host, &err);
		check(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR)");
		t1 = now_ms();
		check(clEnqueueCopyBuffer(q, reg, dev, 0, 0, bytes, 0, NULL, NULL), "copy 1");
		check(clFinish(q), "clFinish");
		t2 = now_ms();
		check(clEnqueueCopyBuffer(q, reg, dev, 0, 0, bytes, 0, NULL, NULL), "copy 2");
		check(clFinish(q), "clFinish");
		t3 = now_ms();
		check(clReleaseMemObject(reg), "clReleaseMemObject");
		t4 = now_ms();
		t[2][r] = t1 - t0;
		t[3][r] = t2 - t1;
		t[4][r] = t3 - t2;
		t[5][r] = t4 - t3;
		t[6][r] = (t2 - t0) + (t4 - t3);
		expect_on_device(q, dev, host, scratch, bytes, "copy from the registered buffer");
	}
	report("pageable", mib, t[0], reps, bytes);
	report("pinned", mib, t[1], reps, bytes);
	report("register", mib, t[2], reps, bytes);
	report("copy 1", mib, t[3], reps, bytes);
	report("copy 2", mib, t[4], reps, bytes);
	report("release", mib, t[5], reps, bytes);
	report("one-shot", mib, t[6], reps, bytes);
	check(clEnqueueUnmapMemObject(q, pinned, pinned_ptr, 0, NULL, NULL), "clEnqueueUnmapMemObject");
	check(clFinish(q), "clFinish");
	clReleaseMemObject(pinned);
	clReleaseMemObject(dev);
	free(host);
	free(scratch);
}

int
main(int argc, char **argv)
{
	static const size_t default_sizes[] = { 1, 4, 16, 64, 256, 1024 };
	size_t sizes[32], count = 0;
	int reps = 5;
	cl_device_type type = CL_DEVICE_TYPE_GPU;
	cl_platform_id platforms[8];
	cl_device_id device = NULL;
	cl_uint np = 0;
	cl_context ctx;
	cl_command_queue q;
	cl_int err;
	char name[256];

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
			reps = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--cpu") == 0) {
			type = CL_DEVICE_TYPE_CPU;
		} else if (argv[i][0] >= '1' && argv[i][0] <= '9' && count < 32) {
			sizes[count++] = strtoul(argv[i], NULL, 10);
		} else {
			fprintf(stderr, "usage: register-bench [--reps R] [--cpu] [MIB...]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "register-bench: --reps must be 1 to %d\n", MAX_REPS);
		return 2;
	}
	if (!count)
		for (; count < sizeof(default_sizes) / sizeof(default_sizes[0]); count++)
			sizes[count] = default_sizes[count];
	check(clGetPlatformIDs(8, platforms, &np), "clGetPlatformIDs");
	for (cl_uint p = 0; p < np && !device; p++)
		if (clGetDeviceIDs(platforms[p], type, 1, &device, NULL) != CL_SUCCESS)
			device = NULL;
	if (!device) {
		fprintf(stderr, "register-bench: no %s device\n", type == CL_DEVICE_TYPE_GPU ? "GPU" : "CPU");
		return 1;
	}
	check(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof(name), name, NULL), "clGetDeviceInfo");
	printf("device: %s, median of %d runs\n", name, reps);
	ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	check(err, "clCreateContext");
	q = clCreateCommandQueue(ctx, device, 0, &err);
	check(err, "clCreateCommandQueue");
	for (size_t i = 0; i < count; i++)
		run_size(ctx, q, sizes[i], reps);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
