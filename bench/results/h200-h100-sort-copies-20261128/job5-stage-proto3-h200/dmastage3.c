/* Staging prototype 2 (issue #24), writes: a pool of T-1 threads plus the
 * caller memcpy sub-pieces of S bytes from malloc'd memory into ONE pinned
 * block, in order from a cursor.
 *   mode pieces:   each thread enqueues (and flushes) the DMA of its own
 *                  sub-piece, as src/staging.c does;
 *   mode coalesce: threads only copy; one submitter thread sends the whole
 *                  ready prefix as one DMA whenever fewer than D DMAs are
 *                  outstanding (condition variable; DMA completion by event
 *                  callback).
 * Raw OpenCL, wall ms, median of 9, every byte checked once per setting. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXP 8192
static double now_ms(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }

static char *src, *pin;
static size_t total, sub;
static unsigned nsub, mode;
static atomic_uint next_sub;
static unsigned char done[MAXP];
static unsigned ready_prefix;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static cl_command_queue q; static cl_mem d;
static pthread_barrier_t go, fin;
static int quit;

static void work(void)
{
	for (;;) {
		unsigned i = atomic_fetch_add(&next_sub, 1);
		if (i >= nsub) return;
		size_t at = (size_t)i * sub, n = at + sub > total ? total - at : sub;
		memcpy(pin + at, src + at, n);
		if (mode == 0) {
			CK(clEnqueueWriteBuffer(q, d, CL_FALSE, at, n, pin + at, 0, NULL, NULL));
			CK(clFlush(q));
		} else {
			pthread_mutex_lock(&mu);
			done[i] = 1;
			unsigned before = ready_prefix;
			while (ready_prefix < nsub && done[ready_prefix]) ready_prefix++;
			if (ready_prefix != before) pthread_cond_signal(&cv);
			pthread_mutex_unlock(&mu);
		}
	}
}
static void *pool(void *a) { for (;;) { pthread_barrier_wait(&go); if (quit) return a; work(); pthread_barrier_wait(&fin); } }
static unsigned D, ndma;
/* The submitter: at most D DMAs outstanding (the oldest waited for with
 * clWaitForEvents), otherwise the whole ready prefix goes out as one DMA. */
static void *submitter(void *a)
{
	unsigned submitted = 0, head = 0;
	cl_event fifo[MAXP];
	while (submitted < nsub) {
		if (ndma - head == D) {
			CK(clWaitForEvents(1, &fifo[head]));
			clReleaseEvent(fifo[head++]);
			continue;
		}
		pthread_mutex_lock(&mu);
		while (ready_prefix == submitted) pthread_cond_wait(&cv, &mu);
		unsigned upto = ready_prefix;
		pthread_mutex_unlock(&mu);
		size_t at = (size_t)submitted * sub, end = (size_t)upto * sub;
		if (end > total) end = total;
		CK(clEnqueueWriteBuffer(q, d, CL_FALSE, at, end - at, pin + at, 0, NULL, &fifo[ndma]));
		CK(clFlush(q));
		ndma++; submitted = upto;
	}
	if (head < ndma) CK(clWaitForEvents(ndma - head, &fifo[head]));
	while (head < ndma) clReleaseEvent(fifo[head++]);
	return a;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? atoi(argv[1]) : 64;
	unsigned T = argc > 2 ? atoi(argv[2]) : 12;
	total = mib << 20;
	cl_platform_id plats[8]; cl_uint np; cl_device_id dev = 0;
	CK(clGetPlatformIDs(8, plats, &np));
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], getenv("DMA_ANY") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL)) dev = 0;
	cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
	q = clCreateCommandQueue(ctx, dev, 0, &err); CK(err);
	cl_mem pb = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, total, NULL, &err); CK(err);
	pin = clEnqueueMapBuffer(q, pb, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, total, 0, NULL, NULL, &err); CK(err);
	memset(pin, 0, total);
	d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, total, NULL, &err); CK(err);
	src = malloc(total); char *chk = malloc(total);
	for (size_t i = 0; i < total / 4; i++) ((unsigned *)src)[i] = (unsigned)(i * 2654435761u);
	pthread_barrier_init(&go, NULL, T); pthread_barrier_init(&fin, NULL, T);
	pthread_t th[64];
	for (unsigned k = 0; k < T - 1; k++) pthread_create(&th[k], NULL, pool, NULL);
	double t[9];
	for (int p = 0; p < 2; p++) {
		for (int rep = 0; rep < 11; rep++) {
			double t0 = now_ms();
			CK(clEnqueueWriteBuffer(q, d, CL_TRUE, 0, total, p ? pin : src, 0, NULL, NULL));
			if (rep >= 2) t[rep - 2] = now_ms() - t0;
		}
		qsort(t, 9, sizeof t[0], cmp);
		printf("write\t%zu\t%s\t-\t-\t-\t%.3f\t%.1f\n", mib, p ? "pinned" : "pageable", t[4], total / t[4] * 1e-6);
	}
	/* memcpy alone by the pool */
	static const size_t subs[] = { 256 << 10, 1 << 20, 2 << 20 };
	for (unsigned si = 0; si < 3; si++)
	for (mode = 0; mode < 5; mode++) {
		/* mode 0 pieces, 1 coalesce D=1, 2 coalesce D=2, 3 memcpy only */
		sub = subs[si]; nsub = (total + sub - 1) / sub; D = mode == 1 ? 1 : mode == 2 ? 2 : 3;
		unsigned nd = 0;
		for (int rep = 0; rep < 11; rep++) {
			memset(pin, 0, total);
			atomic_store(&next_sub, 0); memset(done, 0, sizeof done); ready_prefix = 0; ndma = 0;
			pthread_t sth;
			unsigned m = mode;
			double t0 = now_ms();
			if (m == 1 || m == 2 || m == 4) pthread_create(&sth, NULL, submitter, NULL);
			unsigned saved = mode; if (m == 3) mode = 9;
			pthread_barrier_wait(&go); work(); pthread_barrier_wait(&fin);
			mode = saved;
			if (m == 1 || m == 2 || m == 4) pthread_join(sth, NULL);
			if (m != 3) CK(clFinish(q));
			if (rep >= 2) t[rep - 2] = now_ms() - t0;
			nd = ndma;
		}
		if (mode != 3) {
			CK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, total, chk, 0, NULL, NULL));
			if (memcmp(chk, src, total)) { fprintf(stderr, "wrong\n"); return 1; }
			memset(chk, 0, total);
			CK(clEnqueueWriteBuffer(q, d, CL_TRUE, 0, total, chk, 0, NULL, NULL));
		}
		qsort(t, 9, sizeof t[0], cmp);
		static const char *names[] = { "pieces", "coalesce1", "coalesce2", "memcpy", "coalesce3" };
		printf("write\t%zu\t%s\t%u\t%zuK\t%u\t%.3f\t%.1f\tdmas %u\n", mib, names[mode], T, sub >> 10, D, t[4], total / t[4] * 1e-6, nd);
		fflush(stdout);
	}
	quit = 1; pthread_barrier_wait(&go);
	for (unsigned k = 0; k < T - 1; k++) pthread_join(th[k], NULL);
	return 0;
}
