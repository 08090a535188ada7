/* A kernel of tests/test-cuda.c: CUDA's execution-model names through
 * <clwarp/cuda.h>. A program of its own: it makes no warp calls, so its 3-D
 * work-groups of 8 x 4 x 2 run where sub-groups follow dimension 0 only
 * (the warp contract is per program, and cuda-semantics.cl's kernels keep it). */
#include <clwarp/cuda.h>

#define N 64

/* The execution-model names on a 3-D launch, and __shared__ with
 * __syncthreads: each work-item reads the id its mirror stored. */
__global__ void names(global uint *out, global uint *mirror)
{
	__shared__ uint ids[N];
	uint t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	uint blk = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	uint g = blk * (blockDim.x * blockDim.y * blockDim.z) + t;
	uint3 v[4] = { threadIdx, blockIdx, blockDim, gridDim };

	for (int k = 0; k < 4; k++) {
		out[g * 12 + k * 3 + 0] = v[k].x;
		out[g * 12 + k * 3 + 1] = v[k].y;
		out[g * 12 + k * 3 + 2] = v[k].z;
	}
	ids[t] = g;
	__syncthreads();
	mirror[g] = ids[blockDim.x * blockDim.y * blockDim.z - 1u - t];
}
