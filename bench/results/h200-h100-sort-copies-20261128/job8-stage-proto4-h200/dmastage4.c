/* Staging prototype 4 (issue #24), writes, with a timeline. T pool threads
 * memcpy 64 MiB from malloc'd memory into ONE pinned block in pieces of S
 * bytes, in order; "split": every piece is cut into T slices, one a thread,
 * so pieces complete in order at the threads' combined speed; "whole": a
 * piece is one thread's, taken from a cursor. The caller only submits: the
 * whole ready prefix as one DMA whenever fewer than D are outstanding.
 * Profiling queue: each DMA's device time. Prints per setting: wall ms
 * (median of 9), and for the median run: DMAs, DMA busy time and span,
 * GB/s while busy, when the memcpys were done and when the first DMA was
 * submitted (ms from the start). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <emmintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXP 4096
static double now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }

static char *src, *pin;
static size_t total, piece;
static unsigned npieces, T, split;
static atomic_uint cursor, slices_done[MAXP], copiers_done;
static pthread_barrier_t go, fin;
static int quit;
static double copy_end;

static void copy_part(unsigned me)
{
	if (split) {
		for (unsigned i = 0; i < npieces; i++) {
			size_t at = (size_t)i * piece, n = at + piece > total ? total - at : piece;
			size_t s = (n / T + 4095) & ~(size_t)4095, b = (size_t)me * s;
			if (b < n) memcpy(pin + at + b, src + at + b, b + s > n ? n - b : s);
			atomic_fetch_add_explicit(&slices_done[i], 1, memory_order_release);
		}
	} else {
		for (;;) {
			unsigned i = atomic_fetch_add(&cursor, 1);
			if (i >= npieces) break;
			size_t at = (size_t)i * piece, n = at + piece > total ? total - at : piece;
			memcpy(pin + at, src + at, n);
			atomic_store_explicit(&slices_done[i], T, memory_order_release);
		}
	}
	if (atomic_fetch_add(&copiers_done, 1) + 1 == T) copy_end = now_ms();
}
static void *pool(void *a)
{
	unsigned me = (unsigned)(size_t)a;
	for (;;) { pthread_barrier_wait(&go); if (quit) return NULL; copy_part(me); pthread_barrier_wait(&fin); }
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? atoi(argv[1]) : 64;
	total = mib << 20;
	cl_platform_id plats[8]; cl_uint np; cl_device_id dev = 0;
	CK(clGetPlatformIDs(8, plats, &np));
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], getenv("DMA_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err); CK(err);
	cl_mem pb = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, total, NULL, &err); CK(err);
	pin = clEnqueueMapBuffer(q, pb, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, total, 0, NULL, NULL, &err); CK(err);
	memset(pin, 0, total);
	cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, total, NULL, &err); CK(err);
	src = malloc(total); char *chk = malloc(total);
	for (size_t i = 0; i < total / 4; i++) ((unsigned *)src)[i] = (unsigned)(i * 2654435761u);
	double t[9];
	for (int rep = 0; rep < 11; rep++) {
		double t0 = now_ms();
		CK(clEnqueueWriteBuffer(q, d, CL_TRUE, 0, total, pin, 0, NULL, NULL));
		if (rep >= 2) t[rep - 2] = now_ms() - t0;
	}
	qsort(t, 9, sizeof t[0], cmp);
	printf("mode\tT\tpiece_K\tD\twall_ms\tGB/s\tdmas\tbusy_ms\tspan_ms\tbusy_GB/s\tcopies_done_ms\tfirst_submit_ms\n");
	printf("pinned\t-\t-\t-\t%.3f\t%.1f\n", t[4], total / t[4] * 1e-6);
	static const unsigned Ts[] = { 12, 8 };
	static const size_t pieces[] = { 1 << 20, 4 << 20, 512 << 10 };
	static const unsigned Ds[] = { 2, 4 };
	for (unsigned ti = 0; ti < 2; ti++) {
		T = Ts[ti];
		pthread_barrier_init(&go, NULL, T + 1); pthread_barrier_init(&fin, NULL, T + 1);
		pthread_t th[64];
		for (unsigned k = 0; k < T; k++) pthread_create(&th[k], NULL, pool, (void *)(size_t)k);
		for (split = 0; split < 3; split++)
		for (unsigned pi = 0; pi < 3; pi++)
		for (unsigned di = 0; di < 2; di++) {
			unsigned D = Ds[di];
			int memcpy_only = split == 2;
			if (memcpy_only && (pi || di)) continue;
			piece = pieces[pi]; npieces = (total + piece - 1) / piece;
			struct { double wall, busy, span, cend, fsub; unsigned n; } res[11];
			unsigned savedsplit = split; if (memcpy_only) split = 1;
			for (int rep = 0; rep < 11; rep++) {
				memset(pin, 0, total);
				atomic_store(&cursor, 0); atomic_store(&copiers_done, 0);
				for (unsigned i = 0; i < npieces; i++) atomic_store(&slices_done[i], 0);
				cl_event ev[MAXP]; unsigned n = 0, head = 0, submitted = 0;
				double fsub = 0;
				double t0 = now_ms();
				pthread_barrier_wait(&go);
				while (!memcpy_only && submitted < npieces) {
					if (n - head == D) { CK(clWaitForEvents(1, &ev[head])); head++; continue; }
					unsigned ready = submitted;
					while (ready < npieces && atomic_load_explicit(&slices_done[ready], memory_order_acquire) == T) ready++;
					if (ready == submitted) { _mm_pause(); continue; }
					size_t at = (size_t)submitted * piece, end = (size_t)ready * piece;
					if (end > total) end = total;
					CK(clEnqueueWriteBuffer(q, d, CL_FALSE, at, end - at, pin + at, 0, NULL, &ev[n]));
					CK(clFlush(q));
					if (!n) fsub = now_ms() - t0;
					n++; submitted = ready;
				}
				if (n) CK(clFinish(q));
				pthread_barrier_wait(&fin);
				res[rep].wall = now_ms() - t0; res[rep].cend = copy_end - t0; res[rep].fsub = fsub; res[rep].n = n;
				double busy = 0; cl_ulong s0 = 0, e1 = 0;
				for (unsigned k = 0; k < n; k++) {
					cl_ulong s, e;
					CK(clGetEventProfilingInfo(ev[k], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
					CK(clGetEventProfilingInfo(ev[k], CL_PROFILING_COMMAND_END, sizeof e, &e, NULL));
					busy += (e - s) * 1e-6; if (!k) s0 = s; e1 = e;
					clReleaseEvent(ev[k]);
				}
				res[rep].busy = busy; res[rep].span = n ? (e1 - s0) * 1e-6 : 0;
			}
			split = savedsplit;
			if (!memcpy_only) {
				CK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, total, chk, 0, NULL, NULL));
				if (memcmp(chk, src, total)) { fprintf(stderr, "wrong\n"); return 1; }
				memset(chk, 0, total);
				CK(clEnqueueWriteBuffer(q, d, CL_TRUE, 0, total, chk, 0, NULL, NULL));
			}
			/* the median run by wall time, its other figures with it */
			int order[9]; for (int k = 0; k < 9; k++) order[k] = k + 2;
			for (int a = 0; a < 9; a++) for (int b = a + 1; b < 9; b++)
				if (res[order[b]].wall < res[order[a]].wall) { int x = order[a]; order[a] = order[b]; order[b] = x; }
			int m = order[4];
			printf("%s\t%u\t%zu\t%u\t%.3f\t%.1f\t%u\t%.3f\t%.3f\t%.1f\t%.3f\t%.3f\n",
			       memcpy_only ? "memcpy" : split ? "split" : "whole", T, piece >> 10, D,
			       res[m].wall, total / res[m].wall * 1e-6, res[m].n, res[m].busy, res[m].span,
			       res[m].busy > 0 ? total / res[m].busy * 1e-6 : 0, res[m].cend, res[m].fsub);
			fflush(stdout);
		}
		quit = 1; pthread_barrier_wait(&go);
		for (unsigned k = 0; k < T; k++) pthread_join(th[k], NULL);
		quit = 0;
		pthread_barrier_destroy(&go); pthread_barrier_destroy(&fin);
	}
	return 0;
}
