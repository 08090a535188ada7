/* A __device__ helper with shuffles called by the odd warps only: they
 * write their warp's max (__shfl_xor_sync), the even warps their own
 * value doubled, with no warp call. */
//! run: -g 128 -l 64 -a int[128]=(i*31)%43-20 -a out:int[128]

#include <clwarp/cuda.h>

__device__ int warpMax(int v) {
#pragma unroll
  for (int m = warpSize / 2; m > 0; m /= 2) v = max(v, __shfl_xor_sync(0xffffffff, v, m));
  return v;
}

__global__ void odd_warp_helper(global const int *in, global int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int wid = threadIdx.x / warpSize;
  int v = in[i];
  if (wid % 2 == 1)
    v = warpMax(v);
  else
    v = 2 * v;
  out[i] = v;
}
