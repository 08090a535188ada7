#define CLWARP 1
#define CLWARP_BACKEND_LOCAL 1
#define CLWARP_WARP_SIZE 64
#define CLWARP_HAS_FP64 1
#line 1 "clwarp/warp/common.cl"
/* libclwarp kernel prelude: code shared by all backends.
 * The engine puts the CLWARP_* defines before this file and one backend file
 * after it. Everything here must stay OpenCL C 1.2. */

#ifdef CLWARP_HAS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define CLWARP_IF_FP64(...) __VA_ARGS__
#else
#define CLWARP_IF_FP64(...)
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

/* Reinterpret without conversion: as_uint(float), as_int(uint), ... */
#define CLWARP_TO_BITS(BITS, v) as_##BITS(v)
#define CLWARP_FROM_BITS(T, b) as_##T(b)

#define CLWARP_ADD(a, b) ((a) + (b))

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
#ifdef CLWARP_BACKEND_KHR
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

#define CLWARP_WARP_PARAM int __clwarp_unused_ctx
#define CLWARP_WARP_ARG 0

CLWARP_INLINE uint warp_size(void) { return CLWARP_WARP_SIZE; }
CLWARP_INLINE uint warp_lane_id(void) { return get_sub_group_local_id(); }
CLWARP_INLINE uint warp_id(void) { return get_sub_group_id(); }
CLWARP_INLINE uint warp_count(void) { return get_num_sub_groups(); }

CLWARP_INLINE void warp_barrier(void) { sub_group_barrier(CLK_LOCAL_MEM_FENCE); }

CLWARP_INLINE int warp_all(int pred) { return sub_group_all(pred != 0) != 0; }
CLWARP_INLINE int warp_any(int pred) { return sub_group_any(pred != 0) != 0; }

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

/* Lane 0 of an exclusive scan is set explicitly: implementations disagree
 * on the float min/max identity (FLT_MAX or INFINITY). */
#define CLWARP_SG_COLLECTIVES(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T warp_broadcast(T v, uint src_lane) \
	{ \
		return CLWARP_FROM_BITS(T, sub_group_broadcast(CLWARP_TO_BITS(BITS, v), \
			src_lane & (CLWARP_WARP_SIZE - 1))); \
	} \
	CLWARP_OVERLOAD T warp_reduce_add(T v) { return sub_group_reduce_add(v); } \
	CLWARP_OVERLOAD T warp_reduce_min(T v) { return CLWARP_SG_MIN(sub_group_reduce_min, v); } \
	CLWARP_OVERLOAD T warp_reduce_max(T v) { return CLWARP_SG_MAX(sub_group_reduce_max, v); } \
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

CLWARP_TYPES(CLWARP_SG_COLLECTIVES)

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

#line 1 "clwarp/warp/local.cl"
/* libclwarp local backend: warps emulated in local memory.
 * Every primitive is a full work-group exchange through the hidden kernel
 * argument __clwarp_scratch (one ulong per work-item), fenced by real
 * barriers before and after, so it is correct on any device and clean under
 * Oclgrind. The public names are macros because they need that pointer. */

#define CLWARP_WARP_PARAM local ulong *__clwarp_scratch
#define CLWARP_WARP_ARG __clwarp_scratch

#define CLWARP_LANE_MASK ((uint)CLWARP_WARP_SIZE - 1u)

CLWARP_INLINE uint warp_size(void) { return CLWARP_WARP_SIZE; }
CLWARP_INLINE uint warp_lane_id(void) { return clwarp_linear_local_id() & CLWARP_LANE_MASK; }
CLWARP_INLINE uint warp_id(void) { return clwarp_linear_local_id() / CLWARP_WARP_SIZE; }
CLWARP_INLINE uint warp_count(void)
{
	return (clwarp_linear_local_size() + CLWARP_WARP_SIZE - 1) / CLWARP_WARP_SIZE;
}

CLWARP_INLINE void warp_barrier(void) { barrier(CLK_LOCAL_MEM_FENCE); }

/* Publish own bits, then read those of lane src_lane (already < warp size)
 * of the same warp. */
