/* A grid-stride loop over chunks of warpSize values (trip counts differ
 * from warp to warp), and inside it a warp-uniform if/else on __any_sync:
 * a chunk with a negative value adds its sum (a __shfl_down_sync loop), any
 * other chunk its maximum in odd warps and its minimum in even ones (a ?:
 * by warp between __reduce_max_sync and __reduce_min_sync). */
//! run: -g 128 -l 64 -a int[1000]=(i*13)%41-3 -a out:int[4]=fill(7) -a int:1000

#include <clwarp/cuda.h>

__global__ void flow_nested(global const int *in, global int *out, int n) {
  int lane = threadIdx.x % warpSize;
  int gw = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int nw = gridDim.x * blockDim.x / warpSize;
  int total = 0;
#pragma unroll 2
  for (int base = gw * warpSize; base < n; base += nw * warpSize) {
    int v = base + lane < n ? in[base + lane] : 0;
    if (__any_sync(0xffffffff, v < 0)) {
      _Pragma("unroll")
      for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o);
      total += lane == 0 ? v : 0;
    } else {
      int m = gw % 2 ? __reduce_max_sync(0xffffffff, v) : __reduce_min_sync(0xffffffff, v);
      total += lane == 0 ? m : 0;
    }
  }
  if (lane == 0 && gw < 4)
    out[gw] = total;
}
