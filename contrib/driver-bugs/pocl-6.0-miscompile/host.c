/* Standalone: build a .cl file, run kernel clwarp_select(in, out, count, n, tiles, epoch,
 * counter, flags, values, scratch) over one work-group of 256, print the count. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
int main(int argc, char **argv)
{
	FILE *f = fopen(argv[1], "rb"); static char src[1 << 20]; size_t len = fread(src, 1, sizeof(src) - 1, f); src[len] = 0; fclose(f);
	size_t scratch = argc > 2 ? strtoul(argv[2], 0, 0) : 2112;
	const char *opts = argc > 3 ? argv[3] : "-cl-kernel-arg-info";
	cl_platform_id p; cl_device_id d; cl_int err;
	if (getenv("HEAPSEED")) { unsigned seed = atoi(getenv("HEAPSEED")); srand(seed); int cnt = rand() % 2000; for (int i = 0; i < cnt; i++) { void *m = malloc(rand() % 4096 + 1); if (rand() % 3 == 0) free(m); } }
	CK(clGetPlatformIDs(1, &p, NULL)); CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, d, 0, &err); CK(err);
	const char *s = src; cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err); CK(err);
	err = clBuildProgram(prog, 1, &d, opts, NULL, NULL);
	if (err) { static char log[1 << 16]; clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL); fprintf(stderr, "%s\n", log); return 1; }
	cl_kernel k = clCreateKernel(prog, "clwarp_select", &err); CK(err);
	enum { N = 63 }; int x[N]; unsigned want = 0, zero[4096] = { 0 }, c = 0xdeadbeef;
	for (int i = 0; i < N; i++) { x[i] = (i % 3 == 0) ? i + 1 : -(i + 1); want += x[i] > 0; }
	cl_mem in = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof(x), x, &err);
	cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(x), NULL, &err);
	cl_mem cnt = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 4, &c, &err);
	cl_mem counter = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 64, zero, &err);
	cl_mem flags = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 4096, zero, &err);
	cl_mem values = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 4096, zero, &err);
	cl_ulong n = N; cl_uint tiles = 1, epoch = 1;
	CK(clSetKernelArg(k, 0, sizeof(cl_mem), &in)); CK(clSetKernelArg(k, 1, sizeof(cl_mem), &out));
	CK(clSetKernelArg(k, 2, sizeof(cl_mem), &cnt)); CK(clSetKernelArg(k, 3, 8, &n));
	CK(clSetKernelArg(k, 4, 4, &tiles)); CK(clSetKernelArg(k, 5, 4, &epoch));
	CK(clSetKernelArg(k, 6, sizeof(cl_mem), &counter)); CK(clSetKernelArg(k, 7, sizeof(cl_mem), &flags));
	CK(clSetKernelArg(k, 8, sizeof(cl_mem), &values)); CK(clSetKernelArg(k, 9, scratch, NULL));
	size_t g = 256, l = 256;
	CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CK(clEnqueueReadBuffer(q, cnt, CL_TRUE, 0, 4, &c, 0, NULL, NULL));
	printf("count %u, expected %u: %s\n", c, want, c == want ? "ok" : "WRONG");
	return c != want;
}
