/* Block sum, two levels: each warp reduces with __shfl_down_sync, lane 0 of
 * each warp stores the warp's sum in shared memory, and warp 0 alone reduces
 * those sums under `if (wid == 0)` and writes the block's total.
 * 4 blocks of 64; a block may hold at most warpSize warps. */
//! run: -g 256 -l 64 -a int[256]=(i*7)%19-9 -a out:int[4]

#include <clwarp/cuda.h>

__device__ int warpReduceSum(int val) {
#pragma unroll
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__global__ void block_reduce_sum(global const int *in, global int *out) {
  __shared__ int shared[32];
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;

  int val = in[blockIdx.x * blockDim.x + threadIdx.x];
  val = warpReduceSum(val);
  if (lane == 0) shared[wid] = val;
  __syncthreads();

  if (wid == 0) {
    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
    val = warpReduceSum(val);
    if (lane == 0) out[blockIdx.x] = val;
  }
}
