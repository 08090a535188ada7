/* libclwarp kernel prelude: code shared by all backends.
 * The engine puts the CLWARP_* defines before this file and one backend file
 * after it. Everything here must stay OpenCL C 1.2. */

#ifdef CLWARP_HAS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CLWARP_IF_FP64(...) __VA_ARGS__
#else
#define CLWARP_IF_FP64(...)
#endif

#ifdef CLWARP_HAS_FP16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define CLWARP_IF_FP16(...) __VA_ARGS__
#else
#define CLWARP_IF_FP16(...)
#endif

/* static: no external symbol, so a helper never collides across programs;
 * always_inline: keeps barriers and sub-group calls in the caller's body. */
#define CLWARP_INLINE static inline __attribute__((always_inline))
#define CLWARP_OVERLOAD static inline __attribute__((always_inline, overloadable))

/* Type lists. X(T, BITS, MIN_IDENTITY, MAX_IDENTITY, MIN_FN, MAX_FN):
 * BITS is the same-width unsigned type used to move values unchanged,
 * MIN_IDENTITY is what an exclusive min scan gives lane 0 (largest value),
 * MAX_IDENTITY the same for max (smallest value). */
#define CLWARP_TYPES_32(X) \
	X(int, uint, INT_MAX, INT_MIN, min, max) \
	X(uint, uint, UINT_MAX, 0u, min, max) \
	X(float, uint, INFINITY, -INFINITY, fmin, fmax)

#define CLWARP_TYPES_64(X) \
	X(long, ulong, LONG_MAX, LONG_MIN, min, max) \
	X(ulong, ulong, ULONG_MAX, 0ul, min, max) \
	CLWARP_IF_FP64(X(double, ulong, (double)INFINITY, -(double)INFINITY, fmin, fmax))

#define CLWARP_TYPES(X) CLWARP_TYPES_32(X) CLWARP_TYPES_64(X)

/* The integer types, for the bitwise operators: X(T, BITS). */
#define CLWARP_INT_TYPES_32(X) X(int, uint) X(uint, uint)
#define CLWARP_INT_TYPES_64(X) X(long, ulong) X(ulong, ulong)
#define CLWARP_INT_TYPES(X) CLWARP_INT_TYPES_32(X) CLWARP_INT_TYPES_64(X)

/* Reinterpret without conversion: as_uint(float), as_int(uint), ... */
#define CLWARP_TO_BITS(BITS, v) as_##BITS(v)
#define CLWARP_FROM_BITS(T, b) as_##T(b)

#define CLWARP_ADD(a, b) ((a) + (b))
#define CLWARP_MUL(a, b) ((a) * (b))
#define CLWARP_AND(a, b) ((a) & (b))
#define CLWARP_OR(a, b) ((a) | (b))
#define CLWARP_XOR(a, b) ((a) ^ (b))

