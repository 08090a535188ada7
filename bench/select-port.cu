// A CUDA port of libclwarp's compaction and partition kernels, timed beside CUB on the same data.
// SPDX-License-Identifier: MIT
//
// Build on an NVIDIA machine (nvcc 12+ ships CUB):
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/select-port.cu -o select-port
// Run:
//   select-port [--min-log2 N] [--max-log2 N] [--step N] [--reps N] [--tsv FILE]
//
// Why: to tell, when compaction trails cub::DeviceSelect::If, whether the
// algorithm or the compiler is the gap (docs/design/select.md has what it
// found). The port runs the same kernel through nvcc instead of NVIDIA's
// OpenCL compiler, so
//   port / CUB     < 0.95: the algorithm (tile shape, staging, look-back) is the gap;
//   ours / port    < 1:    the OpenCL compiler and the code it is given are.
//
// What is ported: clwarp_select and clwarp_reverse_tail from
// kernels/algorithms/scan.cl with the helpers of kernels/algorithms/common.cl,
// as libclwarp builds them for float on the nv backend with the default
// tuning (src/algo_variants.c): WG = select_wg = 256 work-items, ITEMS_K =
// select_vectors = 6 float4 per work-item (tiles of 6144 floats),
// CLWARP_ALGO_WARP_LOOKBACK (warp 0 looks back 32 tiles at a time), packed
// 64-bit look-back words written and read with st/ld.relaxed.gpu, tile ids
// from an atomic counter, epochs instead of clearing the words, staging of
// the tile in shared memory, and for partition the rejected elements
// written backwards and then reversed by a second kernel. No
// __launch_bounds__ and no loop pragmas beyond the OpenCL source's, since
// the OpenCL build has neither. The predicate is a constant in the kernel,
// as the predicate text is in the OpenCL program.
//
// Variants (the TSV's backend column):
//   port        the nv backend's warp calls as CUDA intrinsics
//               (__shfl_up_sync, __shfl_sync, __ballot_sync, __reduce_add_sync)
//   port-asm    the same kernel with kernels/warp/nv.cl's own inline PTX
//               (asm volatile shfl.sync / vote.sync / redux.sync / %laneid), so
//               port-asm / port isolates how that PTX compiles
//   port-norev  partition only: the select kernel without clwarp_reverse_tail;
//               its output is CUB's (rejected elements reversed), so
//               port-norev / CUB is the partition kernel alone against CUB
//   port-rev    partition only: clwarp_reverse_tail alone, twice per
//               repetition on port's output (which so stays as it was);
//               GB/s from the rejected elements read and written
//   cub         cub::DeviceSelect::If / cub::DevicePartition::If
//
// Checks: each variant's output, after its warm-up call and again after the
// timed repetitions, is compared element by element (bitwise) with CUB's;
// CUB's count with a host count. A mismatch prints WRONG RESULT, drops that
// variant's GB/s, and makes the exit status 1.
//
// Timing: cudaEvents around each call on the default stream, as cub-bench;
// the variants and CUB take turns within each repetition, so drift hits them
// alike; median of R repetitions after the warm-up. GB/s as algorithms-bench:
// compaction n*4 read + selected*4 written, partition n*4 read + n*4 written.

#include <cub/cub.cuh>

#include <climits>
#include <cmath>
#include <cstring>

#include "bench-cuda.cuh"

