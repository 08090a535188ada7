// cub-bench's "cub-kernel" baselines for the row calls, written on CUB's
// warp and block primitives: segmented reduce (cub::WarpReduce, a warp per
// row of 32-128), row softmax (cub::BlockReduce, a block per row of 256)
// and segmented scan (an inclusive sum of each row on its own;
// cub::WarpScan, cub::BlockScan).
// SPDX-License-Identifier: MIT
#pragma once

#include <cub/cub.cuh>

#include <cstddef>

#include "bench-cuda.cuh"

namespace cubrows {

// One warp per row of 32: the CUB counterpart of a warp-per-row reduction.
__global__ void warp_rows32(const float *in, float *out, size_t rows)
{
	using WarpReduce = cub::WarpReduce<float>;
	__shared__ typename WarpReduce::TempStorage temp[8];
	size_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	size_t row = (size_t)blockIdx.x * 8 + warp;
	float v = row < rows ? in[row * 32 + lane] : 0.0f;
	float s = WarpReduce(temp[warp]).Sum(v);
	if (lane == 0 && row < rows)
		out[row] = s;
}

// One warp per row of 32 * K: each lane sums K coalesced loads, then cub::WarpReduce.
template <int K>
__global__ void warp_rows_k(const float *in, float *out, size_t rows)
{
	using WarpReduce = cub::WarpReduce<float>;
	__shared__ typename WarpReduce::TempStorage temp[8];
	size_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	size_t row = (size_t)blockIdx.x * 8 + warp;
	float x[K], v = 0.0f;
#pragma unroll
	for (int i = 0; i < K; i++)
		x[i] = row < rows ? in[row * 32 * K + i * 32 + lane] : 0.0f;
#pragma unroll
	for (int i = 0; i < K; i++)
		v += x[i];
	float s = WarpReduce(temp[warp]).Sum(v);
	if (lane == 0 && row < rows)
		out[row] = s;
}

// One block of 256 threads per row of 256: max, exp, sum, divide.
__global__ void softmax_rows256(const float *in, float *out)
{
	using BlockReduce = cub::BlockReduce<float, 256>;
	__shared__ typename BlockReduce::TempStorage temp;
	__shared__ float bcast;
	size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
	float x = in[i];
	float m = BlockReduce(temp).Reduce(x, ::cuda::maximum<>{});
	if (threadIdx.x == 0)
		bcast = m;
	__syncthreads();
	float e = __expf(x - bcast);
	__syncthreads(); // temp and bcast are reused
	float s = BlockReduce(temp).Sum(e);
	if (threadIdx.x == 0)
		bcast = s;
	__syncthreads();
	out[i] = e / bcast;
}


constexpr int kThreads = 256;

// One warp per row of 32, eight rows a block: cub::WarpScan. A warp past
// the last row is whole (rows are warp-sized), so it only skips its store.
__global__ void warp_scan_rows32(const float *in, float *out, size_t rows)
{
	using WarpScan = cub::WarpScan<float>;
	__shared__ typename WarpScan::TempStorage temp[kThreads / 32];
	size_t warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	size_t row = (size_t)blockIdx.x * (kThreads / 32) + warp;
	float v = row < rows ? in[row * 32 + lane] : 0.0f, s;
	WarpScan(temp[warp]).InclusiveSum(v, s);
	if (row < rows)
		out[row * 32 + lane] = s;
}

// One block per row of kThreads * ITEMS: thread t holds the ITEMS
// consecutive elements from t * ITEMS (a float4 load and store at 4), the
// blocked arrangement cub::BlockScan's array form takes.
template <int ITEMS>
__global__ void block_scan_rows(const float *in, float *out)
{
	static_assert(ITEMS == 1 || ITEMS == 4, "one element or one float4 a thread");
	using BlockScan = cub::BlockScan<float, kThreads>;
	__shared__ typename BlockScan::TempStorage temp;
	size_t at = ((size_t)blockIdx.x * kThreads + threadIdx.x) * ITEMS;
	float x[ITEMS], y[ITEMS];

	if constexpr (ITEMS == 4) {
		float4 v = *reinterpret_cast<const float4 *>(in + at);
		x[0] = v.x;
		x[1] = v.y;
		x[2] = v.z;
		x[3] = v.w;
	} else {
		x[0] = in[at];
	}
	BlockScan(temp).InclusiveSum(x, y);
	if constexpr (ITEMS == 4)
		*reinterpret_cast<float4 *>(out + at) = make_float4(y[0], y[1], y[2], y[3]);
	else
		out[at] = y[0];
}

// Scans the n / row rows of `in` into `out` on the default stream; row is
// 32, 256 or 1024 (n a multiple of it).
inline void launch(const float *in, float *out, size_t n, size_t row)
{
	size_t rows = n / row;

	if (row == 32)
		warp_scan_rows32<<<(unsigned)((rows + kThreads / 32 - 1) / (kThreads / 32)), kThreads>>>(
			in, out, rows);
	else if (row == kThreads)
		block_scan_rows<1><<<(unsigned)rows, kThreads>>>(in, out);
	else if (row == 4 * kThreads)
		block_scan_rows<4><<<(unsigned)rows, kThreads>>>(in, out);
	else
		bench::die("no row-scan kernel for rows of %zu", row);
	CUDA_CHECK(cudaGetLastError());
}

} // namespace cubrows
