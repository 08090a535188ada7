/* Stream compaction by ballot: each warp compacts its own segment. The
 * ballot of the predicate gives each kept lane its slot (popc of the lanes
 * below it) and the warp's count; kept values go to the front of the warp's
 * segment of out, the count to counts[warp]. */
//! run: -g 128 -l 64 -a int[128]=(i*29)%41-20 -a out:int[128]=fill(0) -a out:int[16]=fill(-1)

#include <clwarp/cuda.h>

__global__ void ballot_compact(global const int *in, global int *out, global int *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int warp = i / warpSize;
  int v = in[i];
  bool keep = v > 0;

  unsigned int ballot = __ballot_sync(0xffffffff, keep);
  int slot = __popc(ballot & ((1u << lane) - 1));
  if (keep) out[warp * warpSize + slot] = v;
  if (lane == 0) counts[warp] = __popc(ballot);
}
