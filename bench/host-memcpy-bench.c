/* host-memcpy-bench: how fast the host itself moves ordinary memory, the
 * ceiling of a staged copy (src/staging.c: host threads memcpy between
 * the caller's memory and pinned chunks while the DMA runs).
 * SPDX-License-Identifier: MIT
 *
 *   host-memcpy-bench [REPS]
 *
 * For each size (16 MiB .. 1 GiB) and thread count (1 .. 16), the median
 * of REPS (default 15) copies of the whole size from one malloc'd buffer
 * to another, split into equal contiguous parts, one per thread. Two
 * forms: "spawn" starts and joins the threads on every copy, as
 * staging_copy does; "pool" hands the parts to threads started once and
 * waiting on a barrier, so the difference is the cost of starting them.
 * Both buffers are written once before timing (no first-touch faults).
 * Prints one TSV line per (form, size, threads): GB/s (1e9 bytes/s) and
 * the median in microseconds. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"

#define MAX_THREADS 16

struct part {
	unsigned char *dst;
	const unsigned char *src;
	size_t bytes;
};

static struct part parts[MAX_THREADS];
static pthread_barrier_t start_line, finish_line;
static volatile int pool_quit;

static double
now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void *
copy_part(void *arg)
{
	struct part *p = arg;

	memcpy(p->dst, p->src, p->bytes);
	return NULL;
}

static void *
pool_worker(void *arg)
{
	for (;;) {
		pthread_barrier_wait(&start_line);
		if (pool_quit)
			return NULL;
		copy_part(arg);
		pthread_barrier_wait(&finish_line);
	}
}

static void
split(unsigned char *dst, const unsigned char *src, size_t bytes, unsigned threads)
{
	size_t each = (bytes / threads + 4095) & ~(size_t)4095;

	for (unsigned j = 0; j < threads; j++) {
		size_t at = each * j < bytes ? each * j : bytes;
		size_t n = bytes - at < each ? bytes - at : each;

		parts[j] = (struct part){ dst + at, src + at, n };
	}
}

int
main(int argc, char **argv)
{
	static const unsigned thread_counts[] = { 1, 2, 4, 8, 12, 16 };
	size_t max_bytes = (size_t)1 << 30;
	int reps = argc > 1 ? atoi(argv[1]) : 15;
	unsigned char *src = malloc(max_bytes), *dst = malloc(max_bytes);
	double *t = calloc((size_t)(reps > 0 ? reps : 1), sizeof(*t));

	if (!src || !dst || !t || reps < 1) {
		fprintf(stderr, "host-memcpy-bench: %s\n", reps < 1 ? "REPS must be at least 1" : "out of memory");
		return 1;
	}
	memset(src, 1, max_bytes);
	memset(dst, 2, max_bytes);
	printf("form\tbytes\tthreads\tGB/s\tmedian_us\n");
	for (int form = 0; form < 2; form++) {
		for (size_t bytes = (size_t)16 << 20; bytes <= max_bytes; bytes <<= 2) {
			for (size_t k = 0; k < sizeof(thread_counts) / sizeof(thread_counts[0]); k++) {
				unsigned threads = thread_counts[k];
				pthread_t tid[MAX_THREADS];

				split(dst, src, bytes, threads);
				if (form == 1) {
					pool_quit = 0;
					pthread_barrier_init(&start_line, NULL, threads);
					pthread_barrier_init(&finish_line, NULL, threads);
					for (unsigned j = 1; j < threads; j++)
						pthread_create(&tid[j], NULL, pool_worker, &parts[j]);
				}
				for (int r = 0; r < reps; r++) {
					double t0 = now_us();

					if (form == 0) {
						for (unsigned j = 1; j < threads; j++)
							pthread_create(&tid[j], NULL, copy_part, &parts[j]);
						copy_part(&parts[0]);
						for (unsigned j = 1; j < threads; j++)
							pthread_join(tid[j], NULL);
					} else {
						pthread_barrier_wait(&start_line);
						copy_part(&parts[0]);
						pthread_barrier_wait(&finish_line);
					}
					t[r] = now_us() - t0;
				}
				if (form == 1) {
					pool_quit = 1;
					pthread_barrier_wait(&start_line);
					for (unsigned j = 1; j < threads; j++)
						pthread_join(tid[j], NULL);
					pthread_barrier_destroy(&start_line);
					pthread_barrier_destroy(&finish_line);
				}
				double median = bench_median(t, reps);

				printf("%s\t%zu\t%u\t%.2f\t%.1f\n", form ? "pool" : "spawn", bytes, threads,
				       bytes / (median * 1e3), median);
				fflush(stdout);
			}
		}
	}
	free(t);
	free(src);
	free(dst);
	return 0;
}
