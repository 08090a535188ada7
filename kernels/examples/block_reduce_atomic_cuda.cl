/* Sum of an array in CUDA style: each thread folds a grid-stride slice of the
 * input, each warp reduces its sums with __shfl_down_sync, lane 0 of each warp
 * puts the warp's sum in shared memory, every warp reduces those partials
 * (one per lane), and thread 0 adds the block's sum to total with one
 * atomicAdd. The warp calls come after the loop, so every lane makes them.
 * 4 blocks of 64 over 1000 values (4 rounds of the loop for most threads);
 * total starts at 0. A block may hold at most W warps (8 at W = 8), which
 * partial[] holds. The mask 0xffffffff names 32 lanes: W <= 32. */
//! run: -g 256 -l 64 -a int[1000]=(i*9)%17-8 -a int:1000 -a out:int[1]=fill(0) -a local:int[8]
//! expect[0]: -7

#include <clwarp/cuda.h>

__device__ int warp_sum(int v) {
#pragma unroll
  for (int d = warpSize / 2; d > 0; d /= 2)
    v += __shfl_down_sync(0xffffffff, v, d);
  return v;
}

__global__ void block_reduce_atomic(global const int *in, int n, global int *total,
                                    local int *partial) {
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  int nwarps = blockDim.x / warpSize;

  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    sum += in[i];
  sum = warp_sum(sum);
  if (lane == 0) partial[wid] = sum;
  __syncthreads();

  sum = warp_sum(lane < nwarps ? partial[lane] : 0);
  if (threadIdx.x == 0) atomicAdd(total, sum);
}