CLWARP_INLINE ulong clwarp_local_exchange(local ulong *scratch, ulong bits, uint src_lane)
{
	uint lid = clwarp_linear_local_id();
	scratch[lid] = bits;
	barrier(CLK_LOCAL_MEM_FENCE);
	ulong r = scratch[(lid & ~CLWARP_LANE_MASK) + src_lane];
	barrier(CLK_LOCAL_MEM_FENCE);
	return r;
}

CLWARP_INLINE ulong clwarp_local_ballot(local ulong *scratch, int pred)
{
	uint lid = clwarp_linear_local_id();
	scratch[lid] = pred != 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	local const ulong *warp = scratch + (lid & ~CLWARP_LANE_MASK);
	ulong mask = 0;
	for (uint i = 0; i < CLWARP_WARP_SIZE; i++)
		mask |= warp[i] << i;
	barrier(CLK_LOCAL_MEM_FENCE);
	return mask;
}

/* Reductions and scans combine the warp's values in lane order, so all lanes
 * of a reduction get bit-identical results. Lanes in [0, end) are folded,
 * end >= 1; the first value seeds the accumulator (keeps -0.0 sums). */
#define CLWARP_LOCAL_FOLD(T, BITS, NAME, OP) \
	CLWARP_OVERLOAD T clwarp_local_fold_##NAME(local ulong *scratch, T v, uint end) \
	{ \
		uint lid = clwarp_linear_local_id(); \
		scratch[lid] = CLWARP_TO_BITS(BITS, v); \
		barrier(CLK_LOCAL_MEM_FENCE); \
		local const ulong *warp = scratch + (lid & ~CLWARP_LANE_MASK); \
		T acc = CLWARP_FROM_BITS(T, (BITS)warp[0]); \
		for (uint i = 1; i < end; i++) \
			acc = OP(acc, CLWARP_FROM_BITS(T, (BITS)warp[i])); \
		barrier(CLK_LOCAL_MEM_FENCE); \
		return acc; \
	}

#define CLWARP_LOCAL_TYPE(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_LOCAL_FOLD(T, BITS, add, CLWARP_ADD) \
	CLWARP_LOCAL_FOLD(T, BITS, min, MIN_FN) \
	CLWARP_LOCAL_FOLD(T, BITS, max, MAX_FN) \
	CLWARP_OVERLOAD T clwarp_local_shuffle(local ulong *scratch, T v, uint src_lane) \
	{ \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src_lane & CLWARP_LANE_MASK)); \
	} \
	CLWARP_OVERLOAD T clwarp_local_shuffle_down(local ulong *scratch, T v, uint delta) \
	{ \
		uint lane = warp_lane_id(); \
		uint src = delta < CLWARP_WARP_SIZE - lane ? lane + delta : lane; \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src)); \
	} \
	CLWARP_OVERLOAD T clwarp_local_shuffle_up(local ulong *scratch, T v, uint delta) \
	{ \
		uint lane = warp_lane_id(); \
		uint src = lane >= delta ? lane - delta : lane; \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src)); \
	} \
	CLWARP_OVERLOAD T clwarp_local_shuffle_xor(local ulong *scratch, T v, uint mask) \
	{ \
		uint lane = warp_lane_id(); \
		uint src = (lane ^ mask) < CLWARP_WARP_SIZE ? lane ^ mask : lane; \
		return CLWARP_FROM_BITS(T, (BITS)clwarp_local_exchange(scratch, \
			CLWARP_TO_BITS(BITS, v), src)); \
	} \
	/* Exclusive scans run the inclusive fold to lane-1; lane 0 folds one \
	 * value and throws it away, so every lane reaches the same barriers. */ \
	CLWARP_OVERLOAD T clwarp_local_scan_exclusive_add(local ulong *scratch, T v) \
	{ \
		uint lane = warp_lane_id(); \
		T r = clwarp_local_fold_add(scratch, v, lane > 0 ? lane : 1u); \
		return lane > 0 ? r : (T)0; \
	} \
	CLWARP_OVERLOAD T clwarp_local_scan_exclusive_min(local ulong *scratch, T v) \
	{ \
		uint lane = warp_lane_id(); \
		T r = clwarp_local_fold_min(scratch, v, lane > 0 ? lane : 1u); \
		return lane > 0 ? r : (T)(MIN_ID); \
	} \
	CLWARP_OVERLOAD T clwarp_local_scan_exclusive_max(local ulong *scratch, T v) \
	{ \
		uint lane = warp_lane_id(); \
		T r = clwarp_local_fold_max(scratch, v, lane > 0 ? lane : 1u); \
		return lane > 0 ? r : (T)(MAX_ID); \
	}

