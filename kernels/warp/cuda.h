/* <clwarp/cuda.h>: CUDA's warp intrinsics over the libclwarp warp API, with
 * CUDA's execution-model names, atomics, float math and integer intrinsics,
 * for kernels ported from CUDA. The engine serves this file to `#include <clwarp/cuda.h>`; no file
 * is needed on disk.
 *
 * The shuffles follow CUDA's rules, not the warp API's where the two differ
 * (an xor into an earlier segment, operands of W or more); the mask argument
 * must name the whole warp (docs/porting-cuda.md: a constant partial mask
 * fails the build where the compiler has diagnose_if; a run-time one is not
 * checked). */
#ifndef CLWARP_CUDA_H
#define CLWARP_CUDA_H

/* A constant, as CUDA code uses it in array sizes. */
#define warpSize ((int)CLWARP_WARP_SIZE)

/* __CUDA_ARCH__: every backend gives the _sync forms their meaning (the
 * whole warp takes part), so code under `#if __CUDA_ARCH__ >= 700` is the
 * right path. nv: the device's own compute capability (sm_90: 900) where
 * the driver tells it; every other backend: 700. -D__CUDA_ARCH__=N wins. */
#ifndef __CUDA_ARCH__
#if defined(CLWARP_BACKEND_NV) && defined(CLWARP_NV_SM) && CLWARP_NV_SM > 0
#define __CUDA_ARCH__ (CLWARP_NV_SM * 10)
#else
#define __CUDA_ARCH__ 700
#endif
#endif

/* <stdint.h>'s exact-width types, as CUDA's 64-bit targets have them. The
 * small ones are pasted, so that the header alone names no extension type
 * (source.h, types_named); a program that names int8_t gets char's warp
 * functions, and so on. `long long` is 64 bits in both: in a
 * program that includes this header the engine reads it as `long`. */
#define CLWARP_CUDA_PASTE(a, b) a##b
typedef CLWARP_CUDA_PASTE(ch, ar) CLWARP_CUDA_PASTE(int8, _t);
typedef CLWARP_CUDA_PASTE(uch, ar) CLWARP_CUDA_PASTE(uint8, _t);
typedef CLWARP_CUDA_PASTE(sh, ort) CLWARP_CUDA_PASTE(int16, _t);
typedef CLWARP_CUDA_PASTE(ush, ort) CLWARP_CUDA_PASTE(uint16, _t);
typedef int int32_t;
typedef uint uint32_t;
typedef long int64_t;
typedef ulong uint64_t;

/* CUDA's names of the 64-bit vectors, pasted as above. */
typedef CLWARP_CUDA_PASTE(long, 2) CLWARP_CUDA_PASTE(longlong, 2);
typedef CLWARP_CUDA_PASTE(long, 3) CLWARP_CUDA_PASTE(longlong, 3);
typedef CLWARP_CUDA_PASTE(long, 4) CLWARP_CUDA_PASTE(longlong, 4);
typedef CLWARP_CUDA_PASTE(ulong, 2) CLWARP_CUDA_PASTE(ulonglong, 2);
typedef CLWARP_CUDA_PASTE(ulong, 3) CLWARP_CUDA_PASTE(ulonglong, 3);
typedef CLWARP_CUDA_PASTE(ulong, 4) CLWARP_CUDA_PASTE(ulonglong, 4);

/* make_float2(x, y) and its kin: OpenCL C's vector literals, each element
 * converted to the element type as CUDA's parameters convert it. Macros,
 * with the type name pasted (see above). CUDA's 3-element vectors are 3
 * elements wide in memory, OpenCL's take the room of 4 (docs/porting-cuda.md). */