namespace {

using bench::die;

// --------------------------------------------------------------- the port

// The shape: src/algo_variants.c, default_tuning, for a 4-byte type.
constexpr unsigned W = 32, WG = 256, ITEMS_K = 6, VEC = 4;
constexpr unsigned WARPS = WG / W, ITEMS = ITEMS_K * VEC, TILE = WG * ITEMS;
constexpr unsigned STATE_AGGREGATE = 1, STATE_PREFIX = 2;
constexpr unsigned EPOCH_LIMIT = 1u << 30;
constexpr unsigned FULL = 0xffffffffu;

// The warp calls clwarp_select makes, per flavour.
template <bool ASM> struct Warp;

template <> struct Warp<false> {
	static __device__ __forceinline__ unsigned lane() { return threadIdx.x % W; }
	static __device__ __forceinline__ unsigned shfl_idx(unsigned v, unsigned src) { return __shfl_sync(FULL, v, src); }
	static __device__ __forceinline__ unsigned shfl_up(unsigned v, unsigned d) { return __shfl_up_sync(FULL, v, d); }
	static __device__ __forceinline__ unsigned long long ballot(int p) { return __ballot_sync(FULL, p); }
	static __device__ __forceinline__ unsigned reduce_add(unsigned v) { return __reduce_add_sync(FULL, v); }
};

// kernels/warp/nv.cl, character for character.
template <> struct Warp<true> {
	static __device__ __forceinline__ unsigned lane()
	{
		unsigned l;
		asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
		return l;
	}
	static __device__ __forceinline__ unsigned shfl_idx(unsigned v, unsigned src)
	{
		unsigned r;
		asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src));
		return r;
	}
	static __device__ __forceinline__ unsigned shfl_up(unsigned v, unsigned d)
	{
		unsigned r;
		asm volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(d));
		return r;
	}
	static __device__ __forceinline__ unsigned long long ballot(int p)
	{
		unsigned r;
		asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\t"
		             "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
		             : "=r"(r) : "r"(p));
		return r;
	}
	static __device__ __forceinline__ unsigned reduce_add(unsigned v)
	{
		unsigned r;
		asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
		return r;
	}
};

// ALGO_WARP(): warp_id() on nv, the linear local id / 32.
__device__ __forceinline__ unsigned warp_index() { return threadIdx.x / W; }

// nv.cl's warp_scan_exclusive_add: Kogge-Stone over shfl.up, then one shift.
template <bool ASM> __device__ __forceinline__ unsigned warp_scan_exclusive_add(unsigned v)
{
	unsigned lane = Warp<ASM>::lane();
	for (unsigned offset = 1; offset < 32; offset <<= 1) {
		unsigned t = Warp<ASM>::shfl_up(v, offset);
		v = lane >= offset ? t + v : v;
	}
	unsigned r = Warp<ASM>::shfl_up(v, 1u);
	return Warp<ASM>::lane() == 0 ? 0u : r;
}

// common.cl's word_store / word_load on nv (sm_70+).
__device__ __forceinline__ void word_store(unsigned long long *p, unsigned long long w)
{
	asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "l"(w) : "memory");
}

__device__ __forceinline__ unsigned long long word_load(unsigned long long *p)
{
	unsigned long long w;
	asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(__cvta_generic_to_global(p)) : "memory");
	return w;
}

// DEFINE_TILE_PACKED(uint)
__device__ __forceinline__ void tile_publish(unsigned long long *words, unsigned tile, unsigned state, unsigned v)
{
	word_store(&words[tile], (unsigned long long)state << 32 | v);
}

__device__ __forceinline__ unsigned tile_wait(unsigned long long *words, unsigned tile, unsigned fa, unsigned fp,
                                              unsigned *v)
{
	unsigned long long w;
	unsigned state;
	do {
		w = word_load(&words[tile]);
		state = (unsigned)(w >> 32);
	} while (state != fa && state != fp);
	*v = (unsigned)w;
	return state;
}

// DEFINE_BLOCK_SCAN(block_count, uint, +, 0, warp_scan_exclusive_add, ITEMS_K, VEC)
template <bool ASM> __device__ __forceinline__ unsigned block_count(unsigned *a, int inclusive, unsigned *sm)
{
	unsigned lane = Warp<ASM>::lane(), wid = warp_index();
	unsigned carry = 0;
	for (unsigned k = 0; k < ITEMS_K; k++) {
		unsigned s = a[k * VEC];
		for (unsigned c = 1; c < VEC; c++)
			s = s + a[k * VEC + c];
		unsigned ex = warp_scan_exclusive_add<ASM>(s);
		unsigned tot = Warp<ASM>::shfl_idx(ex + s, W - 1u);
		unsigned run = carry + ex;
		for (unsigned c = 0; c < VEC; c++) {
			unsigned nx = run + a[k * VEC + c];
			a[k * VEC + c] = inclusive ? nx : run;
			run = nx;
		}
		carry = carry + tot;
	}
	if (lane == 0)
		sm[wid] = carry;
	__syncthreads();
	unsigned before = 0, total = 0;
	for (unsigned w = 0; w < WARPS; w++) {
		unsigned v = sm[w];
		before = w < wid ? before + v : before;
		total = total + v;
	}
	__syncthreads();
	for (unsigned i = 0; i < ITEMS_K * VEC; i++)
		a[i] = before + a[i];
	return total;
}

