/* Self-test for the CI's Oclgrind report detector (.ci/run, step oclgrind).
 *
 * Oclgrind exits 0 even when it reports errors, so CI decides from its log.
 * Before trusting "no report" on the project's tests, CI runs this program
 * under the same Oclgrind options and checks that each faulty kernel below
 * IS reported and that the clean one is NOT, so a silently broken detector
 * (changed message format, --log not honoured, plugin not loaded) fails CI.
 *
 * Usage: oclgrind --data-races --uninitialized ./selftest KERNEL
 * KERNEL: clean | race | uninit | oob.  Exit 0 when the kernel ran.
 * Written against OpenCL 1.2, the first device of the first platform
 * (under oclgrind that is Oclgrind's own device). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

enum { N = 64 };

static const char *source =
	/* Every work-item writes the same local int: a write-write race. */
	"kernel void race(global int *o) {\n"
	"  local int t;\n"
	"  t = (int)get_local_id(0);\n"
	"  barrier(CLK_LOCAL_MEM_FENCE);\n"
	"  o[get_global_id(0)] = t;\n"
	"}\n"
	/* Reads a buffer the host never wrote: uninitialized value stored. */
	"kernel void uninit(global int *o) {\n"
	"  o[get_global_id(0)] = o[get_global_id(0)] + 1;\n"
	"}\n"
	/* The last work-item writes one past the end of the buffer. */
	"kernel void oob(global int *o) {\n"
	"  o[get_global_id(0) + 1] = 1;\n"
	"}\n"
	"kernel void clean(global int *o) {\n"
	"  o[get_global_id(0)] = (int)get_global_id(0);\n"
	"}\n";

static int report_failure(const char *what, cl_int err)
{
	fprintf(stderr, "selftest: %s failed (%d)\n", what, (int)err);
	return 2;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "clean";
	cl_platform_id platform;
	cl_device_id device;
	cl_int err = clGetPlatformIDs(1, &platform, NULL);
	if (err != CL_SUCCESS)
		return report_failure("clGetPlatformIDs", err);
	err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
	if (err != CL_SUCCESS)
		return report_failure("clGetDeviceIDs", err);
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	if (!ctx)
		return report_failure("clCreateContext", err);
	cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
	if (!queue)
		return report_failure("clCreateCommandQueue", err);
	cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
	if (!program)
		return report_failure("clCreateProgramWithSource", err);
	err = clBuildProgram(program, 1, &device, "", NULL, NULL);
	if (err != CL_SUCCESS)
		return report_failure("clBuildProgram", err);
	cl_kernel kernel = clCreateKernel(program, name, &err);
	if (!kernel)
		return report_failure("clCreateKernel", err);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_int), NULL, &err);
	if (!buf)
		return report_failure("clCreateBuffer", err);
	err = clSetKernelArg(kernel, 0, sizeof buf, &buf);
	if (err != CL_SUCCESS)
		return report_failure("clSetKernelArg", err);
	size_t global = N, local = N;
	err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL);
	if (err != CL_SUCCESS)
		return report_failure("clEnqueueNDRangeKernel", err);
	cl_int out[N];
	err = clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
	if (err != CL_SUCCESS)
		return report_failure("clEnqueueReadBuffer", err);
	clReleaseMemObject(buf);
	clReleaseKernel(kernel);
	clReleaseProgram(program);
	clReleaseCommandQueue(queue);
	clReleaseContext(ctx);
	printf("selftest: kernel %s ran\n", name);
	return 0;
}