#define CLWARP_CUDA_MAKE2(T, x, y) ((CLWARP_CUDA_PASTE(T, 2))((T)(x), (T)(y)))
#define CLWARP_CUDA_MAKE3(T, x, y, z) ((CLWARP_CUDA_PASTE(T, 3))((T)(x), (T)(y), (T)(z)))
#define CLWARP_CUDA_MAKE4(T, x, y, z, w) ((CLWARP_CUDA_PASTE(T, 4))((T)(x), (T)(y), (T)(z), (T)(w)))
#define CLWARP_CUDA_MAKE(T, N, ...) CLWARP_CUDA_PASTE(CLWARP_CUDA_MAKE, N)(T, __VA_ARGS__)
#define make_char2(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(ch, ar), 2, __VA_ARGS__)
#define make_char3(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(ch, ar), 3, __VA_ARGS__)
#define make_char4(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(ch, ar), 4, __VA_ARGS__)
#define make_uchar2(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(uch, ar), 2, __VA_ARGS__)
#define make_uchar3(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(uch, ar), 3, __VA_ARGS__)
#define make_uchar4(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(uch, ar), 4, __VA_ARGS__)
#define make_short2(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(sh, ort), 2, __VA_ARGS__)
#define make_short3(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(sh, ort), 3, __VA_ARGS__)
#define make_short4(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(sh, ort), 4, __VA_ARGS__)
#define make_ushort2(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(ush, ort), 2, __VA_ARGS__)
#define make_ushort3(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(ush, ort), 3, __VA_ARGS__)
#define make_ushort4(...) CLWARP_CUDA_MAKE(CLWARP_CUDA_PASTE(ush, ort), 4, __VA_ARGS__)
#define make_int2(...) CLWARP_CUDA_MAKE(int, 2, __VA_ARGS__)
#define make_int3(...) CLWARP_CUDA_MAKE(int, 3, __VA_ARGS__)
#define make_int4(...) CLWARP_CUDA_MAKE(int, 4, __VA_ARGS__)
#define make_uint2(...) CLWARP_CUDA_MAKE(uint, 2, __VA_ARGS__)
#define make_uint3(...) CLWARP_CUDA_MAKE(uint, 3, __VA_ARGS__)
#define make_uint4(...) CLWARP_CUDA_MAKE(uint, 4, __VA_ARGS__)
#define make_long2(...) CLWARP_CUDA_MAKE(long, 2, __VA_ARGS__)
#define make_long3(...) CLWARP_CUDA_MAKE(long, 3, __VA_ARGS__)
#define make_long4(...) CLWARP_CUDA_MAKE(long, 4, __VA_ARGS__)
#define make_ulong2(...) CLWARP_CUDA_MAKE(ulong, 2, __VA_ARGS__)
#define make_ulong3(...) CLWARP_CUDA_MAKE(ulong, 3, __VA_ARGS__)
#define make_ulong4(...) CLWARP_CUDA_MAKE(ulong, 4, __VA_ARGS__)
#define make_longlong2(...) CLWARP_CUDA_MAKE(long, 2, __VA_ARGS__)
#define make_longlong3(...) CLWARP_CUDA_MAKE(long, 3, __VA_ARGS__)
#define make_longlong4(...) CLWARP_CUDA_MAKE(long, 4, __VA_ARGS__)
#define make_ulonglong2(...) CLWARP_CUDA_MAKE(ulong, 2, __VA_ARGS__)
#define make_ulonglong3(...) CLWARP_CUDA_MAKE(ulong, 3, __VA_ARGS__)
#define make_ulonglong4(...) CLWARP_CUDA_MAKE(ulong, 4, __VA_ARGS__)
#define make_float2(...) CLWARP_CUDA_MAKE(float, 2, __VA_ARGS__)
#define make_float3(...) CLWARP_CUDA_MAKE(float, 3, __VA_ARGS__)
#define make_float4(...) CLWARP_CUDA_MAKE(float, 4, __VA_ARGS__)
#define make_double2(...) CLWARP_CUDA_MAKE(double, 2, __VA_ARGS__)
#define make_double3(...) CLWARP_CUDA_MAKE(double, 3, __VA_ARGS__)
#define make_double4(...) CLWARP_CUDA_MAKE(double, 4, __VA_ARGS__)

/* ---- Masks. Every lane of the warp takes part in every call (the warp
 * API's contract), so a mask must hold every lane: its low W bits set (at
 * W = 64 the low 32 do, the most a 32-bit CUDA mask can say). */
#define CLWARP_CUDA_ALL_LANES (CLWARP_WARP_SIZE >= 32 ? 0xfffffffful : CLWARP_FULL_BALLOT)
#if defined(__has_attribute)
#if __has_attribute(diagnose_if)
#define CLWARP_CUDA_MASK_CHECK __attribute__((diagnose_if((mask & CLWARP_CUDA_ALL_LANES) != \
	CLWARP_CUDA_ALL_LANES, "<clwarp/cuda.h>: a lane mask that leaves out lanes of the warp; " \
	"every lane takes part in every call (docs/porting-cuda.md, Masks)", "error")))
