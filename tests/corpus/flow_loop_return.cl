/* A warp-level grid-stride loop that whole warps leave with `return` once a
 * chunk's sum (every lane holds it after the __shfl_xor_sync butterfly)
 * passes limit * warpSize: the warps that return must not keep the others looping,
 * nor stop them. */
//! run: -g 128 -l 64 -a float[640]=(i*7)%10 -a out:float[20]=fill(-1) -a int:20 -a float:4.5

#include <clwarp/cuda.h>

__device__ float warpSumAll(float v) {
#pragma unroll
  for (int m = warpSize / 2; m > 0; m /= 2) v += __shfl_xor_sync(0xffffffff, v, m);
  return v;
}

__global__ void flow_loop_return(global const float *x, global float *out, int nchunks, float limit) {
  int lane = threadIdx.x % warpSize;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int nw = gridDim.x * blockDim.x / warpSize;
  for (int c = gw; c < nchunks; c += nw) {
    float s = warpSumAll(x[c * warpSize + lane]);
    if (lane == 0) out[c] = s;
    if (s > limit * warpSize) return;
  }
}
