/* Kernels of tests/test-cuda.c: every macro of <clwarp/cuda.h>, through the
 * CUDA names alone, on one work-group of 64 (a CUDA block of 64). Lane l's
 * shuffle operand is a + b * l; width 0 asks for the forms without a width. */
#include <clwarp/cuda.h>

#define FULL 0xffffffffu
#define N 64

/* out[f * N + i]: f = 2 * op + (with width), op 0..3 = shfl, up, down, xor;
 * f 8..15 the same through the forms before CUDA 9. */
__global__ void shuffles(global const int *v, int a, int b, int width, global int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x % warpSize;
	int x = v[i], arg = a + b * lane, w = width ? width : warpSize;

	out[0 * N + i] = __shfl_sync(FULL, x, arg);
	out[1 * N + i] = __shfl_sync(FULL, x, arg, w);
	out[2 * N + i] = __shfl_up_sync(FULL, x, (unsigned)arg);
	out[3 * N + i] = __shfl_up_sync(FULL, x, (unsigned)arg, w);
	out[4 * N + i] = __shfl_down_sync(FULL, x, (unsigned)arg);
	out[5 * N + i] = __shfl_down_sync(FULL, x, (unsigned)arg, w);
	out[6 * N + i] = __shfl_xor_sync(FULL, x, arg);
	out[7 * N + i] = __shfl_xor_sync(FULL, x, arg, w);
	out[8 * N + i] = __shfl(x, arg);
	out[9 * N + i] = __shfl(x, arg, w);
	out[10 * N + i] = __shfl_up(x, (unsigned)arg);
	out[11 * N + i] = __shfl_up(x, (unsigned)arg, w);
	out[12 * N + i] = __shfl_down(x, (unsigned)arg);
	out[13 * N + i] = __shfl_down(x, (unsigned)arg, w);
	out[14 * N + i] = __shfl_xor(x, arg);
	out[15 * N + i] = __shfl_xor(x, arg, w);
}

/* A helper as CUDA writes one: the engine passes the warp context. */
__device__ __forceinline__ int uniform(int p) { return __uni_sync(__activemask(), p); }

/* Votes, masks, reductions and block counts of predicate p, values x
 * (signed) and u (bits); fields in the order of tests/cuda-semantics.h. */
__global__ void votes(global const int *p, global const int *x, global const uint *u,
		      global long *out)
{
	int i = threadIdx.x;
	int pr = p[i], xv = x[i], pred = -1;
	uint uv = u[i];

	out[0 * N + i] = (long)__ballot_sync(FULL, pr);
	out[1 * N + i] = __any_sync(FULL, pr);
	out[2 * N + i] = __all_sync(FULL, pr);
	out[3 * N + i] = uniform(pr);
	out[4 * N + i] = (long)__activemask();
	out[5 * N + i] = (long)__match_any_sync(FULL, xv);
	out[6 * N + i] = (long)__match_all_sync(FULL, xv, &pred);
	out[7 * N + i] = pred;
	out[8 * N + i] = __reduce_add_sync(FULL, xv);
	out[9 * N + i] = __reduce_min_sync(FULL, xv);
	out[10 * N + i] = __reduce_max_sync(FULL, xv);
	out[11 * N + i] = __reduce_and_sync(FULL, uv);
	out[12 * N + i] = __reduce_or_sync(FULL, uv);
	out[13 * N + i] = __reduce_xor_sync(FULL, uv);
	out[14 * N + i] = __syncthreads_count(pr);
	out[15 * N + i] = __syncthreads_and(pr);
	out[16 * N + i] = __syncthreads_or(pr);
	out[17 * N + i] = warpSize;
	out[18 * N + i] = (long)__ballot(pr);
	out[19 * N + i] = __any(pr);
	out[20 * N + i] = __all(pr);
}