#endif
#endif
#ifndef CLWARP_CUDA_MASK_CHECK
#define CLWARP_CUDA_MASK_CHECK
#endif
CLWARP_OVERLOAD int clwarp_cuda_mask(ulong mask) CLWARP_CUDA_MASK_CHECK { return 0; }
CLWARP_OVERLOAD int clwarp_cuda_mask(void) { return 0; }

#if CLWARP_WARP_SIZE <= 32
#define __activemask() ((uint)CLWARP_FULL_BALLOT)
#else
#define __activemask() CLWARP_FULL_BALLOT
#endif

/* ---- Shuffles, by CUDA's rules (PTX shfl.sync; CUDA Programming Guide,
 * "Warp Shuffle Functions"). With s the first lane of lane l's segment of
 * `width` lanes:
 *   __shfl_sync(v, src, width)      lane s + src % width
 *   __shfl_up_sync(v, d, width)     lane l - d if that is >= s, else own value
 *   __shfl_down_sync(v, d, width)   lane l + d if that is < s + width, else own
 *   __shfl_xor_sync(v, m, width)    lane l ^ m if that is < s + width (an earlier
 *                                   segment too), else own value
 * PTX reads the low 5 bits of src, d and m (b[4:0]); a W-lane warp reads the
 * low log2(W) bits, hence clwarp_cuda_lane_arg. A width above W is W. */
#define CLWARP_CUDA_LANE_BITS ((uint)CLWARP_WARP_SIZE - 1u)
CLWARP_INLINE uint clwarp_cuda_lane_arg(uint a) { return a & CLWARP_CUDA_LANE_BITS; }

/* Left a macro so that a constant width stays a constant for the warp
 * API's width check (a power of two); the width is evaluated twice. */
#define CLWARP_CUDA_WIDTH(w) ((uint)(w) > CLWARP_WARP_SIZE ? (uint)CLWARP_WARP_SIZE : (uint)(w))

/* The xor's source lane: a later segment gives the own lane. */
CLWARP_INLINE uint clwarp_cuda_xor_src(uint lane, uint mask, uint width) CLWARP_WIDTH_CHECK
{
	uint src = lane ^ clwarp_cuda_lane_arg(mask);
	return src <= (lane | (width - 1u)) ? src : lane;
}

/* The optional width picks the macro: NAME_W with it, NAME without. */
#define CLWARP_CUDA_PICK(a1, a2, NAME, ...) NAME
#define CLWARP_CUDA_SHFL(var, src) warp_shuffle(var, (uint)(src))
#define CLWARP_CUDA_SHFL_W(var, src, w) warp_shuffle(var, (uint)(src), CLWARP_CUDA_WIDTH(w))
#define CLWARP_CUDA_UP(var, d) warp_shuffle_up(var, clwarp_cuda_lane_arg(d))
#define CLWARP_CUDA_UP_W(var, d, w) warp_shuffle_up(var, clwarp_cuda_lane_arg(d), CLWARP_CUDA_WIDTH(w))
#define CLWARP_CUDA_DOWN(var, d) warp_shuffle_down(var, clwarp_cuda_lane_arg(d))
#define CLWARP_CUDA_DOWN_W(var, d, w) warp_shuffle_down(var, clwarp_cuda_lane_arg(d), CLWARP_CUDA_WIDTH(w))
#define CLWARP_CUDA_XOR(var, m) warp_shuffle_xor(var, clwarp_cuda_lane_arg(m))
/* An index shuffle: the warp API's xor with a width keeps the own value for
 * every m >= width, CUDA's reads an earlier segment. */
#define CLWARP_CUDA_XOR_W(var, m, w) \
	warp_shuffle(var, clwarp_cuda_xor_src(warp_lane_id(), (uint)(m), CLWARP_CUDA_WIDTH(w)))

#define __shfl_sync(mask, var, ...) ((void)clwarp_cuda_mask(mask), \
	CLWARP_CUDA_PICK(__VA_ARGS__, CLWARP_CUDA_SHFL_W, CLWARP_CUDA_SHFL, )((var), __VA_ARGS__))
#define __shfl_up_sync(mask, var, ...) ((void)clwarp_cuda_mask(mask), \
	CLWARP_CUDA_PICK(__VA_ARGS__, CLWARP_CUDA_UP_W, CLWARP_CUDA_UP, )((var), __VA_ARGS__))
