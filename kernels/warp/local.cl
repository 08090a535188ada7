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
