// cub::DeviceRadixSort per size: the CUDA counterpart of sort-bench.c.
// SPDX-License-Identifier: MIT
//
// Usage: cub-sort-bench [--min-log2 N] [--max-log2 N] [--reps R] [--bits B:E]
//                       [--cases LIST] [--tsv FILE]
//
// --bits B:E sorts on the (order) bits [B, E) only, as sort-bench --bits
// does, to time single passes; the order is then not checked. --cases
// LIST: the cases to run, as sort-bench's (default: keys-uint, keys-int,
// keys-float, pairs-uint, keys-ulong and pairs-ulong, ulong keys with uint
// values;
// keys-uint-fbits, uint keys with the float keys' bit patterns, and
// pairs-ulong-ulong, ulong keys with ulong values (TSV type
// "ulong-ulong"), and pairs-uint-ulong, uint keys with ulong values (TSV
// type "uint-ulong"), only when named).
//
// The same keys as sort-bench (splitmix64 from seed 42 + log2), the same
// cases, timed with cudaEvents recorded on the stream around the sort
// call (the input restored by a device copy before each repetition, not
// timed). CUB sorts from one buffer into another (its fastest form); the
// temporary storage is allocated once per size. TSV rows: device backend
// op type n median_ms mkeys_per_s, backend "cub".
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench-util.h"

static int begin_bit = 0, end_bit = 0;   // end_bit 0: every bit of the key

#define CHECK(x)                                                                          \
	do {                                                                              \
		cudaError_t e_ = (x);                                                     \
		if (e_ != cudaSuccess) {                                                  \
			fprintf(stderr, "cub-sort-bench: %s: %s\n", #x, cudaGetErrorString(e_)); \
			exit(1);                                                          \
		}                                                                         \
	} while (0)

template <typename K> static K make_key(uint64_t x);
template <> uint32_t make_key<uint32_t>(uint64_t x) { return (uint32_t)x; }
template <> int32_t make_key<int32_t>(uint64_t x) { return (int32_t)(uint32_t)x; }
template <> uint64_t make_key<uint64_t>(uint64_t x) { return x; }
template <> float make_key<float>(uint64_t x) { return (float)((double)(int64_t)x * 0x1p-40); }


template <typename K, typename V = uint32_t>
static double run(const char *op, const char *type, bool pairs, int log2n, int reps, FILE *tsv,
		  const char *device, bool float_bits = false)
{
	size_t n = (size_t)1 << log2n;
	std::vector<K> h(n);
	std::vector<V> hv(n);
	uint64_t rng = 42 + (uint64_t)log2n;
	for (size_t i = 0; i < n; i++) {
		uint64_t x = bench_splitmix(&rng);
		if (float_bits && sizeof(K) == 4) {   // keys-uint-fbits
			float f = make_key<float>(x);
			memcpy(&h[i], &f, 4);
		} else {
			h[i] = make_key<K>(x);
		}
		hv[i] = (V)i;
	}
	K *pk, *k_in, *k_out;
	V *v_in = nullptr, *v_out = nullptr, *pv = nullptr;
	CHECK(cudaMalloc(&pk, n * sizeof(K)));
	CHECK(cudaMalloc(&k_in, n * sizeof(K)));
	CHECK(cudaMalloc(&k_out, n * sizeof(K)));
	CHECK(cudaMemcpy(pk, h.data(), n * sizeof(K), cudaMemcpyHostToDevice));
	if (pairs) {
		CHECK(cudaMalloc(&pv, n * sizeof(V)));
		CHECK(cudaMalloc(&v_in, n * sizeof(V)));
		CHECK(cudaMalloc(&v_out, n * sizeof(V)));
		CHECK(cudaMemcpy(pv, hv.data(), n * sizeof(V), cudaMemcpyHostToDevice));
	}
	size_t temp_bytes = 0;
	void *temp = nullptr;
	int end = end_bit ? end_bit : (int)(8 * sizeof(K));
	if (pairs)
		CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k_in, k_out, v_in, v_out, (int)n,
						      begin_bit, end));
	else
		CHECK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, k_in, k_out, (int)n, begin_bit, end));
	CHECK(cudaMalloc(&temp, temp_bytes));
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	int r = n > ((size_t)1 << 24) ? (reps + 1) / 2 : reps;
	std::vector<double> t;
	for (int i = -1; i < r; i++) {
		CHECK(cudaMemcpy(k_in, pk, n * sizeof(K), cudaMemcpyDeviceToDevice));
		if (pairs)
			CHECK(cudaMemcpy(v_in, pv, n * sizeof(V), cudaMemcpyDeviceToDevice));
		CHECK(cudaDeviceSynchronize());
		CHECK(cudaEventRecord(a));
		if (pairs)
			CHECK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k_in, k_out, v_in, v_out, (int)n,
							      begin_bit, end));
		else
			CHECK(cub::DeviceRadixSort::SortKeys(temp, temp_bytes, k_in, k_out, (int)n, begin_bit,
							     end));
		CHECK(cudaEventRecord(b));
		CHECK(cudaEventSynchronize(b));
		float ms = 0;
		CHECK(cudaEventElapsedTime(&ms, a, b));
		if (i >= 0)   // the first run warms up
			t.push_back(ms);
	}
	// Sorted, and the same keys: in order, and the same sum of bit patterns.
	std::vector<K> out(n);
	CHECK(cudaMemcpy(out.data(), k_out, n * sizeof(K), cudaMemcpyDeviceToHost));
	uint64_t sum_in = 0, sum_out = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = 0, b = 0;
		memcpy(&a, &h[i], sizeof(K));
		memcpy(&b, &out[i], sizeof(K));
		sum_in += a * 0x9e3779b97f4a7c15ull + (a >> 7);
		sum_out += b * 0x9e3779b97f4a7c15ull + (b >> 7);
	}
	if ((!end_bit && !std::is_sorted(out.begin(), out.end())) || sum_in != sum_out) {
		fprintf(stderr, "cub-sort-bench: %s %s 2^%d: wrong result\n", op, type, log2n);
		exit(1);
	}
	std::sort(t.begin(), t.end());
	double med = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
	printf("%-10s %-6s %5d %12.4f %12.1f\n", op, type, log2n, med, (double)n / med * 1e-3);
	if (tsv)
		fprintf(tsv, "%s\tcub\t%s\t%s\t%zu\t%.6f\t%.3f\n", device, op, type, n, med,
			(double)n / med * 1e-3);
	cudaFree(pk);
	cudaFree(k_in);
	cudaFree(k_out);
	cudaFree(pv);
	cudaFree(v_in);
	cudaFree(v_out);
	cudaFree(temp);
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return med;
}

