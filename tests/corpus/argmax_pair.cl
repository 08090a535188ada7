/* Argmax per warp: each lane holds (value, index) and the pairs go down the
 * warp with __shfl_down_sync, the larger value winning and, on a tie, the
 * smaller index. Lane 0 writes its warp's max and the index of its first
 * occurrence. The values repeat, so ties happen. */
//! run: -g 128 -l 64 -a int[128]=(i*37)%23 -a out:int[16]=fill(-1) -a out:int[16]=fill(-1)

#include <clwarp/cuda.h>

__global__ void argmax_pair(global const int *in, global int *best, global int *where) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int val = in[i];
  int idx = i;
#pragma unroll
  for (int o = warpSize / 2; o > 0; o /= 2) {
    int v = __shfl_down_sync(0xffffffff, val, o);
    int j = __shfl_down_sync(0xffffffff, idx, o);
    if (v > val || (v == val && j < idx)) {
      val = v;
      idx = j;
    }
  }
  if (lane == 0) {
    best[i / warpSize] = val;
    where[i / warpSize] = idx;
  }
}
