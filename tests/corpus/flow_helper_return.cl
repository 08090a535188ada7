/* A __device__ helper that returns a value early for whole warps before
 * its shuffles, called under a branch that warp 1 of each block skips. */
//! run: -g 256 -l 128 -a float[256]=((i*29)%31)/4-3 -a out:float[256]

#include <clwarp/cuda.h>

__device__ float warpMaxOr(float v, bool skip) {
  if (skip) return -1.0f;
#pragma unroll
  for (int o = warpSize / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
  return v;
}

__global__ void flow_helper_return(global const float *in, global float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int wid = threadIdx.x / warpSize;
  float v = in[i];
  if (wid != 1)
    v = warpMaxOr(v, wid % 3 == 2);
  out[i] = v;
}