// DEFINE_LOOKBACK(lookback_count, uint, +, 0, warp_reduce_add), warp look-back.
__device__ __forceinline__ void lookback_announce(unsigned tile, unsigned aggregate, unsigned epoch,
                                                  unsigned long long *words)
{
	if (threadIdx.x == 0)
		tile_publish(words, tile, (epoch << 2) | (tile == 0 ? STATE_PREFIX : STATE_AGGREGATE), aggregate);
}

template <bool ASM>
__device__ __forceinline__ unsigned lookback(unsigned tile, unsigned aggregate, unsigned epoch,
                                             unsigned long long *words, unsigned *shared)
{
	const unsigned fa = (epoch << 2) | STATE_AGGREGATE, fp = (epoch << 2) | STATE_PREFIX;
	unsigned lid = threadIdx.x;
	if (tile > 0 && warp_index() == 0) {
		unsigned lane = Warp<ASM>::lane();
		unsigned excl = 0;
		for (int j = (int)tile - 1;; j -= W) {
			int idx = j - (int)lane;
			unsigned f = fp;
			unsigned v = 0;
			if (idx >= 0)
				f = tile_wait(words, (unsigned)idx, fa, fp, &v);
			unsigned long long found = Warp<ASM>::ballot(f == fp);
			unsigned first = found ? (unsigned)__popcll((found & (~found + 1ull)) - 1ull) : W;
			unsigned w = Warp<ASM>::reduce_add(lane <= first ? v : 0u);
			excl = w + excl;
			if (found)
				break;
		}
		if (lane == 0) {
			tile_publish(words, tile, fp, excl + aggregate);
			*shared = excl;
		}
	} else if (tile == 0 && lid == 0) {
		*shared = 0;
	}
	__syncthreads();
	return *shared;
}

__device__ __forceinline__ unsigned take_tile(unsigned *counter, unsigned tiles, unsigned *shared)
{
	if (threadIdx.x == 0) {
		unsigned t = atomicAdd(counter, 1u);
		if (t == tiles - 1)
			atomicExch(counter, 0u);
		*shared = t;
	}
	__syncthreads();
	return *shared;
}

// ALGO_LANE() is warp_lane_id() on nv: %laneid in port-asm.
template <bool ASM> __device__ __forceinline__ unsigned long long tile_offset_of(unsigned k)
{
	return ((unsigned long long)(warp_index() * ITEMS_K + k) * W + Warp<ASM>::lane()) * VEC;
}

template <bool ASM>
__device__ __forceinline__ void load_tile(const float *in, unsigned long long base, unsigned long long n, float pad,
                                          float *a)
{
	if (base + TILE <= n) {
		const float4 *v = (const float4 *)(in + base);
#pragma unroll
		for (unsigned k = 0; k < ITEMS_K; k++) {
			float4 x = v[tile_offset_of<ASM>(k) / VEC];
			a[k * VEC + 0] = x.x;
			a[k * VEC + 1] = x.y;
			a[k * VEC + 2] = x.z;
			a[k * VEC + 3] = x.w;
		}
	} else {
#pragma unroll
		for (unsigned k = 0; k < ITEMS_K; k++) {
			unsigned long long o = base + tile_offset_of<ASM>(k);
#pragma unroll
			for (unsigned c = 0; c < VEC; c++)
				a[k * VEC + c] = o + c < n ? in[o + c] : pad;
		}
	}
}

