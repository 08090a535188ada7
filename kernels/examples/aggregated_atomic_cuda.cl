/* Warp-aggregated atomics in CUDA style: a filter that keeps the positive
 * src[i], i < n. Instead of one atomicAdd per kept element, each warp makes
 * one: the ballot of the lanes that keep, its lowest lane reserves popc(ballot)
 * slots, a shuffle hands the base to the warp, and each keeping lane adds the
 * number of keeping lanes below it.
 * Every lane calls warp_reserve (a lane that keeps nothing passes 0), as the
 * warp contract asks. Which warp reserves first is the device's choice, so
 * the input repeats every 8 elements: every warp that keeps anything keeps the
 * same values at W = 8, 16, 32, and dst is the same in any order. Elements
 * 64..95 are negative and 96..127 lie past n: those warps keep nothing (an
 * empty ballot). The mask 0xffffffff names 32 lanes: W <= 32. */
//! run: -g 128 -l 64 -a int[128]=-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-3,2,-2,3,-1,4,0,5,-1,-2,-3,-4,-5,-6,-7,-8,-1,-2,-3,-4,-5,-6,-7,-8,-1,-2,-3,-4,-5,-6,-7,-8,-1,-2,-3,-4,-5,-6,-7,-8,9,10,11,12,13,14,15,16,9,10,11,12,13,14,15,16,9,10,11,12,13,14,15,16,9,10,11,12,13,14,15,16 -a int:96 -a out:int[128]=fill(-1) -a out:int[1]=fill(0)
//! expect[0]: 2 3 4 5 2 3 4 5 2 3 4 5 2 3 4 5 2 3 4 5 2 3 4 5 2 3 4 5 2 3 4 5 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1
//! expect[1]: 32

#include <clwarp/cuda.h>

// The first of this lane's slots among the warp's reservation on counter.
__device__ int warp_reserve(global int *counter, int keep) {
  int lane = threadIdx.x % warpSize;
  unsigned int ballot = __ballot_sync(0xffffffff, keep);
  int leader = ballot ? __ffs(ballot) - 1 : 0;
  int base = 0;
  if (lane == leader && ballot)
    base = atomicAdd(counter, __popc(ballot));
  base = __shfl_sync(0xffffffff, base, leader);
  return base + __popc(ballot & ((1u << lane) - 1));
}

__global__ void keep_positive(global const int *src, int n, global int *dst,
                              global int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int keep = i < n && src[i] > 0;
  int slot = warp_reserve(count, keep);
  if (keep)
    dst[slot] = src[i];
}