CLWARP_TYPES(CLWARP_LOCAL_TYPE)

#define warp_shuffle(v, src_lane) clwarp_local_shuffle(__clwarp_scratch, (v), (src_lane))
#define warp_shuffle_down(v, delta) clwarp_local_shuffle_down(__clwarp_scratch, (v), (delta))
#define warp_shuffle_up(v, delta) clwarp_local_shuffle_up(__clwarp_scratch, (v), (delta))
#define warp_shuffle_xor(v, mask) clwarp_local_shuffle_xor(__clwarp_scratch, (v), (mask))
#define warp_broadcast(v, src_lane) clwarp_local_shuffle(__clwarp_scratch, (v), (src_lane))

#define warp_reduce_add(v) clwarp_local_fold_add(__clwarp_scratch, (v), CLWARP_WARP_SIZE)
#define warp_reduce_min(v) clwarp_local_fold_min(__clwarp_scratch, (v), CLWARP_WARP_SIZE)
#define warp_reduce_max(v) clwarp_local_fold_max(__clwarp_scratch, (v), CLWARP_WARP_SIZE)
#define warp_scan_inclusive_add(v) clwarp_local_fold_add(__clwarp_scratch, (v), warp_lane_id() + 1u)
#define warp_scan_inclusive_min(v) clwarp_local_fold_min(__clwarp_scratch, (v), warp_lane_id() + 1u)
#define warp_scan_inclusive_max(v) clwarp_local_fold_max(__clwarp_scratch, (v), warp_lane_id() + 1u)
#define warp_scan_exclusive_add(v) clwarp_local_scan_exclusive_add(__clwarp_scratch, (v))
#define warp_scan_exclusive_min(v) clwarp_local_scan_exclusive_min(__clwarp_scratch, (v))
#define warp_scan_exclusive_max(v) clwarp_local_scan_exclusive_max(__clwarp_scratch, (v))

#define warp_ballot(pred) clwarp_local_ballot(__clwarp_scratch, (pred))
#define warp_all(pred) (clwarp_local_ballot(__clwarp_scratch, (pred)) == CLWARP_FULL_BALLOT)
#define warp_any(pred) (clwarp_local_ballot(__clwarp_scratch, (pred)) != 0ul)

#line 1 "clwarp/algorithms/scan.cl"
#define T int
#define T_VEC int4
#define VEC 4
#define ID ((T)0)
#define OP(a, b) ((a) + (b))
#define WARP_REDUCE(v) warp_reduce_add(v)
#define WARP_SCAN_EXCL(v) warp_scan_exclusive_add(v)
#define WG 256
#define ITEMS_K 4
#define PRED_KIND 2
#line 1 "clwarp/algorithms/common.cl"
/* libclwarp algorithms: helpers shared by reduce.cl, scan.cl and rows.cl.
 *
 * The library puts these defines before this file (see src/algorithms.c):
 *   T, T_VEC, VEC          element type, its VEC-wide vector type, VEC
 *   ID                     the identity of OP
 *   OP(a, b)               the combining operation
 *   WARP_REDUCE(v), WARP_SCAN_EXCL(v)   the matching warp_* calls
 *   WG                     work-group size (a multiple of CLWARP_WARP_SIZE)
 *   ITEMS_K                vectors per work-item in a scan tile
 * and, for the look-back, CLWARP_ALGO_WARP_LOOKBACK where a warp may run
 * warp calls on its own (every backend but local; enabled on nv).
 *
 * Warp calls: on the local backend every warp_* function is a work-group
 * barrier, so every helper here that calls one is called by the whole
 * work-group with the same trip counts; divergence is only ever in code
 * without warp calls. */

#define WARPS (WG / CLWARP_WARP_SIZE)
#define TILE (WG * ITEMS_K * VEC)
#define ITEMS (ITEMS_K * VEC)

/* Look-back status words: (epoch << 2) | state; an older epoch reads as "not yet". */
#define STATE_AGGREGATE 1u
#define STATE_PREFIX 2u

