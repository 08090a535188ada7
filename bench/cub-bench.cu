// CUB baseline for bench/algorithms-bench.c: the same operations, data, sizes and GB/s convention.
// SPDX-License-Identifier: MIT
//
// Build on an NVIDIA machine (nvcc 12+ ships CUB):
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/cub-bench.cu -o cub-bench
// Run:
//   cub-bench [--min-log2 N] [--max-log2 N] [--reps N] [--batch K] [--tsv FILE] [--ops LIST]
//
// Timing, three measures per call, as algorithms-bench takes them of libclwarp,
// after a warm-up call that is checked against a host reference (a wrong
// answer stops the run):
//  - event: cudaEvents recorded around the call on the default stream,
//    median of R (GB/s come from this one);
//  - blocking: host wall time (clock_gettime) of the call followed by
//    cudaStreamSynchronize(0), median of R: what an application that waits
//    for each call sees;
//  - back to back: K calls queued, one cudaStreamSynchronize, wall time / K,
//    median of 5 rounds: throughput over many calls.
// Temporary storage is allocated outside the timing, once, and grown when a
// call needs more. GB/s counts the bytes the operation must move at the
// least, 1 GB = 1e9 bytes (see bytes_moved()).
//
// TSV backends: "cub" for the device-wide calls (cub::Device*), "cub-kernel"
// for small kernels written here on CUB's block/warp primitives (WarpReduce
// per row of 32, 64, 128, BlockReduce softmax per row of 256; for the
// segmented scan; bench/cub-rows.cuh: WarpScan per row of 32, BlockScan
// per row of 256, 1024), "cuda-memcpy" and "cuda-kernel" for the copy
// bandwidth (cudaMemcpy device to device, and a float4 copy kernel like
// algorithms-bench's). The segmented scan's "cub" is DeviceScan::
// InclusiveSumByKey with the row index as each element's key, uploaded
// before the timing. Its rows come last, after every other op's.

#include <cub/cub.cuh>

#include <cmath>
#include <cstring>
#include <ctime>

#include "bench-cuda.cuh"
#include "cub-bench-cases.cuh"
#include "cub-rows.cuh"

namespace {

using bench::die;
using bench::in_list;

constexpr int kLog2Floor = 10;
constexpr int kLog2Ceil = 28;

const char *const kDefaultOps = "reduce,scan,compact,segreduce,softmax";
const char *const kAllOps =
	"reduce,minmax,scan,exscan,compact,compact_sparse,partition,segreduce,softmax,segscan";

__global__ void copy4(const float4 *in, float4 *out, size_t n4)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4)
		out[i] = in[i];
}

struct Bench {
	size_t max_n = 0;
	std::vector<float> hf;
	std::vector<int32_t> hi;
	std::vector<float> got;
	float *d_in_f = nullptr; // the float input; the int input is its own buffer
	int32_t *d_in_i = nullptr;
	float *d_out = nullptr;
	int *d_offsets = nullptr;
	int *d_keys = nullptr;   // the segmented scan's row index per element, when segscan runs
	int *d_small = nullptr;
	void *d_temp = nullptr;
	size_t temp_bytes = 0;
	size_t selected = 0;
	int reps = 20;
	int batch = 32;
	cudaEvent_t ev0, ev1;
};

void ensure_temp(Bench &b, size_t bytes)
{
	if (bytes <= b.temp_bytes)
		return;
	if (b.d_temp)
		CUDA_CHECK(cudaFree(b.d_temp));
	CUDA_CHECK(cudaMalloc(&b.d_temp, bytes));
	b.temp_bytes = bytes;
}

