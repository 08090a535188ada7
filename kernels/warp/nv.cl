/* libclwarp nv backend: NVIDIA OpenCL (OpenCL C 1.2) with inline PTX.
 * Warps are the hardware's 32 lanes; CUDA numbers them by linear thread id,
 * which is the contract's linear local id. All asm uses the full member
 * mask: the contract has all lanes of a warp call together. */

#define CLWARP_WARP_PARAM int __clwarp_unused_ctx
#define CLWARP_WARP_ARG 0

CLWARP_INLINE uint warp_size(void) { return 32u; }
CLWARP_INLINE uint warp_lane_id(void)
{
	uint lane;
	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	return lane;
}
CLWARP_INLINE uint warp_id(void) { return clwarp_linear_local_id() / 32u; }
CLWARP_INLINE uint warp_count(void) { return (clwarp_linear_local_size() + 31u) / 32u; }

/* "memory" keeps the compiler from moving local accesses across it. */
CLWARP_INLINE void warp_barrier(void) { asm volatile("bar.warp.sync 0xffffffff;" ::: "memory"); }

/* 32-bit shfl. PTX uses only the low 5 bits of the lane/delta operand, so
 * callers handle deltas and masks >= 32 themselves. */
CLWARP_INLINE uint clwarp_nv_shfl_idx(uint v, uint src_lane)
{
	uint r;
	asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src_lane));
	return r;
}
CLWARP_INLINE uint clwarp_nv_shfl_down(uint v, uint delta)
{
	uint r;
	asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
	return r;
}
CLWARP_INLINE uint clwarp_nv_shfl_up(uint v, uint delta)
{
	uint r;
	asm volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
	return r;
}
CLWARP_INLINE uint clwarp_nv_shfl_bfly(uint v, uint mask)
{
	uint r;
	asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(mask));
	return r;
}

/* Raw shuffles per width: 64-bit values travel as two 32-bit halves. */
#define CLWARP_NV_RAW_32(MODE) \
	CLWARP_OVERLOAD uint clwarp_nv_raw_##MODE(uint v, uint arg) { return clwarp_nv_shfl_##MODE(v, arg); }
#define CLWARP_NV_RAW_64(MODE) \
	CLWARP_OVERLOAD ulong clwarp_nv_raw_##MODE(ulong v, uint arg) \
	{ \
		uint2 h = as_uint2(v); \
		h.x = clwarp_nv_shfl_##MODE(h.x, arg); \
		h.y = clwarp_nv_shfl_##MODE(h.y, arg); \
		return as_ulong(h); \
	}
#define CLWARP_NV_RAW(MODE) CLWARP_NV_RAW_32(MODE) CLWARP_NV_RAW_64(MODE)
CLWARP_NV_RAW(idx)
CLWARP_NV_RAW(down)
CLWARP_NV_RAW(up)
CLWARP_NV_RAW(bfly)

/* Butterfly min/max must give every lane the same bits whatever the
 * operand order. PTX min/max do: they ignore a NaN operand, and order
 * -0.0 < +0.0 in both operand orders (measured on an H100, driver 580:
 * max.f32(-0, +0) = max.f32(+0, -0) = +0, min gives -0; the same for f64).
 * One instruction, where a tie check before fmin/fmax cost 0.63 of CUDA's
 * fmaxf in a reduction chain. */
#define CLWARP_NV_FLOAT_MINMAX(T, PTX_TYPE, CONSTRAINT) \
	CLWARP_OVERLOAD T clwarp_nv_min(T a, T b) \
	{ \
		T r; \
		asm("min." PTX_TYPE " %0, %1, %2;" : "=" CONSTRAINT(r) : CONSTRAINT(a), CONSTRAINT(b)); \
		return r; \
	} \
	CLWARP_OVERLOAD T clwarp_nv_max(T a, T b) \
	{ \
		T r; \
		asm("max." PTX_TYPE " %0, %1, %2;" : "=" CONSTRAINT(r) : CONSTRAINT(a), CONSTRAINT(b)); \
		return r; \
	}
#define CLWARP_NV_INT_MINMAX(T) \
	CLWARP_OVERLOAD T clwarp_nv_min(T a, T b) { return min(a, b); } \
	CLWARP_OVERLOAD T clwarp_nv_max(T a, T b) { return max(a, b); }
