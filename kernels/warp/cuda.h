/* <clwarp/cuda.h>: CUDA's warp intrinsics over the libclwarp warp API, for
 * kernels ported from CUDA. The engine serves this file to
 * `#include <clwarp/cuda.h>`; no file is needed on disk.
 *
 * Masks: the whole warp must take part in every call, as everywhere in the
 * warp API (docs/porting-cuda.md says what a partial mask does). The mask
 * argument is evaluated and otherwise ignored. */
#ifndef CLWARP_CUDA_H
#define CLWARP_CUDA_H

/* A constant, as CUDA code uses it in array sizes. */
#define warpSize ((int)CLWARP_WARP_SIZE)

/* The optional width of CUDA's shuffles is the warp API's optional width. */
#define __shfl_sync(mask, var, ...) ((void)(mask), warp_shuffle((var), __VA_ARGS__))
#define __shfl_up_sync(mask, var, ...) ((void)(mask), warp_shuffle_up((var), __VA_ARGS__))
#define __shfl_down_sync(mask, var, ...) ((void)(mask), warp_shuffle_down((var), __VA_ARGS__))
#define __shfl_xor_sync(mask, var, ...) ((void)(mask), warp_shuffle_xor((var), __VA_ARGS__))

/* CUDA's ballot is 32 bits; on a 64-wide warp it keeps all 64. */
#if CLWARP_WARP_SIZE <= 32
#define __ballot_sync(mask, pred) ((void)(mask), (uint)warp_ballot(pred))
#define __activemask() ((uint)CLWARP_FULL_BALLOT)
#else
#define __ballot_sync(mask, pred) ((void)(mask), warp_ballot(pred))
#define __activemask() CLWARP_FULL_BALLOT
#endif
#define __all_sync(mask, pred) ((void)(mask), warp_all(pred))
#define __any_sync(mask, pred) ((void)(mask), warp_any(pred))
#define __uni_sync(mask, pred) ((void)(mask), warp_match_all((int)((pred) != 0)))
#define __syncwarp(...) warp_barrier()

#define __reduce_add_sync(mask, value) ((void)(mask), warp_reduce_add(value))
#define __reduce_min_sync(mask, value) ((void)(mask), warp_reduce_min(value))
#define __reduce_max_sync(mask, value) ((void)(mask), warp_reduce_max(value))
#define __reduce_and_sync(mask, value) ((void)(mask), warp_reduce_and(value))
#define __reduce_or_sync(mask, value) ((void)(mask), warp_reduce_or(value))
#define __reduce_xor_sync(mask, value) ((void)(mask), warp_reduce_xor(value))

#if CLWARP_WARP_SIZE <= 32
#define __match_any_sync(mask, value) ((void)(mask), (uint)warp_match_any(value))
#define __match_all_sync(mask, value, pred) \
	((void)(mask), *(pred) = warp_match_all(value), *(pred) ? (uint)CLWARP_FULL_BALLOT : 0u)
#else
#define __match_any_sync(mask, value) ((void)(mask), warp_match_any(value))
#define __match_all_sync(mask, value, pred) \
	((void)(mask), *(pred) = warp_match_all(value), *(pred) ? CLWARP_FULL_BALLOT : 0ul)
#endif

/* Integer intrinsics (CUDA's int results; OpenCL C 1.2 has no ctz). */
#define __popc(x) ((int)popcount((uint)(x)))
#define __popcll(x) ((int)popcount((ulong)(x)))
#define __clz(x) ((int)clz((uint)(x)))
#define __clzll(x) ((int)clz((ulong)(x)))
#define __ffs(x) clwarp_cuda_ffs((uint)(x))
#define __ffsll(x) clwarp_cuda_ffsll((ulong)(x))
#define __brev(x) clwarp_cuda_brev((uint)(x))
#define __brevll(x) clwarp_cuda_brevll((ulong)(x))

/* 1 + the index of the lowest set bit, 0 for 0. */
CLWARP_INLINE int clwarp_cuda_ffs(uint x) { return x ? (int)popcount((x & (0u - x)) - 1u) + 1 : 0; }
CLWARP_INLINE int clwarp_cuda_ffsll(ulong x) { return x ? (int)popcount((x & (0ul - x)) - 1ul) + 1 : 0; }

/* A loop, not the shift-and-mask ladder: LLVM turns the ladder into
 * llvm.bitreverse, which Oclgrind 21.10 cannot run. nv has brev.b32. */
CLWARP_INLINE uint clwarp_cuda_brev(uint x)
{
#ifdef CLWARP_BACKEND_NV
	uint r;
	asm("brev.b32 %0, %1;" : "=r"(r) : "r"(x));
	return r;
#else
	uint r = 0u;
	for (uint i = 0u; i < 32u; i++, x >>= 1)
		r = (r << 1) | (x & 1u);
	return r;
#endif
}

CLWARP_INLINE ulong clwarp_cuda_brevll(ulong x)
{
	return ((ulong)clwarp_cuda_brev((uint)x) << 32) | clwarp_cuda_brev((uint)(x >> 32));
}

#endif