// clwarp_select: KIND 1 = compact, 2 = partition (PRED_KIND).
template <int KIND, bool ASM, typename Pred>
__global__ void select_kernel(const float *in, float *out, unsigned *count, unsigned long long n, unsigned tiles,
                              unsigned epoch, unsigned *counter, unsigned long long *words)
{
	__shared__ float stage[TILE];
	__shared__ unsigned sm[WARPS];
	__shared__ unsigned prefix_shared;
	__shared__ unsigned tile_shared;
	float a[ITEMS];
	unsigned rank[ITEMS];
	unsigned selected = 0, in_range = 0;
	Pred pred;

	unsigned tile = take_tile(counter, tiles, &tile_shared);
	unsigned long long base = (unsigned long long)tile * TILE;
	unsigned first = (unsigned)tile_offset_of<ASM>(0);
	load_tile<ASM>(in, base, n, 0.0f, a);
	for (unsigned k = 0; k < ITEMS_K; k++) {
		unsigned long long o = base + tile_offset_of<ASM>(k);
		for (unsigned c = 0; c < VEC; c++) {
			unsigned valid = o + c < n;
			unsigned s = valid && (pred(a[k * VEC + c]) ? 1 : 0);
			rank[k * VEC + c] = s;
			selected |= s << (k * VEC + c);
			in_range |= valid << (k * VEC + c);
		}
	}
	unsigned tile_count = block_count<ASM>(rank, 0, sm);
	lookback_announce(tile, tile_count, epoch, words);
	for (unsigned i = 0; i < ITEMS; i++) {
		unsigned pos = first + (i / VEC) * (W * VEC) + i % VEC;
		if ((selected >> i) & 1u)
			stage[rank[i]] = a[i];
		else if (KIND == 2 && ((in_range >> i) & 1u))
			stage[tile_count + pos - rank[i]] = a[i];
	}
	unsigned before = lookback<ASM>(tile, tile_count, epoch, words, &prefix_shared);
	// lookback ends with a barrier: the stage is complete.
	for (unsigned i = threadIdx.x; i < tile_count; i += WG)
		out[before + i] = stage[i];
	if (KIND == 2) {
		unsigned long long valid = n - base < TILE ? n - base : TILE;
		unsigned long long rejected_before = base - before;
		for (unsigned i = tile_count + threadIdx.x; i < valid; i += WG)
			out[n - 1 - (rejected_before + (i - tile_count))] = stage[i];
	}
	if (tile == tiles - 1 && threadIdx.x == 0)
		count[0] = before + tile_count;
}

// clwarp_reverse_tail: reverse out[count[0] .. n).
__global__ void reverse_tail(float *out, const unsigned *count, unsigned long long n)
{
	unsigned long long start = count[0];
	unsigned long long swaps = (n - start) / 2;
	unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < swaps) {
		float x = out[start + i];
		out[start + i] = out[n - 1 - i];
		out[n - 1 - i] = x;
	}
}

// ------------------------------------------------------------ the host side

enum Variant { PORT, PORT_ASM, PORT_NOREV, PORT_REV, CUB, N_VARIANTS };
const char *const kVariantNames[N_VARIANTS] = {"port", "port-asm", "port-norev", "port-rev", "cub"};

// The look-back state libclwarp keeps per engine (src/algo_call.c, algo_lookback_prepare).
struct Lookback {
	unsigned *counter = nullptr;
	unsigned long long *words = nullptr;
	size_t max_tiles = 0;
	unsigned epoch = 0;
};

unsigned next_epoch(Lookback &lb)
{
	if (++lb.epoch >= EPOCH_LIMIT) {
		CUDA_CHECK(cudaMemset(lb.words, 0, lb.max_tiles * sizeof(*lb.words)));
		lb.epoch = 1;
	}
	return lb.epoch;
}

// One call of the port, as algo_select enqueues it: the select kernel, then
// for partition (unless `reverse` is false) the reverse of the tail.
template <typename Pred>
void port_call(Lookback &lb, bool partition, bool use_asm, bool reverse, const float *in, float *out,
               unsigned *count, size_t n)
{
	unsigned tiles = (unsigned)(n / TILE + (n % TILE != 0));
	unsigned epoch = next_epoch(lb);
	auto launch = [&](auto kernel) {
		kernel<<<tiles, WG>>>(in, out, count, n, tiles, epoch, lb.counter, lb.words);
	};
	if (partition)
		use_asm ? launch(select_kernel<2, true, Pred>) : launch(select_kernel<2, false, Pred>);
	else
		use_asm ? launch(select_kernel<1, true, Pred>) : launch(select_kernel<1, false, Pred>);
	if (partition && reverse && n > 1)
		reverse_tail<<<(unsigned)((n / 2 + WG - 1) / WG), WG>>>(out, count, n);
	CUDA_CHECK(cudaGetLastError());
}

struct Cub {
	void *temp = nullptr;
	size_t temp_bytes = 0;
};

template <typename Pred> void cub_call(Cub &c, bool partition, const float *in, float *out, int *count, size_t n)
{
	size_t tb = c.temp_bytes;
	if (partition)
		CUDA_CHECK(cub::DevicePartition::If(c.temp, tb, in, out, count, (int64_t)n, Pred{}));
	else
		CUDA_CHECK(cub::DeviceSelect::If(c.temp, tb, in, out, count, (int64_t)n, Pred{}));
}