CLWARP_NV_INT_MINMAX(int)
CLWARP_NV_INT_MINMAX(uint)
CLWARP_NV_INT_MINMAX(long)
CLWARP_NV_INT_MINMAX(ulong)
CLWARP_NV_FLOAT_MINMAX(float, "f32", "f")
CLWARP_IF_FP64(CLWARP_NV_FLOAT_MINMAX(double, "f64", "d"))

/* Reductions: xor butterfly, so every lane ends with the full result. Float
 * add is commutative, so partners compute identical sums. */
#define CLWARP_NV_BUTTERFLY(T, BITS, NAME, OP) \
	CLWARP_OVERLOAD T clwarp_nv_butterfly_##NAME(T v) \
	{ \
		for (uint mask = 16; mask > 0; mask >>= 1) \
			v = OP(v, CLWARP_FROM_BITS(T, clwarp_nv_raw_bfly(CLWARP_TO_BITS(BITS, v), mask))); \
		return v; \
	}

/* Scans: Kogge-Stone over shfl.up; lanes below the offset keep their value. */
#define CLWARP_NV_SCAN(T, BITS, NAME, OP, IDENTITY) \
	CLWARP_OVERLOAD T warp_scan_inclusive_##NAME(T v) \
	{ \
		uint lane = warp_lane_id(); \
		for (uint offset = 1; offset < 32; offset <<= 1) { \
			T t = CLWARP_FROM_BITS(T, clwarp_nv_raw_up(CLWARP_TO_BITS(BITS, v), offset)); \
			v = lane >= offset ? OP(t, v) : v; \
		} \
		return v; \
	} \
	CLWARP_OVERLOAD T warp_scan_exclusive_##NAME(T v) \
	{ \
		T inclusive = warp_scan_inclusive_##NAME(v); \
		T r = CLWARP_FROM_BITS(T, clwarp_nv_raw_up(CLWARP_TO_BITS(BITS, inclusive), 1u)); \
		return warp_lane_id() == 0 ? (T)(IDENTITY) : r; \
	}

#define CLWARP_NV_TYPE(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T warp_shuffle(T v, uint src_lane) \
	{ \
		return CLWARP_FROM_BITS(T, clwarp_nv_raw_idx(CLWARP_TO_BITS(BITS, v), src_lane)); \
	} \
	CLWARP_OVERLOAD T warp_broadcast(T v, uint src_lane) \
	{ \
		return CLWARP_FROM_BITS(T, clwarp_nv_raw_idx(CLWARP_TO_BITS(BITS, v), src_lane)); \
	} \
	CLWARP_OVERLOAD T warp_shuffle_down(T v, uint delta) \
	{ \
		T r = CLWARP_FROM_BITS(T, clwarp_nv_raw_down(CLWARP_TO_BITS(BITS, v), delta)); \
		return delta < 32u ? r : v; \
	} \
	CLWARP_OVERLOAD T warp_shuffle_up(T v, uint delta) \
	{ \
		T r = CLWARP_FROM_BITS(T, clwarp_nv_raw_up(CLWARP_TO_BITS(BITS, v), delta)); \
		return delta < 32u ? r : v; \
	} \
	CLWARP_OVERLOAD T warp_shuffle_xor(T v, uint mask) \
	{ \
		T r = CLWARP_FROM_BITS(T, clwarp_nv_raw_bfly(CLWARP_TO_BITS(BITS, v), mask)); \
		return mask < 32u ? r : v; \
	} \
	CLWARP_NV_BUTTERFLY(T, BITS, add, CLWARP_ADD) \
	CLWARP_NV_BUTTERFLY(T, BITS, min, clwarp_nv_min) \
	CLWARP_NV_BUTTERFLY(T, BITS, max, clwarp_nv_max) \
	CLWARP_NV_SCAN(T, BITS, add, CLWARP_ADD, 0) \
	CLWARP_NV_SCAN(T, BITS, min, clwarp_nv_min, MIN_ID) \
	CLWARP_NV_SCAN(T, BITS, max, clwarp_nv_max, MAX_ID)

CLWARP_TYPES(CLWARP_NV_TYPE)

