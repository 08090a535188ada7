/* Moving data between two GPUs of one platform: through host memory (what
 * a device group does today: one context per device) against a copy inside
 * one context that holds both devices. Raw OpenCL: the question is what
 * the driver can do, not what libclwarp does. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: peer-copy-bench [--mib M] [--reps R] [--cpu]
 *
 * On the first platform with two GPUs (--cpu: two CPU devices, to try it
 * with POCL_DEVICES="pthread pthread"), for M MiB (default 1024), median
 * of R runs (default 5), wall time from the enqueue to clFinish:
 *   d2h pageable / h2d pageable: clEnqueueRead/WriteBuffer to malloc'd memory;
 *   d2h pinned / h2d pinned: the same with a mapped CL_MEM_ALLOC_HOST_PTR
 *     buffer of the device's own context ("other": of device 0's context);
 *   staged pinned: device 0 to its pinned host memory, then to device 1;
 *   shared-context copy: clEnqueueCopyBuffer on device 1's queue, from a
 *     buffer device 0 last wrote (by a kernel) to one device 1 last wrote,
 *     both in one context holding the two devices; checked by a read.
 * GB/s = M MiB / time.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"

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
		fprintf(stderr, "peer-copy-bench: %s: OpenCL error %d\n", what, err);
		exit(1);
	}
}

static const char *fill_src =
	"__kernel void fill(__global uint *p, uint v) { p[get_global_id(0)] = v + (uint)get_global_id(0); }\n";

/* Device `q`'s kernel writes v + i to every word of `b`: the buffer is then
 * on that device. */
static void
fill(cl_command_queue q, cl_kernel k, cl_mem b, size_t words, cl_uint v)
{
	check(clSetKernelArg(k, 0, sizeof(b), &b), "clSetKernelArg");
	check(clSetKernelArg(k, 1, sizeof(v), &v), "clSetKernelArg");
	check(clEnqueueNDRangeKernel(q, k, 1, NULL, &words, NULL, 0, NULL, NULL), "fill");
	check(clFinish(q), "clFinish");
}

static void
report(const char *what, double *t, int reps, size_t bytes)
{
	double ms = bench_median(t, reps);

	printf("%-22s %10.3f ms %8.2f GB/s\n", what, ms, bytes / ms * 1e-6);
}