template <typename Pred> size_t cub_temp_bytes(bool partition, size_t n)
{
	size_t tb = 0;
	if (partition)
		CUDA_CHECK(cub::DevicePartition::If(nullptr, tb, (const float *)nullptr, (float *)nullptr,
		                                    (int *)nullptr, (int64_t)n, Pred{}));
	else
		CUDA_CHECK(cub::DeviceSelect::If(nullptr, tb, (const float *)nullptr, (float *)nullptr, (int *)nullptr,
		                                 (int64_t)n, Pred{}));
	return tb;
}

// The first i < m at which got[i] differs (bitwise) from want[j], j = i below
// `tail` and n - 1 - (i - tail) from there: CUB's partition keeps the
// rejected elements reversed at the end. *first stays ULLONG_MAX if none.
__global__ void first_mismatch(const float *got, const float *want, unsigned long long m, unsigned long long tail,
                               unsigned long long n, unsigned long long *first)
{
	for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < m;
	     i += (unsigned long long)gridDim.x * blockDim.x) {
		unsigned long long j = i < tail ? i : n - 1 - (i - tail);
		if (__float_as_uint(got[i]) != __float_as_uint(want[j]))
			atomicMin(first, i);
	}
}

struct Run {
	const char *op;        // compact, partition
	bool partition;
	int pred;              // 0: x > 0, 1: x > 0.9f (bench::with_pred)
};

const Run kRuns[] = {
	{"compact", false, 0},
	{"compact", false, 1},
	{"partition", true, 0},
	{"partition", true, 1},
};

struct Bench {
	size_t max_n = 0;
	int reps = 20;
	std::vector<float> hf;
	float *d_in = nullptr;
	float *d_out[N_VARIANTS] = {};
	unsigned *d_count = nullptr;       // one count per variant (CUB's as int)
	unsigned long long *d_first = nullptr;
	Lookback lb;
	Cub cub;
	cudaEvent_t ev0, ev1;
	int failures = 0;
};

bool applies(Variant v, const Run &r) { return (v != PORT_NOREV && v != PORT_REV) || r.partition; }

void call(Bench &b, Variant v, const Run &r, size_t n)
{
	float *out = b.d_out[v];
	unsigned *count = b.d_count + v;
	if (v == PORT_REV) {
		reverse_tail<<<(unsigned)((n / 2 + WG - 1) / WG), WG>>>(b.d_out[PORT], b.d_count + PORT, n);
		CUDA_CHECK(cudaGetLastError());
		return;
	}
	bench::with_pred(r.pred, [&](auto pred) {
		using Pred = decltype(pred);
		if (v == CUB)
			cub_call<Pred>(b.cub, r.partition, b.d_in, out, (int *)count, n);
		else
			port_call<Pred>(b.lb, r.partition, v == PORT_ASM, v != PORT_NOREV, b.d_in, out, count, n);
	});
}

unsigned read_count(const Bench &b, Variant v)
{
	unsigned c;
	CUDA_CHECK(cudaMemcpy(&c, b.d_count + v, sizeof(c), cudaMemcpyDeviceToHost));
	return c;
}

// Variant v's output against CUB's, after `when`; false (and a message) if they differ.
bool check_against_cub(Bench &b, Variant v, const Run &r, size_t n, const char *when)
{
	unsigned want = read_count(b, CUB), got = read_count(b, v);
	const char *pred = r.pred ? bench::GtPoint9::expr : bench::GtZero::expr;
	if (got != want) {
		fprintf(stderr, "%s: WRONG RESULT from %s %s (%s), n = %zu, %s: count %u, CUB's %u\n", bench::prog,
		        kVariantNames[v], r.op, pred, n, when, got, want);
		return false;
	}
	// Compaction: the selected ones. Partition: all n, CUB's tail reversed
	// unless the variant leaves its own tail reversed too (port-norev).
	unsigned long long m = r.partition ? n : want, tail = v == PORT_NOREV ? n : want, first = ULLONG_MAX;
	CUDA_CHECK(cudaMemcpy(b.d_first, &first, sizeof(first), cudaMemcpyHostToDevice));
	if (m)
		first_mismatch<<<1024, 256>>>(b.d_out[v], b.d_out[CUB], m, tail, n, b.d_first);
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaMemcpy(&first, b.d_first, sizeof(first), cudaMemcpyDeviceToHost));
	if (first == ULLONG_MAX)
		return true;
	float g, w;
	unsigned long long j = first < tail ? first : n - 1 - (first - tail);
	CUDA_CHECK(cudaMemcpy(&g, b.d_out[v] + first, 4, cudaMemcpyDeviceToHost));
	CUDA_CHECK(cudaMemcpy(&w, b.d_out[CUB] + j, 4, cudaMemcpyDeviceToHost));
	fprintf(stderr, "%s: WRONG RESULT from %s %s (%s), n = %zu, %s: element %llu is %.9g, CUB's element %llu %.9g\n",
	        bench::prog, kVariantNames[v], r.op, pred, n, when, first, g, j, w);
	return false;
}

