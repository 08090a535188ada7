/* What an OpenCL driver says about the kernels of program binaries: work-group size, local and private memory. */
/* SPDX-License-Identifier: MIT */
/*
 * bench/run-select-gpu.sh gives it the PTX that NVIDIA's OpenCL made of
 * libclwarp's clwarp_select (from the program cache). The driver assembles
 * that PTX itself, with its own options. Driver 580.159.04 answered
 * CL_KERNEL_WORK_GROUP_SIZE 256 for every kernel, whatever its registers
 * (contrib/driver-bugs/nvidia-driver/README.md, section 4), so the register use shows
 * in ptxas -v on the same PTX (bench/run-select-gpu.sh does both), to
 * hold against the CUDA port's maxThreadsPerBlock and registers
 * (bench/select-port.cu prints them).
 *
 * Usage: cl-kernel-info [-d NAME] FILE...
 *   -d NAME  the first GPU whose name contains NAME (default: the first GPU)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

static cl_device_id
find_gpu(const char *want)
{
	cl_platform_id platforms[16];
	cl_uint np = 0;

	if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS)
		return NULL;
	for (cl_uint p = 0; p < np && p < 16; p++) {
		cl_device_id devices[16];
		cl_uint nd = 0;

		if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 16, devices, &nd) != CL_SUCCESS)
			continue;
		for (cl_uint d = 0; d < nd && d < 16; d++) {
			char name[256] = "";

			clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof(name), name, NULL);
			if (!want || strstr(name, want))
				return devices[d];
		}
	}
	return NULL;
}

static unsigned char *
read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (data = malloc((size_t)n + 1)) && fread(data, 1, (size_t)n, f) == (size_t)n) {
		data[n] = 0;  /* PTX is text; the driver wants it terminated */
		*size = (size_t)n + 1;
	} else {
		free(data);
		data = NULL;
	}
	fclose(f);
	return data;
}

/* One binary's kernels, one line each; 0, or 1 where the driver refused it. */
static int
describe(cl_context ctx, cl_device_id dev, const char *path)
{
	size_t size = 0;
	unsigned char *bin = read_file(path, &size);
	const unsigned char *bins[1] = { bin };
	cl_kernel kernels[16];
	cl_uint nk = 0;
	cl_int err, status = CL_SUCCESS;
	cl_program prog;

	if (!bin) {
		fprintf(stderr, "cl-kernel-info: cannot read %s\n", path);
		return 1;
	}
	prog = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, &status, &err);
	free(bin);
	if (err == CL_SUCCESS && status == CL_SUCCESS)
		err = clBuildProgram(prog, 1, &dev, NULL, NULL, NULL);
	if (err == CL_SUCCESS)
		err = clCreateKernelsInProgram(prog, 16, kernels, &nk);
	if (err != CL_SUCCESS || status != CL_SUCCESS) {
		fprintf(stderr, "cl-kernel-info: %s: the driver refused it (error %d, binary status %d)\n",
			path, err, status);
		return 1;
	}
	for (cl_uint k = 0; k < nk; k++) {
		char name[128] = "";
		size_t wg = 0, multiple = 0;
		cl_ulong local = 0, priv = 0;

		clGetKernelInfo(kernels[k], CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
		clGetKernelWorkGroupInfo(kernels[k], dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
		clGetKernelWorkGroupInfo(kernels[k], dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
					 sizeof(multiple), &multiple, NULL);
		clGetKernelWorkGroupInfo(kernels[k], dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local), &local, NULL);
		clGetKernelWorkGroupInfo(kernels[k], dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv), &priv, NULL);
		printf("%-28s %-22s work-group size <= %4zu (multiple %zu), %6llu B local, %4llu B private\n",
		       path, name, wg, multiple, (unsigned long long)local, (unsigned long long)priv);
		clReleaseKernel(kernels[k]);
	}
	clReleaseProgram(prog);
	return 0;
}

int
main(int argc, char **argv)
{
	const char *want = NULL;
	cl_device_id dev;
	cl_context ctx;
	cl_int err;
	int i = 1, failed = 0;
	char name[256] = "";

	if (argc > 2 && strcmp(argv[1], "-d") == 0) {
		want = argv[2];
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: cl-kernel-info [-d NAME] FILE...\n");
		return 2;
	}
	dev = find_gpu(want);
	if (!dev) {
		fprintf(stderr, "cl-kernel-info: no OpenCL GPU%s%s\n", want ? " named like " : "",
			want ? want : "");
		return 1;
	}
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
	printf("device: %s\n", name);
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "cl-kernel-info: clCreateContext: error %d\n", err);
		return 1;
	}
	for (; i < argc; i++)
		failed |= describe(ctx, dev, argv[i]);
	clReleaseContext(ctx);
	return failed;
}