// Runs one call of case c at size n with the temporary storage in place (size query first).
void run_case(Bench &b, const Case &c, size_t n, bool query)
{
	// The size query writes tb; a real call only reads it.
	size_t tb = query ? 0 : b.temp_bytes;
	void *t = query ? nullptr : b.d_temp;
	bool is_int = strcmp(c.type, "int") == 0;
	int64_t nn = (int64_t)n;

	switch (c.kind) {
	case REDUCE:
		if (is_int)
			CUDA_CHECK(cub::DeviceReduce::Sum(t, tb, b.d_in_i, (int32_t *)b.d_small, nn));
		else if (c.combine == 0)
			CUDA_CHECK(cub::DeviceReduce::Sum(t, tb, b.d_in_f, (float *)b.d_small, nn));
		else if (c.combine == 1)
			CUDA_CHECK(cub::DeviceReduce::Min(t, tb, b.d_in_f, (float *)b.d_small, nn));
		else
			CUDA_CHECK(cub::DeviceReduce::Max(t, tb, b.d_in_f, (float *)b.d_small, nn));
		break;
	case SCAN:
		if (is_int && c.inclusive)
			CUDA_CHECK(cub::DeviceScan::InclusiveSum(t, tb, b.d_in_i, (int32_t *)b.d_out, nn));
		else if (is_int)
			CUDA_CHECK(cub::DeviceScan::ExclusiveSum(t, tb, b.d_in_i, (int32_t *)b.d_out, nn));
		else if (c.inclusive)
			CUDA_CHECK(cub::DeviceScan::InclusiveSum(t, tb, b.d_in_f, b.d_out, nn));
		else
			CUDA_CHECK(cub::DeviceScan::ExclusiveSum(t, tb, b.d_in_f, b.d_out, nn));
		break;
	case COMPACT:
	case PARTITION:
		bench::with_pred(c.combine, [&](auto pred) {
			if (c.kind == COMPACT)
				CUDA_CHECK(cub::DeviceSelect::If(t, tb, b.d_in_f, b.d_out, b.d_small, nn, pred));
			else
				CUDA_CHECK(cub::DevicePartition::If(t, tb, b.d_in_f, b.d_out, b.d_small, nn, pred));
		});
		break;
	case SEGREDUCE:
		CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(t, tb, b.d_in_f, b.d_out, (int64_t)(n / c.row),
		                                           b.d_offsets, b.d_offsets + 1));
		break;
	case WARPROWS:
		if (!query) {
			size_t rows = n / c.row;
			unsigned blocks = (unsigned)((rows + 7) / 8);
			if (c.row == 32)
				cubrows::warp_rows32<<<blocks, 256>>>(b.d_in_f, b.d_out, rows);
			else if (c.row == 64)
				cubrows::warp_rows_k<2><<<blocks, 256>>>(b.d_in_f, b.d_out, rows);
			else
				cubrows::warp_rows_k<4><<<blocks, 256>>>(b.d_in_f, b.d_out, rows);
			CUDA_CHECK(cudaGetLastError());
		}
		break;
	case SOFTMAX:
		if (!query) {
			cubrows::softmax_rows256<<<(unsigned)(n / 256), 256>>>(b.d_in_f, b.d_out);
			CUDA_CHECK(cudaGetLastError());
		}
		break;
	case SEGSCAN:
		CUDA_CHECK(cub::DeviceScan::InclusiveSumByKey(t, tb, b.d_keys, b.d_in_f, b.d_out, nn));
		break;
	case ROWSCAN:
		if (!query)
			cubrows::launch(b.d_in_f, b.d_out, n, c.row);
		break;
	}
	if (query)
		ensure_temp(b, tb);
}

[[noreturn]] void wrong(const Case &c, size_t n, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "cub-bench: WRONG RESULT from %s %s %s, n = %zu: ", c.backend, c.op, c.type, n);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

double sum_tolerance(double sum, double abs_sum) { return 0.05 + 1e-5 * fabs(sum) + 1e-8 * abs_sum; }

