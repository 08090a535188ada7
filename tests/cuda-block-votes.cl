/* The kernel of tests/test-cuda.c's test_block_votes: __syncthreads_count,
 * _and and _or through CUDA names alone, on blocks of any size and shape
 * (no warp function here, so a block need not be a multiple of W). */
#include <clwarp/cuda.h>

#define MAX_BLOCK 1024

/* A helper, as CUDA code writes one: on local, khr and intel the engine
 * passes it the scratch. Two calls in a row reuse it. */
__device__ int count_both(int p)
{
	int yes = __syncthreads_count(p);

	return yes + 1000 * __syncthreads_count(!p);
}

/* out[5 * g + f], g the work-item's linear id in the grid: f 0..2 the three
 * votes of pred[g], 3 count_both, 4 the value the block's mirror work-item
 * stored before the votes (each is a __syncthreads too). */
__global__ void block_votes(global const int *pred, global int *out)
{
	__shared__ int mirror[MAX_BLOCK];
	uint n = blockDim.x * blockDim.y;
	uint t = threadIdx.y * blockDim.x + threadIdx.x;
	uint g = (blockIdx.y * gridDim.x + blockIdx.x) * n + t;
	int p = pred[g];

	mirror[t] = (int)g;
	out[5 * g + 0] = __syncthreads_count(p);
	out[5 * g + 4] = mirror[n - 1u - t];
	out[5 * g + 1] = __syncthreads_and(p);
	out[5 * g + 2] = __syncthreads_or(p);
	out[5 * g + 3] = count_both(p);
}
