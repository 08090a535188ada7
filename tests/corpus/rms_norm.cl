/* RMS norm, one block per row: y = x * weight / sqrt(mean(x^2) + eps). The
 * sum of squares goes through __shfl_down_sync in each warp and shared memory
 * across the warps; thread 0 makes the scale, the block reads it after
 * __syncthreads. 4 rows of 100 columns, blocks of 64. */
//! run: -g 256 -l 64 -a float[400]=((i*13)%31)/8-2 -a float[100]=((i*3)%7)/4+0.5 -a out:float[400] -a int:100 -a float:0.00001

#include <clwarp/cuda.h>

__device__ float warp_sum(float v) {
#pragma unroll
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}

__global__ void rms_norm(global const float *x, global const float *weight, global float *y,
                         int cols, float eps) {
  __shared__ float partial[32];
  __shared__ float scale;
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  global const float *row = x + blockIdx.x * cols;

  float ss = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) ss += row[c] * row[c];
  ss = warp_sum(ss);
  if (lane == 0) partial[wid] = ss;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int w = 0; w < blockDim.x / warpSize; ++w) total += partial[w];
    scale = rsqrtf(total / cols + eps);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[blockIdx.x * cols + c] = row[c] * scale * weight[c];
}
