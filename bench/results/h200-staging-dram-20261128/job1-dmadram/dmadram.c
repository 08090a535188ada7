/* Does host DRAM traffic slow a host<->device DMA from pinned memory? (issue #24)
 * Session 28's dmahog.c ran its hogs over 128 MiB in all, which a 300 MiB L3
 * holds; here T threads stream over 2 GiB of their own (src) and 2 GiB
 * (dst), far past the L3, while one 64 MiB DMA (write in 1 or 32 pieces,
 * read in 1) runs from a pinned block the hogs never touch.
 * Hog modes: none; rd (read and sum); ntw (SSE2 non-temporal stores);
 * cp (memcpy); cpnt (16-byte loads, non-temporal stores: a staged fill with
 * streaming stores); cpL3 (memcpy over 128 MiB in all: dmahog's hogs).
 * Prints the DMA's median of 15 and the hogs' rate alone (100 ms before)
 * and during the DMAs. Raw OpenCL. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <emmintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MiB ((size_t)1 << 20)
#define TOTAL (64 * MiB)
#define BIG (2048 * MiB)
#define PIECE (4 * MiB)
static atomic_int stop;
static atomic_ullong moved;
static volatile uint64_t sink;
static double now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
enum { NONE, RD, NTW, CP, CPNT, CPL3, MODES };
static const char *names[] = { "none", "rd", "ntw", "cp", "cpnt", "cpL3" };
struct hog { char *src, *dst; size_t span; int mode; };
static void *hog(void *arg)
{
	struct hog *h = arg;
	uint64_t acc = 0;
	for (size_t off = 0; !atomic_load_explicit(&stop, memory_order_relaxed); off = (off + PIECE) % h->span) {
		char *s = h->src + off, *d = h->dst + off;
		switch (h->mode) {
		case RD: {
			const __m128i *p = (const __m128i *)s; __m128i a = _mm_setzero_si128(), b = a;
			for (size_t i = 0; i < PIECE / 16; i += 2) { a = _mm_add_epi64(a, _mm_load_si128(p + i)); b = _mm_add_epi64(b, _mm_load_si128(p + i + 1)); }
			a = _mm_add_epi64(a, b); acc += (uint64_t)_mm_cvtsi128_si64(a);
			break; }
		case NTW: {
			__m128i v = _mm_set1_epi32((int)off);
			for (size_t i = 0; i < PIECE / 16; i++) _mm_stream_si128((__m128i *)d + i, v);
			_mm_sfence();
			break; }
		case CPNT: {
			const __m128i *p = (const __m128i *)s;
			for (size_t i = 0; i < PIECE / 16; i += 4) {
				__m128i a = _mm_load_si128(p + i), b = _mm_load_si128(p + i + 1), c = _mm_load_si128(p + i + 2), e = _mm_load_si128(p + i + 3);
				_mm_stream_si128((__m128i *)d + i, a); _mm_stream_si128((__m128i *)d + i + 1, b);
				_mm_stream_si128((__m128i *)d + i + 2, c); _mm_stream_si128((__m128i *)d + i + 3, e);
			}
			_mm_sfence();
			break; }
		default:
			memcpy(d, s, PIECE);
		}
		atomic_fetch_add_explicit(&moved, PIECE, memory_order_relaxed);
	}
	sink += acc;
	return NULL;
}
int main(void)
{
	cl_platform_id plats[8]; cl_uint np; cl_device_id dev = 0;
	CK(clGetPlatformIDs(8, plats, &np));
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], getenv("DMA_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
	if (!dev) { fprintf(stderr, "no GPU\n"); return 1; }
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CK(err);
	cl_mem ma = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, TOTAL, NULL, &err); CK(err);
	char *A = clEnqueueMapBuffer(q, ma, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, TOTAL, 0, NULL, NULL, &err); CK(err);
	memset(A, 3, TOTAL);
	cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, TOTAL, NULL, &err); CK(err);
	char *src = aligned_alloc(4096, BIG), *dst = aligned_alloc(4096, BIG);
	if (!src || !dst) return 1;
	memset(src, 1, BIG); memset(dst, 2, BIG);
	static const unsigned threads[] = { 4, 8, 12 };
	printf("round\tmode\tthreads\tdir\tpieces\tms\tGB/s\thog_GB/s_alone\thog_GB/s_during\n");
	for (int round = 1; round <= 2; round++)
	for (int mode = 0; mode < MODES; mode++)
	for (unsigned ti = 0; ti < 3; ti++) {
		unsigned T = mode ? threads[ti] : 0;
		if (!mode && ti) continue;
		pthread_t th[16]; struct hog h[16];
		size_t all = mode == CPL3 ? 64 * MiB : BIG;
		size_t span = T ? all / T / PIECE * PIECE : 0;
		atomic_store(&stop, 0);
		for (unsigned t = 0; t < T; t++) {
			h[t] = (struct hog){ src + t * span, dst + t * span, span < PIECE ? PIECE : span, mode };
			pthread_create(&th[t], NULL, hog, &h[t]);
		}
		struct timespec ts = { 0, 50000000 }; nanosleep(&ts, NULL);
		unsigned long long c0 = atomic_load(&moved); double w0 = now_ms();
		ts.tv_nsec = 100000000; nanosleep(&ts, NULL);
		double alone = (double)(atomic_load(&moved) - c0) / (now_ms() - w0) * 1e-6;
		for (int kind = 0; kind < 3; kind++) {
			unsigned pieces = kind == 1 ? 32 : 1; int rd = kind == 2;
			double t[15];
			c0 = atomic_load(&moved); w0 = now_ms();
			for (int rep = 0; rep < 17; rep++) {
				double t0 = now_ms();
				size_t p = TOTAL / pieces;
				for (unsigned i = 0; i < pieces; i++) {
					if (rd) CK(clEnqueueReadBuffer(q, d, CL_FALSE, i * p, p, A + i * p, 0, NULL, NULL));
					else CK(clEnqueueWriteBuffer(q, d, CL_FALSE, i * p, p, A + i * p, 0, NULL, NULL));
				}
				CK(clFinish(q));
				if (rep >= 2) t[rep - 2] = now_ms() - t0;
			}
			double during = (double)(atomic_load(&moved) - c0) / (now_ms() - w0) * 1e-6;
			qsort(t, 15, sizeof t[0], cmp);
			printf("%d\t%s\t%u\t%s\t%u\t%.3f\t%.1f\t%.1f\t%.1f\n", round, names[mode], T, rd ? "read" : "write", pieces,
			       t[7], TOTAL / t[7] * 1e-6, alone, during);
			fflush(stdout);
		}
		atomic_store(&stop, 1);
		for (unsigned t = 0; t < T; t++) pthread_join(th[t], NULL);
	}
	return 0;
}