// The segmented scan: each row's inclusive sum in double on the host, with the scan's tolerance.
void check_row_scan(Bench &b, const Case &c, size_t n)
{
	const float *x = b.hf.data();

	CUDA_CHECK(cudaMemcpy(b.got.data(), b.d_out, n * 4, cudaMemcpyDeviceToHost));
	for (size_t r = 0; r < n / c.row; r++) {
		double run = 0, abs_run = 0;
		for (size_t j = r * c.row; j < (r + 1) * c.row; j++) {
			run += x[j];
			abs_run += fabs(x[j]);
			if (!(fabs(b.got[j] - run) <= sum_tolerance(run, abs_run)))
				wrong(c, n, "row %zu element %zu is %.9g, expected %.9g", r, j - r * c.row,
				      b.got[j], run);
		}
	}
}

void check(Bench &b, const Case &c, size_t n)
{
	bool is_int = strcmp(c.type, "int") == 0;
	const float *x = b.hf.data();

	switch (c.kind) {
	case REDUCE: {
		if (is_int) {
			int32_t got;
			uint32_t want = 0;
			CUDA_CHECK(cudaMemcpy(&got, b.d_small, 4, cudaMemcpyDeviceToHost));
			for (size_t j = 0; j < n; j++)
				want += (uint32_t)b.hi[j];
			if ((uint32_t)got != want)
				wrong(c, n, "got %d, expected %d", got, (int32_t)want);
		} else {
			float got;
			CUDA_CHECK(cudaMemcpy(&got, b.d_small, 4, cudaMemcpyDeviceToHost));
			if (c.combine == 0) {
				double want = 0, abs_sum = 0;
				for (size_t j = 0; j < n; j++) {
					want += x[j];
					abs_sum += fabs(x[j]);
				}
				if (!(fabs(got - want) <= sum_tolerance(want, abs_sum)))
					wrong(c, n, "got %.9g, expected %.9g", got, want);
			} else {
				float want = c.combine == 1 ? INFINITY : -INFINITY;
				for (size_t j = 0; j < n; j++)
					want = c.combine == 1 ? fminf(want, x[j]) : fmaxf(want, x[j]);
				if (got != want)
					wrong(c, n, "got %.9g, expected %.9g", got, want);
			}
		}
		break;
	}
	case SCAN: {
		CUDA_CHECK(cudaMemcpy(b.got.data(), b.d_out, n * 4, cudaMemcpyDeviceToHost));
		if (is_int) {
			const int32_t *g = (const int32_t *)b.got.data();
			uint32_t run = 0;
			for (size_t j = 0; j < n; j++) {
				uint32_t before = run;
				run += (uint32_t)b.hi[j];
				uint32_t want = c.inclusive ? run : before;
				if ((uint32_t)g[j] != want)
					wrong(c, n, "element %zu is %d, expected %d", j, g[j], (int32_t)want);
			}
		} else {
			double run = 0, abs_run = 0;
			for (size_t j = 0; j < n; j++) {
				double before = run;
				run += x[j];
				abs_run += fabs(x[j]);
				double want = c.inclusive ? run : before;
				if (!(fabs(b.got[j] - want) <= sum_tolerance(want, abs_run)))
					wrong(c, n, "element %zu is %.9g, expected %.9g", j, b.got[j], want);
			}
		}
		break;
	}
	case COMPACT:
	case PARTITION: {
		// Partition: the rejected elements end up reversed at the end of d_out.
		int count;
		size_t m = 0, r = 0;
		CUDA_CHECK(cudaMemcpy(&count, b.d_small, 4, cudaMemcpyDeviceToHost));
		bench::with_pred(c.combine, [&](auto pred) {
			for (size_t j = 0; j < n; j++)
				m += pred(x[j]);
			if ((size_t)count != m)
				wrong(c, n, "count %d, expected %zu", count, m);
			CUDA_CHECK(cudaMemcpy(b.got.data(), b.d_out, (c.kind == PARTITION ? n : m) * 4,
			                      cudaMemcpyDeviceToHost));
			m = 0;
			for (size_t j = 0; j < n; j++) {
				if (pred(x[j])) {
					if (b.got[m] != x[j])
						wrong(c, n, "selected element %zu is %.9g, expected %.9g", m, b.got[m], x[j]);
					m++;
				} else if (c.kind == PARTITION) {
					if (b.got[n - 1 - r] != x[j])
						wrong(c, n, "rejected element %zu is %.9g, expected %.9g", r, b.got[n - 1 - r], x[j]);
					r++;
				}
			}
		});
		b.selected = m;
		break;
	}
	case SEGREDUCE:
	case WARPROWS: {
		size_t rows = n / c.row;
		CUDA_CHECK(cudaMemcpy(b.got.data(), b.d_out, rows * 4, cudaMemcpyDeviceToHost));
		for (size_t r = 0; r < rows; r++) {
			double want = 0, abs_sum = 0;
			for (size_t j = r * c.row; j < (r + 1) * c.row; j++) {
				want += x[j];
				abs_sum += fabs(x[j]);
			}
			if (!(fabs(b.got[r] - want) <= 1e-3 + 1e-6 * abs_sum))
				wrong(c, n, "row %zu sums to %.9g, expected %.9g", r, b.got[r], want);
		}
		break;
	}
	case SOFTMAX: {
		size_t rows = n / c.row;
		CUDA_CHECK(cudaMemcpy(b.got.data(), b.d_out, n * 4, cudaMemcpyDeviceToHost));
		for (size_t r = 0; r < rows; r++) {
			const float *xr = x + r * c.row;
			double mx = -INFINITY, s = 0;
			for (size_t j = 0; j < c.row; j++)
				mx = std::max(mx, (double)xr[j]);
			for (size_t j = 0; j < c.row; j++)
				s += exp(xr[j] - mx);
			for (size_t j = 0; j < c.row; j++) {
				double want = exp(xr[j] - mx) / s, g = b.got[r * c.row + j];
				if (!(fabs(g - want) <= 1e-7 + 1e-4 * want))
					wrong(c, n, "row %zu element %zu is %.9g, expected %.9g", r, j, g, want);
			}
		}
		break;
	}
	case SEGSCAN:
	case ROWSCAN:
		check_row_scan(b, c, n);
		break;
	}
}

