/* A do-while loop around a warp reduction whose trip count differs from
 * warp to warp: warp w makes (w % 3) + 1 rounds of "each lane takes the sum
 * of the other lanes" with __reduce_add_sync. */
//! run: -g 192 -l 64 -a int[192]=(i*7)%9-4 -a out:int[192]

#include <clwarp/cuda.h>

__global__ void flow_do_while(global const int *in, global int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int rounds = (i / warpSize) % 3;
  int v = in[i];
  do {
    v = __reduce_add_sync(0xffffffff, v) - v;
    rounds--;
  } while (rounds >= 0);
  out[i] = v;
}
