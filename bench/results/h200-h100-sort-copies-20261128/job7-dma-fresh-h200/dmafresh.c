/* Does a DMA from pinned memory slow down when the CPU has just written
 * that memory (lines modified in the CPU's caches)? 64 MiB host -> device
 * (and device -> host) from one mapped CL_MEM_ALLOC_HOST_PTR block, timed
 * alone (wall, enqueue to clFinish), median of 9, after:
 *   clean:     nothing (the block was last written long ago);
 *   fresh:     a memset of the block just before;
 *   fresh-nt:  the block written with non-temporal stores just before;
 *   evicted:   a memset of the block, then 1 GiB of other memory written.
 * Raw OpenCL. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <emmintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOTAL ((size_t)64 << 20)
#define EVICT ((size_t)1 << 30)
static double now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
static void fill_nt(char *p, size_t n, int v)
{
	__m128i x = _mm_set1_epi8((char)v);
	for (size_t i = 0; i < n; i += 16) _mm_stream_si128((__m128i *)(p + i), x);
	_mm_sfence();
}
int main(void)
{
	cl_platform_id plats[8]; cl_uint np; cl_device_id dev = 0;
	CK(clGetPlatformIDs(8, plats, &np));
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], getenv("DMA_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CK(err);
	cl_mem pb = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, TOTAL, NULL, &err); CK(err);
	char *pin = clEnqueueMapBuffer(q, pb, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, TOTAL, 0, NULL, NULL, &err); CK(err);
	cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL, NULL, &err); CK(err);
	char *other = malloc(EVICT); memset(other, 1, EVICT); memset(pin, 2, TOTAL);
	static const char *names[] = { "clean", "fresh", "fresh-nt", "evicted" };
	printf("dir\tstate\tms\tGB/s\n");
	for (int round = 0; round < 2; round++)
	for (int w = 1; w >= 0; w--)
	for (int s = 0; s < 4; s++) {
		double t[9];
		for (int rep = 0; rep < 11; rep++) {
			if (s == 1 || s == 3) memset(pin, rep, TOTAL);
			if (s == 2) fill_nt(pin, TOTAL, rep);
			if (s == 3) memset(other, rep, EVICT);
			double t0 = now_ms();
			if (w) CK(clEnqueueWriteBuffer(q, d, CL_FALSE, 0, TOTAL, pin, 0, NULL, NULL));
			else CK(clEnqueueReadBuffer(q, d, CL_FALSE, 0, TOTAL, pin, 0, NULL, NULL));
			CK(clFinish(q));
			if (rep >= 2) t[rep - 2] = now_ms() - t0;
		}
		qsort(t, 9, sizeof t[0], cmp);
		printf("%s\t%s\t%.3f\t%.1f\n", w ? "write" : "read", names[s], t[4], TOTAL / t[4] * 1e-6);
		fflush(stdout);
	}
	return 0;
}