struct Row {
	const Run *run;
	size_t n, selected;
	double ms[N_VARIANTS];  // < 0: not run or wrong
	double gbps[N_VARIANTS];
};

Row measure(Bench &b, const Run &r, size_t n, size_t host_count)
{
	Row row{&r, n, host_count, {}, {}};
	bool ok[N_VARIANTS];
	std::vector<double> t[N_VARIANTS];

	// Warm-up and checks: CUB against the host's count, the rest against CUB.
	call(b, CUB, r, n);
	CUDA_CHECK(cudaDeviceSynchronize());
	unsigned cub_count = read_count(b, CUB);
	if (cub_count != host_count)
		die("CUB %s (%s), n = %zu: count %u, the host counts %zu", r.op,
		    r.pred ? bench::GtPoint9::expr : bench::GtZero::expr, n, cub_count, host_count);
	for (int v = 0; v < N_VARIANTS; v++) {
		ok[v] = applies((Variant)v, r);
		if (v == CUB || v == PORT_REV || !ok[v])
			continue;
		call(b, (Variant)v, r, n);
		CUDA_CHECK(cudaDeviceSynchronize());
		ok[v] = check_against_cub(b, (Variant)v, r, n, "warm-up");
	}
	ok[PORT_REV] = ok[PORT_REV] && ok[PORT];
	for (int rep = 0; rep < b.reps; rep++) {
		for (int v = 0; v < N_VARIANTS; v++) {
			for (int k = 0; ok[v] && k < (v == PORT_REV ? 2 : 1); k++) {
				CUDA_CHECK(cudaEventRecord(b.ev0));
				call(b, (Variant)v, r, n);
				CUDA_CHECK(cudaEventRecord(b.ev1));
				CUDA_CHECK(cudaEventSynchronize(b.ev1));
				float ms;
				CUDA_CHECK(cudaEventElapsedTime(&ms, b.ev0, b.ev1));
				t[v].push_back(ms);
			}
		}
	}
	// The last repetition's output, checked as well: races can hide from one call.
	for (int v = 0; v < N_VARIANTS; v++)
		if (v != CUB && v != PORT_REV && ok[v])
			ok[v] = check_against_cub(b, (Variant)v, r, n, "timed repetitions");
	ok[PORT_REV] = ok[PORT_REV] && ok[PORT];
	double bytes = 4.0 * (double)n + 4.0 * (double)(r.partition ? n : host_count);
	for (int v = 0; v < N_VARIANTS; v++) {
		row.ms[v] = -1;
		if (!applies((Variant)v, r))
			continue;
		if (!ok[v]) {
			b.failures++;
			continue;
		}
		row.ms[v] = bench::median(t[v]);
		row.gbps[v] = (v == PORT_REV ? 8.0 * (double)(n - host_count) : bytes) / (row.ms[v] * 1e-3) / 1e9;
	}
	fprintf(stderr, "  %-9s %-6s 2^%-2d", r.op, r.pred ? bench::GtPoint9::name : bench::GtZero::name,
	        (int)log2((double)n));
	for (int v = 0; v < N_VARIANTS; v++)
		if (row.ms[v] >= 0)
			fprintf(stderr, "  %s %.1f", kVariantNames[v], row.gbps[v]);
	fprintf(stderr, "\n");
	return row;
}

