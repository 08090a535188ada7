/* Standalone (plain OpenCL, no libclwarp): build sort.cl with the options
 * given, run its kernel sort_width on 256 floats (groups of 64, segments of
 * 4 lanes) and compare the descending sort (keys_out[n + g]) with the host's.
 *   gcc -O1 repro.c -lOpenCL -o repro
 *   ./repro sort.cl ""                 Intel 2026.2.0: 48 of 256 wrong
 *   ./repro sort.cl -cl-opt-disable    0
 *   ./repro sort.cl -DSHIFT_KEY        0
 * Exit status 1 when any value is wrong. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 256
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(2); } } while (0)

static uint32_t host_key(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}

int main(int argc, char **argv)
{
	static char text[1 << 20];
	const char *src = text, *opts = argc > 2 ? argv[2] : "";
	FILE *f = fopen(argc > 1 ? argv[1] : "sort.cl", "rb");
	/* the kernel's arguments 0 to 7 (3 is the width), in bytes */
	static const size_t sizes[8] = { N * 4, N * 8, N * 4, 0, 8 * N * 4, 4 * N * 4, 2 * N * 8, 85 * N * 4 };
	float in[N], out[8 * N];
	uint64_t r = 88172645463325252ull;
	size_t global = N, local = 64;
	cl_mem bufs[8] = { 0 };
	cl_platform_id p;
	cl_device_id d;
	cl_int err;
	int bad = 0;

	if (!f)
		return 2;
	text[fread(text, 1, sizeof(text) - 1, f)] = 0;
	fclose(f);
	for (int i = 0; i < N; i++) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		in[i] = (float)(int32_t)(uint32_t)r * 1e-3f; /* finite, both signs, all different */
	}
	CK(clGetPlatformIDs(1, &p, NULL));
	CK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL));
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err); CK(err);
	cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &err); CK(err);
	CK(clBuildProgram(pr, 1, &d, opts, NULL, NULL));
	cl_kernel k = clCreateKernel(pr, "sort_width", &err); CK(err);
	for (cl_uint i = 0; i < 8; i++) {
		if (i == 3) {
			cl_uint width = 4;
			CK(clSetKernelArg(k, i, sizeof(width), &width));
			continue;
		}
		bufs[i] = clCreateBuffer(c, CL_MEM_READ_WRITE, sizes[i], NULL, &err); CK(err);
		CK(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
	}
	CK(clSetKernelArg(k, 8, local * sizeof(cl_ulong), NULL));
	CK(clEnqueueWriteBuffer(q, bufs[0], CL_TRUE, 0, sizeof(in), in, 0, NULL, NULL));
	CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CK(clEnqueueReadBuffer(q, bufs[4], CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	for (int s = 0; s < N; s += 4) {
		float e[4];

		memcpy(e, in + s, sizeof(e));
		for (int i = 0; i < 4; i++)
			for (int j = i + 1; j < 4; j++)
				if (host_key(e[j]) > host_key(e[i])) {
					float t = e[i];
					e[i] = e[j];
					e[j] = t;
				}
		for (int i = 0; i < 4; i++)
			if (memcmp(&e[i], &out[N + s + i], 4) != 0) {
				if (bad < 4)
					printf("slot %d: got %a, want %a\n", s + i, out[N + s + i], e[i]);
				bad++;
			}
	}
	printf("descending: %d of %d wrong\n", bad, N);
	return bad ? 1 : 0;
}