/* Vector <-> private array of VEC elements. */
#if VEC == 4
#define VEC_SPLIT(dst, v) do { (dst)[0] = (v).s0; (dst)[1] = (v).s1; (dst)[2] = (v).s2; (dst)[3] = (v).s3; } while (0)
#define VEC_JOIN(src) ((T_VEC)((src)[0], (src)[1], (src)[2], (src)[3]))
#elif VEC == 2
#define VEC_SPLIT(dst, v) do { (dst)[0] = (v).s0; (dst)[1] = (v).s1; } while (0)
#define VEC_JOIN(src) ((T_VEC)((src)[0], (src)[1]))
#else
#error "VEC must be 2 or 4"
#endif

/*
 * Block scan of a tile held in registers: a[k * NV + c] is element
 * ((warp_id * NK + k) * W + lane) * NV + c of the tile (W = warp width).
 * Each warp scans its NK chunks of W * NV consecutive elements, then the
 * warp totals are combined in local memory. On return a[] holds the
 * inclusive (or exclusive) scan within the tile; the result is the tile's
 * total, the same on every work-item. sm: WARPS elements of local memory.
 */
#define DEFINE_BLOCK_SCAN(NAME, TY, OPF, IDV, WSCAN_EXCL, NK, NV) \
	CLWARP_INLINE TY NAME(TY *a, int inclusive, local TY *sm, CLWARP_WARP_PARAM) \
	{ \
		uint lane = warp_lane_id(), wid = warp_id(); \
		TY carry = IDV; \
		for (uint k = 0; k < (NK); k++) { \
			TY s = a[k * (NV)]; \
			for (uint c = 1; c < (NV); c++) \
				s = OPF(s, a[k * (NV) + c]); \
			TY ex = WSCAN_EXCL(s); \
			TY tot = warp_broadcast(OPF(ex, s), CLWARP_WARP_SIZE - 1u); \
			TY run = OPF(carry, ex); \
			for (uint c = 0; c < (NV); c++) { \
				TY nx = OPF(run, a[k * (NV) + c]); \
				a[k * (NV) + c] = inclusive ? nx : run; \
				run = nx; \
			} \
			carry = OPF(carry, tot); \
		} \
		if (lane == 0) \
			sm[wid] = carry; \
		barrier(CLK_LOCAL_MEM_FENCE); \
		TY before = IDV, total = IDV; \
		for (uint w = 0; w < WARPS; w++) { \
			TY v = sm[w]; \
			before = w < wid ? OPF(before, v) : before; \
			total = OPF(total, v); \
		} \
		barrier(CLK_LOCAL_MEM_FENCE); \
		for (uint i = 0; i < (NK) * (NV); i++) \
			a[i] = OPF(before, a[i]); \
		return total; \
	}

/* Reduce one value per work-item over the work-group; every work-item gets the result. */
#define DEFINE_BLOCK_REDUCE(NAME, TY, OPF, WREDUCE) \
	CLWARP_INLINE TY NAME(TY v, local TY *sm, CLWARP_WARP_PARAM) \
	{ \
		v = WREDUCE(v); \
		if (warp_lane_id() == 0) \
			sm[warp_id()] = v; \
		barrier(CLK_LOCAL_MEM_FENCE); \
		TY r = sm[0]; \
		for (uint w = 1; w < WARPS; w++) \
			r = OPF(r, sm[w]); \
		barrier(CLK_LOCAL_MEM_FENCE); \
		return r; \
	}

/* A device-wide fence between a value and its status word. OpenCL 1.2's
 * mem_fence only promises order as the work-item sees it; on NVIDIA the
 * order other SMs see needs membar.gl. */
#ifdef CLWARP_BACKEND_NV
#define GLOBAL_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* Values passed between work-groups (reduce partials, look-back values)
 * move through 32-bit atomics, so they are race-free in the memory model
 * (and for Oclgrind). The status protocol orders them, so a 64-bit value
 * may travel as two halves. */
#define DEFINE_SHARED_VALUE_32(TY) \
	CLWARP_OVERLOAD void value_store(volatile global TY *p, TY v) \
	{ \
		atomic_xchg((volatile global uint *)p, as_uint(v)); \
	} \
	CLWARP_OVERLOAD TY value_load(volatile global TY *p) \
	{ \
		return as_##TY(atomic_or((volatile global uint *)p, 0u)); \
	}