/* Warps are consecutive runs of this id (x fastest), on every backend. */
CLWARP_INLINE uint clwarp_linear_local_id(void)
{
	return (uint)(get_local_id(0) + get_local_size(0) *
		(get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

CLWARP_INLINE uint clwarp_linear_local_size(void)
{
	return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

/* Bit mask of the lanes of a CLWARP_WARP_SIZE-wide warp (width 64 would
 * overflow a plain shift). */
#define CLWARP_FULL_BALLOT \
	(CLWARP_WARP_SIZE >= 64 ? ~0ul : ((1ul << (CLWARP_WARP_SIZE & 63)) - 1ul))

#if defined(CLWARP_BACKEND_KHR) || defined(CLWARP_BACKEND_INTEL)
/* cl_khr_subgroups and cl_intel_subgroups share these built-ins; the
 * backend files add shuffles and ballot. */
/* No pragma where sub-groups are an OpenCL C 3.0 feature, not the extension. */
#if defined(CLWARP_BACKEND_KHR) && !defined(CLWARP_KHR_CL3)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

/* A program that names <clwarp/cuda.h>'s __syncthreads_count/_and/_or
 * gets the local backend's scratch (source.h), and its helpers with it. */
#ifdef CLWARP_SCRATCH_ARG
#define CLWARP_WARP_PARAM local ulong *__clwarp_scratch
#define CLWARP_WARP_ARG __clwarp_scratch
#else
#define CLWARP_WARP_PARAM int __clwarp_unused_ctx
#define CLWARP_WARP_ARG 0
#endif

CLWARP_INLINE uint warp_size(void) { return CLWARP_WARP_SIZE; }
CLWARP_INLINE uint warp_lane_id(void) { return get_sub_group_local_id(); }
CLWARP_INLINE uint warp_id(void) { return get_sub_group_id(); }
CLWARP_INLINE uint warp_count(void) { return get_num_sub_groups(); }

CLWARP_INLINE void warp_barrier(void) { sub_group_barrier(CLK_LOCAL_MEM_FENCE); }

CLWARP_OVERLOAD int warp_all(int pred) { return sub_group_all(pred != 0) != 0; }
CLWARP_OVERLOAD int warp_any(int pred) { return sub_group_any(pred != 0) != 0; }

/* Float min/max go through order-preserving integer keys: PoCL 6.0's
 * sub_group_{reduce,scan}_{min,max} drop values after a NaN instead of
 * skipping it like fmin/fmax. NaN gets the key that loses (INT_MAX for min,
 * INT_MIN for max) and decodes back to a NaN when every lane is NaN. */
#define CLWARP_SG_KEYS_INT(T) \
	CLWARP_OVERLOAD T clwarp_sg_min_key(T v) { return v; } \
	CLWARP_OVERLOAD T clwarp_sg_max_key(T v) { return v; } \
	CLWARP_OVERLOAD T clwarp_sg_from_key(T key, T like) { return key; }
#define CLWARP_SG_KEYS_FLOAT(T, KEY, KEY_MAX) \
	CLWARP_OVERLOAD KEY clwarp_sg_order_key(T v) \
	{ \
		KEY bits = as_##KEY(v); \
		return bits >= 0 ? bits : bits ^ (KEY_MAX); \
	} \
	CLWARP_OVERLOAD KEY clwarp_sg_min_key(T v) { return isnan(v) ? (KEY_MAX) : clwarp_sg_order_key(v); } \
	CLWARP_OVERLOAD KEY clwarp_sg_max_key(T v) { return isnan(v) ? -(KEY_MAX) - 1 : clwarp_sg_order_key(v); } \
	CLWARP_OVERLOAD T clwarp_sg_from_key(KEY key, T like) { return as_##T(key >= 0 ? key : key ^ (KEY_MAX)); }
CLWARP_SG_KEYS_INT(int)
CLWARP_SG_KEYS_INT(uint)
CLWARP_SG_KEYS_INT(long)
CLWARP_SG_KEYS_INT(ulong)
CLWARP_SG_KEYS_FLOAT(float, int, INT_MAX)
CLWARP_IF_FP64(CLWARP_SG_KEYS_FLOAT(double, long, LONG_MAX))

#define CLWARP_SG_MIN(OP, v) clwarp_sg_from_key(OP(clwarp_sg_min_key(v)), v)
#define CLWARP_SG_MAX(OP, v) clwarp_sg_from_key(OP(clwarp_sg_max_key(v)), v)

/* The whole-warp scans, where the backend keeps the core built-ins
 * (CLWARP_GENERIC_SCANS: generic.cl's, measured faster on Intel's CPU
 * runtime; src/backend_choice.c). */
#ifdef CLWARP_GENERIC_SCANS
#define CLWARP_SG_SCANS(T, MIN_ID, MAX_ID)
#else
/* Lane 0 of an exclusive scan is set explicitly: implementations disagree
 * on the float min/max identity (FLT_MAX or INFINITY). */
#define CLWARP_SG_SCANS(T, MIN_ID, MAX_ID) \
	CLWARP_OVERLOAD T warp_scan_inclusive_add(T v) { return sub_group_scan_inclusive_add(v); } \
	CLWARP_OVERLOAD T warp_scan_inclusive_min(T v) { return CLWARP_SG_MIN(sub_group_scan_inclusive_min, v); } \
	CLWARP_OVERLOAD T warp_scan_inclusive_max(T v) { return CLWARP_SG_MAX(sub_group_scan_inclusive_max, v); } \
	CLWARP_OVERLOAD T warp_scan_exclusive_add(T v) \
	{ \
		T r = sub_group_scan_exclusive_add(v); \
		return get_sub_group_local_id() == 0 ? (T)0 : r; \
	} \
	CLWARP_OVERLOAD T warp_scan_exclusive_min(T v) \
	{ \
		T r = CLWARP_SG_MIN(sub_group_scan_exclusive_min, v); \
		return get_sub_group_local_id() == 0 ? (T)(MIN_ID) : r; \
	} \
	CLWARP_OVERLOAD T warp_scan_exclusive_max(T v) \
	{ \
		T r = CLWARP_SG_MAX(sub_group_scan_exclusive_max, v); \
		return get_sub_group_local_id() == 0 ? (T)(MAX_ID) : r; \
	}
#endif

#define CLWARP_SG_COLLECTIVES(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T warp_broadcast(T v, uint src_lane) \
	{ \
		return CLWARP_FROM_BITS(T, sub_group_broadcast(CLWARP_TO_BITS(BITS, v), \
			src_lane & (CLWARP_WARP_SIZE - 1))); \
	} \
	CLWARP_OVERLOAD T warp_reduce_add(T v) { return sub_group_reduce_add(v); } \
	CLWARP_OVERLOAD T warp_reduce_min(T v) { return CLWARP_SG_MIN(sub_group_reduce_min, v); } \
	CLWARP_OVERLOAD T warp_reduce_max(T v) { return CLWARP_SG_MAX(sub_group_reduce_max, v); } \
	CLWARP_SG_SCANS(T, MIN_ID, MAX_ID)

CLWARP_TYPES(CLWARP_SG_COLLECTIVES)

/* The native collectives of the optional cl_khr_subgroup_* extensions
 * that were not slower than the generic path on Intel's CPU runtime (the
 * others were, docs/design/cpu-sort.md), each where the engine's probe passed
 * with it (src/probe.c); -DCLWARP_GENERIC_COLLECTIVES turns them off
 * (bench/native-collectives.sh measures both).
 *
 * cl_khr_subgroup_non_uniform_arithmetic: the whole-warp mul and xor
 * reductions of the integer types, a hook of generic.cl. */
#if defined(CLWARP_SG_NON_UNIFORM_ARITH) && !defined(CLWARP_GENERIC_COLLECTIVES)
#define CLWARP_HAS_NATIVE_INT_REDUCE 1
#define CLWARP_SG_INT_REDUCE(T, BITS) \
	CLWARP_OVERLOAD T clwarp_native_reduce_mul(T v) { return sub_group_non_uniform_reduce_mul(v); } \
	CLWARP_OVERLOAD T clwarp_native_reduce_xor(T v) { return sub_group_non_uniform_reduce_xor(v); }
CLWARP_INT_TYPES(CLWARP_SG_INT_REDUCE)
#endif

/* cl_khr_subgroup_extended_types, where the probe passed with it: one
 * broadcast of a whole vector carrier instead of one per ulong (types.cl;
 * faster on Intel's CPU runtime, docs/design/cpu-sort.md). */
#if defined(CLWARP_SG_EXTENDED_TYPES) && !defined(CLWARP_GENERIC_COLLECTIVES)
#define CLWARP_HAS_NATIVE_VECTOR_BROADCAST 1
#define CLWARP_SG_VECTOR_BROADCAST(N) \
	CLWARP_OVERLOAD ulong##N clwarp_native_broadcast(ulong##N c, uint src_lane) \
	{ \
		return sub_group_broadcast(c, src_lane & (CLWARP_WARP_SIZE - 1)); \
	}
CLWARP_SG_VECTOR_BROADCAST(2)
CLWARP_SG_VECTOR_BROADCAST(4)
CLWARP_SG_VECTOR_BROADCAST(8)
CLWARP_SG_VECTOR_BROADCAST(16)
#endif

#define CLWARP_SG_LANE_MASK ((uint)CLWARP_WARP_SIZE - 1u)

/* Typed shuffles over the backend's raw uint/ulong ones (clwarp_sg_idx,
 * _down, _up, _xor), which take an in-range lane, delta or mask. Every lane
 * calls the raw shuffle with a clamped argument and out-of-range lanes keep
 * their own value afterwards, so control flow stays uniform. The backend
 * expands CLWARP_TYPES(CLWARP_SG_SHUFFLES) after defining the raw ones. */
#define CLWARP_SG_SHUFFLES(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T warp_shuffle(T v, uint src_lane) \
	{ \
		return CLWARP_FROM_BITS(T, clwarp_sg_idx(CLWARP_TO_BITS(BITS, v), \
			src_lane & CLWARP_SG_LANE_MASK)); \
	} \
	CLWARP_OVERLOAD T warp_shuffle_down(T v, uint delta) \
	{ \
		uint lane = get_sub_group_local_id(); \
		BITS r = clwarp_sg_down(CLWARP_TO_BITS(BITS, v), min(delta, CLWARP_SG_LANE_MASK)); \
		return delta < CLWARP_WARP_SIZE - lane ? CLWARP_FROM_BITS(T, r) : v; \
	} \
	CLWARP_OVERLOAD T warp_shuffle_up(T v, uint delta) \
	{ \
		uint lane = get_sub_group_local_id(); \
		BITS r = clwarp_sg_up(CLWARP_TO_BITS(BITS, v), min(delta, CLWARP_SG_LANE_MASK)); \
		return delta <= lane ? CLWARP_FROM_BITS(T, r) : v; \
	} \
	CLWARP_OVERLOAD T warp_shuffle_xor(T v, uint mask) \
	{ \
		BITS r = clwarp_sg_xor(CLWARP_TO_BITS(BITS, v), mask & CLWARP_SG_LANE_MASK); \
		return mask < CLWARP_WARP_SIZE ? CLWARP_FROM_BITS(T, r) : v; \
	}
#endif

/* Logical widths. A width splits the warp into segments of `width`
 * consecutive lanes (CUDA's rule). A constant width that is not a power of
 * two from 1 to W fails the build where the compiler has diagnose_if; a bad
 * run-time width gives unspecified values, never a hang or an access
 * outside the warp (docs/warp-api.md). */
CLWARP_INLINE uint clwarp_width(uint width) { return min(width, (uint)CLWARP_WARP_SIZE); }

/* Loops over the steps of a width (log2 of it) take the steps past the
 * width and ignore their results. PoCL builds a loop that holds warp
 * calls and whose trip count is known only at run time very slowly (16 of
 * them in one kernel: 34 s instead of 0.8 s on PoCL 6.0), and such loops
 * around the local backend's barriers are where PoCL 5.0/6.0 miscompile
 * (docs/algorithms.md), so there the loops run to W. NVIDIA's compiler has
 * neither problem, and with a constant width keeps only the needed steps. */
#ifdef CLWARP_BACKEND_NV
#define CLWARP_SEGMENT_STEPS(w) (w)
#else
#define CLWARP_SEGMENT_STEPS(w) CLWARP_WARP_SIZE
#endif

CLWARP_INLINE ulong clwarp_segment_mask(uint width)
{
	return width >= 64u ? ~0ul : (1ul << width) - 1ul;
}

#if defined(__has_attribute)
#if __has_attribute(diagnose_if)
#define CLWARP_WIDTH_CHECK __attribute__((diagnose_if(width == 0u || (width & (width - 1u)) != 0u || \
	width > CLWARP_WARP_SIZE, "the warp width must be a power of two from 1 to warp_size()", "error")))
#endif
#endif
#ifndef CLWARP_WIDTH_CHECK
#define CLWARP_WIDTH_CHECK
#endif

/* Does any work-item of the work-group pass a true `p`? Every work-item
 * calls it: the loops that the engine's flow rewrite (src/warpflow.c)
 * makes around warp calls end when no work-item wants another trip. */
CLWARP_INLINE int clwarp_flow_any(local ulong *scratch, int p)
{
	local volatile uint *flag = (local volatile uint *)scratch;
	int r;

	barrier(CLK_LOCAL_MEM_FENCE);
	if (clwarp_linear_local_id() == 0)
		*flag = 0u;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (p)
		atomic_or(flag, 1u);
	barrier(CLK_LOCAL_MEM_FENCE);
	r = *flag != 0u;
	barrier(CLK_LOCAL_MEM_FENCE);
	return r;
}
