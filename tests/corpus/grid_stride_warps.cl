/* A warp-level grid-stride loop: warp g of G sums chunks g, g + G, ... of
 * warpSize values each with __shfl_xor_sync, so with 13 chunks some warps
 * make one more trip (and one more warp reduction) than others. */
//! run: -g 64 -l 32 -a int[416]=(i*17)%23-11 -a int:13 -a out:int[52]=fill(-7)

#include <clwarp/cuda.h>

__device__ int warpReduceSum(int v) {
#pragma unroll
  for (int m = warpSize / 2; m > 0; m /= 2) v += __shfl_xor_sync(0xffffffff, v, m);
  return v;
}

__global__ void grid_stride_warps(global const int *in, int chunks, global int *out) {
  int lane = threadIdx.x % warpSize;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int nwarps = gridDim.x * blockDim.x / warpSize;
  for (int c = warp; c < chunks; c += nwarps) {
    int s = warpReduceSum(in[c * warpSize + lane]);
    if (lane == 0) out[c] = s;
  }
}
