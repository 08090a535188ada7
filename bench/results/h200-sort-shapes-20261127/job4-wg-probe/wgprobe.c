/* What NVIDIA's OpenCL says a kernel may run (CL_KERNEL_WORK_GROUP_SIZE) for
 * programs from source or PTX, with build options; then one launch of 384
 * work-items of each kernel that takes one buffer argument. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb"); if (!f) return NULL;
	fseek(f, 0, SEEK_END); *n = ftell(f); rewind(f);
	char *b = malloc(*n + 1); fread(b, 1, *n, f); b[*n] = 0; fclose(f); return b;
}

int main(int argc, char **argv)
{
	cl_platform_id pl[8]; cl_uint np; cl_device_id dev = NULL;
	clGetPlatformIDs(8, pl, &np);
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(pl[i], getenv("WG_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
	for (int a = 1; a + 1 < argc; a += 2) {
		const char *file = argv[a], *opt = argv[a + 1];
		size_t n; char *src = slurp(file, &n); cl_program p;
		if (strstr(file, ".ptx")) { const unsigned char *b = (const unsigned char *)src; cl_int st;
			p = clCreateProgramWithBinary(ctx, 1, &dev, &n, &b, &st, &err); }
		else p = clCreateProgramWithSource(ctx, 1, (const char **)&src, &n, &err);
		err = clBuildProgram(p, 1, &dev, opt, NULL, NULL);
		if (err) { char log[4096] = ""; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
			printf("%s [%s]: build %d %s\n", file, opt, err, log); continue; }
		cl_kernel ks[16]; cl_uint nk = 0; clCreateKernelsInProgram(p, 16, ks, &nk);
		for (cl_uint k = 0; k < nk; k++) {
			char name[64]; size_t wg = 0, cwg[3] = {0}; cl_ulong lm = 0, pm = 0; cl_uint nargs = 0;
			clGetKernelInfo(ks[k], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
			clGetKernelInfo(ks[k], CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
			clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
			clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL);
			clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
			clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL);
			printf("%-22s [%s] %-24s max wg %4zu, compile wg %zu, local %llu B, private %llu B", file, opt, name, wg, cwg[0],
			       (unsigned long long)lm, (unsigned long long)pm);
			if (nargs == 1 && !strstr(file, ".ptx")) {
				size_t g = 384, l = 384; uint32_t out[384] = {0};
				clSetKernelArg(ks[k], 0, sizeof buf, &buf);
				err = clEnqueueNDRangeKernel(q, ks[k], 1, NULL, &g, &l, 0, NULL, NULL);
				cl_int e2 = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
				printf("; launch of 384: %d, read %d, a[0] %u a[383] %u", err, e2, out[0], out[383]);
				clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
				printf("; max wg after the launch %zu", wg);
			}
			printf("\n");
		}
	}
	return 0;
}