double bytes_moved(const Case &c, size_t n, size_t selected)
{
	switch (c.kind) {
	case REDUCE:
		return 4.0 * n;
	case SCAN:
	case SOFTMAX:
	case PARTITION:
	case SEGSCAN:
	case ROWSCAN:
		return 8.0 * n;
	case COMPACT:
		return 4.0 * (double)(n + selected);
	case SEGREDUCE:
	case WARPROWS:
		return 4.0 * (double)(n + n / c.row);
	}
	return 0;
}

// What a row case needs before its calls at size n, outside the timing:
// the segmented reduce's row offsets, the segmented scan's key per element
// (its row) and an output of NaNs, so that a scan that writes nothing fails the check.
void prepare_rows(Bench &b, const Case &c, size_t n)
{
	if (c.kind == SEGREDUCE) {
		std::vector<int> off(n / c.row + 1);
		for (size_t r = 0; r < off.size(); r++)
			off[r] = (int)(r * c.row);
		CUDA_CHECK(cudaMemcpy(b.d_offsets, off.data(), off.size() * sizeof(int),
		                      cudaMemcpyHostToDevice));
	}
	if (c.kind == SEGSCAN) {
		std::vector<int> keys(n);
		for (size_t j = 0; j < n; j++)
			keys[j] = (int)(j / c.row);
		CUDA_CHECK(cudaMemcpy(b.d_keys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
	}
	if (c.kind == SEGSCAN || c.kind == ROWSCAN)
		CUDA_CHECK(cudaMemset(b.d_out, 0xff, n * 4));
}

int reps_for(const Bench &b, size_t n) { return n > ((size_t)1 << 24) ? std::max(1, b.reps / 2) : b.reps; }

// Median milliseconds of fn() between two events on the default stream.
template <typename F> double time_ms(Bench &b, size_t n, F fn)
{
	int reps = reps_for(b, n);
	std::vector<double> t(reps);
	for (int r = 0; r < reps; r++) {
		CUDA_CHECK(cudaEventRecord(b.ev0));
		fn();
		CUDA_CHECK(cudaEventRecord(b.ev1));
		CUDA_CHECK(cudaEventSynchronize(b.ev1));
		float ms;
		CUDA_CHECK(cudaEventElapsedTime(&ms, b.ev0, b.ev1));
		t[r] = ms;
	}
	return bench::median(t);
}

double now_s()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// One result's three measures, in ms per call.
struct Times {
	double event = -1, block = -1, batch = -1;
};

constexpr int kBatchRounds = 5;

// The three measures of fn() (see the top): event time first, then R
// blocking calls, then back-to-back rounds of K calls (fewer calls where
// they would take over a second).
template <typename F> Times time_all(Bench &b, size_t n, F fn)
{
	Times r;
	int reps = reps_for(b, n), k = b.batch;
	std::vector<double> t(reps), per(kBatchRounds);
	r.event = time_ms(b, n, fn);
	for (int i = 0; i < reps; i++) {
		double t0 = now_s();
		fn();
		CUDA_CHECK(cudaStreamSynchronize(0));
		t[i] = (now_s() - t0) * 1e3;
	}
	r.block = bench::median(t);
	if ((double)k * kBatchRounds * r.block > 1000.0)
		k = std::max(2, (int)(1000.0 / (kBatchRounds * r.block)));
	for (int i = 0; i < kBatchRounds; i++) {
		double t0 = now_s();
		for (int j = 0; j < k; j++)
			fn();
		CUDA_CHECK(cudaStreamSynchronize(0));
		per[i] = (now_s() - t0) * 1e3 / k;
	}
	r.batch = bench::median(per);
	return r;
}

void usage(FILE *f)
{
	fprintf(f,
	        "Usage: cub-bench [--min-log2 N] [--max-log2 N] [--reps N] [--batch K] [--tsv FILE]\n"
	        "                 [--ops LIST]\n"
	        "  --batch K    calls queued back to back per round (default 32)\n"
	        "  --ops LIST   %s (default), or any of %s; \"all\" for every one\n"
	        "  sizes n = 2^min .. 2^max (default 2^%d .. 2^%d, fewer where three buffers of n\n"
	        "  floats, four with segscan, do not fit the GPU's free memory); reps default 20,\n"
	        "  half above 2^24\n",
	        kDefaultOps, kAllOps, kLog2Floor, kLog2Ceil);
}

struct Row {
	double ms = -1, gbps = 0, block_ms = -1, batch_ms = -1;
};

} // namespace

int main(int argc, char **argv)
{
	int min_log2 = kLog2Floor, max_log2 = kLog2Ceil;
	std::string ops = kDefaultOps;
	const char *tsv_path = nullptr;
	Bench b;

	bench::prog = "cub-bench";
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto value = [&](void) -> const char * {
			if (i + 1 >= argc) {
				fprintf(stderr, "cub-bench: %s needs a value\n", a.c_str());
				usage(stderr);
				exit(2);
			}
			return argv[++i];
		};
		if (a == "--min-log2")
			min_log2 = atoi(value());
		else if (a == "--max-log2")
			max_log2 = atoi(value());
		else if (a == "--reps")
			b.reps = atoi(value());
		else if (a == "--batch")
			b.batch = atoi(value());
		else if (a == "--tsv")
			tsv_path = value();
		else if (a == "--ops")
			ops = value();
		else if (a == "-h" || a == "--help") {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "cub-bench: unknown argument '%s'\n", a.c_str());
			usage(stderr);
			return 2;
		}
	}
	if (ops == "all")
		ops = kAllOps;
	if (min_log2 < kLog2Floor || max_log2 > kLog2Ceil || min_log2 > max_log2 || b.reps < 1 ||
	    b.batch < 2) {
		fprintf(stderr, "cub-bench: sizes must lie in 2^%d .. 2^%d and reps be >= 1\n", kLog2Floor,
		        kLog2Ceil);
		return 2;
	}

	cudaDeviceProp prop;
	size_t free_b, total_b;
	int dev;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
	CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
	// Three buffers of n floats, four with the segmented scan's keys.
	bool keys = in_list(ops, "segscan");
	double buffers = keys ? 4.0 : 3.0;
	while (max_log2 > min_log2 && buffers * 4.0 * (double)((size_t)1 << max_log2) > 0.9 * (double)free_b)
		max_log2--;
	int cub_v = CUB_VERSION;
	printf("device: %s (sm_%d%d, %.1f GiB, CUB %d.%d.%d)\n", prop.name, prop.major, prop.minor,
	       (double)total_b / (1 << 30), cub_v / 100000, cub_v / 100 % 1000, cub_v % 100);
	printf("timing: EVENT = cudaEvents around each call, median of %d (%d above 2^24) after a\n"
	       "        checked warm-up; temp storage allocated outside the timing. Also BLOCKING =\n"
	       "        host wall time (clock_gettime) of call + cudaStreamSynchronize, median of as\n"
	       "        many; BACK-TO-BACK = %d calls queued, one cudaStreamSynchronize, wall / %d,\n"
	       "        median of %d rounds. n = 2^%d .. 2^%d\n",
	       b.reps, std::max(1, b.reps / 2), b.batch, b.batch, kBatchRounds, min_log2, max_log2);
	printf("GB/s:   minimum bytes the operation must move / time, 1 GB = 1e9 bytes\n");
	fflush(stdout);

	b.max_n = (size_t)1 << max_log2;
	bench::make_input(b.max_n, b.hf, &b.hi);
	b.got.resize(b.max_n);
	CUDA_CHECK(cudaMalloc(&b.d_in_f, b.max_n * 4));
	CUDA_CHECK(cudaMalloc(&b.d_in_i, b.max_n * 4));
	CUDA_CHECK(cudaMalloc(&b.d_out, b.max_n * 4));
	CUDA_CHECK(cudaMalloc(&b.d_small, 64));
	CUDA_CHECK(cudaMalloc(&b.d_offsets, (b.max_n / 32 + 1) * sizeof(int)));
	if (keys)
		CUDA_CHECK(cudaMalloc(&b.d_keys, b.max_n * sizeof(int)));
	CUDA_CHECK(cudaMemcpy(b.d_in_f, b.hf.data(), b.max_n * 4, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(b.d_in_i, b.hi.data(), b.max_n * 4, cudaMemcpyHostToDevice));
	// Never let d_temp be NULL in a real call: CUB would take it for a size query.
	ensure_temp(b, (size_t)1 << 20);
	CUDA_CHECK(cudaEventCreate(&b.ev0));
	CUDA_CHECK(cudaEventCreate(&b.ev1));

	FILE *tsv = nullptr;
	if (tsv_path) {
		tsv = fopen(tsv_path, "w");
		if (!tsv)
			die("cannot write %s", tsv_path);
		fprintf(tsv, "device\tbackend\top\ttype\tn\tmedian_ms\tgbps\twall_ms\ttiming\tbatch_ms\n");
	}
	// The columns of algorithms-bench's TSV; wall_ms is the blocking call's.
	auto tsv_row = [&](const char *backend, const char *op, const char *type, size_t n, Row r) {
		if (tsv && r.ms >= 0) {
			fprintf(tsv, "%s\t%s\t%s\t%s\t%zu\t%.6f\t%.4f\t%.6f\tcuda-event\t%.6f\n", prop.name,
			        backend, op, type, n, r.ms, r.gbps, r.block_ms, r.batch_ms);
			fflush(tsv);
		}
	};
	auto row = [](Times t, double bytes) {
		return Row{t.event, bytes / (t.event * 1e-3) / 1e9, t.block, t.batch};
	};

	// Copy bandwidth: cudaMemcpy and a float4 kernel, read + write bytes.
	std::vector<Row> memcpy_bw(kLog2Ceil + 1), kernel_bw(kLog2Ceil + 1);
	for (int l = min_log2; l <= max_log2; l++) {
		size_t n = (size_t)1 << l, n4 = n / 4;
		unsigned blocks = (unsigned)((n4 + 255) / 256);
		CUDA_CHECK(cudaMemcpy(b.d_out, b.d_in_f, n * 4, cudaMemcpyDeviceToDevice));
		memcpy_bw[l] = row(time_all(b, n, [&] {
			CUDA_CHECK(cudaMemcpyAsync(b.d_out, b.d_in_f, n * 4, cudaMemcpyDeviceToDevice));
		}), 8.0 * n);
		copy4<<<blocks, 256>>>((const float4 *)b.d_in_f, (float4 *)b.d_out, n4);
		CUDA_CHECK(cudaDeviceSynchronize());
		kernel_bw[l] = row(time_all(b, n, [&] {
			copy4<<<blocks, 256>>>((const float4 *)b.d_in_f, (float4 *)b.d_out, n4);
		}), 8.0 * n);
		CUDA_CHECK(cudaGetLastError());
		tsv_row("cuda-memcpy", "copy", "float", n, memcpy_bw[l]);
		tsv_row("cuda-kernel", "copy", "float", n, kernel_bw[l]);
	}

	for (const Case &c : kCases) {
		if (!in_list(ops, c.group))
			continue;
		printf("\n%s %s [%s]  GB/s = (%s) / median cudaEvent time\n", c.op, c.type, c.backend, c.bytes);
		printf("%10s %10s %10s %10s %10s %12s %12s %12s\n", "n", "GB/s", "event ms", "memcpy",
		       "copy4", "blocking ms", "back2back ms", "copy4 block");
		for (int l = min_log2; l <= max_log2; l++) {
			size_t n = (size_t)1 << l;
			if (c.row && n < c.row)
				continue;
			prepare_rows(b, c, n);
			run_case(b, c, n, true); // size query, grows the temp storage
			run_case(b, c, n, false);
			CUDA_CHECK(cudaDeviceSynchronize());
			check(b, c, n);
			Row r = row(time_all(b, n, [&] { run_case(b, c, n, false); }),
			            bytes_moved(c, n, b.selected));
			printf("%10zu %10.2f %10.4f %10.2f %10.2f %12.4f %12.4f %12.4f\n", n, r.gbps, r.ms,
			       memcpy_bw[l].gbps, kernel_bw[l].gbps, r.block_ms, r.batch_ms,
			       kernel_bw[l].block_ms);
			fflush(stdout);
			tsv_row(c.backend, c.op, c.type, n, r);
		}
	}
	printf("\ncopy (device bandwidth, read + write bytes)\n%10s %12s %12s\n", "n", "memcpy GB/s",
	       "copy4 GB/s");
	for (int l = min_log2; l <= max_log2; l++)
		printf("%10zu %12.2f %12.2f\n", (size_t)1 << l, memcpy_bw[l].gbps, kernel_bw[l].gbps);
	if (tsv && fclose(tsv) != 0)
		die("writing %s failed", tsv_path);
	cudaFree(b.d_temp);
	cudaFree(b.d_in_f);
	cudaFree(b.d_in_i);
	cudaFree(b.d_out);
	cudaFree(b.d_small);
	cudaFree(b.d_offsets);
	cudaFree(b.d_keys);
	return 0;
}