void print_kernel_attributes()
{
	struct K {
		const char *name;
		const void *fn;
	} ks[] = {
		{"compact  port    ", (const void *)select_kernel<1, false, bench::GtZero>},
		{"compact  port-asm", (const void *)select_kernel<1, true, bench::GtZero>},
		{"partition port    ", (const void *)select_kernel<2, false, bench::GtZero>},
		{"partition port-asm", (const void *)select_kernel<2, true, bench::GtZero>},
		{"reverse_tail     ", (const void *)reverse_tail},
	};
	printf("kernels (x > 0; cudaFuncGetAttributes):\n");
	for (const K &k : ks) {
		cudaFuncAttributes a;
		CUDA_CHECK(cudaFuncGetAttributes(&a, k.fn));
		int blocks = 0;
		CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.fn, WG, 0));
		// maxThreadsPerBlock is what cl-kernel-info's work-group size is for ours.
		printf("  %-19s %3d registers, %5zu B shared, %4zu B local, <= %4d threads a block, %d blocks of %u per SM\n",
		       k.name, a.numRegs, a.sharedSizeBytes, a.localSizeBytes, a.maxThreadsPerBlock, blocks, WG);
	}
}

void usage(FILE *f)
{
	fprintf(f,
	        "Usage: select-port [--min-log2 N] [--max-log2 N] [--step N] [--reps N] [--tsv FILE]\n"
	        "  n = 2^min, 2^(min+step), ... 2^max (default 2^20 .. 2^28, step 2; fewer where the\n"
	        "  buffers do not fit); reps default 20; the TSV has algorithms-bench's first seven\n"
	        "  columns (device backend op type n median_ms gbps), backends port, port-asm,\n"
	        "  port-norev, port-rev, cub; ops compact_gt0, compact_gt0.9, partition_gt0, partition_gt0.9\n");
}

} // namespace

