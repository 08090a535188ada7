#include <clwarp/cuda.h>
__device__ float warpSum(float v) {
#pragma unroll
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
/* the same with every warp making the second reduction (no branch around it) */
__global__ void block_sum(global const float *in, global float *out) {
  __shared__ float part[32];
  int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  float v = warpSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0) part[wid] = v;
  __syncthreads();
  v = lane < blockDim.x / warpSize ? part[lane] : 0.0f;
  v = warpSum(v);
  if (wid == 0 && lane == 0) out[blockIdx.x] = v;
}