#define __shfl_down_sync(mask, var, ...) ((void)clwarp_cuda_mask(mask), \
	CLWARP_CUDA_PICK(__VA_ARGS__, CLWARP_CUDA_DOWN_W, CLWARP_CUDA_DOWN, )((var), __VA_ARGS__))
#define __shfl_xor_sync(mask, var, ...) ((void)clwarp_cuda_mask(mask), \
	CLWARP_CUDA_PICK(__VA_ARGS__, CLWARP_CUDA_XOR_W, CLWARP_CUDA_XOR, )((var), __VA_ARGS__))

/* ---- Votes, reductions, match. CUDA's ballot is 32 bits; on a 64-wide
 * warp it keeps all 64. */
#if CLWARP_WARP_SIZE <= 32
#define __ballot_sync(mask, pred) ((void)clwarp_cuda_mask(mask), (uint)warp_ballot(pred))
#else
#define __ballot_sync(mask, pred) ((void)clwarp_cuda_mask(mask), warp_ballot(pred))
#endif
#define __all_sync(mask, pred) ((void)clwarp_cuda_mask(mask), warp_all(pred))
#define __any_sync(mask, pred) ((void)clwarp_cuda_mask(mask), warp_any(pred))
#define __uni_sync(mask, pred) ((void)clwarp_cuda_mask(mask), warp_match_all((int)((pred) != 0)))
#define __syncwarp(...) ((void)clwarp_cuda_mask(__VA_ARGS__), warp_barrier())

#define __reduce_add_sync(mask, value) ((void)clwarp_cuda_mask(mask), warp_reduce_add(value))
#define __reduce_min_sync(mask, value) ((void)clwarp_cuda_mask(mask), warp_reduce_min(value))
#define __reduce_max_sync(mask, value) ((void)clwarp_cuda_mask(mask), warp_reduce_max(value))
#define __reduce_and_sync(mask, value) ((void)clwarp_cuda_mask(mask), warp_reduce_and(value))
#define __reduce_or_sync(mask, value) ((void)clwarp_cuda_mask(mask), warp_reduce_or(value))
#define __reduce_xor_sync(mask, value) ((void)clwarp_cuda_mask(mask), warp_reduce_xor(value))

#if CLWARP_WARP_SIZE <= 32
#define __match_any_sync(mask, value) ((void)clwarp_cuda_mask(mask), (uint)warp_match_any(value))
#define __match_all_sync(mask, value, pred) ((void)clwarp_cuda_mask(mask), \
	*(pred) = warp_match_all(value), *(pred) ? (uint)CLWARP_FULL_BALLOT : 0u)
#else
#define __match_any_sync(mask, value) ((void)clwarp_cuda_mask(mask), warp_match_any(value))
#define __match_all_sync(mask, value, pred) ((void)clwarp_cuda_mask(mask), \
	*(pred) = warp_match_all(value), *(pred) ? CLWARP_FULL_BALLOT : 0ul)
#endif

/* ---- The forms before CUDA 9 (removed for sm_70+): the full-warp _sync
 * forms, their one meaning in code written for them. */
#define __shfl(var, ...) __shfl_sync(0xffffffffu, var, __VA_ARGS__)
#define __shfl_up(var, ...) __shfl_up_sync(0xffffffffu, var, __VA_ARGS__)
#define __shfl_down(var, ...) __shfl_down_sync(0xffffffffu, var, __VA_ARGS__)
#define __shfl_xor(var, ...) __shfl_xor_sync(0xffffffffu, var, __VA_ARGS__)
#define __ballot(pred) __ballot_sync(0xffffffffu, pred)
#define __any(pred) __any_sync(0xffffffffu, pred)
#define __all(pred) __all_sync(0xffffffffu, pred)

/* ---- The execution model, where OpenCL C says the same thing. The one edit
 * left to a port: pointer parameters of kernels need an address space
 * (`global int *p`), and `extern __shared__` arrays become `local`
 * parameters (docs/porting-cuda.md). */
#define threadIdx ((uint3)((uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2)))
#define blockIdx ((uint3)((uint)get_group_id(0), (uint)get_group_id(1), (uint)get_group_id(2)))
#define blockDim ((uint3)((uint)get_local_size(0), (uint)get_local_size(1), (uint)get_local_size(2)))
#define gridDim ((uint3)((uint)get_num_groups(0), (uint)get_num_groups(1), (uint)get_num_groups(2)))