/* Shuffles with a width, as CUDA does them: PTX's c operand makes the
 * segments (bits 12..8: 32 - width; bits 4..0: the clamp, 31 for idx, down
 * and bfly, 0 for up), so a lane whose source leaves its segment keeps its
 * own value in the shuffle itself. PTX reads only the low 5 bits of a delta
 * or mask, hence the checks against the width. */
CLWARP_INLINE uint clwarp_nv_segments(uint width, uint clamp)
{
	return ((32u - clwarp_width(width)) << 8) | clamp;
}
#define CLWARP_NV_SHFL_C(MODE) \
	CLWARP_OVERLOAD uint clwarp_nv_shfl_c_##MODE(uint v, uint arg, uint c) \
	{ \
		uint r; \
		asm volatile("shfl.sync." #MODE ".b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(r) : "r"(v), "r"(arg), "r"(c)); \
		return r; \
	} \
	CLWARP_OVERLOAD ulong clwarp_nv_shfl_c_##MODE(ulong v, uint arg, uint c) \
	{ \
		uint2 h = as_uint2(v); \
		h.x = clwarp_nv_shfl_c_##MODE(h.x, arg, c); \
		h.y = clwarp_nv_shfl_c_##MODE(h.y, arg, c); \
		return as_ulong(h); \
	}
CLWARP_NV_SHFL_C(idx)
CLWARP_NV_SHFL_C(down)
CLWARP_NV_SHFL_C(up)
CLWARP_NV_SHFL_C(bfly)

#define CLWARP_HAS_WIDTH_SHUFFLES 1
#define CLWARP_NV_WIDTH_TYPE(T, BITS, MIN_ID, MAX_ID, MIN_FN, MAX_FN) \
	CLWARP_OVERLOAD T warp_shuffle(T v, uint src_lane, uint width) CLWARP_WIDTH_CHECK \
	{ \
		return CLWARP_FROM_BITS(T, clwarp_nv_shfl_c_idx(CLWARP_TO_BITS(BITS, v), src_lane, \
			clwarp_nv_segments(width, 31u))); \
	} \
	CLWARP_OVERLOAD T warp_broadcast(T v, uint src_lane, uint width) CLWARP_WIDTH_CHECK \
	{ \
		return warp_shuffle(v, src_lane, width); \
	} \
	CLWARP_OVERLOAD T warp_shuffle_down(T v, uint delta, uint width) CLWARP_WIDTH_CHECK \
	{ \
		T r = CLWARP_FROM_BITS(T, clwarp_nv_shfl_c_down(CLWARP_TO_BITS(BITS, v), delta, \
			clwarp_nv_segments(width, 31u))); \
		return delta < 32u ? r : v; \
	} \
	CLWARP_OVERLOAD T warp_shuffle_up(T v, uint delta, uint width) CLWARP_WIDTH_CHECK \
	{ \
		T r = CLWARP_FROM_BITS(T, clwarp_nv_shfl_c_up(CLWARP_TO_BITS(BITS, v), delta, \
			clwarp_nv_segments(width, 0u))); \
		return delta < 32u ? r : v; \
	} \
	CLWARP_OVERLOAD T warp_shuffle_xor(T v, uint mask, uint width) CLWARP_WIDTH_CHECK \
	{ \
		T r = CLWARP_FROM_BITS(T, clwarp_nv_shfl_c_bfly(CLWARP_TO_BITS(BITS, v), mask, \
			clwarp_nv_segments(width, 31u))); \
		return mask < clwarp_width(width) ? r : v; \
	}
CLWARP_TYPES(CLWARP_NV_WIDTH_TYPE)

/* 32-bit integer reductions: one redux.sync on sm_80+. */
#if defined(CLWARP_NV_SM) && CLWARP_NV_SM >= 80
#define CLWARP_NV_REDUX(T, PTX_TYPE, NAME) \
	CLWARP_OVERLOAD T warp_reduce_##NAME(T v) \
	{ \
		T r; \
		asm volatile("redux.sync." #NAME "." PTX_TYPE " %0, %1, 0xffffffff;" : "=r"(r) : "r"(v)); \
		return r; \
	}
#else
#define CLWARP_NV_REDUX(T, PTX_TYPE, NAME) \
	CLWARP_OVERLOAD T warp_reduce_##NAME(T v) { return clwarp_nv_butterfly_##NAME(v); }
#endif
#define CLWARP_NV_REDUX_ALL(T, PTX_TYPE) \
	CLWARP_NV_REDUX(T, PTX_TYPE, add) \
	CLWARP_NV_REDUX(T, PTX_TYPE, min) \
	CLWARP_NV_REDUX(T, PTX_TYPE, max)
CLWARP_NV_REDUX_ALL(int, "s32")
CLWARP_NV_REDUX_ALL(uint, "u32")

/* and/or/xor of 32-bit values: redux.sync's .b32 forms (sm_80+), 2.5x the
 * butterfly, as CUDA's __reduce_xor_sync is. */
#if defined(CLWARP_NV_SM) && CLWARP_NV_SM >= 80
#define CLWARP_HAS_BITWISE_REDUCE_32 1
#define CLWARP_NV_REDUX_BITWISE(T) \
	CLWARP_NV_REDUX(T, "b32", and) \
	CLWARP_NV_REDUX(T, "b32", or) \
	CLWARP_NV_REDUX(T, "b32", xor)
CLWARP_NV_REDUX_BITWISE(int)
CLWARP_NV_REDUX_BITWISE(uint)
#endif

#define CLWARP_NV_REDUCE_BUTTERFLY(T) \
	CLWARP_OVERLOAD T warp_reduce_add(T v) { return clwarp_nv_butterfly_add(v); } \
	CLWARP_OVERLOAD T warp_reduce_min(T v) { return clwarp_nv_butterfly_min(v); } \
	CLWARP_OVERLOAD T warp_reduce_max(T v) { return clwarp_nv_butterfly_max(v); }
CLWARP_NV_REDUCE_BUTTERFLY(long)
CLWARP_NV_REDUCE_BUTTERFLY(ulong)
CLWARP_NV_REDUCE_BUTTERFLY(float)
CLWARP_IF_FP64(CLWARP_NV_REDUCE_BUTTERFLY(double))

/* Votes: the predicate goes through a PTX .pred register. */
CLWARP_OVERLOAD int warp_all(int pred)
{
	int r;
	asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\t"
		"vote.sync.all.pred q, p, 0xffffffff;\n\tselp.s32 %0, 1, 0, q;\n\t}"
		: "=r"(r) : "r"(pred));
	return r;
}
CLWARP_OVERLOAD int warp_any(int pred)
{
	int r;
	asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.s32 p, %1, 0;\n\t"
		"vote.sync.any.pred q, p, 0xffffffff;\n\tselp.s32 %0, 1, 0, q;\n\t}"
		: "=r"(r) : "r"(pred));
	return r;
}
CLWARP_OVERLOAD ulong warp_ballot(int pred)
{
	uint r;
	asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\t"
		"vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
		: "=r"(r) : "r"(pred));
	return r;
}

