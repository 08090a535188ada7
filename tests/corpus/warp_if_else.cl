/* `if/else` by warp id with warp calls on both sides: the even warps of a
 * block take an inclusive scan (__shfl_up_sync), the odd ones a max
 * (__shfl_xor_sync), each side its own number of shuffles. */
//! run: -g 128 -l 64 -a int[128]=(i*19)%29-14 -a out:int[128]

#include <clwarp/cuda.h>

__global__ void warp_if_else(global const int *in, global int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  int v = in[i];
  if (wid % 2 == 0) {
#pragma unroll
    for (int d = 1; d < warpSize; d *= 2) {
      int n = __shfl_up_sync(0xffffffff, v, d);
      if (lane >= d) v += n;
    }
  } else {
#pragma unroll
    for (int m = warpSize / 2; m > 0; m /= 2) v = max(v, __shfl_xor_sync(0xffffffff, v, m));
  }
  out[i] = v;
}
