// cub::DeviceHistogram::HistogramEven, cub::DeviceRunLengthEncode::Encode,
// cub::DeviceReduce::ReduceByKey (sums) and cub::DeviceSelect::Unique per
// size: the CUDA counterpart of hist-rle-bench.c.
// SPDX-License-Identifier: MIT
//
// Usage: cub-hist-rle-bench [--min-log2 N] [--max-log2 N] [--reps R] [--only OP] [--batch K]
//                           [--tsv FILE]
//
// The same data as hist-rle-bench (bench/bench-util.h, seed 42 + log2),
// the same cases, timed with cudaEvents recorded on the stream around the
// call; the temporary storage is allocated once per size, outside the
// timing. Histograms count in unsigned int with the level type equal to
// the sample type (uint or float), as clwarp_histogram does. Each result
// is checked against the host. Then, as cub-bench: the host wall time of
// one blocking call (the call and cudaStreamSynchronize, median of R) and
// back to back, K calls queued (--batch, default 32; fewer where they
// would take over a second) and one cudaStreamSynchronize, wall time per
// call, median of 5 rounds. --only takes a comma-separated list of cases.
// TSV rows: device backend op type n median_ms gbps wall_ms timing
// batch_ms, backend "cub", timing "cuda-event".
#include <cub/cub.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "bench-util.h"

#define CHECK(x)                                                                                 \
	do {                                                                                     \
		cudaError_t e_ = (x);                                                            \
		if (e_ != cudaSuccess) {                                                         \
			fprintf(stderr, "cub-hist-rle-bench: %s: %s\n", #x, cudaGetErrorString(e_)); \
			exit(1);                                                                 \
		}                                                                                \
	} while (0)

// One call of CUB (temp == nullptr: the size query).
static void cub_call(const bench_hr_case &c, void *temp, size_t &temp_bytes, const uint32_t *in,
		     const uint32_t *vals, uint32_t *out, uint32_t *counts, int *num, int n)
{
	if (c.kind == BENCH_RLE)
		CHECK(cub::DeviceRunLengthEncode::Encode(temp, temp_bytes, in, out, counts, num, n));
	else if (c.kind == BENCH_RBK)
		CHECK(cub::DeviceReduce::ReduceByKey(temp, temp_bytes, in, out, vals, counts, num,
						     cuda::std::plus<uint32_t>{}, n));
	else if (c.kind == BENCH_UNIQUE)
		CHECK(cub::DeviceSelect::Unique(temp, temp_bytes, in, out, num, n));
	else if (c.range)
		CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, in, counts, (int)c.param + 1,
							  0u, c.range, n));
	else
		CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, (const float *)in, counts,
							  (int)c.param + 1, 0.0f, 1.0f, n));
}

constexpr int kBatchRounds = 5;

