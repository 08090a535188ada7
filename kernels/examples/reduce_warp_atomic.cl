/* Port of device_reduce_warp_atomic_kernel and warpReduceSum, the
 * Kepler-era (pre-CUDA 9, __shfl_down) warp reduction of NVIDIA's "Faster
 * Parallel Reductions on Kepler" (J. Luitjens):
 *   NVIDIA-developer-blog/code-samples, posts/parallel_reduction_with_shfl/
 *   device_reduce_warp_atomic.h and warp_reduce.h
 *   (commit 1c96aecd493aad0a8d1b4b64ddf12bc430af63c2), BSD-3-Clause:
 *
 * Copyright (c) 1993-2015, NVIDIA CORPORATION. All rights reserved.
 *
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
 * Every thread sums a grid-stride slice of in, each warp reduces its sums with
 * __shfl_down, and lane 0 of each warp adds the warp's total to out. The code
 * below is the original's but for the kernel's pointer parameters, which
 * need an address space (docs/porting-cuda.md); the engine reads its C++
 * cast int(0) as (int)(0). 2 blocks of 256 over 1000
 * values; out starts at 0 (the original's cudaMemsetAsync). */
//! run: -g 512 -l 256 -a int[1000]=(i*7)%11-3 -a out:int[1]=fill(0) -a int:1000
//! expect[0]: 2001

#include <clwarp/cuda.h>

__inline__ __device__
int warpReduceSum(int val) {
  for (int offset = warpSize/2; offset > 0; offset /= 2)
    val += __shfl_down(val,offset);
  return val;
}

__global__ void device_reduce_warp_atomic_kernel(global int *in, global int* out, int N) {
  int sum=int(0);
  for(int i=blockIdx.x*blockDim.x+threadIdx.x;i<N;i+=blockDim.x*gridDim.x) {
    sum+=in[i];
  }
  sum=warpReduceSum(sum);
  if(threadIdx.x%warpSize==0)
    atomicAdd(out,sum);
}
