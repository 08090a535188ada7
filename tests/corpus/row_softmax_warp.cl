/* Row softmax, one warp per row: the warps past the last row leave with
 * `if (row >= rows) return;` before the row's warp reductions (max, then the
 * sum of the exponentials, both with __shfl_xor_sync).
 * 3 rows of 40 columns, 128 threads: 4 warps at W = 32, so at least one warp
 * returns early at every width. */
//! run: -g 128 -l 64 -a float[120]=((i*7)%17)/3-2 -a out:float[120] -a int:3 -a int:40

#include <clwarp/cuda.h>

__global__ void row_softmax_warp(global const float *in, global float *out, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int lane = threadIdx.x % warpSize;
  if (row >= rows) return;

  global const float *x = in + row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += warpSize) m = fmaxf(m, x[c]);
#pragma unroll
  for (int o = warpSize / 2; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));

  float s = 0.0f;
  for (int c = lane; c < cols; c += warpSize) s += expf(x[c] - m);
#pragma unroll
  for (int o = warpSize / 2; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffff, s, o);

  for (int c = lane; c < cols; c += warpSize) out[row * cols + c] = expf(x[c] - m) / s;
}
