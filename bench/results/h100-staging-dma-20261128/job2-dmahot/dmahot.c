/* Issue #24: is a DMA slower from pinned lines the CPU has just written
 * (still in its cache) than from lines in DRAM, and do non-temporal stores
 * (which bypass the cache) avoid that? For chunks of C MiB of a 64 MiB
 * pinned block: fill the chunk from malloc'd memory by
 *   memcpy  - glibc's memcpy (the library's staging today),
 *   stream  - SSE2 non-temporal stores, then sfence,
 *   cold    - memcpy, then 256 MiB of other memory read to evict it,
 * then time its DMA alone (write, blocking). Also the fill rate of 64 MiB
 * by T threads with memcpy and with stream. Raw OpenCL. Medians. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <emmintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MiB ((size_t)1 << 20)
#define TOTAL (64 * MiB)
static double now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
static double median(double *t, int n) { qsort(t, n, sizeof *t, cmp); return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]); }

static void stream_copy(char *dst, const char *src, size_t n)   /* 64-byte aligned, n % 64 == 0 */
{
	for (size_t i = 0; i < n; i += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(src + i)), b = _mm_loadu_si128((const __m128i *)(src + i + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32)), d = _mm_loadu_si128((const __m128i *)(src + i + 48));
		_mm_stream_si128((__m128i *)(dst + i), a); _mm_stream_si128((__m128i *)(dst + i + 16), b);
		_mm_stream_si128((__m128i *)(dst + i + 32), c); _mm_stream_si128((__m128i *)(dst + i + 48), d);
	}
	_mm_sfence();
}
static volatile unsigned long sink;
static void evict(const char *big, size_t n) { unsigned long s = 0; for (size_t i = 0; i < n; i += 64) s += big[i]; sink = s; }

struct job { char *dst; const char *src; size_t n; int stream; };
static void *fill(void *arg) { struct job *j = arg; if (j->stream) stream_copy(j->dst, j->src, j->n); else memcpy(j->dst, j->src, j->n); return NULL; }

int main(void)
{
	cl_platform_id plats[8]; cl_uint np; cl_device_id dev = 0;
	CK(clGetPlatformIDs(8, plats, &np));
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], getenv("DMA_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CK(err);
	cl_mem pm = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, TOTAL, NULL, &err); CK(err);
	char *pin = clEnqueueMapBuffer(q, pm, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, TOTAL, 0, NULL, NULL, &err); CK(err);
	cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL, NULL, &err); CK(err);
	char *src = aligned_alloc(64, TOTAL), *big = aligned_alloc(64, 256 * MiB);
	memset(src, 5, TOTAL); memset(big, 7, 256 * MiB); memset(pin, 3, TOTAL);
	static const char *how[] = { "memcpy", "stream", "cold" };
	printf("# DMA of one chunk after filling it (ms per chunk, GB/s), medians over the block's chunks x 3 passes\n");
	printf("fill\tchunk_MiB\tdma_ms\tdma_GB/s\n");
	for (int round = 0; round < 2; round++)
	for (size_t c = 1; c <= 16; c *= 2)
	for (int m = 0; m < 3; m++) {
		size_t chunk = c * MiB, k = TOTAL / chunk; double t[192]; int n = 0;
		for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < k; i++) {
			char *p = pin + i * chunk;
			if (m == 1) stream_copy(p, src + i * chunk, chunk); else memcpy(p, src + i * chunk, chunk);
			if (m == 2) evict(big, 256 * MiB);
			double t0 = now_ms();
			CK(clEnqueueWriteBuffer(q, d, CL_TRUE, i * chunk, chunk, p, 0, NULL, NULL));
			t[n++] = now_ms() - t0;
		}
		double med = median(t, n);
		printf("%s\t%zu\t%.4f\t%.1f\n", how[m], c, med, chunk / med * 1e-6);
		fflush(stdout);
	}
	printf("# 64 MiB malloc'd -> pinned by T threads (ms, GB/s), median of 9\n");
	printf("fill\tthreads\tms\tGB/s\n");
	for (int round = 0; round < 2; round++)
	for (int T = 1; T <= 12; T = T < 4 ? T * 2 : T + 4)
	for (int m = 0; m < 2; m++) {
		double t[9];
		for (int r = 0; r < 9; r++) {
			pthread_t th[16]; struct job j[16];
			double t0 = now_ms();
			for (int i = 0; i < T; i++) {
				size_t part = TOTAL / T / 64 * 64, off = i * part;
				j[i] = (struct job){ pin + off, src + off, i == T - 1 ? TOTAL - off : part, m };
				pthread_create(&th[i], NULL, fill, &j[i]);
			}
			for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
			t[r] = now_ms() - t0;
		}
		double med = median(t, 9);
		printf("%s\t%d\t%.3f\t%.1f\n", how[m], T, med, TOTAL / med * 1e-6);
		fflush(stdout);
	}
	return 0;
}