int
main(int argc, char **argv)
{
	size_t mib = 1024;
	int reps = 5;
	cl_platform_id platforms[8];
	cl_device_id dev[2];
	cl_uint np = 0, nd = 0, p;
	cl_device_type type = CL_DEVICE_TYPE_GPU;
	cl_int err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpu"))
			type = CL_DEVICE_TYPE_CPU;
		else if (!strcmp(argv[i], "--mib") && i + 1 < argc)
			mib = strtoull(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else
			reps = 0;
	}
	if (mib == 0 || reps < 1 || reps > 101) {
		fprintf(stderr, "usage: peer-copy-bench [--mib M] [--reps 1..101] [--cpu]\n");
		return 2;
	}
	check(clGetPlatformIDs(8, platforms, &np), "clGetPlatformIDs");
	for (p = 0; p < np; p++)
		if (clGetDeviceIDs(platforms[p], type, 2, dev, &nd) == CL_SUCCESS && nd >= 2)
			break;
	if (p == np) {
		fprintf(stderr, "peer-copy-bench: no platform with two %s devices\n", type == CL_DEVICE_TYPE_CPU ? "CPU" : "GPU");
		return 1;
	}
	size_t bytes = mib << 20, words = bytes / 4;
	double *t = malloc(sizeof(double) * (size_t)reps);
	unsigned char *host = malloc(bytes);
	char name[256];

	if (!t || !host) {
		fprintf(stderr, "peer-copy-bench: out of host memory\n");
		return 1;
	}
	memset(host, 1, bytes);
	check(clGetDeviceInfo(dev[0], CL_DEVICE_NAME, sizeof(name), name, NULL), "CL_DEVICE_NAME");
	printf("# peer-copy-bench: %s x2, %zu MiB, median of %d\n", name, mib, reps);

	/* One context per device, as a device group has. */
	cl_context ctx[2];
	cl_command_queue q[2];
	cl_mem buf[2], pinned[2];
	void *mapped[2];

	for (int d = 0; d < 2; d++) {
		ctx[d] = clCreateContext(NULL, 1, &dev[d], NULL, NULL, &err);
		check(err, "clCreateContext");
		q[d] = clCreateCommandQueue(ctx[d], dev[d], 0, &err);
		check(err, "clCreateCommandQueue");
		buf[d] = clCreateBuffer(ctx[d], CL_MEM_READ_WRITE, bytes, NULL, &err);
		check(err, "clCreateBuffer");
		check(clEnqueueWriteBuffer(q[d], buf[d], CL_TRUE, 0, bytes, host, 0, NULL, NULL), "warm-up write");
	}
	for (int d = 0; d < 2; d++) {
		pinned[d] = clCreateBuffer(ctx[d], CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
					   &err);
		check(err, "clCreateBuffer (pinned)");
		mapped[d] = clEnqueueMapBuffer(q[d], pinned[d], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
					       0, NULL, NULL, &err);
		check(err, "clEnqueueMapBuffer");
	}
	for (int mode = 0; mode < 6; mode++) {
		static const char *const names[] = { "d2h pageable", "h2d pageable", "d2h pinned",
						     "h2d pinned", "h2d pinned other", "staged pinned 0->1" };
		void *at = mode < 2 ? (void *)host : mode == 3 ? mapped[1] : mapped[0];

		for (int r = -1; r < reps; r++) {
			double t0 = now_ms();

			if (mode == 0 || mode == 2 || mode == 5)
				check(clEnqueueReadBuffer(q[0], buf[0], CL_TRUE, 0, bytes, at, 0, NULL, NULL),
				      "read");
			if (mode == 1 || mode == 3 || mode == 4 || mode == 5)
				check(clEnqueueWriteBuffer(q[1], buf[1], CL_TRUE, 0, bytes, at, 0, NULL, NULL),
				      "write");
			if (r >= 0)
				t[r] = now_ms() - t0;
		}
		report(names[mode], t, reps, bytes);
	}

	/* One context holding both devices. */
	cl_context shared = clCreateContext(NULL, 2, dev, NULL, NULL, &err);
	check(err, "clCreateContext (two devices)");
	cl_command_queue sq[2];
	cl_program prog = clCreateProgramWithSource(shared, 1, &fill_src, NULL, &err);

	check(err, "clCreateProgramWithSource");
	check(clBuildProgram(prog, 2, dev, "", NULL, NULL), "clBuildProgram");
	cl_kernel k = clCreateKernel(prog, "fill", &err);
	check(err, "clCreateKernel");
	cl_mem a = clCreateBuffer(shared, CL_MEM_READ_WRITE, bytes, NULL, &err);
	check(err, "clCreateBuffer");
	cl_mem b = clCreateBuffer(shared, CL_MEM_READ_WRITE, bytes, NULL, &err);
	check(err, "clCreateBuffer");
	for (int d = 0; d < 2; d++) {
		sq[d] = clCreateCommandQueue(shared, dev[d], 0, &err);
		check(err, "clCreateCommandQueue");
	}
	for (int dir = 0; dir < 2; dir++) {
		for (int r = -1; r < reps; r++) {
			cl_uint v = 1000u * (cl_uint)(r + 2) + (cl_uint)dir;
			cl_uint got[2];

			/* a on device 0 with fresh contents, b on device 1. */
			fill(sq[0], k, a, words, v);
			fill(sq[1], k, b, words, 7);
			double t0 = now_ms();

			check(clEnqueueCopyBuffer(sq[dir ? 0 : 1], a, b, 0, 0, bytes, 0, NULL, NULL),
			      "clEnqueueCopyBuffer");
			check(clFinish(sq[dir ? 0 : 1]), "clFinish");
			if (r >= 0)
				t[r] = now_ms() - t0;
			/* b's first and last words, read on device 1. */
			check(clEnqueueReadBuffer(sq[1], b, CL_TRUE, 0, 4, &got[0], 0, NULL, NULL), "check");
			check(clEnqueueReadBuffer(sq[1], b, CL_TRUE, bytes - 4, 4, &got[1], 0, NULL, NULL),
			      "check");
			if (got[0] != v || got[1] != v + (cl_uint)(words - 1)) {
				fprintf(stderr, "peer-copy-bench: shared-context copy gave %u, %u; expected %u, %u\n",
					got[0], got[1], v, v + (cl_uint)(words - 1));
				return 1;
			}
		}
		report(dir ? "shared copy on dev 0" : "shared copy on dev 1", t, reps, bytes);
	}
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	for (int d = 0; d < 2; d++) {
		clReleaseCommandQueue(sq[d]);
		clReleaseMemObject(buf[d]);
	}
	for (int d = 0; d < 2; d++) {
		clEnqueueUnmapMemObject(q[d], pinned[d], mapped[d], 0, NULL, NULL);
		clFinish(q[d]);
		clReleaseMemObject(pinned[d]);
		clReleaseCommandQueue(q[d]);
		clReleaseContext(ctx[d]);
	}
	clReleaseContext(shared);
	free(host);
	free(t);
	return 0;
}
