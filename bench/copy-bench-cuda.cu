// Host-device copy bandwidth by size with CUDA: cudaMemcpy from malloc'd
// (pageable) and from cudaMallocHost'd (pinned) memory, the baseline of
// bench/copy-bench.c (same sizes, same repetitions, same --tsv lines).
// SPDX-License-Identifier: MIT
//
// Usage: copy-bench-cuda [--max SIZE] [--reps R] [--tsv FILE]
// Built by nvcc (bench/run-copy-gpu.sh), not by Meson.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "bench-cuda.cuh"
#include "bench-util.h"

namespace {

constexpr int kMaxReps = 101;

int usage(FILE *f, int rc)
{
	fprintf(f, "Usage: copy-bench-cuda [--max SIZE] [--reps R] [--tsv FILE]\n"
		   "  --max SIZE  largest copy (default 1G; K, M, G suffixes)\n"
		   "  --reps R    runs per size, the median is shown (default 5, at most 101)\n"
		   "  --tsv FILE  also write dir, bytes, path, GB/s lines to FILE\n");
	return rc;
}

// Blocking copies of `bytes`, `inner` times; the seconds they took.
double copy_time(bool write, void *dev, void *host, size_t bytes, int inner)
{
	double t0 = bench_now_s();

	for (int i = 0; i < inner; i++)
		CUDA_CHECK(write ? cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice)
				 : cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
	return bench_now_s() - t0;
}

} // namespace

int main(int argc, char **argv)
{
	size_t max = (size_t)1 << 30, free_mem = 0, total_mem = 0;
	int reps = 5;
	const char *tsv_path = nullptr;
	FILE *tsv = nullptr;
	void *pageable, *pinned, *dev;
	cudaDeviceProp prop;

	bench::prog = "copy-bench-cuda";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			if (bench_parse_size(argv[++i], &max) != 0)
				return usage(stderr, 2);
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			reps = atoi(argv[++i]);
			if (reps < 1 || reps > kMaxReps)
				return usage(stderr, 2);
		} else if (!strcmp(argv[i], "--tsv") && i + 1 < argc) {
			tsv_path = argv[++i];
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			return usage(stdout, 0);
		} else {
			fprintf(stderr, "copy-bench-cuda: unexpected argument %s\n", argv[i]);
			return usage(stderr, 2);
		}
	}
	if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
		perror(tsv_path);
		return 1;
	}
	CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
	CUDA_CHECK(cudaMemGetInfo(&free_mem, &total_mem));
	// Half the free memory at most: the same cap in spirit as OpenCL's
	// largest allocation, which copy-bench uses.
	if (max > free_mem / 2)
		max = free_mem / 2;
	pageable = malloc(max);
	if (!pageable)
		bench::die("malloc of %zu bytes failed", max);
	CUDA_CHECK(cudaMallocHost(&pinned, max));
	CUDA_CHECK(cudaMalloc(&dev, max));
	// Touch every page first: no first-use faults inside the timings.
	memset(pageable, 1, max);
	memset(pinned, 2, max);

	printf("# copy-bench-cuda: %s (CUDA); median of %d runs\n", prop.name, reps);
	printf("# GB/s; pinned = cudaMallocHost memory, pageable = malloc'd\n");
	printf("%-5s %11s %13s %11s\n", "dir", "bytes", "cuda-pageable", "cuda-pinned");
	for (size_t bytes = 4096; bytes <= max; bytes *= 4) {
		int inner = bytes >= ((size_t)4 << 20) ? 1 : (int)(((size_t)4 << 20) / bytes);

		for (int write = 1; write >= 0; write--) {
			double gbs[2], t[kMaxReps];

			for (int p = 0; p < 2; p++) {
				void *host = p ? pinned : pageable;

				copy_time(write, dev, host, bytes, 1); // warm-up
				for (int r = 0; r < reps; r++)
					t[r] = copy_time(write, dev, host, bytes, inner);
				gbs[p] = (double)bytes * inner / bench_median(t, reps) / 1e9;
				if (tsv)
					fprintf(tsv, "%s\t%zu\t%s\t%.4f\n", write ? "write" : "read", bytes,
						p ? "cuda-pinned" : "cuda-pageable", gbs[p]);
			}
			printf("%-5s %11zu %13.2f %11.2f\n", write ? "write" : "read", bytes, gbs[0], gbs[1]);
			fflush(stdout);
		}
		if (bytes > max / 4)
			break;
	}
	CUDA_CHECK(cudaFree(dev));
	CUDA_CHECK(cudaFreeHost(pinned));
	free(pageable);
	if (tsv && fclose(tsv) != 0) {
		perror(tsv_path);
		return 1;
	}
	return 0;
}
