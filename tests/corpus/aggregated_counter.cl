/* Warp-aggregated atomics: a filter keeps the src[i] divisible by 3. The warp
 * ballots its keepers, the lowest keeper makes one atomicAdd for all of
 * them, __shfl_sync hands the base to the warp, and each keeper adds its rank
 * (the keepers below it). Every lane makes the warp calls; only keepers store.
 * The order of the warps' atomics is the device's: dst's first count values
 * are checked as a set. */
//! run: -g 192 -l 64 -a int[192]=(i*11)%29 -a int:180 -a out:int[192]=fill(-1) -a out:int[1]=fill(0)

#include <clwarp/cuda.h>

__device__ int atomicAggInc(global int *ctr, bool keep) {
  int lane = threadIdx.x % warpSize;
  unsigned int mask = __ballot_sync(0xffffffff, keep);
  int leader = __ffs(mask) - 1;
  int base = 0;
  if (lane == leader) base = atomicAdd(ctr, __popc(mask));
  base = __shfl_sync(0xffffffff, base, leader < 0 ? 0 : leader);
  return base + __popc(mask & ((1u << lane) - 1));
}

__global__ void aggregated_counter(global const int *src, int n, global int *dst,
                                   global int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && src[i] % 3 == 0;
  int pos = atomicAggInc(count, keep);
  if (keep) dst[pos] = src[i];
}
