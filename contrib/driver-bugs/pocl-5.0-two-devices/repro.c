/* PoCL 5.0 with two CPU devices (POCL_DEVICES="pthread pthread"): one
 * context, queue and program per device, as a libclwarp device group makes
 * them; the same kernel built and launched on both at once, each on its own
 * part of the data (a grid size and global offset of its own, as a group
 * splits n), then everything released. PoCL 5.0 (the GPU machine's) aborted
 * in pocl_release_dlhandle_cache ("found->ref_count > 0") in libclwarp's
 * group tests; PoCL 3.1 and 6.0 do not. README.md says why.
 *
 *   cc -O1 -o repro repro.c -lOpenCL && POCL_DEVICES="pthread pthread" ./repro [rounds] [slots]
 *
 * "slots": each device's program built with -D CLWARP_POCL_SLOT=d+1, as
 * libclwarp's engines are on PoCL 4 and 5 (src/pocl_slot.h): no abort.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
	"kernel void twice(global int *a, int add) {\n"
	"  size_t i = get_global_id(0); int v = a[i];\n"
	"  for (int k = 0; k < 2000; k++) v = v * 3 + 1; /* a kernel that lasts */\n"
	"  a[i] = 2 * a[i] + add + (v & 0); }\n";

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	int slots = argc > 2 && strcmp(argv[2], "slots") == 0;
	cl_platform_id platforms[8];
	cl_device_id devices[2];
	cl_uint np = 0, nd = 0;
	char name[128];

	clGetPlatformIDs(8, platforms, &np);
	for (cl_uint p = 0; p < np && nd < 2; p++) {
		clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof(name), name, NULL);
		if (strstr(name, "Portable"))
			clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_CPU, 2, devices, &nd);
	}
	if (nd < 2) {
		fprintf(stderr, "need two PoCL CPU devices (POCL_DEVICES=\"pthread pthread\")\n");
		return 77;
	}
	for (int r = 0; r < rounds; r++) {
		cl_context ctx[2];
		cl_command_queue q[2];
		cl_program prog[2];
		cl_kernel k[2];
		cl_mem buf[2];
		static int host[2][16384];
		int bad = 0;
		/* A grid of its own per device and round, and an offset on the second
		 * device: PoCL 5.0 then keeps two kernel cache items of one hash. */
		size_t global[2] = { 4096u * (1 + r % 3), 4096u * (1 + (r + 1) % 3) }, offset[2] = { 0, 64 };
		size_t local = 64;
		cl_int err;

		for (int d = 0; d < 2; d++) {
			ctx[d] = clCreateContext(NULL, 1, &devices[d], NULL, NULL, &err);
			q[d] = clCreateCommandQueue(ctx[d], devices[d], 0, &err);
			prog[d] = clCreateProgramWithSource(ctx[d], 1, &source, NULL, &err);
			clBuildProgram(prog[d], 1, &devices[d],
				       slots ? (d ? "-D CLWARP_POCL_SLOT=2" : "-D CLWARP_POCL_SLOT=1") : "", NULL, NULL);
			k[d] = clCreateKernel(prog[d], "twice", &err);
			for (int i = 0; i < 16384; i++)
				host[d][i] = i;
			buf[d] = clCreateBuffer(ctx[d], CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(host[d]),
						host[d], &err);
			clSetKernelArg(k[d], 0, sizeof(cl_mem), &buf[d]);
			clSetKernelArg(k[d], 1, sizeof(int), &d);
		}
		/* both devices at once, as a group launch does */
		for (int d = 0; d < 2; d++)
			clEnqueueNDRangeKernel(q[d], k[d], 1, &offset[d], &global[d], &local, 0, NULL, NULL);
		for (int d = 0; d < 2; d++) {
			clEnqueueReadBuffer(q[d], buf[d], CL_TRUE, 0, sizeof(host[d]), host[d], 0, NULL, NULL);
			for (int i = 0; i < 16384; i++) {
				int in_grid = (size_t)i >= offset[d] && (size_t)i < offset[d] + global[d];

				bad += host[d][i] != (in_grid ? 2 * i + d : i);
			}
		}
		for (int d = 0; d < 2; d++) {
			clReleaseMemObject(buf[d]);
			clReleaseKernel(k[d]);
			clReleaseProgram(prog[d]);
			clReleaseCommandQueue(q[d]);
			clReleaseContext(ctx[d]);
		}
		printf("round %d: %d wrong values\n", r, bad);
		fflush(stdout);
	}
	return 0;
}
