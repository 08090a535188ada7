#include <clwarp/cuda.h>
__device__ float warpSum(float v) {
#pragma unroll
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
/* a warp-level grid-stride loop: trips differ by warp */
__global__ void gs(global const float *x, global float *out, int nchunks) {
  int lane = threadIdx.x % warpSize;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int nw = gridDim.x * blockDim.x / warpSize;
  for (int c = gw; c < nchunks; c += nw) {
    float v = warpSum(x[c * warpSize + lane]);
    if (lane == 0) out[c] = v;
  }
}
