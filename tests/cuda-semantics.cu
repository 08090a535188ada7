/* CUDA's own results for the table of tests/cuda-semantics.h: every shuffle
 * with every operand and width, and every vote, mask, reduction and block
 * count under every pattern, one block of 64 threads. tests/test-cuda.c
 * holds its host model to this output when tests/data/cuda-semantics.txt
 * exists. Build and run on an NVIDIA GPU (sm_70 or later; sm_80+ for
 * __reduce_*_sync):
 *
 *   mkdir -p tests/data
 *   nvcc -O2 -arch=sm_90 -o /tmp/cuda-semantics tests/cuda-semantics.cu
 *   /tmp/cuda-semantics > tests/data/cuda-semantics.txt
 *
 * Output: comment lines (#), then one line per shuffle
 *   shfl OP a b width: v0 ... v63
 * and one per vote field and pattern
 *   vote FIELD k: v0 ... v63  */
/* SPDX-License-Identifier: MIT */
#include <cstdio>
#include <cstdlib>

#include "cuda-semantics.h"

#define FULL 0xffffffffu
#define CHECK(call) \
	do { \
		cudaError_t e_ = (call); \
		if (e_ != cudaSuccess) { \
			fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_)); \
			exit(1); \
		} \
	} while (0)

/* The same calls as tests/cuda-semantics.cl's shuffles kernel (the _sync
 * forms; the older ones do not exist for sm_70+). */
__global__ void shuffles(const int *v, int a, int b, int width, int *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int lane = threadIdx.x % warpSize;
	int x = v[i], arg = a + b * lane, w = width ? width : warpSize;

	out[0 * CS_N + i] = __shfl_sync(FULL, x, arg);
	out[1 * CS_N + i] = __shfl_sync(FULL, x, arg, w);
	out[2 * CS_N + i] = __shfl_up_sync(FULL, x, (unsigned)arg);
	out[3 * CS_N + i] = __shfl_up_sync(FULL, x, (unsigned)arg, w);
	out[4 * CS_N + i] = __shfl_down_sync(FULL, x, (unsigned)arg);
	out[5 * CS_N + i] = __shfl_down_sync(FULL, x, (unsigned)arg, w);
	out[6 * CS_N + i] = __shfl_xor_sync(FULL, x, arg);
	out[7 * CS_N + i] = __shfl_xor_sync(FULL, x, arg, w);
}

__global__ void votes(const int *p, const int *x, const unsigned *u, long long *out)
{
	int i = threadIdx.x;
	int pr = p[i], xv = x[i], pred = -1;
	unsigned uv = u[i];

	out[0 * CS_N + i] = __ballot_sync(FULL, pr);
	out[1 * CS_N + i] = __any_sync(FULL, pr);
	out[2 * CS_N + i] = __all_sync(FULL, pr);
	out[3 * CS_N + i] = __uni_sync(FULL, pr);
	out[4 * CS_N + i] = __activemask();
	out[5 * CS_N + i] = __match_any_sync(FULL, xv);
	out[6 * CS_N + i] = __match_all_sync(FULL, xv, &pred);
	out[7 * CS_N + i] = pred;
	out[8 * CS_N + i] = __reduce_add_sync(FULL, xv);
	out[9 * CS_N + i] = __reduce_min_sync(FULL, xv);
	out[10 * CS_N + i] = __reduce_max_sync(FULL, xv);
	out[11 * CS_N + i] = __reduce_and_sync(FULL, uv);
	out[12 * CS_N + i] = __reduce_or_sync(FULL, uv);
	out[13 * CS_N + i] = __reduce_xor_sync(FULL, uv);
	out[14 * CS_N + i] = __syncthreads_count(pr);
	out[15 * CS_N + i] = __syncthreads_and(pr);
	out[16 * CS_N + i] = __syncthreads_or(pr);
	out[17 * CS_N + i] = warpSize;
}

int main(void)
{
	int host_v[CS_N], host_out[8 * CS_N], host_p[CS_N], host_x[CS_N];
	unsigned host_u[CS_N];
	long long host_votes[CS_CUDA_VOTE_FIELDS * CS_N];
	int *v, *out, *p, *x;
	unsigned *u;
	long long *vo;
	cudaDeviceProp prop;
	int runtime = 0;

	CHECK(cudaGetDeviceProperties(&prop, 0));
	CHECK(cudaRuntimeGetVersion(&runtime));
	printf("# tests/cuda-semantics.cu on %s (sm_%d%d), CUDA runtime %d\n", prop.name, prop.major,
	       prop.minor, runtime);
	for (int i = 0; i < CS_N; i++)
		host_v[i] = cs_value(i);
	CHECK(cudaMalloc(&v, sizeof(host_v)));
	CHECK(cudaMalloc(&out, sizeof(host_out)));
	CHECK(cudaMalloc(&p, sizeof(host_p)));
	CHECK(cudaMalloc(&x, sizeof(host_x)));
	CHECK(cudaMalloc(&u, sizeof(host_u)));
	CHECK(cudaMalloc(&vo, sizeof(host_votes)));
	CHECK(cudaMemcpy(v, host_v, sizeof(host_v), cudaMemcpyHostToDevice));
	for (int w = 0; w < CS_WIDTHS; w++) {
		for (int k = 0; k < CS_ARGS; k++) {
			shuffles<<<1, CS_N>>>(v, cs_args[k].a, cs_args[k].b, cs_widths[w], out);
			CHECK(cudaGetLastError());
			CHECK(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost));
			/* Field 2 op + 1 is the call with the width; width 0 prints
			 * the form without one (field 2 op). */
			for (int op = 0; op < CS_SHFL_OPS; op++) {
				const int *f = host_out + (2 * op + (cs_widths[w] != 0)) * CS_N;
				printf("shfl %s %d %d %d:", cs_shfl_names[op], cs_args[k].a, cs_args[k].b,
				       cs_widths[w]);
				for (int i = 0; i < CS_N; i++)
					printf(" %d", f[i]);
				printf("\n");
			}
		}
	}
	for (int k = 0; k < CS_PATTERNS; k++) {
		for (int i = 0; i < CS_N; i++) {
			host_p[i] = cs_pred(k, i);
			host_x[i] = cs_x(k, i);
			host_u[i] = cs_u(k, i);
		}
		CHECK(cudaMemcpy(p, host_p, sizeof(host_p), cudaMemcpyHostToDevice));
		CHECK(cudaMemcpy(x, host_x, sizeof(host_x), cudaMemcpyHostToDevice));
		CHECK(cudaMemcpy(u, host_u, sizeof(host_u), cudaMemcpyHostToDevice));
		votes<<<1, CS_N>>>(p, x, u, vo);
		CHECK(cudaGetLastError());
		CHECK(cudaMemcpy(host_votes, vo, sizeof(host_votes), cudaMemcpyDeviceToHost));
		for (int f = 0; f < CS_CUDA_VOTE_FIELDS; f++) {
			printf("vote %s %d:", cs_vote_fields[f].name, k);
			for (int i = 0; i < CS_N; i++)
				printf(" %lld", host_votes[f * CS_N + i]);
			printf("\n");
		}
	}
	return 0;
}