/* match.any.sync (sm_70+): the full-warp mask of the lanes holding the
 * caller's bits, for warp_match_any (generic.cl). */
#if defined(CLWARP_NV_SM) && CLWARP_NV_SM >= 70
#define CLWARP_HAS_MATCH_CORE 1
CLWARP_OVERLOAD ulong clwarp_match_bits(uint bits)
{
	uint r;
	asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(bits));
	return r;
}
CLWARP_OVERLOAD ulong clwarp_match_bits(ulong bits)
{
	uint r;
	asm volatile("match.any.sync.b64 %0, %1, 0xffffffff;" : "=r"(r) : "l"(bits));
	return r;
}

/* match.all.sync: whether every lane holds the caller's bits, for
 * warp_match_all without a width (generic.cl), as CUDA's __match_all_sync. */
#define CLWARP_HAS_MATCH_ALL_CORE 1
CLWARP_OVERLOAD int clwarp_match_all_bits(uint bits)
{
	int r;
	asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 m;\n\t"
		"match.all.sync.b32 m|p, %1, 0xffffffff;\n\tselp.s32 %0, 1, 0, p;\n\t}"
		: "=r"(r) : "r"(bits));
	return r;
}
CLWARP_OVERLOAD int clwarp_match_all_bits(ulong bits)
{
	int r;
	asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 m;\n\t"
		"match.all.sync.b64 m|p, %1, 0xffffffff;\n\tselp.s32 %0, 1, 0, p;\n\t}"
		: "=r"(r) : "l"(bits));
	return r;
}
#endif
