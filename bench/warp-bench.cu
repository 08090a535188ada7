// warp-bench, CUDA side: the kernels of bench/warp-bench.cl with __shfl_*_sync and friends.
// SPDX-License-Identifier: MIT
//
// Build on an NVIDIA machine (bench/run-warp-gpu.sh does):
//   nvcc -O3 -arch=sm_90 -o warp-bench-cuda bench/warp-bench.cu
// Run:
//   warp-bench-cuda [-n LOG2] [-i ITERS] [-f FAMILY]
//
// Same chains, sizes, launch shape, repetitions, checks and TSV as
// bench/warp-bench.c (read its comment): 2^LOG2 threads in blocks of 256,
// `iters` dependent steps each (bench/warp-bench-ref.h lists them and holds
// the host reference both programs check against), 3 warm-up launches then
// 11 timed ones, each timed with cudaEvents recorded on the stream around
// the launch; the row gives median, min, max and Gop/s = n * iters / median.
// The output of the first and of the last launch is checked bit for bit on
// the first 4 warps and the last warp; a family with a wrong value prints it
// and no row, and the program exits 1.
//
// What each family uses, matched to what libclwarp's nv backend does
// (kernels/warp/nv.cl, kernels/warp/generic.cl):
//   shuffles         __shfl_sync / __shfl_xor_sync / __shfl_down_sync /
//                    __shfl_up_sync, with the width argument for _w8 / _w16
//   reduce_add_int   __reduce_add_sync (nv: redux.sync on sm_80+)
//   float reductions xor butterfly of __shfl_xor_sync, masks 16..1 (nv: the
//                    same; fmaxf here, where nv's max also orders -0 < +0)
//   reduce_add_w8, reduce_xor, reduce_mul_float: xor butterfly (nv: the
//                    generic butterfly over shfl.bfly)
//   scans            Kogge-Stone over __shfl_up_sync (nv: the same; the
//                    exclusive scan shifts the inclusive one up by one lane)
//   ballot, all_any  __ballot_sync, __all_sync / __any_sync
//   match_any        __match_any_sync (nv: match.any.sync)
//   match_all        __match_all_sync (nv: a shuffle from lane 0 and a vote)
//   sort             libclwarp's warp_sort (kernels/warp/sort.cl) written
//                    out: a stable bitonic network of 15 compare-exchange
//                    steps over (key << 32 | lane) with 64-bit
//                    __shfl_xor_sync, then the key from its source lane
//                    with __shfl_sync (CUDA has no warp sort intrinsic;
//                    cub::WarpMergeSort goes through shared memory)
// One row more than the OpenCL side: reduce_xor_redux, reduce_xor with
// __reduce_xor_sync (redux.sync), what CUDA code would use on sm_80+; it
// has no libclwarp counterpart (the library's xor reduction is the
// butterfly), so warp-ratios.py lists it without a ratio.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "warp-bench-ref.h"

// The shared kernel bodies set lane / lc / lf whether a family uses them or not.
#pragma nv_diag_suppress 550

