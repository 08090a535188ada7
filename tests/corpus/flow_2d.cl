/* A 2-D block of 32 x 4 threads: the rows at or past `active` leave early
 * (after marking their outputs), the others take their warp's maximum with
 * __reduce_max_sync. Warps count threads in x first, then y. */
//! run: -g 32,8 -l 32,4 -a int[256]=(i*37)%101-50 -a out:int[256] -a int:3

#include <clwarp/cuda.h>

__global__ void flow_2d(global const int *in, global int *out, int active) {
  int gid = (blockIdx.y * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (threadIdx.y >= active) {
    out[gid] = -1000;
    return;
  }
  out[gid] = __reduce_max_sync(0xffffffff, in[gid]);
}
