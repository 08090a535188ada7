/* A kernel of tests/test-cuda-port.c: CUDA code that ports with no edit
 * beyond the address spaces of its pointer parameters. `long long` values
 * through the shuffles, match, reduction and ballot; <stdint.h>'s types as
 * kernel parameters; make_<type>N; a static kernel with __launch_bounds__;
 * __CUDA_ARCH__; a static __shared__ array in a nested block; and a template in an
 * #if branch that is left out. */
#include <clwarp/cuda.h>

#define FULL 0xffffffffu
#define FIELDS 16

#if __CUDA_ARCH__ >= 700
#define ARCH_PATH 1
#else
#define ARCH_PATH 0
#endif

#ifdef __cplusplus
template <typename T>
__device__ T warp_max(T x)
{
	return __reduce_max_sync(FULL, x);
}
#else
__device__ long long warp_max(long long x)
{
	return __reduce_max_sync(FULL, x);
}
#endif

static __global__ void __launch_bounds__(256) port(global const int *in, global long long *out,
						    int32_t scale, uint64_t add, int8_t bias)
{
	unsigned int t = threadIdx.x + blockIdx.x * blockDim.x;
	int32_t v = in[t];
	unsigned long long big = ((unsigned long long)(uint32_t)v << 32) | t;
	long long sv = (long long)v * scale - 5LL;
	global long long *o = out + (size_t)t * FIELDS;
	long long mirror = 0;

	if (threadIdx.x < blockDim.x) {
		static __shared__ long long tile[256];

		tile[threadIdx.x] = sv;
		__syncthreads();
		mirror = tile[blockDim.x - 1 - threadIdx.x];
	}
#ifdef __cplusplus
	long long top = warp_max<long long>(sv);
#else
	long long top = warp_max(sv);
#endif
	float2 f2 = make_float2(v, t);
	int4 i4 = make_int4(v, t, 3, 4.75f);
	uchar4 u4 = make_uchar4(v, 1, 2, 3);
	longlong2 l2 = make_longlong2(sv, big);

	o[0] = (long long)__shfl_sync(FULL, big, 0);
	o[1] = __shfl_xor_sync(FULL, sv, 1);
	o[2] = (long long)__shfl_down_sync(FULL, big, 1);
	o[3] = __shfl_up_sync(FULL, sv, 1);
	o[4] = (long long)__match_any_sync(FULL, (unsigned long long)(v & 3));
	o[5] = top;
	o[6] = (long long)__ballot_sync(FULL, sv & 4LL);
	o[7] = mirror;
	o[8] = __CUDA_ARCH__ * 10 + ARCH_PATH;
	o[9] = (long long)(add + 1ull) + (long long)scale * 2LL;
	o[10] = (int8_t)v + (uint16_t)v * 1000LL + bias;
	o[11] = (long long)(f2.x * 2.0f + f2.y);
	o[12] = i4.x + i4.y * 10LL + i4.z * 100LL + i4.w * 1000LL;
	o[13] = u4.x + u4.w * 1000LL;
	o[14] = l2.y + (long long)sizeof(long long) * 1000000LL;
	o[15] = (long long)(int16_t)v * (uint8_t)v;
}
