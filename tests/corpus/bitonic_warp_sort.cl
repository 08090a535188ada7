/* Bitonic sort of each warp's values, ascending, with __shfl_xor_sync: at
 * stage k and distance j a lane keeps the min or the max of its value and its
 * partner's (lane ^ j), by the direction of its k-block. */
//! run: -g 128 -l 64 -a int[128]=(i*53)%97-40 -a out:int[128]

#include <clwarp/cuda.h>

__global__ void bitonic_warp_sort(global const int *in, global int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int v = in[i];
  for (int k = 2; k <= warpSize; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      int other = __shfl_xor_sync(0xffffffff, v, j);
      bool ascending = (lane & k) == 0;
      bool lower = (lane & j) == 0;
      v = (lower == ascending) ? min(v, other) : max(v, other);
    }
  }
  out[i] = v;
}