#define DEFINE_SHARED_VALUE_64(TY) \
	CLWARP_OVERLOAD void value_store(volatile global TY *p, TY v) \
	{ \
		uint2 h = as_uint2(v); \
		atomic_xchg((volatile global uint *)p, h.x); \
		atomic_xchg((volatile global uint *)p + 1, h.y); \
	} \
	CLWARP_OVERLOAD TY value_load(volatile global TY *p) \
	{ \
		uint2 h; \
		h.x = atomic_or((volatile global uint *)p, 0u); \
		h.y = atomic_or((volatile global uint *)p + 1, 0u); \
		return as_##TY(h); \
	}
DEFINE_SHARED_VALUE_32(int)
DEFINE_SHARED_VALUE_32(uint)
DEFINE_SHARED_VALUE_32(float)
DEFINE_SHARED_VALUE_64(long)
DEFINE_SHARED_VALUE_64(ulong)
CLWARP_IF_FP64(DEFINE_SHARED_VALUE_64(double))

/*
 * Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan
 * with Decoupled Look-back"). Tile `tile` publishes its aggregate, then
 * folds its predecessors' values back to the first one that has published
 * an inclusive prefix, publishes its own inclusive prefix, and returns its
 * exclusive prefix (the identity for tile 0) to every work-item.
 *
 * Values are written before their status word, with a global fence
 * between, and read after it, behind a fence again; status words move only
 * through atomics. A tile waits only for tiles with smaller ids, which took
 * their id before it did and so are running: no deadlock, also where
 * work-groups run one after another (Oclgrind) or on a thread pool (PoCL).
 */
#define DEFINE_LOOKBACK(NAME, TY, OPF, IDV, WREDUCE) \
	CLWARP_INLINE TY NAME(uint tile, TY aggregate, uint epoch, volatile global uint *flags, \
			      volatile global TY *agg, volatile global TY *pre, local TY *shared, \
			      CLWARP_WARP_PARAM) \
	{ \
		const uint fa = (epoch << 2) | STATE_AGGREGATE, fp = (epoch << 2) | STATE_PREFIX; \
		uint lid = get_local_id(0); \
		if (lid == 0) { \
			if (tile == 0) { \
				value_store(&pre[0], aggregate); \
				GLOBAL_FENCE(); \
				atomic_xchg(&flags[0], fp); \
			} else { \
				value_store(&agg[tile], aggregate); \
				GLOBAL_FENCE(); \
				atomic_xchg(&flags[tile], fa); \
			} \
		} \
		LOOKBACK_BODY(TY, OPF, IDV, WREDUCE) \
		barrier(CLK_LOCAL_MEM_FENCE); \
		return *shared; \
	}

#ifdef CLWARP_ALGO_WARP_LOOKBACK
/* Warp 0 inspects WARP_SIZE predecessors at a time: lane l reads tile
 * j - l; the window is folded up to its nearest inclusive prefix. Lanes
 * before tile 0 count as an inclusive prefix of the identity. */
#define LOOKBACK_BODY(TY, OPF, IDV, WREDUCE) \
		if (tile > 0 && warp_id() == 0) { \
			uint lane = warp_lane_id(); \
			TY excl = IDV; \
			for (int j = (int)tile - 1;; j -= CLWARP_WARP_SIZE) { \
				int idx = j - (int)lane; \
				uint f = fp; \
				TY v = IDV; \
				if (idx >= 0) { \
					do { \
						f = atomic_or(&flags[idx], 0u); \
					} while (f != fa && f != fp); \
					GLOBAL_FENCE(); \
					v = value_load(f == fp ? &pre[idx] : &agg[idx]); \
				} \
				ulong found = warp_ballot(f == fp); \
				uint first = found ? (uint)popcount((found & (~found + 1ul)) - 1ul) : CLWARP_WARP_SIZE; \
				TY w = WREDUCE(lane <= first ? v : (TY)(IDV)); \
				excl = OPF(w, excl); \
				if (found) \
					break; \
			} \
			if (lane == 0) { \
				value_store(&pre[tile], OPF(excl, aggregate)); \
				GLOBAL_FENCE(); \
				atomic_xchg(&flags[tile], fp); \
				*shared = excl; \
			} \
		} else if (tile == 0 && lid == 0) { \
			*shared = IDV; \
		}
