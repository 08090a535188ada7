/* PoCL's kernel cache raced by processes: N processes build the same K
 * programs from source, in the same order, at once, and run each.
 * Prints every failed build with its error code and log.
 *
 *   cc -O1 -o repro repro.c -lOpenCL
 *   HOME=$(mktemp -d) ./repro [processes] [programs]   (an empty cache: PoCL's default folder under HOME)
 *
 * Exit status 0 where every build and launch succeeded; with RETRY=1 a
 * build that failed is built once more, on the same program object. */
/* SPDX-License-Identifier: MIT */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int
child(int programs)
{
	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	int bad = 0;

	clGetPlatformIDs(1, &platform, NULL);
	clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
	for (int i = 0; i < programs; i++) {
		char text[256];
		const char *src = text;

		snprintf(text, sizeof(text),
			 "kernel void scale(global const int *in, global int *out)\n"
			 "{ size_t i = get_global_id(0); out[i] = in[i] * %d; }\n", i + 2);
		cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
		err = clBuildProgram(p, 1, &device, "", NULL, NULL);
		if (err != CL_SUCCESS) {
			char log[4096] = "";
			size_t n = 0;

			clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, &n);
			fprintf(stderr, "pid %d, program %d: clBuildProgram returned %d; its log (%zu bytes): %s\n",
				(int)getpid(), i, err, n, log);
			if (getenv("RETRY")) {
				err = clBuildProgram(p, 1, &device, "", NULL, NULL);
				fprintf(stderr, "pid %d, program %d: built again: %d\n", (int)getpid(), i, err);
			}
			if (err != CL_SUCCESS) {
				bad++;
				clReleaseProgram(p);
				continue;
			}
		}
		cl_kernel k = clCreateKernel(p, "scale", &err);
		cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
		size_t global = 256;

		clSetKernelArg(k, 0, sizeof(buf), &buf);
		clSetKernelArg(k, 1, sizeof(buf), &buf);
		err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
		if (err == CL_SUCCESS)
			err = clFinish(queue);
		if (err != CL_SUCCESS) {
			fprintf(stderr, "pid %d, program %d: launch: %d\n", (int)getpid(), i, err);
			bad++;
		}
		clReleaseMemObject(buf);
		clReleaseKernel(k);
		clReleaseProgram(p);
	}
	return bad != 0;
}

int
main(int argc, char **argv)
{
	int processes = argc > 1 ? atoi(argv[1]) : 6, programs = argc > 2 ? atoi(argv[2]) : 20;
	int bad = 0;
	pid_t pids[64];

	if (processes < 1 || processes > 64)
		return 2;
	for (int i = 0; i < processes; i++)
		if ((pids[i] = fork()) == 0)
			_exit(child(programs));
	for (int i = 0; i < processes; i++) {
		int status;

		waitpid(pids[i], &status, 0);
		bad += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	}
	printf("%d of %d processes saw a failure\n", bad, processes);
	return bad != 0;
}
