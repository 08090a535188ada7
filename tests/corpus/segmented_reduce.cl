/* Segmented sum by warp with head flags: a segment starts at a flagged
 * element or at lane 0. The ballot of the heads gives each lane its
 * segment's first lane, __shfl_up_sync sums within the segment, and the
 * segment's last lane (the next lane is a head, or it is the warp's last)
 * writes the sum at the segment's first element. */
//! run: -g 128 -l 64 -a int[128]=(i*3)%7-2 -a int[128]=((i*i+i/3)%5)/4 -a out:int[128]=fill(0)

#include <clwarp/cuda.h>

__global__ void segmented_reduce(global const int *in, global const int *flags,
                                 global int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int head = flags[i] != 0 || lane == 0;

  unsigned int heads = __ballot_sync(0xffffffff, head);
  unsigned int upto = heads & ((2u << lane) - 1);  // the heads at lanes <= lane
  int start = 31 - __clz(upto);

  int v = in[i];
#pragma unroll
  for (int d = 1; d < warpSize; d *= 2) {
    int n = __shfl_up_sync(0xffffffff, v, d);
    if (lane - d >= start) v += n;
  }
  int next_head = __shfl_down_sync(0xffffffff, head, 1);
  if (lane == warpSize - 1 || next_head) out[i - lane + start] = v;
}
