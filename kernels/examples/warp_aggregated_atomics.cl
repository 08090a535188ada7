/* Port of the warp-aggregated atomic increment (atomicAggInc) and the filter
 * kernel of NVIDIA's "CUDA Pro Tip: Optimized Filtering with Warp-Aggregated
 * Atomics" (A. Adinetz, https://developer.nvidia.com/blog/cuda-pro-tip-optimized-filtering-warp-aggregated-atomics/).
 * The helpers lane_id, warp_bcast and atomicAggInc are those of
 *   AlanIWBFT/GPULightmass, GPULightmassKernel/rt/rtWarpAggregation.h
 *   (commit 6581117f8780033f10cd1e4ec60d92a2b1e0bc27), MIT licence:
 *
 * Copyright (c) 2019 Yujiang Wang.
 *
 * Permission is hereby granted, free of charge, to any person obtaining a copy
 * of this software and associated documentation files (the "Software"), to deal
 * in the Software without restriction, including without limitation the rights
 * to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 * copies of the Software, and to permit persons to whom the Software is
 * furnished to do so, subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be included in all
 * copies or substantial portions of the Software.
 *
 * THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 * IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 * FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 * AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 * LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 * OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 * SOFTWARE.
 *
 * filter_k copies the positive src[i], i < n, to dst: one atomic per warp on
 * the counter, each lane's slot = the warp's base + the passing lanes below it.
 * In CUDA only the passing lanes call atomicAggInc (__activemask() is the set
 * of passing lanes); here every lane must call the warp functions, so every
 * lane calls atomicAggInc with its predicate and the ballot counts the
 * passing ones. docs/porting-cuda.md lists the changes.
 * Which warp's atomic comes first is up to the device, so the input repeats
 * every 16 elements: every warp that passes anything passes the same values,
 * and dst is the same in any order. Elements 64..79 are negative, 80..95
 * lie past n = 80: the warps holding them pass nothing (an empty ballot). */
//! run: -g 96 -l 32 -a out:int[96]=fill(-1) -a out:int[1]=fill(0) -a int[96]=-3,2,-2,3,-1,4,0,5,1,-3,2,-2,3,-1,4,0,-3,2,-2,3,-1,4,0,5,1,-3,2,-2,3,-1,4,0,-3,2,-2,3,-1,4,0,5,1,-3,2,-2,3,-1,4,0,-3,2,-2,3,-1,4,0,5,1,-3,2,-2,3,-1,4,0,-5,-1,-2,-3,-4,-5,-1,-2,-3,-4,-5,-1,-2,-3,-4,-5,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25 -a int:80
//! expect[0]: 2 3 4 5 1 2 3 4 2 3 4 5 1 2 3 4 2 3 4 5 1 2 3 4 2 3 4 5 1 2 3 4 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1
//! expect[1]: 32

#include <clwarp/cuda.h>

#define WARP_SZ warpSize

__device__ inline int lane_id(void) { return (threadIdx.y * blockDim.x + threadIdx.x) % WARP_SZ; }

__device__ int warp_bcast(int v, int leader) { return __shfl_sync(__activemask(), v, leader); }

// warp-aggregated atomic increment
__device__ int atomicAggInc(global int *ctr, int pred) {
	int mask = __ballot_sync(__activemask(), pred);
	// select the leader
	int leader = __ffs(mask) - 1;
	// leader does the update
	int res = 0;
	if (lane_id() == leader)
		res = atomicAdd(ctr, __popc(mask));
	// broadcast result
	res = warp_bcast(res, leader);
	// each thread computes its own value
	return res + __popc(mask & ((1u << lane_id()) - 1));
} // atomicAggInc

__global__ void filter_k(global int *dst, global int *nres, global const int *src, int n) {
	int i = threadIdx.x + blockIdx.x * blockDim.x;
	int pred = i < n && src[i] > 0;
	int pos = atomicAggInc(nres, pred);
	if (pred)
		dst[pos] = src[i];
}
