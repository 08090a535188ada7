/* Port of shfl_scan_test, the block-wide inclusive prefix sum with warp
 * shuffles of NVIDIA's cuda-samples:
 *   NVIDIA/cuda-samples, Samples/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu
 *   (commit 306af8d2755e712ffcb0b16a585da61bd1956303), BSD-3-Clause:
 *
 * Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved.
 *
 * Redistribution and use in source and binary forms, with or without
 * modification, are permitted provided that the following conditions
 * are met:
 *  * Redistributions of source code must retain the above copyright
 *    notice, this list of conditions and the following disclaimer.
 *  * Redistributions in binary form must reproduce the above copyright
 *    notice, this list of conditions and the following disclaimer in the
 *    documentation and/or other materials provided with the distribution.
 *  * Neither the name of NVIDIA CORPORATION nor the names of its
 *    contributors may be used to endorse or promote products derived
 *    from this software without specific prior written permission.
 *
 * THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS ``AS IS'' AND ANY
 * EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
 * IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR
 * PURPOSE ARE DISCLAIMED.  IN NO EVENT SHALL THE COPYRIGHT OWNER OR
 * CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL,
 * EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO,
 * PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR
 * PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY
 * OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
 * (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
 * OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
 *
 * Each warp scans its values with __shfl_up_sync, the last lane of each warp
 * stores the warp's total in shared memory, warp 0 scans those totals, and every
 * warp adds the totals of the warps before it. The sample then scans the block
 * totals (partial_sums) with a second launch and adds them with uniform_add;
 * this file is the one kernel. docs/porting-cuda.md lists the changes.
 * 4 blocks of 64: data becomes the inclusive scan of each block, partial_sums
 * the four block totals. Warp 0 scans one total per lane, so a block may
 * have at most W warps: 64 holds from W = 8 (Mesa rusticl's width) up;
 * the sample's 128 would need W >= 12. */
//! run: -g 256 -l 64 -a out:int[256]=(i*7)%11-3 -a int:32 -a out:int[4] -a local:int[64]
//! expect[0]: -3 1 1 8 11 10 16 18 16 21 22 19 23 23 30 33 32 38 40 38 43 44 41 45 45 52 55 54 60 62 60 65 66 63 67 67 74 77 76 82 84 82 87 88 85 89 89 96 99 98 104 106 104 109 110 107 111 111 118 121 120 126 128 126 5 6 3 7 7 14 17 16 22 24 22 27 28 25 29 29 36 39 38 44 46 44 49 50 47 51 51 58 61 60 66 68 66 71 72 69 73 73 80 83 82 88 90 88 93 94 91 95 95 102 105 104 110 112 110 115 116 113 117 117 124 127 126 132 2 0 5 6 3 7 7 14 17 16 22 24 22 27 28 25 29 29 36 39 38 44 46 44 49 50 47 51 51 58 61 60 66 68 66 71 72 69 73 73 80 83 82 88 90 88 93 94 91 95 95 102 105 104 110 112 110 115 116 113 117 117 124 127 -1 5 7 5 10 11 8 12 12 19 22 21 27 29 27 32 33 30 34 34 41 44 43 49 51 49 54 55 52 56 56 63 66 65 71 73 71 76 77 74 78 78 85 88 87 93 95 93 98 99 96 100 100 107 110 109 115 117 115 120 121 118 122 122
//! expect[1]: 126 132 127 122

#include <clwarp/cuda.h>

__global__ void shfl_scan_test(global int *data, int width, global int *partial_sums,
			   local int *sums) {
  int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
  int lane_id = id % warpSize;
  // determine a warp_id within a block
  int warp_id = threadIdx.x / warpSize;

  // Below is the basic structure of using a shfl instruction
  // for a scan.
  // Record "value" as a variable - we accumulate it along the way
  int value = data[id];

  // Now accumulate in log steps up the chain
  // compute sums, with another thread's value who is
  // distance delta away (i).  Note
  // those threads where the thread 'i' away would have
  // been out of bounds of the warp are unaffected.  This
  // creates the scan sum.

#pragma unroll
  for (int i = 1; i <= width; i *= 2) {
    unsigned int mask = 0xffffffff;
    int n = __shfl_up_sync(mask, value, i, width);

    if (lane_id >= i) value += n;
  }

  // value now holds the scan value for the individual thread
  // next sum the largest values for each warp

  // write the sum of the warp to smem
  if (threadIdx.x % warpSize == warpSize - 1) {
    sums[warp_id] = value;
  }

  __syncthreads();

  //
  // scan sum the warp sums
  // the same shfl scan operation, but performed on warp sums
  //
  { // clwarp: every lane makes the shuffles (CUDA: lanes 0 .. nwarps-1 of warp 0
    // under a partial mask); the others scan zeros and store nothing.
    int scanner = warp_id == 0 && lane_id < (blockDim.x / warpSize);
    int warp_sum = scanner ? sums[lane_id] : 0;

    int mask = (1 << (blockDim.x / warpSize)) - 1;
    for (int i = 1; i <= (blockDim.x / warpSize); i *= 2) {
      int n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));

      if (lane_id >= i) warp_sum += n;
    }

    if (scanner) sums[lane_id] = warp_sum;
  }

  __syncthreads();

  // perform a uniform add across warps in the block
  // read neighbouring warp's sum and add it to threads value
  int blockSum = 0;

  if (warp_id > 0) {
    blockSum = sums[warp_id - 1];
  }

  value += blockSum;

  // Now write out our result
  data[id] = value;

  // last thread has sum, write write out the block's sum
  if (partial_sums != NULL && threadIdx.x == blockDim.x - 1) {
    partial_sums[blockIdx.x] = value;
  }
}