int main(int argc, char **argv)
{
	int min_log2 = 16, max_log2 = 26, reps = 20;
	const char *cases = "keys-uint,keys-int,keys-float,pairs-uint,keys-ulong,pairs-ulong";
	FILE *tsv = nullptr;
	const char *tsv_path = nullptr;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (bench_sweep_option(argv[i], argv[i + 1], &min_log2, &max_log2, &reps, &tsv_path))
			continue;
		else if (!strcmp(argv[i], "--cases"))
			cases = argv[i + 1];
		else if (!strcmp(argv[i], "--bits") && sscanf(argv[i + 1], "%d:%d", &begin_bit, &end_bit) != 2) {
			fprintf(stderr, "cub-sort-bench: --bits B:E\n");
			return 2;
		}
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
	printf("%-10s %-6s %5s %12s %12s\n", "op", "type", "log2", "median ms", "Mkeys/s");
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "keys-uint"); l += 2)
		run<uint32_t>("sort_keys", "uint", false, l, reps, tsv, prop.name);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "keys-int"); l += 2)
		run<int32_t>("sort_keys", "int", false, l, reps, tsv, prop.name);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "keys-float"); l += 2)
		run<float>("sort_keys", "float", false, l, reps, tsv, prop.name);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "pairs-uint"); l += 2)
		run<uint32_t>("sort_pairs", "uint", true, l, reps, tsv, prop.name);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "keys-ulong"); l += 2)
		run<uint64_t>("sort_keys", "ulong", false, l, reps, tsv, prop.name);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "pairs-ulong"); l += 2)
		run<uint64_t>("sort_pairs", "ulong", true, l, reps, tsv, prop.name);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "keys-uint-fbits"); l += 2)
		run<uint32_t>("sort_keys", "uint-fbits", false, l, reps, tsv, prop.name, true);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "pairs-ulong-ulong"); l += 2)
		run<uint64_t, uint64_t>("sort_pairs", "ulong-ulong", true, l, reps, tsv, prop.name);
	for (int l = min_log2; l <= max_log2 && bench_in_list(cases, "pairs-uint-ulong"); l += 2)
		run<uint32_t, uint64_t>("sort_pairs", "uint-ulong", true, l, reps, tsv, prop.name);
	if (tsv)
		fclose(tsv);
	return 0;
}
