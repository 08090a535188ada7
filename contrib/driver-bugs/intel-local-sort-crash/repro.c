/* Standalone (plain OpenCL, no libclwarp): build a .cl file with the
 * options given, in a child process, and say whether the compiler crashed.
 *   gcc -O1 repro.c -lOpenCL -o repro
 *   ./repro exchange.cl ""                   Intel 2026.2.0: crashes (signal 11)
 *   ./repro exchange.cl -DVOLATILE_LANE      builds
 *   ./repro exchange.cl -cl-opt-disable      builds
 * Exit status: 0 built, 1 build error, 3 the build crashed, 2 other. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char text[1 << 20];

static int build(const char *opts)
{
	const char *src = text;
	cl_platform_id p;
	cl_device_id d;
	cl_int err;
	char name[256];

	if (clGetPlatformIDs(1, &p, NULL) || clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL))
		return 2;
	clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name), name, NULL);
	printf("platform: %s\n", name);
	clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof(name), name, NULL);
	printf("driver: %s\n", name);
	fflush(stdout);
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
	if (err)
		return 2;
	cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &err);
	if (err)
		return 2;
	err = clBuildProgram(pr, 1, &d, opts, NULL, NULL);
	printf("clBuildProgram: %d\n", err);
	if (err) {
		static char log[1 << 16];
		clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
		printf("%.4000s\n", log);
	}
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	FILE *f = fopen(argc > 1 ? argv[1] : "exchange.cl", "rb");
	int status;
	pid_t pid;

	if (!f)
		return 2;
	text[fread(text, 1, sizeof(text) - 1, f)] = 0;
	fclose(f);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int rc = build(argc > 2 ? argv[2] : "");

		fflush(stdout);
		_exit(rc);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 2;
	if (WIFSIGNALED(status)) {
		printf("the build crashed: signal %d\n", WTERMSIG(status));
		return 3;
	}
	return WEXITSTATUS(status);
}
