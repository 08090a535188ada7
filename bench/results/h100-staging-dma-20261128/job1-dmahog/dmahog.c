/* Which host traffic slows a 64 MiB host-to-device DMA from pinned memory
 * (issue #24): T threads copy 4 MiB pieces over and over while the DMA
 * runs, each from memory of its own, into
 *   priv   - malloc'd memory of its own (session 27's job 2),
 *   pinB   - a second pinned block, never DMA'd,
 *   pinA   - the upper half of the DMA's own pinned block (the DMA reads the lower),
 * or from the DMA's source range into malloc'd memory (rdA).
 * The DMA: one 64 MiB write, or 32 of 2 MiB, one queue. Raw OpenCL.
 * Wall ms, median of 15, and the threads' copy rate over the reps. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MiB (1u << 20)
#define TOTAL (64u * MiB)
#define PIECE (4u * MiB)
static atomic_int stop;
static atomic_ullong copied;
static double now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
struct hog { char *src, *dst, *own, *own2; size_t span; };
static void *hog(void *arg)
{
	struct hog *h = arg;
	for (size_t off = 0; !atomic_load(&stop); off = (off + PIECE) % h->span) {
		memcpy(h->dst + off, h->src + off, PIECE);
		atomic_fetch_add(&copied, PIECE);
	}
	return NULL;
}
static char *pin(cl_context ctx, cl_command_queue q, size_t n, cl_mem *m)
{
	cl_int err;
	*m = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, n, NULL, &err); CK(err);
	char *p = clEnqueueMapBuffer(q, *m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n, 0, NULL, NULL, &err); CK(err);
	memset(p, 3, n);
	return p;
}
int main(void)
{
	cl_platform_id plats[8]; cl_uint np; cl_device_id dev = 0;
	CK(clGetPlatformIDs(8, plats, &np));
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], getenv("DMA_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CK(err);
	cl_mem ma, mb;
	char *A = pin(ctx, q, 2 * TOTAL, &ma), *B = pin(ctx, q, TOTAL, &mb);
	cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL, NULL, &err); CK(err);
	static const char *modes[] = { "none", "priv", "pinB", "pinA", "rdA" };
	static const unsigned threads[] = { 2, 6, 12 };
	printf("mode\tthreads\tpieces\tms\tGB/s\thog_GB/s\n");
	for (int round = 0; round < 2; round++)
	for (unsigned mi = 0; mi < 5; mi++)
	for (unsigned ti = 0; ti < 3; ti++) {
		unsigned T = mi ? threads[ti] : 0;
		if (!mi && ti) continue;
		pthread_t th[16]; struct hog h[16];
		atomic_store(&stop, 0);
		for (unsigned t = 0; t < T; t++) {
			size_t span = (TOTAL / T) / PIECE * PIECE;
			if (span < PIECE) span = PIECE;
			char *own = malloc(TOTAL), *own2 = malloc(TOTAL);
			memset(own, 1, TOTAL); memset(own2, 2, TOTAL);
			h[t].span = span;
			h[t].src = own; h[t].dst = own2; h[t].own = own; h[t].own2 = own2;
			if (mi == 2) h[t].dst = B + t * span % TOTAL;
			if (mi == 3) h[t].dst = A + TOTAL + t * span % TOTAL;
			if (mi == 4) { h[t].src = A + t * span % TOTAL; h[t].dst = own2; }
			pthread_create(&th[t], NULL, hog, &h[t]);
		}
		struct timespec ts = { 0, 50000000 }; nanosleep(&ts, NULL);
		for (unsigned pieces = 1; pieces <= 32; pieces *= 32) {
			double t[15];
			unsigned long long c0 = atomic_load(&copied); double w0 = now_ms();
			for (int rep = 0; rep < 17; rep++) {
				double t0 = now_ms();
				size_t p = TOTAL / pieces;
				for (unsigned i = 0; i < pieces; i++)
					CK(clEnqueueWriteBuffer(q, d, CL_FALSE, i * p, p, A + i * p, 0, NULL, NULL));
				CK(clFinish(q));
				if (rep >= 2) t[rep - 2] = now_ms() - t0;
			}
			double hog_gbs = (double)(atomic_load(&copied) - c0) / (now_ms() - w0) * 1e-6;
			qsort(t, 15, sizeof t[0], cmp);
			printf("%s\t%u\t%u\t%.3f\t%.1f\t%.1f\n", modes[mi], T, pieces, t[7], TOTAL / t[7] * 1e-6, hog_gbs);
			fflush(stdout);
		}
		atomic_store(&stop, 1);
		for (unsigned t = 0; t < T; t++) {
			pthread_join(th[t], NULL);
			free(h[t].own);
			free(h[t].own2);
		}
	}
	return 0;
}