#define __global__ kernel
#define __shared__ local
/* OpenCL C functions run on the device; a CUDA helper is always inlined,
 * so that `__device__ inline` (C99's inline: no external definition) links
 * on every compiler. */
#define __device__ __attribute__((always_inline))
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ restrict
#define __launch_bounds__(...)

#define __syncthreads() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)

/* __syncthreads_count/_and/_or: a barrier that counts the work-group's
 * non-zero predicates. nv has it in PTX (bar.red, CUDA's own). local and,
 * in a program that names one of the three, khr and intel have the hidden
 * scratch (CLWARP_SCRATCH_ARG), where a local atomic counts: any block
 * size and shape, OpenCL C 1.2. Not the sub-groups: PoCL 6.0 gets a
 * partial last one wrong (its reduction reads lanes past the work-group's
 * end, and get_num_sub_groups() rounds down). */
#if defined(CLWARP_BACKEND_NV)
CLWARP_INLINE int clwarp_cuda_syncthreads_count(CLWARP_WARP_PARAM, int pred)
{
	int r;
	asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\tbar.red.popc.u32 %0, 0, p;\n\t}"
		: "=r"(r) : "r"(pred) : "memory");
	return r;
}
#elif defined(CLWARP_BACKEND_LOCAL) || defined(CLWARP_SCRATCH_ARG)
CLWARP_INLINE int clwarp_cuda_syncthreads_count(CLWARP_WARP_PARAM, int pred)
{
	local uint *count = (local uint *)__clwarp_scratch;
	uint r;

	/* Whatever used the scratch last (a warp call on local, or this)
	 * ended with a barrier, so it is free here. */
	if (clwarp_linear_local_id() == 0u)
		*count = 0u;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (pred != 0)
		atomic_inc(count);
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
	r = *count;
	barrier(CLK_LOCAL_MEM_FENCE);
	return (int)r;
}
#else
/* khr and intel give the scratch to a program whose text names
 * __syncthreads_count, _and or _or; one that makes the name otherwise
 * (## pasting) has none. */
int clwarp_cuda_syncthreads_count(CLWARP_WARP_PARAM, int pred) __attribute__((unavailable(
	"<clwarp/cuda.h>: __syncthreads_count/_and/_or: write the name out; the engine gives the "
	"work-group scratch they need to programs whose text names them (docs/porting-cuda.md)")));
#endif
#define __syncthreads_count(pred) clwarp_cuda_syncthreads_count(CLWARP_WARP_ARG, (pred))
#define __syncthreads_and(pred) \
	(clwarp_cuda_syncthreads_count(CLWARP_WARP_ARG, (pred)) == (int)clwarp_linear_local_size())
#define __syncthreads_or(pred) (clwarp_cuda_syncthreads_count(CLWARP_WARP_ARG, (pred)) != 0)

/* Atomics on int and uint in global or local memory, returning the old value. */
#define atomicAdd(p, v) atomic_add((p), (v))
#define atomicSub(p, v) atomic_sub((p), (v))
#define atomicExch(p, v) atomic_xchg((p), (v))
#define atomicMin(p, v) atomic_min((p), (v))
#define atomicMax(p, v) atomic_max((p), (v))
#define atomicAnd(p, v) atomic_and((p), (v))
#define atomicOr(p, v) atomic_or((p), (v))
#define atomicXor(p, v) atomic_xor((p), (v))
#define atomicCAS(p, cmp, v) atomic_cmpxchg((p), (cmp), (v))

/* The float forms of C's math functions: OpenCL C's overloads at float
 * (each within OpenCL's error bounds, which are not CUDA's ulp for ulp). */
#define fmaxf(a, b) fmax((float)(a), (float)(b))
#define fminf(a, b) fmin((float)(a), (float)(b))
#define fabsf(x) fabs((float)(x))
#define floorf(x) floor((float)(x))
#define ceilf(x) ceil((float)(x))
#define fmaf(a, b, c) fma((float)(a), (float)(b), (float)(c))
#define sqrtf(x) sqrt((float)(x))
#define rsqrtf(x) rsqrt((float)(x))
#define expf(x) exp((float)(x))
#define exp2f(x) exp2((float)(x))
#define logf(x) log((float)(x))
#define log2f(x) log2((float)(x))
#define powf(a, b) pow((float)(a), (float)(b))
#define sinf(x) sin((float)(x))
#define cosf(x) cos((float)(x))
#define tanhf(x) tanh((float)(x))

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
