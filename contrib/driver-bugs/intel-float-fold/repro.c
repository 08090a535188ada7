/* Standalone (plain OpenCL, no libclwarp): build fold.cl with the options
 * given, run 2 work-groups of 24 x 4, compare every work-item's sum with
 * the same sum added left to right on the host, bit for bit.
 *   gcc -O1 repro.c -lOpenCL -o repro
 *   ./repro fold.cl ""                  Intel 2026.2.0: 64 of 192 differ
 *   ./repro fold.cl -cl-opt-disable     0
 *   ./repro fold.cl -DNO_VECTORIZE      0
 * Exit status 1 when any sum differs. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(2); } } while (0)

int main(int argc, char **argv)
{
	static char text[1 << 16];
	const char *opts = argc > 2 ? argv[2] : "", *src = text;
	FILE *f = fopen(argc > 1 ? argv[1] : "fold.cl", "rb");
	size_t local[2] = { 24, 4 }, global[2] = { 48, 4 }, n = 192, bad = 0, len;
	cl_platform_id p;
	cl_device_id d;
	cl_int err;
	char name[256];
	float a[192], out[192];
	uint64_t r = 88172645463325252ull;

	if (!f)
		return 2;
	len = fread(text, 1, sizeof(text) - 1, f);
	text[len] = 0;
	fclose(f);
	for (size_t i = 0; i < n; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		a[i] = (float)(int32_t)(uint32_t)r * 1e-6f; /* sums that round */
	}
	CK(clGetPlatformIDs(1, &p, NULL));
	CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
	CK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, NULL));
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err); CK(err);
	cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &err); CK(err);
	CK(clBuildProgram(pr, 1, &d, opts, NULL, NULL));
	cl_kernel k = clCreateKernel(pr, "fold", &err); CK(err);
	cl_mem bin = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof(a), a, &err); CK(err);
	cl_mem bout = clCreateBuffer(c, CL_MEM_WRITE_ONLY, sizeof(out), NULL, &err); CK(err);
	CK(clSetKernelArg(k, 0, sizeof(bin), &bin));
	CK(clSetKernelArg(k, 1, sizeof(bout), &bout));
	CK(clSetKernelArg(k, 2, 96 * sizeof(cl_ulong), NULL));
	CK(clSetKernelArg(k, 3, sizeof(cl_uint), &(cl_uint){ 32 }));
	CK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
	CK(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (size_t g = 0; g < n; g++) {
		size_t base = g - g % 32;
		float acc = a[base];

		for (size_t i = 1; i < 32; i++)
			acc = acc + a[base + i];
		if (memcmp(&acc, &out[g], 4) != 0 && bad++ == 0)
			printf("work-item %zu: got %.9g, left to right %.9g\n", g, out[g], acc);
	}
	printf("%s, options \"%s\": %zu of %zu sums differ\n", name, opts, bad, n);
	return bad != 0;
}
