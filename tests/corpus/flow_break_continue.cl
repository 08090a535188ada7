/* A loop without a condition that each warp leaves with `break` after its
 * own number of trips, skipping some trips with `continue`, with a
 * broadcast by __shfl_sync in the trips it makes. */
//! run: -g 128 -l 128 -a int[128]=(i*11)%13 -a out:int[128]

#include <clwarp/cuda.h>

__global__ void flow_break_continue(global const int *in, global int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int wid = threadIdx.x / warpSize;
  int v = in[i], acc = 0;
  for (int k = 0;; k++) {
    if (k == wid + 2)
      break;
    if ((k + wid) % 2 == 1)
      continue;
    acc += __shfl_sync(0xffffffff, v, k % warpSize);
  }
  out[i] = acc;
}
