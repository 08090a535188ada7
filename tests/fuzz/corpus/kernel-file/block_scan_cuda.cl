/* Block-wide inclusive prefix sum in CUDA style: each warp scans its values
 * with __shfl_up_sync, the last lane of each warp stores the warp's total in
 * shared memory, and each warp scans those totals itself (one per lane) and
 * adds the totals of the warps before it, read with __shfl_sync. Every warp
 * makes the same calls: no warp waits under a branch for another.
 * 4 blocks of 64: out is each block's scan, block_total each block's sum.
 * A block may hold at most W warps (8 at W = 8), which warp_total[] holds.
 * The mask 0xffffffff names 32 lanes: W <= 32. */
//! run: -g 256 -l 64 -a int[256]=(i*5)%13-4 -a out:int[256] -a out:int[4] -a local:int[8]
//! expect[0]: -4 -3 3 1 4 12 12 17 14 16 23 22 26 22 23 29 27 30 38 38 43 40 42 49 48 52 48 49 55 53 56 64 64 69 66 68 75 74 78 74 75 81 79 82 90 90 95 92 94 101 100 104 100 101 107 105 108 116 116 121 118 120 127 126 4 0 1 7 5 8 16 16 21 18 20 27 26 30 26 27 33 31 34 42 42 47 44 46 53 52 56 52 53 59 57 60 68 68 73 70 72 79 78 82 78 79 85 83 86 94 94 99 96 98 105 104 108 104 105 111 109 112 120 120 125 122 124 131 -1 3 -1 0 6 4 7 15 15 20 17 19 26 25 29 25 26 32 30 33 41 41 46 43 45 52 51 55 51 52 58 56 59 67 67 72 69 71 78 77 81 77 78 84 82 85 93 93 98 95 97 104 103 107 103 104 110 108 111 119 119 124 121 123 7 6 10 6 7 13 11 14 22 22 27 24 26 33 32 36 32 33 39 37 40 48 48 53 50 52 59 58 62 58 59 65 63 66 74 74 79 76 78 85 84 88 84 85 91 89 92 100 100 105 102 104 111 110 114 110 111 117 115 118 126 126 131 128
//! expect[1]: 126 131 123 128

#include <clwarp/cuda.h>

__device__ int warp_inclusive_scan(int v) {
  int lane = threadIdx.x % warpSize;
#pragma unroll
  for (int d = 1; d < warpSize; d *= 2) {
    int up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

__global__ void block_scan(global const int *in, global int *out, global int *block_total,
                           local int *warp_total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;
  int nwarps = blockDim.x / warpSize;

  int v = warp_inclusive_scan(in[i]);
  if (lane == warpSize - 1) warp_total[wid] = v;
  __syncthreads();

  int t = warp_inclusive_scan(lane < nwarps ? warp_total[lane] : 0);
  int before = __shfl_sync(0xffffffff, t, wid > 0 ? wid - 1 : 0);
  if (wid > 0) v += before;

  out[i] = v;
  if (threadIdx.x == blockDim.x - 1) block_total[blockIdx.x] = v;
}