#else
/* One work-item walks back one predecessor at a time. */
#define LOOKBACK_BODY(TY, OPF, IDV, WREDUCE) \
		if (lid == 0) { \
			TY excl = IDV; \
			for (int j = (int)tile - 1; j >= 0; j--) { \
				uint f; \
				do { \
					f = atomic_or(&flags[j], 0u); \
				} while (f != fa && f != fp); \
				GLOBAL_FENCE(); \
				TY v = value_load(f == fp ? &pre[j] : &agg[j]); \
				excl = j == (int)tile - 1 ? v : OPF(v, excl); \
				if (f == fp) \
					break; \
			} \
			if (tile > 0) { \
				value_store(&pre[tile], OPF(excl, aggregate)); \
				GLOBAL_FENCE(); \
				atomic_xchg(&flags[tile], fp); \
			} \
			*shared = excl; \
		}
#endif

/* The tile id: taken in launch order from a counter, so every smaller id
 * belongs to a work-group that has started. The work-group that takes the
 * last id resets the counter for the next launch. */
CLWARP_INLINE uint take_tile(volatile global uint *counter, uint tiles, local uint *shared)
{
	if (get_local_id(0) == 0) {
		uint t = atomic_inc(counter);
		if (t == tiles - 1)
			atomic_xchg(counter, 0u);
		*shared = t;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	return *shared;
}

#line 1 "predicate"
CLWARP_INLINE int clwarp_pred(T x) { return (x > 0) ? 1 : 0; }

#line 1 "clwarp/algorithms/scan.cl"
/* libclwarp algorithms: single-pass scan and stream compaction with
 * decoupled look-back (see common.cl). Defines from the library, beyond
 * common.cl's: INCLUSIVE (scan), PRED_KIND 1 = compact, 2 = partition
 * with clwarp_pred(x) the user's predicate (select). */

/* Tile loads: full tiles with vector loads, the last one element by
 * element, padded with `pad`. Element (k, c) of work-item (warp w, lane l)
 * is tile element ((w * ITEMS_K + k) * W + l) * VEC + c: each load
 * instruction of a warp reads W * VEC consecutive elements. */
CLWARP_INLINE ulong tile_offset(uint k)
{
	uint lid = (uint)get_local_id(0);
	return ((ulong)((lid / CLWARP_WARP_SIZE) * ITEMS_K + k) * CLWARP_WARP_SIZE + lid % CLWARP_WARP_SIZE) * VEC;
}

CLWARP_INLINE void load_tile(global const T *in, ulong base, ulong n, T pad, T *a)
{
	if (base + TILE <= n) {
		global const T_VEC *v = (global const T_VEC *)(in + base);
		for (uint k = 0; k < ITEMS_K; k++) {
			T_VEC x = v[tile_offset(k) / VEC];
			VEC_SPLIT(a + k * VEC, x);
		}
	} else {
		for (uint k = 0; k < ITEMS_K; k++) {
			ulong o = base + tile_offset(k);
			for (uint c = 0; c < VEC; c++)
				a[k * VEC + c] = o + c < n ? in[o + c] : pad;
		}
	}
}

#ifdef INCLUSIVE
DEFINE_BLOCK_SCAN(block_scan, T, OP, ID, WARP_SCAN_EXCL, ITEMS_K, VEC)
DEFINE_LOOKBACK(lookback, T, OP, ID, WARP_REDUCE)

__kernel void clwarp_scan(global const T *in, global T *out, ulong n, uint tiles, uint epoch,
			  volatile global uint *counter, volatile global uint *flags,
			  volatile global T *values, local ulong *__clwarp_scratch)
{
	local T sm[WARPS];
	local T prefix_shared;
	local uint tile_shared;
	T a[ITEMS];

	uint tile = take_tile(counter, tiles, &tile_shared);
	ulong base = (ulong)tile * TILE;
	load_tile(in, base, n, (T)(ID), a);
	T aggregate = block_scan(a, INCLUSIVE, sm, CLWARP_WARP_ARG);
	T prefix = lookback(tile, aggregate, epoch, flags, values, values + tiles, &prefix_shared,
			    CLWARP_WARP_ARG);
	if (base + TILE <= n) {
		global T_VEC *v = (global T_VEC *)(out + base);
		for (uint k = 0; k < ITEMS_K; k++) {
			T r[VEC];
			for (uint c = 0; c < VEC; c++)
				r[c] = OP(prefix, a[k * VEC + c]);
			v[tile_offset(k) / VEC] = VEC_JOIN(r);
		}
	} else {
		for (uint k = 0; k < ITEMS_K; k++) {
			ulong o = base + tile_offset(k);
			for (uint c = 0; c < VEC; c++) {
				if (o + c < n)
					out[o + c] = OP(prefix, a[k * VEC + c]);
			}
		}
	}
}
#endif

#ifdef PRED_KIND
#define COUNT_ADD(a, b) ((a) + (b))
DEFINE_BLOCK_SCAN(block_count, uint, COUNT_ADD, 0u, warp_scan_exclusive_add, ITEMS_K, VEC)
DEFINE_LOOKBACK(lookback_count, uint, COUNT_ADD, 0u, warp_reduce_add)

/*
 * Compaction and partition. Each tile counts its selected elements,
 * ranks them with a block scan, and stages them in local memory in
 * order (the rejected ones after them, for partition); the look-back over
 * the counts gives the tile's output position, and the staged elements
 * go out with coalesced stores. Partition writes the rejected elements
 * from the end of `out` backwards (rejected element r at n - 1 - r);
 * clwarp_reverse_tail then puts them in order.
 */
__kernel void clwarp_select(global const T *in, global T *out, global uint *count, ulong n,
			    uint tiles, uint epoch, volatile global uint *counter,
			    volatile global uint *flags, volatile global uint *values, local ulong *__clwarp_scratch)
{
	local T stage[TILE];
	local uint sm[WARPS];
	local uint prefix_shared;
	local uint tile_shared;
	T a[ITEMS];
	uint rank[ITEMS];
	uint selected = 0;

	uint tile = take_tile(counter, tiles, &tile_shared);
	ulong base = (ulong)tile * TILE;
	load_tile(in, base, n, (T)0, a);
	for (uint k = 0; k < ITEMS_K; k++) {
		ulong o = base + tile_offset(k);
		for (uint c = 0; c < VEC; c++) {
			uint s = o + c < n && clwarp_pred(a[k * VEC + c]);
			rank[k * VEC + c] = s;
			selected |= s << (k * VEC + c);
		}
	}
	uint tile_count = block_count(rank, 0, sm, CLWARP_WARP_ARG);
	for (uint i = 0; i < ITEMS; i++) {
		uint pos = (uint)tile_offset(i / VEC) + i % VEC;
		if ((selected >> i) & 1u)
			stage[rank[i]] = a[i];
#if PRED_KIND == 2
		else if (base + pos < n)
			stage[tile_count + pos - rank[i]] = a[i];
#endif
	}
	uint before = lookback_count(tile, tile_count, epoch, flags, values, values + tiles,
				     &prefix_shared, CLWARP_WARP_ARG);
	/* lookback_count ends with a barrier: the stage is complete. */
	for (uint i = get_local_id(0); i < tile_count; i += WG)
		out[before + i] = stage[i];
#if PRED_KIND == 2
	ulong valid = n - base < TILE ? n - base : TILE;
	ulong rejected_before = base - before;
	for (uint i = tile_count + get_local_id(0); i < valid; i += WG)
		out[n - 1 - (rejected_before + (i - tile_count))] = stage[i];
#endif
	if (tile == tiles - 1 && get_local_id(0) == 0)
		count[0] = before + tile_count;
}

/* Partition, second step: reverse out[count[0] .. n). */
__kernel void clwarp_reverse_tail(global T *out, global const uint *count, ulong n, local ulong *__clwarp_scratch)
{
	ulong start = count[0];
	ulong swaps = (n - start) / 2;
	ulong i = get_global_id(0);
	if (i < swaps) {
		T x = out[start + i];
		out[start + i] = out[n - 1 - i];
		out[n - 1 - i] = x;
	}
}
#endif
