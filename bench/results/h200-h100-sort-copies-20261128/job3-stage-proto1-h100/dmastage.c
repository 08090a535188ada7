/* Staging prototype (issue #24): T threads memcpy sub-pieces of S bytes
 * between malloc'd memory and ONE pinned block; the main thread submits
 * the DMAs. Write: whenever at most D DMAs are outstanding, everything
 * ready (contiguous prefix) goes out as one DMA. Read: DMAs of growing
 * then shrinking sizes all enqueued at once; threads empty each region
 * as its event completes. Raw OpenCL, wall ms, median of 9. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
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

static char *src, *pin, *dst;
static size_t total, sub;
static unsigned nsub;
static atomic_uint next_sub;
static atomic_int done[MAXP];
/* read: region r covers [rb[r], rb[r+1]); ev[r] its DMA */
static size_t rb[MAXP + 1]; static unsigned nreg; static cl_event rev[MAXP];
static atomic_int reg_ready[MAXP];
static int writing;

static void *worker(void *arg)
{
	(void)arg;
	for (;;) {
		unsigned i = atomic_fetch_add(&next_sub, 1);
		if (i >= nsub) return NULL;
		size_t at = (size_t)i * sub, n = at + sub > total ? total - at : sub;
		if (writing) {
			memcpy(pin + at, src + at, n);
			atomic_store_explicit(&done[i], 1, memory_order_release);
		} else {
			/* the region holding this sub-piece: wait for its DMA */
			unsigned r = 0;
			while (rb[r + 1] <= at) r++;
			while (!atomic_load_explicit(&reg_ready[r], memory_order_acquire)) {
				cl_int st;
				clGetEventInfo(rev[r], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
				if (st == CL_COMPLETE) atomic_store(&reg_ready[r], 1);
			}
			memcpy(dst + at, pin + at, n);
		}
	}
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
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CK(err);
	cl_mem pb = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, total, NULL, &err); CK(err);
	pin = clEnqueueMapBuffer(q, pb, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, total, 0, NULL, NULL, &err); CK(err);
	memset(pin, 0, total);
	cl_mem d = clCreateBuffer(ctx, CL_MEM_READ_WRITE, total, NULL, &err); CK(err);
	src = malloc(total); dst = malloc(total);
	for (size_t i = 0; i < total / 4; i++) ((unsigned *)src)[i] = (unsigned)(i * 2654435761u);
	memset(dst, 0, total);
	double t[9];
	/* baselines */
	for (int w = 1; w >= 0; w--) {
		for (int p = 0; p < 2; p++) {
			for (int rep = 0; rep < 11; rep++) {
				double t0 = now_ms();
				char *h = p ? pin : src;
				if (w) CK(clEnqueueWriteBuffer(q, d, CL_TRUE, 0, total, h, 0, NULL, NULL));
				else CK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, total, p ? pin : dst, 0, NULL, NULL));
				if (rep >= 2) t[rep - 2] = now_ms() - t0;
			}
			qsort(t, 9, sizeof t[0], cmp);
			printf("%s\t%zu\t%s\t-\t-\t-\t%.3f\t%.1f\n", w ? "write" : "read", mib, p ? "pinned" : "pageable", t[4], total / t[4] * 1e-6);
		}
	}
	static const unsigned threads[] = { 8, 12 };
	static const size_t subs[] = { 256 << 10, 512 << 10, 1 << 20 };
	static const unsigned outs[] = { 1, 2 };
	pthread_t th[16];
	for (int w = 1; w >= 0; w--)
	for (unsigned ti = 0; ti < 2; ti++)
	for (unsigned si = 0; si < 3; si++)
	for (unsigned oi = 0; oi < 2; oi++) {
		unsigned T = threads[ti], D = outs[oi];
		sub = subs[si]; nsub = (total + sub - 1) / sub;
		writing = w;
		unsigned ndma_last = 0;
		for (int rep = 0; rep < 11; rep++) {
			if (!w) memset(dst, 0, total);
			atomic_store(&next_sub, 0);
			for (unsigned i = 0; i < nsub; i++) atomic_store(&done[i], 0);
			double t0 = now_ms();
			unsigned ndma = 0;
			if (w) {
				for (unsigned k = 0; k < T - 1; k++) pthread_create(&th[k], NULL, worker, NULL);
				/* main thread: submitter */
				cl_event evs[MAXP]; unsigned first_out = 0;
				unsigned ready = 0, submitted = 0;
				while (submitted < nsub) {
					while (ready < nsub && atomic_load_explicit(&done[ready], memory_order_acquire)) ready++;
					while (first_out < ndma) {
						cl_int st;
						clGetEventInfo(evs[first_out], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
						if (st != CL_COMPLETE) break;
						first_out++;
					}
					if (ready > submitted && ndma - first_out < D) {
						size_t at = (size_t)submitted * sub, end = (size_t)ready * sub;
						if (end > total) end = total;
						CK(clEnqueueWriteBuffer(q, d, CL_FALSE, at, end - at, pin + at, 0, NULL, &evs[ndma]));
						CK(clFlush(q));
						ndma++; submitted = ready;
					}
				}
				CK(clFinish(q));
				for (unsigned k = 0; k < ndma; k++) clReleaseEvent(evs[k]);
				for (unsigned k = 0; k < T - 1; k++) pthread_join(th[k], NULL);
			} else {
				/* regions: 1M, 2M, 4M, 8M, 8M, ... then 4M, 2M, 1M at the end */
				size_t sizes[64]; unsigned ns = 0; size_t left = total, s = 1 << 20;
				size_t tailsz[3] = { 4 << 20, 2 << 20, 1 << 20 };
				size_t tail = total >= (32u << 20) ? (7u << 20) : 0;
				while (left > tail) { size_t n = s < left - tail ? s : left - tail; sizes[ns++] = n; left -= n; if (s < (8u << 20)) s *= 2; }
				for (int k = 0; k < 3 && tail; k++) sizes[ns++] = tailsz[k];
				nreg = ns; rb[0] = 0;
				for (unsigned r = 0; r < ns; r++) {
					rb[r + 1] = rb[r] + sizes[r];
					atomic_store(&reg_ready[r], 0);
					CK(clEnqueueReadBuffer(q, d, CL_FALSE, rb[r], sizes[r], pin + rb[r], 0, NULL, &rev[r]));
				}
				CK(clFlush(q));
				ndma = ns;
				for (unsigned k = 0; k < T - 1; k++) pthread_create(&th[k], NULL, worker, NULL);
				worker(NULL);
				for (unsigned k = 0; k < T - 1; k++) pthread_join(th[k], NULL);
				for (unsigned r = 0; r < ns; r++) clReleaseEvent(rev[r]);
			}
			if (rep >= 2) t[rep - 2] = now_ms() - t0;
			ndma_last = ndma;
		}
		if (w) {
			CK(clEnqueueReadBuffer(q, d, CL_TRUE, 0, total, dst, 0, NULL, NULL));
			if (memcmp(dst, src, total)) { fprintf(stderr, "write wrong\n"); return 1; }
		} else if (memcmp(dst, src, total)) { fprintf(stderr, "read wrong\n"); return 1; }
		qsort(t, 9, sizeof t[0], cmp);
		printf("%s\t%zu\tstaged\t%u\t%zuK\t%u\t%.3f\t%.1f\tdmas %u\n", w ? "write" : "read", mib, T, sub >> 10, D, t[4], total / t[4] * 1e-6, ndma_last);
		fflush(stdout);
	}
	return 0;
}
