/* DMA probe (issue #24): 64 MiB between a pinned block and a device buffer,
 * cut into P pieces over Q in-order queues, pieces' host side taken from a
 * ring of R bytes of the pinned block, while T host threads memcpy between
 * private buffers. Raw OpenCL. Wall ms, median of 9. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOTAL (64u << 20)
static atomic_int stop;
static double now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
static void *hog(void *arg)
{
	size_t n = 64u << 20; char *a = malloc(n), *b = malloc(n);
	memset(a, 1, n); memset(b, 2, n);
	while (!atomic_load(&stop)) { memcpy(b, a, n); char *t = a; a = b; b = t; }
	free(a); free(b); return arg;
}
int main(void)
{
	cl_platform_id plats[8]; cl_uint np; cl_device_id dev = 0;
	CK(clGetPlatformIDs(8, plats, &np));
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], getenv("DMA_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
	cl_command_queue q[4];
	for (int i = 0; i < 4; i++) { q[i] = clCreateCommandQueue(ctx, dev, 0, &err); CK(err); }
	cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, TOTAL, NULL, &err); CK(err);
	char *host = clEnqueueMapBuffer(q[0], pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, TOTAL, 0, NULL, NULL, &err); CK(err);
	memset(host, 3, TOTAL);
	cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL, NULL, &err); CK(err);
	static const unsigned pieces[] = { 1, 8, 32, 128, 256 };
	static const unsigned queues[] = { 1, 2, 4 };
	static const unsigned rings[] = { 0, 8, 4 };
	static const unsigned hogs[] = { 0, 6, 12 };
	printf("dir\thogs\tring_MiB\tqueues\tpieces\tms\tGB/s\n");
	for (unsigned h = 0; h < 3; h++) {
		pthread_t th[16]; atomic_store(&stop, 0);
		for (unsigned t = 0; t < hogs[h]; t++) pthread_create(&th[t], NULL, hog, NULL);
		struct timespec ts = { 0, 50000000 }; nanosleep(&ts, NULL);
		for (int w = 0; w < 2; w++)
		for (unsigned r = 0; r < 3; r++)
		for (unsigned qi = 0; qi < 3; qi++)
		for (unsigned pi = 0; pi < 5; pi++) {
			unsigned P = pieces[pi], Q = queues[qi];
			size_t piece = TOTAL / P, ring = rings[r] ? (size_t)rings[r] << 20 : TOTAL;
			if (r && piece > ring) continue;
			double t[9];
			for (int rep = 0; rep < 11; rep++) {
				double t0 = now_ms();
				for (unsigned i = 0; i < P; i++) {
					size_t off = (size_t)i * piece;
					char *src = host + off % ring;
					cl_command_queue qq = q[i % Q];
					if (w == 0) CK(clEnqueueWriteBuffer(qq, d, CL_FALSE, off, piece, src, 0, NULL, NULL));
					else CK(clEnqueueReadBuffer(qq, d, CL_FALSE, off, piece, src, 0, NULL, NULL));
					CK(clFlush(qq));
				}
				for (unsigned k = 0; k < Q; k++) CK(clFinish(q[k]));
				if (rep >= 2) t[rep - 2] = now_ms() - t0;
			}
			qsort(t, 9, sizeof t[0], cmp);
			printf("%s\t%u\t%u\t%u\t%u\t%.3f\t%.1f\n", w ? "read" : "write", hogs[h], rings[r], Q, P, t[4], TOTAL / t[4] * 1e-6);
			fflush(stdout);
		}
		atomic_store(&stop, 1);
		for (unsigned t = 0; t < hogs[h]; t++) pthread_join(th[t], NULL);
	}
	return 0;
}
