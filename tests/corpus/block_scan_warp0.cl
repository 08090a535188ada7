/* Block-wide inclusive scan with shuffles: each warp scans with
 * __shfl_up_sync, the last lane stores the warp's total, warp 0 alone scans
 * the totals under `if (wid == 0)`, and every warp adds the totals before it.
 * 4 blocks of 64; a block may hold at most warpSize warps. */
//! run: -g 256 -l 64 -a int[256]=(i*5)%11-5 -a out:int[256]

#include <clwarp/cuda.h>

__device__ int warpInclusiveScan(int v) {
  int lane = threadIdx.x % warpSize;
#pragma unroll
  for (int d = 1; d < warpSize; d *= 2) {
    int n = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += n;
  }
  return v;
}

__global__ void block_scan_warp0(global const int *in, global int *out) {
  __shared__ int sums[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  int v = warpInclusiveScan(in[i]);
  if (lane == warpSize - 1) sums[wid] = v;
  __syncthreads();

  if (wid == 0) {
    int s = lane < blockDim.x / warpSize ? sums[lane] : 0;
    sums[lane] = warpInclusiveScan(s);
  }
  __syncthreads();

  if (wid > 0) v += sums[wid - 1];
  out[i] = v;
}