int main(int argc, char **argv)
{
	int min_log2 = 20, max_log2 = 28, step = 2;
	const char *tsv_path = nullptr;
	Bench b;

	bench::prog = "select-port";
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto value = [&](void) -> const char * {
			if (i + 1 >= argc) {
				fprintf(stderr, "select-port: %s needs a value\n", a.c_str());
				usage(stderr);
				exit(2);
			}
			return argv[++i];
		};
		if (a == "--min-log2")
			min_log2 = atoi(value());
		else if (a == "--max-log2")
			max_log2 = atoi(value());
		else if (a == "--step")
			step = atoi(value());
		else if (a == "--reps")
			b.reps = atoi(value());
		else if (a == "--tsv")
			tsv_path = value();
		else if (a == "-h" || a == "--help") {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "select-port: unknown argument '%s'\n", a.c_str());
			usage(stderr);
			return 2;
		}
	}
	if (min_log2 < 10 || max_log2 > 31 || min_log2 > max_log2 || step < 1 || b.reps < 1) {
		fprintf(stderr, "select-port: sizes must lie in 2^10 .. 2^31, step and reps be >= 1\n");
		return 2;
	}

	cudaDeviceProp prop;
	size_t free_b, total_b;
	int dev;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
	CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
	// The input and one output per variant (port-rev works on port's).
	while (max_log2 > min_log2 && (double)N_VARIANTS * 4.0 * (double)((size_t)1 << max_log2) > 0.9 * (double)free_b)
		max_log2--;
	int cub_v = CUB_VERSION;
	printf("device: %s (sm_%d%d, %d SMs, %.1f GiB, CUB %d.%d.%d)\n", prop.name, prop.major, prop.minor,
	       prop.multiProcessorCount, (double)total_b / (1 << 30), cub_v / 100000, cub_v / 100 % 1000, cub_v % 100);
	printf("port:   clwarp_select for float on nv, tiles of %u work-items x %u float4 = %u floats,\n"
	       "        warp look-back, packed 64-bit look-back words\n",
	       WG, ITEMS_K, TILE);
	printf("timing: cudaEvents around each call, median of %d, variants and CUB in turn within each\n"
	       "        repetition, after a warm-up call checked element by element against CUB's\n"
	       "        (and checked again after the repetitions). n = 2^%d .. 2^%d, step %d\n",
	       b.reps, min_log2, max_log2, step);
	printf("GB/s:   compaction n*4 read + selected*4 written, partition 2n*4; 1 GB = 1e9 bytes\n");
	print_kernel_attributes();
	fflush(stdout);

	b.max_n = (size_t)1 << max_log2;
	bench::make_input(b.max_n, b.hf, nullptr);
	// The host's count of each predicate at each size.
	std::vector<size_t> host_count[2];
	for (int p = 0; p < 2; p++) {
		host_count[p].assign(max_log2 + 1, 0);
		bench::with_pred(p, [&](auto pred) {
			size_t m = 0;
			for (size_t j = 0; j < b.max_n; j++) {
				m += pred(b.hf[j]);
				if (((j + 1) & j) == 0)  // j + 1 is a power of two
					host_count[p][(size_t)log2((double)(j + 1))] = m;
			}
		});
	}
	CUDA_CHECK(cudaMalloc(&b.d_in, b.max_n * 4));
	CUDA_CHECK(cudaMemcpy(b.d_in, b.hf.data(), b.max_n * 4, cudaMemcpyHostToDevice));
	for (int v = 0; v < N_VARIANTS; v++)
		if (v != PORT_REV)
			CUDA_CHECK(cudaMalloc(&b.d_out[v], b.max_n * 4));
	CUDA_CHECK(cudaMalloc(&b.d_count, N_VARIANTS * sizeof(unsigned)));
	CUDA_CHECK(cudaMalloc(&b.d_first, sizeof(unsigned long long)));
	b.lb.max_tiles = b.max_n / TILE + 1;
	CUDA_CHECK(cudaMalloc(&b.lb.counter, sizeof(unsigned)));
	CUDA_CHECK(cudaMemset(b.lb.counter, 0, sizeof(unsigned)));
	CUDA_CHECK(cudaMalloc(&b.lb.words, b.lb.max_tiles * sizeof(unsigned long long)));
	CUDA_CHECK(cudaMemset(b.lb.words, 0, b.lb.max_tiles * sizeof(unsigned long long)));
	for (const Run &r : kRuns)
		bench::with_pred(r.pred, [&](auto pred) {
			b.cub.temp_bytes = std::max(b.cub.temp_bytes, cub_temp_bytes<decltype(pred)>(r.partition, b.max_n));
		});
	CUDA_CHECK(cudaMalloc(&b.cub.temp, std::max<size_t>(b.cub.temp_bytes, 1)));
	CUDA_CHECK(cudaEventCreate(&b.ev0));
	CUDA_CHECK(cudaEventCreate(&b.ev1));

	std::vector<Row> rows;
	for (int l = min_log2; l <= max_log2; l += step)
		for (const Run &r : kRuns)
			rows.push_back(measure(b, r, (size_t)1 << l, host_count[r.pred][l]));

	FILE *tsv = nullptr;
	if (tsv_path) {
		tsv = fopen(tsv_path, "w");
		if (!tsv)
			die("cannot write %s", tsv_path);
		fprintf(tsv, "device\tbackend\top\ttype\tn\tmedian_ms\tgbps\n");
	}
	printf("\nGB/s, and each over CUB's from the same repetitions (norev: partition without the\n"
	       "reverse of the rejected part, CUB's own output order; rev: that reverse alone, GB/s of\n"
	       "the rejected elements read and written)\n");
	printf("%-10s %6s %11s %9s %9s %9s %9s %9s %9s %9s %9s\n", "op", "kept", "n", "port", "CUB", "port/CUB",
	       "port-asm", "asm/CUB", "norev", "norev/CUB", "rev");
	for (const Row &row : rows) {
		const Run &r = *row.run;
		auto gbps = [&](Variant v) {
			if (row.ms[v] < 0)
				printf(" %9s", applies(v, r) ? "WRONG" : "-");
			else
				printf(" %9.1f", row.gbps[v]);
		};
		auto ratio = [&](Variant v) {
			if (row.ms[v] < 0 || row.ms[CUB] < 0)
				printf(" %9s", "-");
			else
				printf(" %9.3f", row.gbps[v] / row.gbps[CUB]);
		};
		printf("%-10s %5.1f%% %11zu", r.op, 100.0 * (double)row.selected / (double)row.n, row.n);
		gbps(PORT);
		gbps(CUB);
		ratio(PORT);
		gbps(PORT_ASM);
		ratio(PORT_ASM);
		gbps(PORT_NOREV);
		ratio(PORT_NOREV);
		gbps(PORT_REV);
		printf("\n");
		for (int v = 0; tsv && v < N_VARIANTS; v++)
			if (row.ms[v] >= 0)
				fprintf(tsv, "%s\t%s\t%s_%s\tfloat\t%zu\t%.6f\t%.4f\n", prop.name, kVariantNames[v], r.op,
				        r.pred ? bench::GtPoint9::name : bench::GtZero::name, row.n, row.ms[v], row.gbps[v]);
	}
	if (tsv && fclose(tsv) != 0)
		die("writing %s failed", tsv_path);
	if (b.failures) {
		printf("\n%d result(s) WRONG: no GB/s is reported for them (see the messages above)\n", b.failures);
		return 1;
	}
	return 0;
}