static void run(const bench_hr_case &c, int log2n, int reps, int batch, FILE *tsv, const char *device)
{
	size_t n = (size_t)1 << log2n;
	std::vector<uint32_t> h(n);
	uint64_t seed = 42 + (uint64_t)log2n;
	bool runs_kind = c.kind != BENCH_HIST;
	if (runs_kind)
		bench_rle_keys(h.data(), n, c.param, seed);
	else if (c.range)
		bench_hist_uint(h.data(), n, c.range, seed);
	else
		bench_hist_float((float *)h.data(), n, c.sorted, seed);
	size_t slots = c.kind == BENCH_HIST ? c.param : n;
	uint32_t *in, *vals = nullptr, *out, *counts;
	int *num;
	CHECK(cudaMalloc(&in, n * 4));
	if (c.kind == BENCH_RBK) {
		std::vector<uint32_t> hv(n);
		for (size_t i = 0; i < n; i++)
			hv[i] = bench_rbk_value(i);
		CHECK(cudaMalloc(&vals, n * 4));
		CHECK(cudaMemcpy(vals, hv.data(), n * 4, cudaMemcpyHostToDevice));
	}
	CHECK(cudaMalloc(&out, runs_kind ? n * 4 : 4));
	CHECK(cudaMalloc(&counts, slots * 4));
	CHECK(cudaMalloc(&num, sizeof(int)));
	CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
	size_t temp_bytes = 0;
	void *temp = nullptr;
	cub_call(c, nullptr, temp_bytes, in, vals, out, counts, num, (int)n);
	CHECK(cudaMalloc(&temp, temp_bytes ? temp_bytes : 1));
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	int r = n > ((size_t)1 << 24) ? (reps + 1) / 2 : reps;
	std::vector<double> t;
	for (int i = -1; i < r; i++) {
		CHECK(cudaDeviceSynchronize());
		CHECK(cudaEventRecord(a));
		cub_call(c, temp, temp_bytes, in, vals, out, counts, num, (int)n);
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		float ms = 0;
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (i >= 0)   // the first run warms up
			t.push_back(ms);
	}
	// The host's counts (the samples sit on exact bin positions: no rounding
	// question), runs' keys and lengths or sums.
	std::vector<uint32_t> want(slots, 0), got(slots), want_keys;
	int runs = 0, got_runs = 0;
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		if (runs_kind) {
			if (i == 0 || h[i] != h[i - 1]) {
				want_keys.push_back(h[i]);
				runs++;
			}
			want[runs - 1] += c.kind == BENCH_RBK ? bench_rbk_value(i) : 1u;
		} else if (c.range) {
			want[(uint64_t)h[i] * c.param / c.range]++;
		} else {
			float f;
			memcpy(&f, &h[i], 4);
			want[(uint32_t)(f * (float)c.param)]++;
		}
	}
	if (runs_kind) {
		CHECK(cudaMemcpy(&got_runs, num, sizeof(int), cudaMemcpyDeviceToHost));
		slots = (size_t)runs;
		ok = got_runs == runs;
		if (ok) {
			CHECK(cudaMemcpy(got.data(), out, slots * 4, cudaMemcpyDeviceToHost));
			ok = memcmp(got.data(), want_keys.data(), slots * 4) == 0;
		}
	}
	if (ok && c.kind != BENCH_UNIQUE) {
		CHECK(cudaMemcpy(got.data(), counts, slots * 4, cudaMemcpyDeviceToHost));
		ok = memcmp(got.data(), want.data(), slots * 4) == 0;
	}
	if (!ok) {
		fprintf(stderr, "cub-hist-rle-bench: %s %s 2^%d: wrong result\n", c.op, c.type, log2n);
		exit(1);
	}
	double med = bench_median(t.data(), (int)t.size());
	// One blocking call: the call and cudaStreamSynchronize, host wall time.
	for (int i = 0; i < r; i++) {
		double t0 = bench_now_s();
		cub_call(c, temp, temp_bytes, in, vals, out, counts, num, (int)n);
		CHECK(cudaStreamSynchronize(0));
		t[i] = (bench_now_s() - t0) * 1e3;
	}
	double wall = bench_median(t.data(), r);
	// Back to back: K calls queued, one cudaStreamSynchronize, wall / K;
	// at most about a second of them.
	int k = wall * batch * kBatchRounds > 1000.0 ? std::max(2, (int)(1000.0 / (wall * kBatchRounds))) : batch;
	double per[kBatchRounds];
	for (int i = 0; i < kBatchRounds; i++) {
		double t0 = bench_now_s();
		for (int j = 0; j < k; j++)
			cub_call(c, temp, temp_bytes, in, vals, out, counts, num, (int)n);
		CHECK(cudaStreamSynchronize(0));
		per[i] = (bench_now_s() - t0) * 1e3 / k;
	}
	double b2b = bench_median(per, kBatchRounds);
	printf("%-11s %-6s %5d %12.4f %10.1f %12.4f %12.4f\n", c.op, c.type, log2n, med,
	       (double)n * 4 / med * 1e-6, wall, b2b);
	if (tsv)
		fprintf(tsv, "%s\tcub\t%s\t%s\t%zu\t%.6f\t%.3f\t%.6f\tcuda-event\t%.6f\n", device, c.op,
			c.type, n, med, (double)n * 4 / med * 1e-6, wall, b2b);
	cudaFree(in);
	cudaFree(vals);
	cudaFree(out);
	cudaFree(counts);
	cudaFree(num);
	cudaFree(temp);
	cudaEventDestroy(a);
	cudaEventDestroy(b);
}

int main(int argc, char **argv)
{
	int min_log2 = 16, max_log2 = 28, reps = 20, batch = 32;
	const char *only = nullptr;
	FILE *tsv = nullptr;
	const char *tsv_path = nullptr;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (bench_sweep_option(argv[i], argv[i + 1], &min_log2, &max_log2, &reps, &tsv_path))
			continue;
		else if (!strcmp(argv[i], "--only"))
			only = argv[i + 1];
		else if (!strcmp(argv[i], "--batch"))
			batch = atoi(argv[i + 1]) > 1 ? atoi(argv[i + 1]) : 2;
	}
	if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
		perror(tsv_path);
		return 1;
	}
	setvbuf(stdout, nullptr, _IOLBF, 0);
	cudaDeviceProp prop;
	CHECK(cudaGetDeviceProperties(&prop, 0));
	printf("device: %s (CUB %d.%d.%d)\n", prop.name, CUB_VERSION / 100000,
	       CUB_VERSION / 100 % 1000, CUB_VERSION % 100);
	printf("%-11s %-6s %5s %12s %10s %12s %12s\n", "op", "type", "log2", "median ms", "GB/s",
	       "blocking ms", "b2b ms");
	for (const bench_hr_case &c : bench_hr_cases) {
		if (only && !bench_in_list(only, c.op))
			continue;
		for (int l = min_log2; l <= max_log2; l += 2)
			run(c, l, reps, batch, tsv, prop.name);
	}
	if (tsv)
		fclose(tsv);
	return 0;
}