namespace {

constexpr int kWarmup = 3;
constexpr int kTimed = 11;
constexpr int kLocal = 256;
constexpr int kCheckWarps = 4;
constexpr unsigned kFull = 0xffffffffu;

[[noreturn]] void die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "warp-bench-cuda: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

#define CUDA_CHECK(call)                                                                    \
	do {                                                                                    \
		cudaError_t err_ = (call);                                                          \
		if (err_ != cudaSuccess)                                                            \
			die("%s:%d: %s: %s", __FILE__, __LINE__, #call, cudaGetErrorString(err_));      \
	} while (0)

} // namespace

// ------------------------------------------------------------------ kernels
// Written as bench/warp-bench.cl writes them: 16 unrolled steps per trip,
// so every warp operand is a constant; i = i0 + k.

typedef unsigned int uint;

__device__ __forceinline__ uint wb_dhash(uint g)
{
	g *= 0x9E3779B1u;
	g ^= g >> 16;
	g *= 0x85EBCA6Bu;
	g ^= g >> 13;
	return g;
}

__device__ __forceinline__ float wb_dwrap(float x) { return x - 1024.0f * floorf(x * 0.0009765625f); }

#define WB_STEPS16(S) S(0u) S(1u) S(2u) S(3u) S(4u) S(5u) S(6u) S(7u) \
	S(8u) S(9u) S(10u) S(11u) S(12u) S(13u) S(14u) S(15u)
#define WB_PAIRS16(S) S(0u, 1u) S(2u, 3u) S(4u, 5u) S(6u, 7u) \
	S(8u, 9u) S(10u, 11u) S(12u, 13u) S(14u, 15u)
#define WB_LOOP(S) for (uint i0 = 0u; i0 < iters; i0 += 16u) { WB_STEPS16(S) }

#define WB_GID (uint)(blockIdx.x * blockDim.x + threadIdx.x)
#define WB_LANE (threadIdx.x & 31u)

#define WB_UINT_BODY(STEP) \
	uint gid = WB_GID, lane = WB_LANE, lc = lane * WB_L, v = wb_dhash(gid); \
	WB_LOOP(STEP) \
	out[gid] = v; \
	(void)lane; \
	(void)lc;

#define WB_FLOAT_BODY(STEP) \
	uint gid = WB_GID, lane = WB_LANE; \
	float lf = (float)lane, v = (float)(wb_dhash(gid) & 1023u); \
	WB_LOOP(STEP) \
	out[gid] = __float_as_uint(v); \
	(void)lf;

#define WB_INT_BODY(STEP) \
	uint gid = WB_GID, lc = WB_LANE * WB_L; \
	int v = (int)wb_dhash(gid); \
	WB_LOOP(STEP) \
	out[gid] = (uint)v;

// Full-warp xor butterfly, masks 16..1, v = OP(v, other): nv.cl's reductions.
#define WB_BFLY(T, v, OP) \
	for (uint m_ = 16u; m_ > 0u; m_ >>= 1) { \
		T o_ = __shfl_xor_sync(kFull, v, m_); \
		v = OP(v, o_); \
	}
#define WB_ADD(a, b) ((a) + (b))
#define WB_MULT(a, b) ((a) * (b))
#define WB_XOR(a, b) ((a) ^ (b))

__device__ __forceinline__ float wb_reduce_add_f(float v) { WB_BFLY(float, v, WB_ADD) return v; }
__device__ __forceinline__ float wb_reduce_max_f(float v) { WB_BFLY(float, v, fmaxf) return v; }
__device__ __forceinline__ float wb_reduce_mul_f(float v) { WB_BFLY(float, v, WB_MULT) return v; }
__device__ __forceinline__ uint wb_reduce_xor_u(uint v) { WB_BFLY(uint, v, WB_XOR) return v; }
__device__ __forceinline__ uint wb_reduce_add_w8(uint v)
{
	for (uint m = 4u; m > 0u; m >>= 1)
		v += __shfl_xor_sync(kFull, v, m, 8);
	return v;
}

// Kogge-Stone over shfl.up inside segments of `width` lanes.
template <typename T, uint width>
__device__ __forceinline__ T wb_scan_incl(T v, uint lane)
{
#pragma unroll
	for (uint d = 1u; d < width; d <<= 1) {
		T t = __shfl_up_sync(kFull, v, d, width);
		if ((lane & (width - 1u)) >= d)
			v = t + v;
	}
	return v;
}

__device__ __forceinline__ int wb_scan_excl_i(int v, uint lane)
{
	int r = __shfl_up_sync(kFull, wb_scan_incl<int, 32u>(v, lane), 1u);
	return lane == 0u ? 0 : r;
}

#define WB_MUL_FACTOR(k) ((((lane + (k)) & 1u) ? 2.0f : 0.5f) * ((((lane >> 1) + (k)) & 1u) ? -1.0f : 1.0f))

__device__ __forceinline__ uint wb_match_all(uint x)
{
	int pred;
	__match_all_sync(kFull, x, &pred);
	return pred ? 1u : 0u;
}

// Stable bitonic sort of the warp's keys, lane 0 gets the smallest: sort.cl's
// clwarp_sort_network for 32-bit keys and warp_sort.
__device__ __forceinline__ uint wb_sort_u(uint key, uint lane)
{
	unsigned long long c = ((unsigned long long)key << 32) | lane;
#pragma unroll
	for (uint k = 2u; k <= 32u; k <<= 1) {
#pragma unroll
		for (uint j = k >> 1; j > 0u; j >>= 1) {
			unsigned long long o = __shfl_xor_sync(kFull, c, j);
			bool keep_min = ((lane & j) == 0u) == ((lane & k) == 0u);
			c = keep_min ? (o < c ? o : c) : (o > c ? o : c);
		}
	}
	return __shfl_sync(kFull, key, (uint)c & 31u);
}

// ---- shuffles
#define S(k) v = __shfl_sync(kFull, v, lane + (2u * (k) + 1u)) + lc + (i0 + (k));
__global__ void wb_shfl_idx(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = __shfl_xor_sync(kFull, v, (k) + 1u) + lc + (i0 + (k));
__global__ void wb_shfl_xor(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = __shfl_down_sync(kFull, v, (k) + 1u) + lc + (i0 + (k));
__global__ void wb_shfl_down(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = __shfl_up_sync(kFull, v, (k) + 1u) + lc + (i0 + (k));
__global__ void wb_shfl_up(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = __shfl_xor_sync(kFull, v, (k) % 7u + 1u, 8) + lc + (i0 + (k));
__global__ void wb_shfl_xor_w8(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = __shfl_down_sync(kFull, v, (k) % 15u + 1u, 16) + lc + (i0 + (k));
__global__ void wb_shfl_down_w16(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S

// ---- reductions
#define S(k) v = (int)(((uint)__reduce_add_sync(kFull, v) ^ lc) + (i0 + (k)));
__global__ void wb_reduce_add_int(uint *out, uint iters) { WB_INT_BODY(S) }
#undef S
#define S(k) v = wb_dwrap(wb_reduce_add_f(v) + lf + (float)(k));
__global__ void wb_reduce_add_float(uint *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S
#define S(k) v = wb_dwrap(wb_reduce_max_f(v) + lf + (float)(k));
__global__ void wb_reduce_max_float(uint *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S
#define S(k) v = (wb_reduce_add_w8(v) ^ lc) + (i0 + (k));
__global__ void wb_reduce_add_w8(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = (wb_reduce_xor_u(v) ^ lc) + (i0 + (k));
__global__ void wb_reduce_xor(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = (__reduce_xor_sync(kFull, v) ^ lc) + (i0 + (k));
__global__ void wb_reduce_xor_redux(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) p = wb_reduce_mul_f(v); v = __uint_as_float(__float_as_uint(v * p * WB_MUL_FACTOR(k)) ^ (__float_as_uint(p) & sign0));
__global__ void wb_reduce_mul_float(uint *out, uint iters)
{
	uint gid = WB_GID, lane = WB_LANE, sign0 = lane == 0u ? 0x80000000u : 0u;
	float p, v = (lane < 16u ? 2.0f : 0.5f) * ((wb_dhash(gid) & 256u) ? -1.0f : 1.0f);
	WB_LOOP(S)
	out[gid] = __float_as_uint(v);
}
#undef S

// ---- scans
#define S(k) v = wb_dwrap(wb_scan_incl<float, 32u>(v, lane) + (float)(k));
__global__ void wb_scan_add_float(uint *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S
#define S(k) v = (int)(((uint)wb_scan_excl_i(v, WB_LANE) ^ lc) + (i0 + (k)));
__global__ void wb_scan_add_int_exclusive(uint *out, uint iters) { WB_INT_BODY(S) }
#undef S
#define S(k) v = wb_dwrap(wb_scan_incl<float, 16u>(v, lane) + (float)(k));
__global__ void wb_scan_add_w16(uint *out, uint iters) { WB_FLOAT_BODY(S) }
#undef S

// ---- votes
#define S(k) v = (v ^ __ballot_sync(kFull, (int)((v >> ((k) + 8u)) & 1u))) * WB_K + (i0 + (k));
__global__ void wb_ballot(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define P(ka, kb) \
	v = (v + (__all_sync(kFull, ((v >> ((ka) + 8u)) & 15u) != 0u) ? 1u : 0u)) * WB_K + (i0 + (ka)); \
	v = (v + (__any_sync(kFull, ((v >> ((kb) + 4u)) & 63u) == 0u) ? 1u : 0u)) * WB_K + (i0 + (kb));
__global__ void wb_all_any(uint *out, uint iters)
{
	uint gid = WB_GID, v = wb_dhash(gid);
	for (uint i0 = 0u; i0 < iters; i0 += 16u) {
		WB_PAIRS16(P)
	}
	out[gid] = v;
}
#undef P

// ---- match
#define S(k) v = (v + __match_any_sync(kFull, (v >> ((k) + 8u)) & 7u)) * WB_K + (i0 + (k));
__global__ void wb_match_any(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S
#define S(k) v = (v + wb_match_all(((v >> ((k) + 8u)) & 15u) != 0u ? 1u : 0u)) * WB_K + (i0 + (k));
__global__ void wb_match_all(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S

// ---- sort
#define S(k) v = (wb_sort_u(v, lane) ^ lc) + (i0 + (k));
__global__ void wb_sort(uint *out, uint iters) { WB_UINT_BODY(S) }
#undef S

// ---------------------------------------------------------------- host side

namespace {

typedef void (*kernel_fn)(uint *, uint);

struct row {
	const char *name;  // as in the TSV
	int family;        // the reference to check against (enum wb_family)
	kernel_fn fn;
};

const row kRows[] = {
	{"shfl_idx", WB_SHFL_IDX, wb_shfl_idx},
	{"shfl_xor", WB_SHFL_XOR, wb_shfl_xor},
	{"shfl_down", WB_SHFL_DOWN, wb_shfl_down},
	{"shfl_up", WB_SHFL_UP, wb_shfl_up},
	{"shfl_xor_w8", WB_SHFL_XOR_W8, wb_shfl_xor_w8},
	{"shfl_down_w16", WB_SHFL_DOWN_W16, wb_shfl_down_w16},
	{"reduce_add_int", WB_REDUCE_ADD_INT, wb_reduce_add_int},
	{"reduce_add_float", WB_REDUCE_ADD_FLOAT, wb_reduce_add_float},
	{"reduce_max_float", WB_REDUCE_MAX_FLOAT, wb_reduce_max_float},
	{"reduce_add_w8", WB_REDUCE_ADD_W8, wb_reduce_add_w8},
	{"reduce_xor", WB_REDUCE_XOR, wb_reduce_xor},
	{"reduce_xor_redux", WB_REDUCE_XOR, wb_reduce_xor_redux},
	{"reduce_mul_float", WB_REDUCE_MUL_FLOAT, wb_reduce_mul_float},
	{"scan_add_float", WB_SCAN_ADD_FLOAT, wb_scan_add_float},
	{"scan_add_int_exclusive", WB_SCAN_ADD_INT_EXCLUSIVE, wb_scan_add_int_exclusive},
	{"scan_add_w16", WB_SCAN_ADD_W16, wb_scan_add_w16},
	{"ballot", WB_BALLOT, wb_ballot},
	{"all_any", WB_ALL_ANY, wb_all_any},
	{"match_any", WB_MATCH_ANY, wb_match_any},
	{"match_all", WB_MATCH_ALL, wb_match_all},
	{"sort", WB_SORT, wb_sort},
};
constexpr int kRowCount = sizeof(kRows) / sizeof(kRows[0]);

int check_warp(const row &r, unsigned iters, size_t gid0, const uint32_t *got, const char *when)
{
	uint32_t want[WB_MAX_W];
	int bad = 0;

	wb_reference(r.family, 32, iters, (uint32_t)gid0, want);
	for (unsigned l = 0; l < 32; l++) {
		if (got[l] == want[l])
			continue;
		if (bad++ < 4) {
			float g, w;
			memcpy(&g, &got[l], 4);
			memcpy(&w, &want[l], 4);
			if (wb_families[r.family].is_float)
				fprintf(stderr, "warp-bench-cuda: MISMATCH %s (%s): thread %zu (lane %u): got %.9g (0x%08x), expected %.9g (0x%08x)\n",
				        r.name, when, gid0 + l, l, (double)g, got[l], (double)w, want[l]);
			else
				fprintf(stderr, "warp-bench-cuda: MISMATCH %s (%s): thread %zu (lane %u): got %u (0x%08x), expected %u (0x%08x)\n",
				        r.name, when, gid0 + l, l, got[l], got[l], want[l], want[l]);
		}
	}
	return bad;
}

// The first kCheckWarps warps and the last one; 0 if all match.
int check(const row &r, const uint *d_out, size_t n, unsigned iters, const char *when)
{
	uint32_t got[kCheckWarps * 32];
	size_t count = std::min<size_t>(kCheckWarps * 32, n), last = n - 32;
	int bad = 0;

	CUDA_CHECK(cudaMemcpy(got, d_out, count * 4, cudaMemcpyDeviceToHost));
	for (size_t w = 0; w < count; w += 32)
		bad += check_warp(r, iters, w, got + w, when);
	if (last >= count) {
		CUDA_CHECK(cudaMemcpy(got, d_out + last, 32 * 4, cudaMemcpyDeviceToHost));
		bad += check_warp(r, iters, last, got, when);
	}
	if (bad)
		fprintf(stderr, "warp-bench-cuda: %s: %d wrong values (%s); no time printed\n", r.name, bad, when);
	return bad;
}

float launch_timed(const row &r, uint *d_out, size_t n, unsigned iters, cudaEvent_t t0, cudaEvent_t t1)
{
	float ms = 0;

	CUDA_CHECK(cudaEventRecord(t0));
	r.fn<<<(unsigned)(n / kLocal), kLocal>>>(d_out, iters);
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaEventRecord(t1));
	CUDA_CHECK(cudaEventSynchronize(t1));
	CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
	return ms;
}

// Warm up, check, time, check again, print the row. 0 if the results were right.
int bench_row(const row &r, uint *d_out, size_t n, unsigned iters)
{
	cudaEvent_t t0, t1;
	double ms[kTimed];

	CUDA_CHECK(cudaEventCreate(&t0));
	CUDA_CHECK(cudaEventCreate(&t1));
	CUDA_CHECK(cudaMemset(d_out, 0xA5, std::min<size_t>(kCheckWarps * 32, n) * 4));
	for (int i = 0; i < kWarmup; i++) {
		launch_timed(r, d_out, n, iters, t0, t1);
		if (i == 0 && check(r, d_out, n, iters, "first run"))
			return 1;
	}
	for (int i = 0; i < kTimed; i++)
		ms[i] = launch_timed(r, d_out, n, iters, t0, t1);
	CUDA_CHECK(cudaEventDestroy(t0));
	CUDA_CHECK(cudaEventDestroy(t1));
	if (check(r, d_out, n, iters, "last timed run"))
		return 1;
	std::sort(ms, ms + kTimed);
	double median = ms[kTimed / 2];
	printf("%s\tcuda\t%zu\t%u\t%.4f\t%.4f\t%.4f\t%.2f\n", r.name, n, iters, median, ms[0],
	       ms[kTimed - 1], (double)n * iters / (median * 1e-3) / 1e9);
	fflush(stdout);
	return 0;
}

void usage(FILE *f)
{
	fprintf(f, "usage: warp-bench-cuda [-n LOG2] [-i ITERS] [-f FAMILY]\n"
	           "  -n LOG2    2^LOG2 threads (default 24; 8..30), blocks of %d\n"
	           "  -i ITERS   dependent warp operations per thread (default 256, a multiple of 16)\n"
	           "  -f FAMILY  only this family (default all):\n   ", kLocal);
	for (int i = 0; i < kRowCount; i++)
		fprintf(f, " %s", kRows[i].name);
	fprintf(f, "\nstdout: TSV family backend n iters median_ms min_ms max_ms Gop/s\n");
}

long parse_long(const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end)
		die("%s: not a number: '%s'", what, s);
	return v;
}

} // namespace

int main(int argc, char **argv)
{
	long log2n = 24, iters = 256;
	const char *only = nullptr;

	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a];
		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			usage(stdout);
			return 0;
		}
		if (a + 1 >= argc || (strcmp(arg, "-n") && strcmp(arg, "-i") && strcmp(arg, "-f"))) {
			usage(stderr);
			return 2;
		}
		const char *val = argv[++a];
		if (!strcmp(arg, "-n"))
			log2n = parse_long(val, "-n");
		else if (!strcmp(arg, "-i"))
			iters = parse_long(val, "-i");
		else
			only = val;
	}
	if (log2n < 8 || log2n > 30)
		die("-n %ld: LOG2 must be 8..30", log2n);
	if (iters < 16 || iters % 16 || iters > 1 << 20)
		die("-i %ld: ITERS must be a positive multiple of 16 (up to 2^20)", iters);
	if (only) {
		bool known = false;
		for (int i = 0; i < kRowCount; i++)
			known = known || !strcmp(only, kRows[i].name);
		if (!known) {
			fprintf(stderr, "warp-bench-cuda: unknown family '%s'\n", only);
			usage(stderr);
			return 2;
		}
	}

	size_t n = (size_t)1 << log2n;
	int dev = 0;
	cudaDeviceProp prop;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
	int driver = 0, runtime = 0;
	CUDA_CHECK(cudaDriverGetVersion(&driver));
	CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
	fprintf(stderr, "warp-bench-cuda: device %s (sm_%d%d, driver API %d, runtime %d)\n", prop.name,
	        prop.major, prop.minor, driver, runtime);
	fprintf(stderr, "warp-bench-cuda: n = 2^%ld, block size %d, %ld steps, %d warm-up + %d timed runs, cudaEvent time\n",
	        log2n, kLocal, iters, kWarmup, kTimed);

	uint *d_out = nullptr;
	CUDA_CHECK(cudaMalloc(&d_out, n * 4));
	printf("family\tbackend\tn\titers\tmedian_ms\tmin_ms\tmax_ms\tGop/s\n");
	fflush(stdout);
	int failed = 0;
	for (int i = 0; i < kRowCount; i++)
		if (!only || !strcmp(only, kRows[i].name))
			failed += bench_row(kRows[i], d_out, n, (unsigned)iters);
	CUDA_CHECK(cudaFree(d_out));
	if (failed)
		fprintf(stderr, "warp-bench-cuda: %d famil%s gave WRONG results\n", failed, failed == 1 ? "y" : "ies");
	return failed ? 1 : 0;
}
